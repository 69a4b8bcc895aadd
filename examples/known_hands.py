"""How far knowing the hidden cards or tiles would take a search against the greedy bot.

    python examples/known_hands.py --games 40 --seed 9000 --rollouts 32 [--know hands|red|none]
    python examples/known_hands.py --game board --games 20 --seed 9000 --know hands

Seat `g % 2` of game g is the search (the card game's rollouts, `bots/rollout.py`, or
`--search SPEC`; on the board `mcts:2000i`), handed each time it decides the true
state in place of the states it would imagine from its view: with `--know all` (the
default) the other hand, a face-down bridge's colour, the deck's order and the cards
removed; with `--know hands` the hand and the bridge only, the deck and the removed
cards shuffled together anew for each imagined state (no reading of the opponent could
tell the deck's order; on the board: the other player's tiles and swap discards, the
bag shuffled); with `--know red` how many red cards the other hand holds and the
bridge, the hand's other cards dealt anew from the unseen cards that are not red; with
`--know none` nothing, the search as it ships, on the same deals (a search that reads
the table, `--search mcts:2000i:read`, is handed its seat's public history beside the
view, as a host hands it: what a reading gives back of the gap). The other seat is the
greedy bot, which decides from its view as always. This is a measuring stick, not a
bot: it reads the state, which no bot of the package ever sees. The hidden
information's share of what the search fails to win is what better-imagined hands
could at most give back.
Prints one line per game and, last, a line of JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from euphrates.bots import GreedyBot
from euphrates.bots.levels import make_bot
from euphrates.core.history import History, with_history
from euphrates.core.protocol import GameState, View
from euphrates.core.rng import Rng
from euphrates.games import game_definition


def deal_back(state: Any, pool: list[int]) -> None:
    """The card game's removed cards and deck dealt from `pool` in its order (the
    removed cards as many as before), the state's cached legal actions dropped."""
    n_removed = len(state.removed)
    state.removed, state.deck = pool[:n_removed], pool[n_removed:]
    state._cache_v = state._legal_v = -1


class KnownHands:
    """The game's definition, except that while `on` the search's imagined state is
    a copy of `state`, and re-dealing it changes nothing (`know` "all"), shuffles only
    the deck with the removed cards ("hands"), or deals the other hand's cards that are
    not red anew as well ("red", for the imagined state too)."""

    def __init__(self, know: str = "all", game: str = "cards") -> None:
        self.definition = game_definition(game)
        self.state: GameState[Any] | None = None
        self.on = False
        honest_sample = self.definition.sample_from_view
        state_class = type(self.definition.new_game(2, 0))
        honest_redeal = state_class.redeal

        def sample_from_view(view: View, rng: Rng) -> GameState[Any]:
            if self.on and self.state is not None:
                state = self.state.copy()
                if know == "red":
                    redeal(state, view["viewer"], rng)
                return state
            return honest_sample(view, rng)

        def redeal(state: Any, seat: int | None, rng: Rng) -> None:
            if not self.on:
                honest_redeal(state, seat, rng)
            elif know == "red":
                # The other hand's red count kept, its other cards dealt anew from the
                # unseen cards that are not red; deck and removed cards from the rest.
                other = 1 - seat if seat is not None else 0
                hand = state.hands[other]
                pool = list(state.deck) + list(state.removed)
                for c in range(1, 4):
                    pool.extend([c] * hand[c])
                rng.shuffle(pool)
                need = hand[1] + hand[2] + hand[3]
                fresh = [hand[0], 0, 0, 0]
                rest: list[int] = []
                for card in pool:
                    if need and card != 0:
                        fresh[card] += 1
                        need -= 1
                    else:
                        rest.append(card)
                state.hands[other] = fresh
                deal_back(state, rest)
            elif know == "hands" and game == "board":
                state.bag = list(state.bag)
                rng.shuffle(state.bag)
            elif know == "hands":
                pool = list(state.deck) + list(state.removed)
                rng.shuffle(pool)
                deal_back(state, pool)

        self.definition.sample_from_view = sample_from_view  # type: ignore[method-assign]
        state_class.redeal = redeal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=9000, help="game g is dealt from seed + g")
    parser.add_argument("--rollouts", type=int, default=32, help="the search's budget a decision")
    parser.add_argument("--know", choices=["all", "hands", "red", "none"], default="all")
    parser.add_argument("--game", choices=["cards", "board"], default="cards")
    parser.add_argument(
        "--read-share",
        type=float,
        help="a reading tree search's share of states drawn from the reading (MctsBot)",
    )
    parser.add_argument(
        "--search",
        help="the search's spec (default: rollout:Ni for cards, mcts:2000i for the board)",
    )
    args = parser.parse_args()
    if args.game == "board" and args.know == "red":
        parser.error("--know red is for the card game")
    known = KnownHands(args.know, args.game)
    spec = args.search or (f"rollout:{args.rollouts}i" if args.game == "cards" else "mcts:2000i")
    definition = known.definition
    wins = 0.0
    start = time.monotonic()
    for g in range(args.games):
        state = definition.new_game(2, args.seed + g)
        searcher = g % 2
        bots: dict[int, Any] = {
            searcher: make_bot(spec, args.seed + g),
            1 - searcher: GreedyBot(args.seed + g + 7),
        }
        if args.read_share is not None:
            bots[searcher].read_share = args.read_share
        history = History()
        while not state.is_over():
            seat = state.to_move()
            known.state, known.on = state, seat == searcher and args.know != "none"
            view = state.view(seat)
            if bots[seat].reads_history:
                view = with_history(view, history)
            history.play(state, bots[seat].choose(definition, view), seat)
        known.on = False
        outcome = state.outcome()
        assert outcome is not None
        share = 1 / len(outcome.winners) if searcher in outcome.winners else 0.0
        wins += share
        print(f"game {g}: search in seat {searcher}, winners {list(outcome.winners)}", flush=True)
    print(
        json.dumps(
            {
                "games": args.games,
                "seed": args.seed,
                "game": args.game,
                "search": spec,
                "know": args.know,
                "read_share": args.read_share,
                "search_wins": wins,
                "win_rate": round(wins / max(args.games, 1), 4),
                "seconds": round(time.monotonic() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
