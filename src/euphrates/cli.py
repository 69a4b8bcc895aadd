"""The `euphrates` command.

euphrates bench board --players 4 --games 200 --seed 1
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
    from euphrates.match.bench import run_bench

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
        active = state.view(None)["turn"]["active"]
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
    b.set_defaults(func=_bench)

    d = sub.add_parser("demo", help="play a random game and print it")
    d.add_argument("game", choices=["board", "cards"])
    d.add_argument("--players", type=int, default=3, choices=[2, 3, 4])
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--advanced", action="store_true")
    d.add_argument("--record", help="write the game record (JSON) to this file")
    d.set_defaults(func=_demo)

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
