"""How close the card game's imagined hands come to the true ones, read four ways.

    python examples/hand_inference.py --games 60 --seed 4100 --every 2 --particles 48

Greedy bots play two-player card games (seeded). At every few decisions that follow a
run of the other player's decisions, the mover's view is read four ways and the hands
it imagines for the other player are compared with the true hand: the mean number of
cards that differ (`l1`, the sum over colours of the counts' differences) and the mean
error in red cards alone (`red`), since red is what revolts are fought with (C-10):

- `uniform`: the view with its declined counts zeroed; the unseen cards dealt at random.
- `declines`: the view as it ships: cards held since a declined point get none of its
  colour (docs/cards.md, *What a declined point tells*).
- `commits`: as `declines`, and a conflict's attacker, who commits first (C-10, C-12),
  is taken to have committed every card of the colour it held (`declined` set then).
- `last_turn`: as `declines`, but the states are imagined from the view before the
  other player's last run of decisions, that run is replayed in each (the mover's own
  hand kept true, public bridges agreeing), and each state is weighted by how likely
  the greedy bot holding its hand was to choose as the other player did (a softmax of
  the greedy bot's judgement, temperature `--tau`).

A measuring stick, not a bot: it reads the true hands to score the guesses. The last
line is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from euphrates.bots import GreedyBot
from euphrates.bots.evaluation import evaluator_for
from euphrates.bots.greedy import judge
from euphrates.bots.imagined import hand_to
from euphrates.cards.kinds import COMMIT
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.play import play_game

CARDS = game_definition("cards")
EVALUATOR = evaluator_for("cards")


# Give `seat` the hand `want` by exchanges with the deck and the removed cards (False
# where they lack a card it needs): the shipped reading's own step.
keep_hand = hand_to


def log_likelihood(state: Any, action: str, seat: int, tau: float) -> float:
    legal = state.legal_actions()
    if len(legal) == 1:
        return 0.0
    values = {str(a): judge(state, a, seat, EVALUATOR) for a in legal}
    top = max(values.values())
    total = sum(math.exp((v - top) / tau) for v in values.values())
    return (values[action] - top) / tau - math.log(total)


def last_turn(
    states: list[Any], actions: list[str], start: int, now: int, n: int, tau: float, rng: Rng
) -> list[tuple[float, list[int]]]:
    """The other player's hand in `n` states imagined before its last run of decisions,
    each with its weight after that run."""
    me = states[now].to_move()
    other = 1 - me
    view = states[start].view(me)
    out = []
    for _ in range(n):
        state = CARDS.sample_from_view(view, rng.fork())
        weight = 0.0
        for t in range(start, now):
            if actions[t] not in state.legal_texts():
                break
            if state.to_move() == other:
                weight += log_likelihood(state, actions[t], other, tau)
            state.apply(actions[t])
            truth = states[t + 1]
            if not keep_hand(state, me, truth.hands[me], rng):
                break
            shown = [g for g in range(len(truth.gaps)) if g != truth.down or truth.active == me]
            if any(state.gaps[g] != truth.gaps[g] for g in shown):
                break
        else:
            out.append((weight, list(state.hands[other])))
    return out


def errors(hands: list[tuple[float, list[int]]], truth: list[int]) -> tuple[float, float]:
    """Weighted mean differing cards and red error (weights as log-likelihoods)."""
    top = max(w for w, _ in hands)
    ws = [math.exp(w - top) for w, _ in hands]
    total = sum(ws)
    l1 = sum(
        w * sum(abs(a - b) for a, b in zip(h, truth, strict=True))
        for w, (_, h) in zip(ws, hands, strict=True)
    )
    red = sum(w * abs(h[0] - truth[0]) for w, (_, h) in zip(ws, hands, strict=True))
    return l1 / total, red / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=4100, help="game g is dealt from seed + g")
    parser.add_argument("--every", type=int, default=2, help="read every n-th such decision")
    parser.add_argument("--particles", type=int, default=48, help="states imagined a reading")
    parser.add_argument("--tau", type=float, default=0.01, help="the likelihood's temperature")
    args = parser.parse_args()
    rng = Rng(args.seed)
    found: dict[str, list[tuple[float, float]]] = {
        k: [] for k in ("uniform", "declines", "commits", "last_turn")
    }
    lost = commits = committed_all = 0
    start_time = time.monotonic()
    for g in range(args.games):
        seed = args.seed + g
        bots = [GreedyBot(seed * 2 + i) for i in range(2)]
        actions = list(play_game("cards", bots, seed).record.actions)
        states: list[Any] = []
        told: list[Any] = []  # with the attackers' commits read as well
        state, shadow = CARDS.new_game(2, seed), CARDS.new_game(2, seed)
        for action in actions:
            states.append(state.copy())
            told.append(shadow.copy())
            attacker = shadow.seat if shadow.kind == COMMIT and shadow.att_commit < 0 else None
            if attacker is not None:
                commits += 1
                held = shadow.hands[attacker][shadow.colour]
                committed_all += action == f"commit {held}"
            state.apply(action)
            shadow.apply(action)
            if attacker is not None:
                shadow.declined[attacker][shadow.colour] = sum(shadow.hands[attacker])
        seen = 0
        for now in range(1, len(states)):
            d = states[now].decision()
            me = d.seat
            if d.kind != "action" or states[now - 1].to_move() == me:
                continue
            seen += 1
            if seen % args.every:
                continue
            other = 1 - me
            truth = list(states[now].hands[other])
            start = now
            while start > 0 and states[start - 1].to_move() == other:
                start -= 1
            uniform = states[now].view(me)
            uniform["declined"] = [dict.fromkeys("rbgk", 0) for _ in range(2)]
            views = {
                "declines": states[now].view(me),
                "commits": told[now].view(me),
                "uniform": uniform,
            }
            for name, view in views.items():
                hands = [
                    (0.0, CARDS.sample_from_view(view, rng.fork()).hands[other])
                    for _ in range(args.particles)
                ]
                found[name].append(errors(hands, truth))
            weighted = last_turn(states, actions, start, now, args.particles, args.tau, rng)
            if weighted:
                found["last_turn"].append(errors(weighted, truth))
            else:
                lost += 1
                found["last_turn"].append(found["declines"][-1])
        print(f"game {g}: {seen // args.every} readings", flush=True)
    summary: dict[str, Any] = {
        "games": args.games,
        "seed": args.seed,
        "readings": len(found["declines"]),
        "particles": args.particles,
        "tau": args.tau,
    }
    for name, pairs in found.items():
        summary[name] = {
            "l1": round(statistics.mean(p[0] for p in pairs), 4),
            "red": round(statistics.mean(p[1] for p in pairs), 4),
        }
    summary["last_turn_all_impossible"] = lost
    summary["attackers_commits"] = commits
    summary["attackers_committing_all_they_held"] = committed_all
    summary["seconds"] = round(time.monotonic() - start_time, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
