"""The card game's evaluation constants, each measured by the games it wins.

    python examples/evaluation_constants.py SHIP_HOPE=0.8 --seeds 200
    python examples/evaluation_constants.py SHIP_HOPE=1.0 --search 32 --games 60

Without `--search`: duplicate duels of the greedy bot judging with the constants given
(set on `euphrates.bots.cards_eval` for its decisions only) against the greedy bot as it
ships; seed `base + i` is played twice, the changed bot in seat 0, then in seat 1, so
both meet the same deals. With `--search N`: the rollout search at N rollouts a decision,
judging with the constants given (its candidates, every player in its rollouts and
their ends), against the greedy bot as it ships, game g from seed `base + g`, the search
in seat g mod 2; with no constant, the search as it ships. A constant is `NAME=value`, a
tuple `NAME=a,b,c`.

The score counts a shared first place as a share. Each game is a line of `--out` if
given (so a run can be split over processes and joined); the last line printed is
JSON: games, the changed bot's score and its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import euphrates.bots.cards_eval as cards_eval
from euphrates.bots import GreedyBot
from euphrates.bots.base import Bot
from euphrates.bots.rollout import RolloutBot
from euphrates.core.protocol import GameDefinition, View
from euphrates.match.play import play_game
from euphrates.match.selfplay import win_shares


def constants(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, _, text = item.partition("=")
        if not hasattr(cards_eval, name) or not text:
            raise SystemExit(f"{item}: not NAME=value of a constant of bots/cards_eval.py")
        values = tuple(float(v) for v in text.split(","))
        out[name] = values if "," in text else values[0]
    return out


class Judging:
    """A bot that judges with other constants while it decides (a wrapper, since the
    compiled bots cannot be subclassed from interpreted code)."""

    def __init__(self, bot: Bot, changed: dict[str, Any]) -> None:
        self.bot = bot
        self.changed = changed

    def describe(self) -> str:
        return f"{self.bot.describe()} with {self.changed}"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        saved = {name: getattr(cards_eval, name) for name in self.changed}
        for name, value in self.changed.items():
            setattr(cards_eval, name, value)
        try:
            return self.bot.choose(game, view)
        finally:
            for name, value in saved.items():
                setattr(cards_eval, name, value)


def share(bots: list[Any], seed: int, seat: int) -> float:
    return win_shares(play_game("cards", bots, seed=seed).state.outcome().places)[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("constants", nargs="*", help="NAME=value")
    parser.add_argument("--seeds", type=int, default=200, help="greedy duels: seeds, 2 games each")
    parser.add_argument("--search", type=int, default=0, help="rollouts a decision")
    parser.add_argument("--games", type=int, default=60, help="search games")
    parser.add_argument("--first", type=int, default=0, help="search games: the first g")
    parser.add_argument("--base", type=int, default=0, help="base seed")
    parser.add_argument("--out", help="a line per game appended here")
    args = parser.parse_args()
    changed = constants(args.constants)
    start = time.time()
    scores: list[float] = []

    def record(game: int, seat: int, score: float) -> None:
        scores.append(score)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps({"game": game, "seat": seat, "score": score}) + "\n")

    if args.search:
        for g in range(args.first, args.first + args.games):
            seed, me = args.base + g, g % 2
            bots: list[Any] = [GreedyBot(seed * 2), GreedyBot(seed * 2 + 1)]
            bots[me] = Judging(RolloutBot(seed * 2 + me, iterations=args.search), changed)
            record(g, me, share(bots, seed, me))
    else:
        for i in range(args.seeds):
            seed = args.base + i
            for me in (0, 1):
                bots = [GreedyBot(seed * 2), GreedyBot(seed * 2 + 1)]
                bots[me] = Judging(GreedyBot(seed * 2 + me), changed)
                record(2 * i + me, me, share(bots, seed, me))
    n = len(scores)
    mean = sum(scores) / n
    print(
        json.dumps(
            {
                "constants": changed,
                "search": args.search,
                "games": n,
                "score": round(mean, 4),
                "standard_error": round(math.sqrt(mean * (1 - mean) / n), 4),
                "seconds": round(time.time() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
