"""The `euphrates` command.

euphrates bench board --players 4 --games 200 --seed 1
euphrates bench cards --players 2 --search mcts:600i      search speed on fixed positions
euphrates demo board --players 3 --seed 7       a random game, printed turn by turn
euphrates replay game.json                       replay a record, print the final board
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from euphrates.core.errors import EuphratesError
from euphrates.core.rng import Rng


def _bench(args: argparse.Namespace) -> int:
    from euphrates.match.bench import run_bench, run_search_bench

    if args.search:
        r = run_search_bench(args.game, args.players, args.search, args.positions, args.seed)
        print(
            f"{r['game']}: {r['bot']} on {r['positions']} positions of seeded greedy games "
            f"with {r['players']} players in {r['seconds']} s"
        )
        print(f"  s/decision        {r['seconds_per_decision']}")
        if r["iterations_per_s"] is not None:
            print(f"  iterations/s      {r['iterations_per_s']}")
        print(json.dumps(r))
        return 0
    options = {"advanced": True} if args.advanced else None
    r = run_bench(args.game, args.players, args.games, args.seed, options)
    print(f"{r['game']}: {r['games']} random games with {r['players']} players in {r['seconds']} s")
    print(f"  games/s           {r['games_per_s']}")
    print(f"  decisions/s       {r['decisions_per_s']}")
    print(f"  legal actions     {r['mean_legal_actions']} per decision (mean)")
    print(f"  decisions/game    {r['decisions_per_game']}")
    keys = ("games_per_s", "decisions_per_s", "mean_legal_actions", "games", "players")
    print(json.dumps({k: r[k] for k in keys}))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from euphrates.match.games import game_definition
    from euphrates.match.records import record_of

    definition = game_definition(args.game)
    options: dict[str, Any] = {"advanced": True} if args.advanced else {}
    state = definition.new_game(args.players, args.seed, options)
    rng = Rng(args.seed ^ 0x5DEECE66D)
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
    if args.record:
        rec = record_of(args.game, actions, args.players, args.seed, options, final=state)
        with open(args.record, "w", encoding="utf-8") as f:
            f.write(rec.dumps())
        print(f"record written to {args.record}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from euphrates.match.games import game_definition
    from euphrates.match.records import GameRecord, replay

    with open(args.file, encoding="utf-8") as f:
        record = GameRecord.loads(f.read())
    state = replay(record, args.upto)
    print(game_definition(record.game).render(state, None))
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
    out_dir = args.out or f"records/tournament-{game}-{time.strftime('%Y%m%d-%H%M%S')}"
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
    from euphrates.tui import play_in_terminal

    bots = [b for b in (args.bots or "").split(",") if b.strip()]
    options: dict[str, Any] = {"advanced": True} if args.advanced else {}
    if args.game == "cards":
        options = {"open_piles": True} if args.open_piles else {}
    if not 0 <= args.seat < args.players:
        raise ValueError(f"--seat must be 0 … {args.players - 1}")
    return play_in_terminal(
        args.game, args.players, bots, args.seat, args.seed, options, args.resume
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="euphrates", description="Tigris & Euphrates and Contest of Kings"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    b = sub.add_parser("bench", help="random-play benchmark of an engine")
    b.add_argument("game", choices=["board", "cards"])
    b.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    b.add_argument("--games", type=int, default=100)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--advanced", action="store_true", help="the advanced board (B-34)")
    b.add_argument(
        "--search",
        metavar="BOT",
        help="time a bot (e.g. mcts:600i) on fixed positions instead of random play",
    )
    b.add_argument("--positions", type=int, default=12, help="positions for --search")
    b.set_defaults(func=_bench)

    d = sub.add_parser("demo", help="play a random game and print it")
    d.add_argument("game", choices=["board", "cards"])
    d.add_argument("--players", type=int, default=3, choices=[2, 3, 4])
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--advanced", action="store_true")
    d.add_argument("--record", help="write the game record (JSON) to this file")
    d.set_defaults(func=_demo)

    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("game", choices=["board", "cards"])
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument(
        "--bots",
        default="intermediate",
        help="comma-separated opponents: levels beginner, intermediate, strong, expert, or "
        "random, greedy, mcts:1s; the last fills the remaining seats",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (0 plays first in seat order)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--advanced", action="store_true", help="board game: the advanced board")
    p.add_argument("--open-piles", action="store_true", help="card game: open point piles (C-9)")
    p.add_argument("--resume", help="continue a game saved with 'save FILE'")
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

    r = sub.add_parser("replay", help="replay a game record and print the board")
    r.add_argument("file")
    r.add_argument("--upto", type=int, help="replay only the first N actions")
    r.set_defaults(func=_replay)

    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (EuphratesError, ValueError, OSError) as e:
        print(f"euphrates: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
