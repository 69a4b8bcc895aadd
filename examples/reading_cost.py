"""What reading the card game's table costs the hint and the review.

    python examples/reading_cost.py --games 2 --seed 7 --at 10,40,80,120 --depth full

Greedy duels dealt from seed + g. At each move number of `--at` (where the mover has a
choice) the hint is timed three ways: without the history (`hint:1s`, as before the
hint read), reading the history in a worker that has not read this game (`cold`: its
whole history is read first), and again right after (`warm`: the worker's reading is
cached and only what is new is read). Then each whole game is reviewed at `--depth`
with and without the history beside each move's view (`reviewdoc.moves` hands the
workers the view with it), timed, its flags counted; at the quick depth neither reads. One process, one core; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from euphrates.bots import inference
from euphrates.bots.judging import judge_for
from euphrates.bots.levels import make_bot
from euphrates.bots.review import DEPTHS, review_move
from euphrates.core.history import History, with_history, without_history
from euphrates.games import game_definition
from euphrates.match.records import GameRecord
from euphrates.match.reviewdoc import moves

CARDS = game_definition("cards")


def _timed(spec: str, seed: int, view: dict[str, Any]) -> float:
    start = time.perf_counter()
    make_bot(spec, seed, "cards").choose(CARDS, view)
    return round(time.perf_counter() - start, 2)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    at = {int(n) for n in args.at.split(",") if n}
    hints: list[dict[str, Any]] = []
    reviews: list[dict[str, Any]] = []
    for g in range(args.games):
        seed = args.seed + g
        state, history = CARDS.new_game(2, seed), History()
        bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
        actions: list[str] = []
        while not state.is_over():
            seat = state.to_move()
            view = state.view(seat)
            n = len(actions)
            if n in at and len(view["legal"]) > 1:
                read = with_history(view, history)
                inference._CACHE.clear()
                row = {"seed": seed, "move": n, "plain": _timed("hint:1s", n, view)}
                inference._CACHE.clear()
                row["cold"] = _timed("hint:1s:read", n, read)
                row["warm"] = _timed("hint:1s:read", n + 1, read)
                hints.append(row)
                print(json.dumps(row), flush=True)
            actions.append(bots[seat].choose(CARDS, view))
            history.play(state, actions[-1])
        record = GameRecord("cards", 2, seed, {}, ["A", "B"], actions)
        row = {"seed": seed, "moves": len(actions)}
        for name, reads in (("uniform", False), ("read", True)):
            inference._CACHE.clear()
            start = time.perf_counter()
            flagged = 0
            for i, _seat, view, text in moves(record):
                shown = view if reads else without_history(view)
                judged = review_move(
                    "cards", shown, text, i, judge_for("cards"), DEPTHS[args.depth]
                )
                flagged += judged["best"] is not None
            row[f"{name}_seconds"] = round(time.perf_counter() - start, 1)
            row[f"{name}_flagged"] = flagged
        reviews.append(row)
        print(json.dumps(row), flush=True)
    return {"depth": args.depth, "hints": hints, "reviews": reviews}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--at", default="10,40,80,120", help="move numbers to time a hint at")
    parser.add_argument("--depth", choices=["full", "quick"], default="full")
    print(json.dumps(measure(parser.parse_args())))


if __name__ == "__main__":
    main()
