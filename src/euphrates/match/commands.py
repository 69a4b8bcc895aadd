"""The learning commands of `euphrates`: selfplay, train, review, review-bench (their arguments and
what they run; `cli` wires them in)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from euphrates.core.errors import ArgumentError

GAMES = ["board", "cards"]


def _common(p: argparse.ArgumentParser, games: int) -> None:
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument("--games", type=int, default=games, help="(default: %(default)s)")
    p.add_argument("--jobs", type=int, default=1, help="games at once")
    p.add_argument("--seed", type=int, help="base seed (default: the continued run's, else fresh)")
    p.add_argument("--out", required=True, help="directory; an existing one is continued")


def _selfplay(args: argparse.Namespace) -> int:
    from euphrates.match.files import user_path
    from euphrates.match.selfplay import run_selfplay
    from euphrates.match.tournament import summarise

    bots = [b for b in args.bots.split(",") if b.strip()]
    out = str(user_path(args.out, "--out "))
    results = run_selfplay(args.game, args.players, bots, args.games, out, args.seed, args.jobs)
    rows = summarise(results, args.players)
    print(json.dumps({"games": len(results), "out": out, "results": rows}))
    return 0


def _train(args: argparse.Namespace) -> int:
    from euphrates.match.files import user_path
    from euphrates.match.training import train_generation

    if args.seed is None:
        raise ArgumentError("train needs --seed: a generation is repeatable from it")
    out = str(user_path(args.out, "--out "))
    bots = [b for b in (args.selfplay_bots or "").split(",") if b.strip()] or None
    command = "euphrates train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    verdict = train_generation(
        args.game,
        args.players,
        out,
        args.games,
        args.match_games,
        args.iterations,
        args.seed,
        bots,
        args.jobs,
        command,
    )
    print(json.dumps(verdict))
    return 0


def add_selfplay(p: argparse.ArgumentParser) -> None:
    _common(p, 100)
    p.add_argument("--bots", required=True, help="comma-separated bots by seat (as for tournament)")
    p.set_defaults(func=_selfplay)


def add_train(p: argparse.ArgumentParser) -> None:
    _common(p, 100)
    p.add_argument(
        "--iterations", type=int, default=100, help="the searches' budget (default: 100)"
    )
    p.add_argument("--match-games", type=int, default=100, help="games of the new against the last")
    p.add_argument(
        "--selfplay-bots",
        help="bots of the self-play (default: the last kept generation's search)",
    )
    p.set_defaults(func=_train)


def _review(args: argparse.Namespace) -> int:
    from pathlib import Path

    from euphrates.match.records import GameRecord
    from euphrates.match.review import render, review
    from euphrates.words.book import lang_from_env

    record = GameRecord.loads(Path(args.record).read_bytes())
    doc = review(record, args.depth)
    print(json.dumps(doc) if args.json else render(doc, args.lang or lang_from_env()))
    return 0


def book_langs() -> tuple[str, ...]:
    from euphrates.words.book import LANGS

    return LANGS


def add_review(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--lang", choices=book_langs(), help="the language of the flags' words")
    p.add_argument(
        "--depth",
        choices=["full", "quick"],
        default="full",
        help="quick: 16 rollouts a move instead of up to 176, each shorter",
    )
    p.set_defaults(func=_review)


def _review_bench(args: argparse.Namespace) -> int:
    from euphrates.match.reviewbench import Referee, line_writer, run_review_bench

    if not 1 <= args.positions <= 100_000:
        raise ArgumentError(f"--positions must be from 1 to 100000, not {args.positions}")
    if not 2 <= args.referee_worlds <= 4096:
        raise ArgumentError(f"--referee-worlds must be from 2 to 4096, not {args.referee_worlds}")
    budget = Referee(first=min(8, args.referee_worlds), worlds=args.referee_worlds)
    result = run_review_bench(
        args.game,
        args.positions,
        args.seed,
        args.players,
        args.strong,
        args.expert,
        budget,
        line_writer(args.rows),
        read=args.read,
        truth=args.referee_knows_hands,
    )
    print(json.dumps(result))
    return 0


def add_review_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument("--positions", type=int, default=100, help="positions of strong self-play")
    p.add_argument("--seed", type=int, required=True, help="games are dealt with seed, seed + 1, …")
    p.add_argument("--strong", help="the self-play's bot (default: the strong level's budget)")
    p.add_argument("--expert", help="the bot whose moves are judged (default: the expert's budget)")
    p.add_argument("--referee-worlds", type=int, default=48, help="worlds the referee judges on")
    p.add_argument("--rows", help="append each position's row to this file (JSON lines)")
    p.add_argument(
        "--read",
        action="store_true",
        help="the review reads the table from the mover's history (card game), as a server's",
    )
    p.add_argument(
        "--referee-knows-hands",
        action="store_true",
        help="the referee judges on the real hands, only the deck shuffled (card game)",
    )
    p.set_defaults(func=_review_bench)


def _ladder(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from euphrates.match.files import user_path
    from euphrates.match.ladder import LADDER_FILE, run_ladder, write

    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    out = Path(user_path(args.out, "--out ")) if args.out else LADDER_FILE
    # Rebuilt from the parsed arguments, not copied from the command line: the file
    # ships with the package, and where it was written on one machine is nobody's
    # business and repeats nothing.
    command = (
        f"euphrates ladder --game {args.game} --players {args.players} --games {args.games}"
        f" --seed {args.seed} --levels {shlex.quote(','.join(levels))} --jobs {args.jobs}"
    )
    started = time.perf_counter()
    fitted, played = run_ladder(args.game, args.players, levels, args.games, args.seed, args.jobs)
    seconds = round(time.perf_counter() - started, 1)
    run = {"command": command, "seed": args.seed, "games": played, "seconds": seconds}
    write(out, args.game, args.players, fitted, run)
    print(json.dumps({"game": args.game, "players": args.players, **run, "ratings": fitted}))
    return 0


def add_ladder(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument("--games", type=int, default=10, help="games per lineup")
    p.add_argument("--seed", type=int, required=True, help="base seed: the ladder repeats from it")
    p.add_argument("--jobs", type=int, default=1, help="games at once")
    p.add_argument(
        "--levels",
        default="beginner,intermediate,strong",
        help="comma-separated levels (default: %(default)s)",
    )
    p.add_argument("--out", help="the ratings file (default: the package's bots/ratings.json)")
    p.set_defaults(func=_ladder)
