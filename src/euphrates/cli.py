"""The `euphrates` command.

euphrates play board --players 3 --bots strong,beginner   play in the terminal
euphrates play --resume                                   continue the last unfinished game
euphrates bench board --players 4 --games 200 --seed 1
euphrates bench cards --players 2 --search mcts:600i      search speed on fixed positions
euphrates demo board --players 3 --seed 7       a random game, printed turn by turn
euphrates replay game.json                       replay a record, print the final board
euphrates admin --db URL create-user Ann         accounts, games, reports of a server

Every argument is checked before anything runs, and every failure is one line on
standard error and a non-zero exit status, never a traceback: 2 for a wrong argument,
1 for a file or record that cannot be used, 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NoReturn

from euphrates.core.errors import ArgumentError, EuphratesError
from euphrates.core.protocol import SEED_LIMIT
from euphrates.core.rng import Rng
from euphrates.words.book import LANGS

GAMES = ("board", "cards")


class UsageError(ValueError):
    """A command-line argument is wrong; the message names it (exit status 2)."""


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows a default where there is one worth showing (not None, not a bare flag)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """One line for a wrong command line, like every other error of the command."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def _seed(text: str) -> int:
    """A seed as argparse reads it: an integer 0 .. 2**64-1 (the engines' whole range)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"{text} is outside 0 .. 2**64-1")
    return value


def _at_least(value: int, low: int, name: str, high: int | None = None) -> int:
    """`value` in low .. high: counts are bounded, so that no command sets out on work it
    could never finish or memory it could never have."""
    if value < low:
        raise UsageError(f"{name} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise UsageError(f"{name} must be at most {high}, not {value}")
    return value


MAX_GAMES = 1_000_000
"""The most games `bench` plays in one run (some hours)."""
MAX_POSITIONS = 10_000
"""The most positions `bench --search` collects (and keeps) before it times the bot."""


GAME_WORDS = {"board": "the board game", "cards": "the card game"}


def _only_for(game: str, flag: str, wanted: str, ruling: str) -> None:
    if game != wanted:
        raise UsageError(
            f"{flag} is an option of {GAME_WORDS[wanted]} ({ruling}), not of {GAME_WORDS[game]}"
        )


def _bench(args: argparse.Namespace) -> int:
    from euphrates.match.bench import run_bench, run_search_bench

    if args.advanced:
        _only_for(args.game, "--advanced", "board", "B-34")
    if args.search is not None:
        if not args.search.strip():
            raise UsageError("--search needs a bot, e.g. --search mcts:600i")
        if args.games is not None:
            raise UsageError("--games is for random play; --search times --positions")
        if args.advanced:
            raise UsageError("--search plays the standard board; leave out --advanced")
        positions = _at_least(
            12 if args.positions is None else args.positions, 1, "--positions", MAX_POSITIONS
        )
        if args.seed + positions > SEED_LIMIT:
            raise UsageError(
                "--seed plus --positions must stay below 2**64 (the games that give the "
                "positions are dealt with seed, seed + 1, …)"
            )
        r = run_search_bench(args.game, args.players, args.search, positions, args.seed)
        print(
            f"{r['game']}: {r['bot']} on {r['positions']} positions of seeded greedy games "
            f"with {r['players']} players in {r['seconds']} s"
        )
        print(f"  s/decision        {r['seconds_per_decision']}")
        if r["iterations_per_s"] is not None:
            print(f"  iterations/s      {r['iterations_per_s']}")
        print(json.dumps(r))
        return 0
    if args.positions is not None:
        raise UsageError("--positions is for --search")
    games = _at_least(100 if args.games is None else args.games, 1, "--games", MAX_GAMES)
    if args.seed + games > SEED_LIMIT:
        raise UsageError("--seed plus --games must stay below 2**64 (game g has seed + g)")
    options = {"advanced": True} if args.advanced else None
    r = run_bench(args.game, args.players, games, args.seed, options)
    print(f"{r['game']}: {r['games']} random games with {r['players']} players in {r['seconds']} s")
    print(f"  games/s           {r['games_per_s']}")
    print(f"  decisions/s       {r['decisions_per_s']}")
    print(f"  legal actions     {r['mean_legal_actions']} per decision (mean)")
    print(f"  decisions/game    {r['decisions_per_game']}")
    keys = ("games_per_s", "decisions_per_s", "mean_legal_actions", "games", "players")
    print(json.dumps({k: r[k] for k in keys}))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from euphrates.match.files import check_write_target, user_path, write_atomically
    from euphrates.match.games import game_definition
    from euphrates.match.records import record_of
    from euphrates.match.seeds import derive, fresh_seed

    if args.advanced:
        _only_for(args.game, "--advanced", "board", "B-34")
    if args.record is not None and not args.record.strip():
        raise UsageError("--record needs a file name")
    # A name that cannot be meant is refused before the game, not after it.
    path = None if args.record is None else user_path(args.record, "--record ")
    if path is not None:
        check_write_target(path, "--record ")
    seed = fresh_seed() if args.seed is None else args.seed
    definition = game_definition(args.game)
    options: dict[str, Any] = {"advanced": True} if args.advanced else {}
    state = definition.new_game(args.players, seed, options)
    print(f"{args.game}, {args.players} players, seed {seed}")
    rng = Rng(derive("demo", seed))
    actions: list[str] = []
    turn_log: list[str] = []
    last_active = None
    while not state.is_over():
        d = state.decision()
        assert d is not None
        action = state.random_action(rng)
        text = str(action)
        actions.append(text)
        turn_log.append(f"{d.seat}:{text}")
        state.apply(action)
        active = state.view(None)["active"]
        if active != last_active and turn_log:
            print("  " + "  ".join(turn_log))
            turn_log = []
            last_active = active
    if turn_log:
        print("  " + "  ".join(turn_log))
    print()
    print(definition.render(state, None))
    if path is not None:
        rec = record_of(args.game, actions, args.players, seed, options, final=state)
        write_atomically(path, rec.dumps(), what="--record ")
        print(f"record written to {path}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from euphrates.match.games import game_definition
    from euphrates.match.records import replay
    from euphrates.terminal.storage import read_record

    if args.upto is not None and args.upto < 0:
        raise UsageError(f"--upto must be at least 0, not {args.upto}")
    record = read_record(args.file)
    if args.upto is not None and args.upto > len(record.actions):
        raise UsageError(
            f"--upto must be at most {len(record.actions)}: the record has "
            f"{len(record.actions)} actions"
        )
    state = replay(record, args.upto)
    print(game_definition(record.game).render(state, None))
    if args.stats:
        from euphrates.match.stats import game_stats
        from euphrates.terminal.stats import stats_lines
        from euphrates.words import book, lang_from_env

        upto = record.actions if args.upto is None else record.actions[: args.upto]
        figures = game_stats(replace(record, actions=upto))
        print()
        print("\n".join(stats_lines(book(args.lang or lang_from_env()), figures, record.seats)))
    return 0


def _tournament(args: argparse.Namespace) -> int:
    import time

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from euphrates.core.errors import ArgumentError
    from euphrates.match.tournament import (
        Interrupted,
        prepare,
        results_json,
        run_tournament,
        summarise,
    )

    game = args.game or args.game_option
    if args.game and args.game_option and args.game != args.game_option:
        raise ArgumentError(f"two games named: {args.game} and --game {args.game_option}")
    if game is None:
        raise ArgumentError("name the game: euphrates tournament board|cards --bots …")
    bots = [b for b in args.bots.split(",") if b.strip()]
    options: dict[str, Any] = {"advanced": True} if args.advanced else {}
    if args.out is not None:
        from euphrates.match.files import user_path

        out_dir = str(user_path(args.out, "--out "))
    else:
        out_dir = f"records/tournament-{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    setup = prepare(game, args.players, bots, args.games, args.jobs, args.seed, options, out_dir)
    seed = setup.seed
    print(
        f"{game}, {args.players} players, {', '.join(setup.entrants)}: seed {seed}, records in "
        f"{out_dir} (the same --out continues the run, --seed {seed} repeats it)"
    )
    err = Console(stderr=True)
    interrupted = False
    with Progress(
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=False,
    ) as bar:
        task = bar.add_task("games", total=args.games)
        try:
            results = run_tournament(
                game,
                args.players,
                bots,
                args.games,
                seed=seed,
                jobs=args.jobs,
                options=options,
                out_dir=out_dir,
                progress=lambda _r: bar.advance(task),
            )
        except Interrupted as stop:
            results = stop.results
            interrupted = True
    rows = summarise(results, args.players)
    rating_name = "Elo (Bradley–Terry)" if args.players == 2 else "OpenSkill ordinal"
    table = Table(
        title=f"{game}, {args.players} players, {len(results)} games, records in {out_dir}"
    )
    for col in (
        "bot",
        "games",
        "wins",
        "win rate",
        "95 % CI",
        "mean weakest",
        rating_name,
        "s/decision",
        "iter/s",
    ):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for r in rows:
        table.add_row(
            r["bot"],
            str(r["games"]),
            f"{r['wins']:g}",
            f"{100 * r['win_rate']:.1f} %",
            f"{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f} %",
            f"{r['mean_weakest']:.2f}",
            f"{r['rating']:.1f}",
            f"{r['seconds_per_decision']:.3f}",
            "" if r["iterations_per_second"] is None else str(r["iterations_per_second"]),
        )
    Console(width=140).print(table)
    print(results_json(rows))
    if interrupted:
        print(
            f"euphrates: interrupted after {len(results)} of {args.games} games; "
            f"continue with --out {out_dir}",
            file=sys.stderr,
        )
        return 130
    return 0


def _play(args: argparse.Namespace) -> int:
    from euphrates.match.seeds import fresh_seed
    from euphrates.terminal import new_record, play_in_terminal
    from euphrates.terminal.seats import seat_list
    from euphrates.words import lang_from_env

    lang = args.lang or lang_from_env()

    if args.resume is not None:
        given = [
            flag
            for flag, value in (
                ("--players", args.players),
                ("--bots", args.bots),
                ("--seat", args.seat),
                ("--seed", args.seed),
                ("--advanced", args.advanced or None),
                ("--open-piles", args.open_piles or None),
            )
            if value is not None
        ]
        if given:
            raise UsageError(
                f"{', '.join(given)} cannot be given with --resume: the resumed game keeps "
                "its own seats, bots and options"
            )
        if args.game is not None:
            from euphrates.terminal.app import resume_path
            from euphrates.terminal.storage import read_record

            path = resume_path(args.resume)
            found = read_record(path).game
            if found != args.game:
                raise UsageError(f"{path} holds {GAME_WORDS.get(found, found)}, not {args.game}")
            return play_in_terminal(None, resume=str(path), lang=lang)
        return play_in_terminal(None, resume=args.resume, lang=lang)
    if args.game is None:
        raise UsageError("name a game: euphrates play board, or euphrates play cards")
    players = 2 if args.players is None else args.players
    if args.advanced:
        _only_for(args.game, "--advanced", "board", "B-34")
    if args.open_piles:
        _only_for(args.game, "--open-piles", "cards", "C-9")
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < players:
        raise UsageError(f"--seat must be 0 … {players - 1} with {players} players, not {seat}")
    bots = (args.bots if args.bots is not None else "intermediate").split(",")
    if any(not b.strip() for b in bots):
        raise UsageError(f"--bots {args.bots!r}: name each bot, separated by commas")
    options: dict[str, Any] = {}
    if args.advanced:
        options["advanced"] = True
    if args.open_piles:
        options["open_piles"] = True
    seed = fresh_seed() if args.seed is None else args.seed
    try:
        seat_list(players, seat, bots)
    except ValueError as e:
        raise UsageError(f"--bots: {e}") from None
    return play_in_terminal(new_record(args.game, players, seat, bots, seed, options), lang=lang)


def _serve(args: argparse.Namespace) -> int:
    from euphrates.server.serve import run

    return run(args)


def _admin(args: argparse.Namespace) -> int:
    from euphrates.server.admin import run

    return run(args)


def _loadtest(args: argparse.Namespace) -> int:
    from euphrates.bench.loadtest import run

    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
    """The command; every failure is one line on standard error (see the module doc)."""
    try:
        return _main(argv)
    except (UsageError, ArgumentError) as e:
        return _fail(str(e), 2)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except RecursionError:
        return _fail("input nested too deeply", 1)
    except MemoryError:
        return _fail("out of memory", 1)
    except (EuphratesError, ValueError, OSError) as e:
        return _fail(str(e) or type(e).__name__, 1)


def _fail(message: str, status: int) -> int:
    first = " ".join(message.split())
    print(f"euphrates: {first}", file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """After the reader of our output went away (`| head`), flushing at exit would fail
    again; send what is left nowhere."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="euphrates", description="Tigris & Euphrates and Contest of Kings")
    sub = parser.add_subparsers(dest="command", required=True)

    b = sub.add_parser("bench", help="random-play benchmark of an engine")
    b.add_argument("game", choices=GAMES)
    b.add_argument("--players", type=int, default=4, choices=[2, 3, 4], help="players")
    b.add_argument("--games", type=int, help="random games to play (default 100)")
    b.add_argument("--seed", type=_seed, default=1, help="game g is dealt with seed + g")
    b.add_argument("--advanced", action="store_true", help="the advanced board (B-34)")
    b.add_argument(
        "--search",
        metavar="BOT",
        help="time a bot (e.g. mcts:600i) on fixed positions instead of random play",
    )
    b.add_argument("--positions", type=int, help="positions for --search (default 12)")
    b.set_defaults(func=_bench)

    d = sub.add_parser("demo", help="play a random game and print it")
    d.add_argument("game", choices=GAMES)
    d.add_argument("--players", type=int, default=3, choices=[2, 3, 4], help="players")
    d.add_argument("--seed", type=_seed, help="0 .. 2**64-1 (default: a fresh random seed)")
    d.add_argument("--advanced", action="store_true", help="board game: the advanced board")
    d.add_argument("--record", help="write the game record (JSON) to this file")
    d.set_defaults(func=_demo)

    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("game", nargs="?", choices=GAMES, help="board or cards (not with --resume)")
    p.add_argument("--players", type=int, choices=[2, 3, 4], help="players (default 2)")
    p.add_argument(
        "--bots",
        help="comma-separated opponents: levels beginner, intermediate, strong, expert, or "
        "random, greedy, mcts:1s; the last fills the remaining seats (default intermediate)",
    )
    p.add_argument("--seat", type=int, help="your seat; 0 plays first in seat order (default 0)")
    p.add_argument("--seed", type=_seed, help="0 .. 2**64-1 (default: a fresh random seed)")
    p.add_argument("--advanced", action="store_true", help="board game: the advanced board")
    p.add_argument("--open-piles", action="store_true", help="card game: open point piles (C-9)")
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="FILE",
        help="continue a saved game: FILE, or without it the last unfinished one",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        help="the language the game is told in (default: the first of LC_ALL, LC_MESSAGES and "
        "LANG that is set, where it is one of these, else English)",
    )
    p.set_defaults(func=_play)

    t = sub.add_parser(
        "tournament",
        help="bots against each other, with ratings",
        description="Bots against each other: seeded games in job processes, every bot in a "
        "worker process of its own; a rerun with the same --out continues the tournament.",
    )
    t.add_argument(
        "game",
        nargs="?",
        choices=["board", "cards"],
        help="board: Tigris & Euphrates, cards: Contest of Kings",
    )
    t.add_argument("--game", dest="game_option", choices=["board", "cards"], help=argparse.SUPPRESS)
    t.add_argument(
        "--players", type=int, default=2, choices=[2, 3, 4], help="(default: %(default)s)"
    )
    t.add_argument(
        "--bots",
        required=True,
        help="comma-separated bots by seat (random, greedy, mcts:1s, mcts:500i, or a level); "
        "the last one fills the remaining seats",
    )
    t.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    t.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="games played at once, in processes (default: %(default)s)",
    )
    t.add_argument(
        "--seed",
        type=int,
        help="base seed of the games and bots (default: the continued run's, else a fresh "
        "random one, printed)",
    )
    t.add_argument("--advanced", action="store_true", help="the advanced board (B-34)")
    t.add_argument(
        "--out",
        help="directory for the records; an existing one is continued (default: "
        "records/tournament-GAME-TIME)",
    )
    t.set_defaults(func=_tournament)

    from euphrates.match import commands

    commands.add_selfplay(
        sub.add_parser("selfplay", help="bots against each other, keeping each mover's features")
    )
    commands.add_train(
        sub.add_parser("train", help="train the next value model generation from self-play")
    )
    commands.add_review(
        sub.add_parser("review", help="each move's chance of winning, before and after")
    )
    commands.add_review_bench(
        sub.add_parser("review-bench", help="how well the review flags blunders (JSON figures)")
    )
    commands.add_ladder(sub.add_parser("ladder", help="the bots' fixed ratings for rated games"))

    r = sub.add_parser("replay", help="replay a game record and print the board")
    r.add_argument("file")
    r.add_argument("--upto", type=int, help="replay only the first N actions")
    r.add_argument(
        "--stats",
        action="store_true",
        help="print the game's statistics too: conflicts won and lost, monuments or ships, "
        "treasures, catastrophes, points per colour turn by turn",
    )
    r.add_argument("--lang", choices=LANGS, help="the language of the statistics")
    r.set_defaults(func=_replay)

    sv = sub.add_parser("serve", help="run the game server (HTTP, WebSocket, the browser tables)")
    from euphrates.server.serve import add_arguments as add_serve_arguments

    add_serve_arguments(sv)
    sv.set_defaults(func=_serve)

    lt = sub.add_parser("loadtest", help="many WebSocket games against a server; prints figures")
    from euphrates.bench.loadtest import add_arguments as add_loadtest_arguments

    add_loadtest_arguments(lt)
    lt.set_defaults(func=_loadtest)

    ad = sub.add_parser("admin", help="accounts, games and chat reports of a server's database")
    from euphrates.server.admin_args import add_arguments as add_admin_arguments

    add_admin_arguments(ad)
    ad.set_defaults(func=_admin)

    args = parser.parse_args(argv)
    _finite(args)
    return int(args.func(args))


def _finite(args: argparse.Namespace) -> None:
    """Every float argument of every subcommand is a number: `float()` reads "nan" and
    "inf", which pass no range check (every comparison with NaN is false)."""
    import math

    for name, value in vars(args).items():
        if isinstance(value, float) and not math.isfinite(value):
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} must be a finite number, not {value}")


if __name__ == "__main__":
    sys.exit(main())
