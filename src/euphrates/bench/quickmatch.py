"""`euphrates loadtest --quickmatch N`: what a pass over the quick match pool costs.

Fills a database (a new SQLite file, or `--db`) with N accounts waiting for a quick
match — ratings spread as a club's are (normal, 1500 ± 300), waits spread over 0–70
seconds, both games — and measures, as a server does it: the pairing rule alone over
the N (features/quickmatch/matching.py), a pass that claims the rows, pairs them and
writes a started game per pair (store/quickmatch.py), and a second pass over the players left unpaired (what every
later second costs while they wait). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import tempfile
import time
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from euphrates.core.errors import ArgumentError
from euphrates.games import GAMES
from euphrates.server.common.config import async_db_url
from euphrates.server.features.quickmatch.matching import pairs
from euphrates.server.features.quickmatch.quickmatch import JOIN_GRACE, LONGEST, SHOWN, match_row
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.games import GameStore
from euphrates.server.store.quickmatch import MatchStore, Waiting
from euphrates.server.store.rows import now

MAX_WAITING = 100_000


async def measure(url: str, n: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    engine = make_engine(async_db_url(url))
    names = list(GAMES)
    try:
        await migrate(engine)
        at = now()
        players = [
            Waiting(
                0,
                # a club plays the first game most: 70 %, the others the rest
                names[0] if rng.random() < 0.7 else rng.choice(names[1:] or names),
                round(rng.gauss(1500, 300)),
                at - timedelta(seconds=rng.uniform(0, 70)),
            )
            for _ in range(n)
        ]
        tag = f"qmb{secrets.token_hex(4)}"
        async with engine.begin() as conn:
            await conn.execute(db.quickmatch.delete())
            await conn.execute(
                db.users.insert(),
                [
                    {
                        "name": f"{tag}-{i}",
                        "name_key": f"{tag}-{i}",
                        "password_hash": "-",
                        "created_at": at,
                    }
                    for i in range(n)
                ],
            )
            found = await conn.execute(
                sa.select(db.users.c.id, db.users.c.name).where(db.users.c.name.like(f"{tag}-%"))
            )
            ids = {r.name: r.id for r in found}
            players = [
                Waiting(ids[f"{tag}-{i}"], w.game, w.rating, w.since) for i, w in enumerate(players)
            ]
            await conn.execute(
                db.quickmatch.insert(),
                [
                    {"user_id": w.user_id, "game": w.game, "rating": w.rating, "since": w.since}
                    for w in players
                ],
            )
        started = time.perf_counter()
        made = pairs(players, at)
        rule_ms = (time.perf_counter() - started) * 1000
        database = Database(engine, origin="quickmatch-bench")
        matches = MatchStore(database, GameStore(database))
        passes: list[tuple[float, int, int]] = []
        for _ in range(2):
            started = time.perf_counter()
            done = [
                await matches.run(
                    game,
                    now(),
                    lambda _u: True,
                    JOIN_GRACE,
                    LONGEST,
                    SHOWN,
                    match_row,
                    pairs,
                    nobody,
                )
                for game in names
            ]
            passes.append(
                (
                    (time.perf_counter() - started) * 1000,
                    sum(len(d.matches) for d in done),
                    sum(d.waiting for d in done),
                )
            )
    finally:
        await engine.dispose()
    return {
        "waiting": n,
        "db": "sqlite" if url.startswith("sqlite") else "postgresql",
        "pairs_by_rule": len(made),
        "rule_ms": round(rule_ms, 2),
        "pass_ms": round(passes[0][0], 1),
        "pass_pairs": passes[0][1],
        "left_waiting": passes[0][2],
        "next_pass_ms": round(passes[1][0], 1),
    }


async def nobody(user_ids: list[int]) -> set[frozenset[int]]:
    """The pool's accounts share no device and block nobody: no pair is kept apart."""
    return set()


def run(args: argparse.Namespace) -> int:
    n = args.quickmatch
    if not 2 <= n <= MAX_WAITING:
        raise ArgumentError(f"--quickmatch must be 2 … {MAX_WAITING}")
    if args.db is not None and not args.db.startswith(("sqlite:", "postgres")):
        raise ArgumentError("--db must be a sqlite:/// or postgresql:// URL")
    with tempfile.TemporaryDirectory(prefix="euphrates-quickmatch-") as tmp:
        url = args.db or f"sqlite:///{tmp}/quickmatch.db"
        figures = asyncio.run(measure(url, n, args.seed if args.seed is not None else 1))
    print(f"{n} players waiting ({figures['db']}):")
    print(f"  the pairing rule alone: {figures['rule_ms']} ms, {figures['pairs_by_rule']} pairs")
    print(
        f"  a pass (claim, pair, write the games): {figures['pass_ms']} ms, "
        f"{figures['pass_pairs']} games, {figures['left_waiting']} left waiting"
    )
    print(f"  the next pass over those left: {figures['next_pass_ms']} ms")
    print(json.dumps(figures))
    return 0
