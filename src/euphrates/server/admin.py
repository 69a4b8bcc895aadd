"""`euphrates admin`: a server's accounts, games and reports, from the command line.

It works on the database directly (`--db`, as `euphrates serve` takes it), with or
without servers running: what it changes is what they read. On PostgreSQL a game it
ends is announced to the running servers (`NOTIFY`), whose tables close at once; on
SQLite a server holding that game in memory learns it when the game is next loaded,
so end games there while the server is stopped, or let the table be idle first.
Passwords are read from standard input (asked twice on a terminal), never from the
command line, where other users of the machine could see them in the process list.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from typing import Any

import sqlalchemy as sa

from euphrates.server.common.config import async_db_url, default_db_url
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.passwords import (
    check_password,
    clean_account_name,
    hash_password,
)
from euphrates.server.store import models as db
from euphrates.server.store.accounts import Accounts, User
from euphrates.server.store.games import Store

ACTIVE = ("waiting", "active")


def run(args: argparse.Namespace) -> int:
    url = async_db_url(args.db or default_db_url())
    return asyncio.run(_run(url, args))


async def _run(url: str, args: argparse.Namespace) -> int:
    engine = db.make_engine(url)
    try:
        await db.migrate(engine)
        return await _command(engine, args)
    except Refusal as r:
        raise ValueError(r.message) from None
    finally:
        await engine.dispose()


async def _command(engine: Any, args: argparse.Namespace) -> int:
    accounts = Accounts(engine)
    command = args.admin_command
    if command == "create-user":
        name = clean_account_name(args.name)
        user = await accounts.create(name, await hash_password(_password()))
        print(f"created {user.name}")
    elif command == "reset-password":
        user = await _user(accounts, args.name)
        await accounts.set(user.id, password_hash=await hash_password(_password()))
        print(f"password of {user.name} set; its sessions ended")
    elif command == "disable":
        user = await _user(accounts, args.name)
        await accounts.set(user.id, disabled=not args.enable)
        print(f"{user.name} {'enabled' if args.enable else 'disabled'}")
    elif command == "mute":
        user = await _user(accounts, args.name)
        await accounts.set(user.id, muted=not args.unmute)
        print(f"{user.name} {'may chat again' if args.unmute else 'muted'}")
    elif command == "games":
        await _games(engine, args.status, args.limit)
    elif command == "end-game":
        await _end(engine, args.game_id)
    elif command == "reports":
        for r in await accounts.reports():
            who = f"{r['author']} ({r['account']})" if r["account"] else r["author"]
            print(f"#{r['id']} {r['at'][:19]} game {r['game']} line {r['seq']} by {who}")
            print(f"    said: {r['text']}")
            print(f"    reported by {r['reporter']}: {r['reason'] or '(no reason given)'}")
    return 0


async def _user(accounts: Accounts, name: str) -> User:
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


async def _games(engine: Any, status: str | None, limit: int) -> None:
    g, s = db.games, db.seats
    query = sa.select(g.c.id, g.c.game, g.c.players, g.c.status, g.c.updated_at)
    if status:
        query = query.where(g.c.status == status)
    query = query.order_by(g.c.updated_at.desc()).limit(max(1, min(limit, 10_000)))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        seats = (
            await conn.execute(
                sa.select(s.c.game_id, s.c.seat, s.c.kind, s.c.level, s.c.name)
                .where(s.c.game_id.in_([r.id for r in rows]))
                .order_by(s.c.seat)
            )
        ).all()
    names: dict[str, list[str]] = {}
    for x in seats:
        label = f"bot:{x.level}" if x.kind == "bot" else x.name or f"Player {x.seat + 1}"
        names.setdefault(x.game_id, []).append(label)
    for r in rows:
        at = str(r.updated_at)[:19]
        print(f"{r.id}  {r.game:5} {r.players}p  {r.status:9} {at}  {', '.join(names[r.id])}")


async def _end(engine: Any, game_id: str) -> None:
    async with engine.connect() as conn:
        status = (
            await conn.execute(sa.select(db.games.c.status).where(db.games.c.id == game_id))
        ).scalar()
    if status is None:
        raise ValueError(f"no game {game_id!r}")
    if status not in ACTIVE:
        raise ValueError(f"game {game_id} has already ended ({status})")
    await Store(engine, origin="admin").set_status(game_id, "abandoned")
    print(f"game {game_id} ended (abandoned)")
