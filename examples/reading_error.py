"""How close the shipped reading of the table (bots.inference, `rollout:Ni:read`) comes
to the other player's true hand, against dealing the unseen cards at random.

    python examples/reading_error.py --games 40 --seed 4100 --particles 16
    python examples/reading_error.py --game board --games 12 --every 2 --particles 16

Two bots of `--players` (greedy by default) play duels of `--game` (the card game by
default, or the board: the hidden hands are tiles) dealt from seed + g; in game
g the reader sits in seat g mod 2. At each of its decisions that follows a run of the
other player's, its view and public history (core.history, what a host hands the bot)
are read as the search reads them (`inference.read`; with `--readers`, by each of
several models of the other player on the same decisions), and as many hands are dealt
at random from the view (`uniform`). Both guesses are scored against the true hand: the
error of the expected red count (`red`), of the expected count of each colour summed
(`colours`), and the expected number of cards that differ (`l1`); and how sure each
guess is: the weight of its likeliest hand (`top`) and the weight it gives the true
hand (`p_truth`), means over the readings. `no_reading` counts
the readings that fell back to random deals (no imagined game agreed with the view).

The reading sees the view and the history only; this script reads the true hands to
score it. The last line is JSON.

`--fit` instead reports, for each temperature of a grid, the mean log-likelihood of the
players' own choices (`--bot`) under the reading's model, the greedy judgement's softmax
(`policy.greedy_values`), judged on the true state: the temperature the players' play
is best described by.

    python examples/reading_error.py --game board --fit --games 6 --every 3
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from history_inference import scores

from euphrates.bots import inference, policy
from euphrates.bots.levels import make_bot
from euphrates.bots.policy import PolicyModel, greedy_values
from euphrates.core.history import History, with_history
from euphrates.core.rng import Rng
from euphrates.games import game_definition


def _sureness(hands: list[tuple[float, list[int]]], truth: list[int]) -> dict[str, float]:
    """The errors (`scores`), and how sure the guess is: the weight of its likeliest
    hand (`top`) and the weight it gives the true hand (`p_truth`). A reading whose
    top is high and p_truth low is sure of a wrong hand, which the errors of the
    expected counts do not show."""
    by_hand: dict[tuple[int, ...], float] = {}
    for w, hand in hands:
        by_hand[tuple(hand)] = by_hand.get(tuple(hand), 0.0) + w
    return {
        **scores(hands, truth),
        "top": max(by_hand.values()),
        "p_truth": by_hand.get(tuple(truth), 0.0),
    }


TAUS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)


def fit(args: argparse.Namespace) -> dict[str, Any]:
    """The mean log-likelihood of the players' own choices, true state, per tau."""
    game = game_definition(args.game)
    sums = dict.fromkeys(TAUS, 0.0)
    n = 0
    for g in range(args.games):
        seed = args.seed + g
        state = game.new_game(2, seed)
        bots = [make_bot(args.bot, seed * 2 + i, game.name) for i in range(2)]
        t = 0
        while not state.is_over():
            seat = state.to_move()
            action = bots[seat].choose(game, state.view(seat))
            if len(state.legal_actions()) > 1 and t % args.every == 0:
                values = greedy_values(state, seat, game.name)
                top = max(values.values())
                for tau in TAUS:
                    total = math.log(sum(math.exp((v - top) / tau) for v in values.values()))
                    sums[tau] += (values[action] - top) / tau - total if action in values else -50
                n += 1
            t += 1
            state.apply(state.parse_action(action))
        print(f"game {g}: {n} decisions so far", flush=True)
    return {
        "decisions": n,
        "mean_log_likelihood": {str(t): round(s / max(n, 1), 4) for t, s in sums.items()},
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    game = game_definition(args.game)
    readers = _readers(args)
    found: dict[str, list[dict[str, float]]] = {"uniform": [], **{r: [] for r in readers}}
    missing = {r: 0 for r in readers}
    seconds = {r: 0.0 for r in readers}
    rng = Rng(args.seed)
    for g in range(args.games):
        seed = args.seed + g
        me, other = g % 2, 1 - g % 2
        state, history = game.new_game(2, seed), History()
        bots = [make_bot(args.bot, seed * 2 + i, game.name) for i in range(2)]
        inference._CACHE.clear()  # each game read from its deal, as a new worker would
        before = None
        readings = 0
        while not state.is_over():
            seat = state.to_move()
            view = state.view(seat)
            if seat == me and before == other and state.decision().kind == "action":
                readings += 1
                if readings % args.every == 0:
                    truth = list(state.hands[other])
                    n = args.particles
                    dealt = [game.sample_from_view(view, rng.fork()) for _ in range(n)]
                    uniform = [(1.0 / n, list(s.hands[other])) for s in dealt]
                    found["uniform"].append(_sureness(uniform, truth))
                    for name, (tau, model) in readers.items():
                        started = time.perf_counter()
                        shown = with_history(view, history)
                        reading = inference.read(game, shown, n, tau, model)
                        seconds[name] += time.perf_counter() - started
                        if reading is None:
                            missing[name] += 1
                            found[name].append(found["uniform"][-1])
                        else:
                            found[name].append(_sureness(reading.hands(other), truth))
            history.play(state, bots[seat].choose(game, view))
            before = seat
        print(f"game {g}: seat {me}, {readings // args.every} readings", flush=True)
    out: dict[str, Any] = {"readings": len(found["uniform"])}
    for name, rows in found.items():
        out[name] = {k: round(statistics.mean(r[k] for r in rows), 4) for k in rows[0]}
        if name in readers:
            out[name]["no_reading"] = missing[name]
            out[name]["seconds_per_game"] = round(seconds[name] / max(args.games, 1), 2)
    return out


def _readers(args: argparse.Namespace) -> dict[str, tuple[float, PolicyModel | None]]:
    """The readings compared: `--tau` alone (named `reading`), or each of `--readers`:
    `tau:T` (the greedy softmax at T), `policy` (the shipped model) or `policy:FILE`."""
    if not args.readers:
        return {"reading": (args.tau, None)}
    readers: dict[str, tuple[float, PolicyModel | None]] = {}
    for name in args.readers.split(","):
        kind, _, arg = name.partition(":")
        if kind == "tau":
            readers[name] = (float(arg), None)
        elif kind == "policy" and args.game == "cards":
            model = (
                policy.shipped()
                if not arg
                else policy.from_json(json.loads(Path(arg).read_text("utf-8")))
            )
            readers[name] = (args.tau, model)
        else:
            raise SystemExit(
                f"--readers: tau:T, policy or policy:FILE (the card game's), not {name!r}"
            )
    return readers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("cards", "board"), default="cards")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=4100, help="game g is dealt from seed + g")
    parser.add_argument("--every", type=int, default=1, help="read every n-th such decision")
    parser.add_argument("--particles", type=int, default=inference.PARTICLES)
    parser.add_argument("--tau", type=float, default=inference.TAU)
    parser.add_argument("--bot", default="greedy", help="the players (a bot spec)")
    parser.add_argument(
        "--readers", help="readings compared on the same decisions: tau:T, policy, policy:FILE"
    )
    parser.add_argument("--fit", action="store_true", help="fit the temperature instead")
    args = parser.parse_args()
    started = time.monotonic()
    summary: dict[str, Any] = {
        "game": args.game,
        "games": args.games,
        "seed": args.seed,
        "particles": args.particles,
        "tau": args.tau,
        "readers": args.readers,
        "bot": args.bot,
    }
    summary.update(fit(args) if args.fit else measure(args))
    summary["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
