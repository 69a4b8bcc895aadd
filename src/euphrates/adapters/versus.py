"""The adapters' speed as ratios to the frameworks' own chess, which a reader can run
anywhere, and the compiled build's gain through them.

    python -m euphrates.adapters.versus [--rounds 3] [--games 6] [--compiled DIR]

Random play, decisions per second of CPU time, in interleaved rounds in one process so
that the machine's state cancels out of each ratio:

* `openspiel`: Tigris & Euphrates for 2 players through `pyspiel`'s API
  (`legal_actions`, `chance_outcomes`, `apply_action`), against OpenSpiel's C++ chess
  through the same API (`chess`), and OpenSpiel's own Python tic-tac-toe
  (`python_tic_tac_toe`): a Python game with next to no rules, so the most any Python
  game can reach through OpenSpiel's bridge to Python;
* `pettingzoo`: the board game's AEC environment for 2 players, an observation and its
  mask each step, against PettingZoo's `chess_v6` driven the same way (it needs
  python-chess and pygame; without them that ratio reads null).

With `--compiled DIR` (a folder holding a compiled `euphrates` package, such as an
unpacked wheel), both adapter paths run again in child processes, on that build and on
this one's source, alternately, for compiled ÷ pure.

The targets are the research issue's; the last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from euphrates.adapters.bench import spiel_random_game, zoo_random_game

TARGETS = {"openspiel_vs_chess": 0.25, "pettingzoo_vs_chess_v6": 5.0, "compiled_vs_pure": 1.7}

Play = Callable[[int], int]
"""One whole game from a seed: the decisions played."""


def spiel(name: str, params: dict[str, Any] | None = None) -> Play:
    """Random play of an OpenSpiel game through pyspiel's API, chance by its odds."""
    import open_spiel.python.games.tic_tac_toe  # noqa: F401 - registers python_tic_tac_toe
    import pyspiel

    import euphrates.adapters.openspiel  # noqa: F401 - registers the two games

    game = pyspiel.load_game(name, params or {})
    return lambda seed: spiel_random_game(game, seed)


def zoo(make: Callable[[], Any]) -> Play:
    """Random play of a PettingZoo AEC environment by its action mask."""
    return lambda seed: zoo_random_game(make(), seed)


OURS = ("openspiel", "pettingzoo")
"""Our paths: whole games a round, however long they take."""


def ours() -> dict[str, Play]:
    from euphrates.adapters.openspiel import BOARD_NAME
    from euphrates.adapters.pettingzoo import raw_env

    return {
        "openspiel": spiel(BOARD_NAME, {"players": 2}),
        "pettingzoo": zoo(lambda: raw_env(game="board", players=2)),
    }


def references() -> dict[str, Play | None]:
    out: dict[str, Play | None] = {
        "chess": spiel("chess"),
        "python_tic_tac_toe": spiel("python_tic_tac_toe"),
    }
    try:
        from pettingzoo.classic import chess_v6
    except ImportError:  # python-chess or pygame missing
        out["chess_v6"] = None
    else:
        out["chess_v6"] = zoo(chess_v6.env)
    return out


def timed(play: Play, games: int, seed: int, least: float = 0.0) -> tuple[int, float]:
    """(decisions, CPU seconds) over `games` games, more until `least` seconds passed
    (chess and tic-tac-toe games are short: a round of them would be noise)."""
    n, start, g = 0, time.process_time(), 0
    while g < games or time.process_time() - start < least:
        n += play(seed + g)
        g += 1
    return n, time.process_time() - start


def compiled() -> bool:
    """Whether this process runs the mypyc-compiled engines and adapters."""
    from euphrates.adapters import tables
    from euphrates.board import legal

    return not (legal.__file__ or "").endswith(".py") and not (tables.__file__ or "").endswith(
        ".py"
    )


def rate(totals: dict[str, list[float]], key: str) -> float | None:
    n, s = totals.get(key, [0.0, 0.0])
    return None if s <= 0 else n / s


def totals_of(
    plays: dict[str, Play | None], rounds: int, games: int, seed: int, least: float = 0.0
) -> dict[str, list[float]]:
    """[decisions, CPU seconds] of each path, its rounds interleaved with the others';
    the yardsticks' (not in `OURS`: quick games) run `least` seconds a round at least.
    A path that is None (not installed) is left out."""
    totals: dict[str, list[float]] = {}
    for r in range(rounds):
        for key, play in plays.items():
            if play is None:
                continue
            n, s = timed(play, games, seed + 1000 * r, least=0.0 if key in OURS else least)
            got = totals.setdefault(key, [0.0, 0.0])
            got[0] += n
            got[1] += s
    return totals


def measure(rounds: int, games: int, seed: int) -> dict[str, Any]:
    plays: dict[str, Play | None] = {**ours(), **references()}
    totals = totals_of(plays, rounds, games, seed, least=1.0)
    rates = {k: rate(totals, k) for k in plays}
    return {k: None if v is None else round(v) for k, v in rates.items()}


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 3)


def child(path: str, rounds: int, games: int, seed: int) -> dict[str, Any]:
    """Our two paths alone in a fresh interpreter with `path` first on its import path."""
    env = {**os.environ, "PYTHONPATH": path}
    code = f"from euphrates.adapters.versus import report; report({rounds}, {games}, {seed})"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def report(rounds: int, games: int, seed: int) -> None:
    """A child's part: our two paths' rates and whether this build is compiled, as JSON."""
    totals = totals_of(dict(ours()), rounds, games, seed)
    out: dict[str, Any] = {k: rate(totals, k) for k in totals}
    out["compiled"] = compiled()
    print(json.dumps(out))


def versus_build(compiled_dir: str, rounds: int, games: int, seed: int) -> dict[str, Any]:
    """Compiled ÷ pure through both adapters: the two builds alternately, a round each."""
    import euphrates

    pure = str(Path(euphrates.__file__).resolve().parent.parent)
    sums: dict[str, dict[str, float]] = {"pure": {}, "compiled": {}}
    flags: dict[str, bool] = {}
    for r in range(rounds):
        for build, path in (("pure", pure), ("compiled", compiled_dir)):
            got = child(path, 1, games, seed + 1000 * r)
            flags[build] = bool(got.pop("compiled"))
            for k, v in got.items():
                sums[build][k] = sums[build].get(k, 0.0) + float(v) / rounds
    if flags.get("pure") or not flags.get("compiled"):
        raise SystemExit(
            f"--compiled {compiled_dir}: expected a compiled build there and the pure one "
            f"here, found compiled={flags.get('compiled')} and pure={not flags.get('pure')}"
        )
    return {
        "pure": {k: round(v) for k, v in sums["pure"].items()},
        "compiled": {k: round(v) for k, v in sums["compiled"].items()},
        "ratios": {k: ratio(sums["compiled"][k], sums["pure"][k]) for k in sums["pure"]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m euphrates.adapters.versus", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rounds", type=int, default=3, choices=range(1, 101), metavar="1..100")
    parser.add_argument("--games", type=int, default=6, choices=range(1, 10001), metavar="N")
    parser.add_argument("--seed", type=int, default=1, choices=range(0, 2**31), metavar="SEED")
    parser.add_argument("--compiled", metavar="DIR", help="a compiled build's package folder")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
        from pettingzoo import AECEnv  # noqa: F401
    except ImportError as missing:
        print(
            f"the adapters' extras are needed ({missing.name}): "
            "pip install -e '.[openspiel,pettingzoo]'",
            file=sys.stderr,
        )
        return 2
    rates = measure(args.rounds, args.games, args.seed)
    out: dict[str, Any] = {"compiled": compiled(), "rounds": args.rounds, "rates": rates}
    ratios = {
        "openspiel_vs_chess": ratio(rates["openspiel"], rates["chess"]),
        "python_tic_tac_toe_vs_chess": ratio(rates["python_tic_tac_toe"], rates["chess"]),
        "pettingzoo_vs_chess_v6": ratio(rates["pettingzoo"], rates["chess_v6"]),
    }
    if args.compiled:
        builds = versus_build(args.compiled, args.rounds, args.games, args.seed)
        out["builds"] = builds
        ratios["compiled_vs_pure"] = builds["ratios"]
        # The compiled build against the same yardsticks (its rates from its children,
        # the yardsticks' from this process: CPU time both).
        ratios["compiled_openspiel_vs_chess"] = ratio(
            builds["compiled"]["openspiel"], rates["chess"]
        )
        ratios["compiled_pettingzoo_vs_chess_v6"] = ratio(
            builds["compiled"]["pettingzoo"], rates["chess_v6"]
        )
    out["ratios"] = ratios
    out["targets"] = TARGETS
    for key, value in ratios.items():
        print(f"{key:28} {value}", flush=True)
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
