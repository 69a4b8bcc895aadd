"""Engine speed as a ratio to python-chess, the yardstick a reader can run anywhere.

Absolute figures depend on the machine and on whatever else it runs; a ratio to a
well-known engine measured in the same process, in interleaved rounds, cancels most of
that. Random play as in `bench.run_bench`: the board game in complete games a second
(against python-chess's random games a second), the card game in decisions a second
(against python-chess's moves a second), as the issue that set the targets counted them.

    python -m euphrates.match.versus_chess --rounds 5

python-chess is a test dependency (`pip install chess`), not one of the package's."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from euphrates.match.bench import run_bench

TARGETS = {"board_4p": 6.0, "board_2p": 5.0, "cards": 12.0}
"""What a compiled build is to reach (ratios to python-chess)."""


def compiled() -> bool:
    """Whether the engines' rule modules are the mypyc-compiled ones."""
    from euphrates.board import legal

    return not str(legal.__file__).endswith(".py")


def chess_round(games: int, seed: int) -> tuple[float, int, float]:
    """Random games of chess: (games, moves, seconds)."""
    import chess

    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
    return games, moves, time.perf_counter() - start


def measure(rounds: int, chess_games: int, games: int, seed: int) -> dict[str, Any]:
    totals: dict[str, list[float]] = {
        k: [0.0, 0.0, 0.0] for k in ("chess", "board_4p", "board_2p", "cards")
    }
    for r in range(rounds):
        g, m, s = chess_round(chess_games, seed + r)
        totals["chess"] = [a + b for a, b in zip(totals["chess"], (g, m, s), strict=True)]
        for key, game, players in (
            ("board_4p", "board", 4),
            ("board_2p", "board", 2),
            ("cards", "cards", 4),
        ):
            out = run_bench(game, players, games, seed + 1000 * r)
            done = (out["games"], out["decisions_per_s"] * out["seconds"], out["seconds"])
            totals[key] = [a + b for a, b in zip(totals[key], done, strict=True)]
    chess_games_s = totals["chess"][0] / totals["chess"][2]
    chess_moves_s = totals["chess"][1] / totals["chess"][2]
    board4 = totals["board_4p"][0] / totals["board_4p"][2]
    board2 = totals["board_2p"][0] / totals["board_2p"][2]
    cards = totals["cards"][1] / totals["cards"][2]
    ratios = {
        "board_4p": round(board4 / chess_games_s, 2),
        "board_2p": round(board2 / chess_games_s, 2),
        "cards": round(cards / chess_moves_s, 2),
    }
    return {
        "compiled": compiled(),
        "rounds": rounds,
        "chess_games_per_s": round(chess_games_s, 2),
        "chess_moves_per_s": round(chess_moves_s),
        "board_4p_games_per_s": round(board4, 1),
        "board_2p_games_per_s": round(board2, 1),
        "cards_decisions_per_s": round(cards),
        "ratios": ratios,
        "targets": TARGETS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m euphrates.match.versus_chess", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rounds", type=int, default=5, choices=range(1, 101), metavar="1..100")
    parser.add_argument("--chess-games", type=int, default=20, choices=range(1, 10001), metavar="N")
    parser.add_argument("--games", type=int, default=20, choices=range(1, 10001), metavar="N")
    parser.add_argument("--seed", type=int, default=1, choices=range(0, 2**31), metavar="SEED")
    args = parser.parse_args(argv)
    try:
        import chess  # noqa: F401
    except ImportError:
        print("python-chess is needed for this comparison: pip install chess", file=sys.stderr)
        return 2
    out = measure(args.rounds, args.chess_games, args.games, args.seed)
    for key, ratio in out["ratios"].items():
        print(f"{key:9} {ratio:6.2f} × python-chess (target {TARGETS[key]:g} ×)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
