"""`euphrates admin`: a server's accounts, games and reports, from the command line.

It works on the database directly (`--db`, as `euphrates serve` takes it), with or
without servers running, and every change it makes reaches the running servers the way
one server's change reaches the others: a signal in the change's own transaction —
PostgreSQL's `NOTIFY`, or on SQLite a row of the `signals` table that the server
reads every second (store/database.py). So within a few seconds an ended game's table
is told and its bots and clocks stop, a disabled or deleted account's connections
close, and a muted account's next chat line is refused (an admin granted or revoked
needs no signal: every request reads its account again). The game's end is the
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
from datetime import timedelta
from typing import Any

from euphrates.server.common.config import async_db_url, default_db_url
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.passwords import (
    check_password,
    clean_account_name,
    hash_password,
)
from euphrates.server.features.ratings.ratings import level_rating
from euphrates.server.game import lifecycle
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.admin import list_games
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.fairplay import FairPlayStore
from euphrates.server.store.games import GameStore
from euphrates.server.store.listen import forget_signals
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.notes import Note
from euphrates.server.store.ratings import void
from euphrates.server.store.rows import now

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
    elif command == "suspicious":
        await _suspicious(database, args.days, args.least)
    elif command == "void-game":
        await _void(database, args.game_id)
    elif command == "end-game":
        await _end(GameStore(database), args.game_id)
    elif command == "grant":
        user = await _user(accounts, args.name)
        await moderation.grant(user.id, not args.revoke)
        print(f"{user.name} {'is no longer an admin' if args.revoke else 'is an admin'}")
    elif command == "reports":
        for r in await moderation.reports():
            _print_report(r)
    return 0


def _print_report(r: dict[str, Any]) -> None:
    state = r["resolution"] or "open"
    if r["kind"] == "player":
        print(f"#{r['id']} {r['at'][:19]} player {r['player']} ({state})")
    else:
        who = f"{r['author']} ({r['account']})" if r["account"] else r["author"]
        print(f"#{r['id']} {r['at'][:19]} game {r['game']} line {r['seq']} by {who} ({state})")
        print(f"    said: {r['text']}")
    print(f"    reported by {r['reporter']}: {r['reason'] or '(no reason given)'}")


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


async def _suspicious(database: Database, days: int, least: int) -> None:
    """Pairs of accounts with many rated games together lately, most first, and how
    many of them one of the two left (resigned, forfeited, deleted): what farming a
    second account looks like (docs/fair-play.md)."""
    since = now() - timedelta(days=max(1, min(days, 3650)))
    pairs = await FairPlayStore(database).suspicious(since, max(1, least))
    if not pairs:
        print(f"no pair of accounts played {least} rated games together in {days} days")
    for p in pairs:
        share = p.left / p.games
        print(f"{p.first} – {p.second}: {p.games} rated games, {p.left} left by one ({share:.0%})")


async def _void(database: Database, game_id: str) -> None:
    """A rated game counts for nobody; the ratings of its game and group are computed
    again from the games still counted, in order (once, whichever process)."""
    if await void(database, game_id, level_rating):
        print(f"game {game_id} voided; its ratings were computed again")
        return
    raise ValueError(f"game {game_id} is not a rated game that counted, or is voided already")
