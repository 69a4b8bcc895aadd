"""`euphrates admin`: a server's accounts, games and reports, from the command line.

It works on the database directly (`--db`, as `euphrates serve` takes it), with or
without servers running, and every change it makes reaches the running servers the way
one server's change reaches the others: a signal in the change's own transaction —
PostgreSQL's `NOTIFY`, or on SQLite a row of the `signals` table that the server
reads every second (store/database.py). So within a few seconds an ended game's table
is told and its bots and clocks stop, a disabled or deleted account's connections
close, and a muted account's next chat line is refused. The game's end is the
lifecycle's `end (admin)` (game/lifecycle.py), conditional on the stored status: a
game that ended meanwhile is reported, not ended twice, and no move is stored after
the end (the database refuses any, store/models.py).

Passwords are read from standard input (asked twice on a terminal), never from the
command line, where other users of the machine could see them in the process list.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from euphrates.server.common.config import async_db_url, default_db_url
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.passwords import (
    check_password,
    clean_account_name,
    hash_password,
)
from euphrates.server.game import lifecycle
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.admin import list_games
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.games import GameStore
from euphrates.server.store.listen import forget_signals
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.notes import Note

ORIGIN = "admin"


def run(args: argparse.Namespace) -> int:
    url = async_db_url(args.db or default_db_url())
    return asyncio.run(_run(url, args))


async def _run(url: str, args: argparse.Namespace) -> int:
    engine = make_engine(url)
    database = Database(engine, ORIGIN, announce=True)
    try:
        await migrate(engine)
        code = await _command(database, args)
        if database.sqlite:
            await forget_signals(database)
        return code
    except Refusal as r:
        raise ValueError(r.message) from None
    finally:
        await database.close()


async def _command(database: Database, args: argparse.Namespace) -> int:
    accounts = AccountStore(database)
    moderation = ModerationStore(database)
    command = args.admin_command
    if command == "create-user":
        name = clean_account_name(args.name)
        user = await accounts.create(name, await hash_password(_password()))
        print(f"created {user.name}")
    elif command == "reset-password":
        user = await _user(accounts, args.name)
        await accounts.set_password(user.id, await hash_password(_password()))
        print(f"password of {user.name} set; its sessions ended")
    elif command == "disable":
        user = await _user(accounts, args.name)
        await moderation.standing(user.id, disabled=not args.enable)
        print(f"{user.name} {'enabled' if args.enable else 'disabled'}")
    elif command == "mute":
        user = await _user(accounts, args.name)
        await moderation.standing(user.id, muted=not args.unmute)
        print(f"{user.name} {'may chat again' if args.unmute else 'muted'}")
    elif command == "games":
        for g in await list_games(database, args.status, args.limit):
            print(
                f"{g.id}  {g.game:5} {g.players}p  {g.status:9} {g.updated}  {', '.join(g.seats)}"
            )
    elif command == "end-game":
        await _end(GameStore(database), args.game_id)
    elif command == "reports":
        for r in await moderation.reports():
            who = f"{r['author']} ({r['account']})" if r["account"] else r["author"]
            print(f"#{r['id']} {r['at'][:19]} game {r['game']} line {r['seq']} by {who}")
            print(f"    said: {r['text']}")
            print(f"    reported by {r['reporter']}: {r['reason'] or '(no reason given)'}")
    return 0


async def _user(accounts: AccountStore, name: str) -> User:
    found = await accounts.find(name)
    if found is None:
        raise ValueError(f"no account named {name!r}")
    return found[0]


def _password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise ValueError("the two passwords differ")
    else:
        first = sys.stdin.readline().rstrip("\r\n")
    return check_password(first)


async def _end(games: GameStore, game_id: str) -> None:
    """The admin's end of a game waiting or being played: abandoned, with an `ended`
    note after its last version, once."""
    change = lifecycle.ADMIN_END
    assert change.to is not None
    note = Note(-1, "ended", None)
    if await games.end(game_id, change.to, change.allowed, note):
        print(f"game {game_id} ended (abandoned)")
        return
    status = await games.status_of(game_id)
    if status is None:
        raise ValueError(f"no game {game_id!r}")
    raise ValueError(f"game {game_id} has already ended ({status})")
