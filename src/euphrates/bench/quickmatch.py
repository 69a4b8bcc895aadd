"""`euphrates loadtest --quickmatch N`: what a pass over the quick match pool costs.

Fills a database (a new SQLite file, or `--db`) with N accounts waiting for a quick
match — ratings spread as a club's are (normal, 1500 ± 300), waits spread over 0–70
seconds, both games — and measures, as a server does it: the rule alone over the N
(features/quickmatch/matching.py), a pass that claims the rows, makes the tables and
writes a started game per table (store/quickmatch.py), and a second pass over the
players left waiting (what every later second costs while they wait). The pool is
`mixed` (every kind of table: 2–4 players, every clock, the games' options, spread as a
club would ask) or `duels` (2-player games at the medium clock only, the pool of
quick match's first version). The last line is one JSON object.
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
from euphrates.games import GAMES, game_definition
from euphrates.server.common.config import async_db_url
from euphrates.server.features.quickmatch.kinds import clock_of, options_key
from euphrates.server.features.quickmatch.matching import groups
from euphrates.server.features.quickmatch.quickmatch import (
    JOIN_GRACE,
    LONGEST,
    SHOWN,
    table_row,
)
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.games import GameStore
from euphrates.server.store.quickmatch import MatchStore, Waiting
from euphrates.server.store.rows import now

MAX_WAITING = 100_000
POOLS = ("mixed", "duels")
PLAYERS = ((2, 0.6), (3, 0.25), (4, 0.15))
"""A mixed pool's tables by players, as a club asks for them."""
CLOCKS = (
    ("medium", 0.45),
    ("fast", 0.15),
    ("slow", 0.1),
    ("turn:1", 0.1),
    ("turn:2", 0.1),
    ("turn:3", 0.05),
    ("turn:5", 0.05),
)
OPTION_ON = 0.15
"""How often a mixed pool's wait turns each of its game's options on."""


def _pick(rng: random.Random, weighted: tuple[tuple[Any, float], ...]) -> Any:
    return rng.choices([x for x, _ in weighted], [w for _, w in weighted])[0]


def _kind(rng: random.Random, game: str, pool: str) -> tuple[int, str, str]:
    """(players, clock, options) of one wait of `pool`."""
    if pool == "duels":
        return 2, "medium", "{}"
    definition = game_definition(game)
    options = {o: rng.random() < OPTION_ON for o in definition.options}
    return _pick(rng, PLAYERS), _pick(rng, CLOCKS), options_key(game, options)


async def measure(url: str, n: int, seed: int, pool: str = "mixed") -> dict[str, Any]:
    rng = random.Random(seed)
    engine = make_engine(async_db_url(url))
    names = list(GAMES)
    try:
        await migrate(engine)
        at = now()
        players = []
        for _ in range(n):
            # a club plays the first game most: 70 %, the others the rest
            game = names[0] if rng.random() < 0.7 else rng.choice(names[1:] or names)
            rating = round(rng.gauss(1500, 300))
            since = at - timedelta(seconds=rng.uniform(0, 70))
            players.append(Waiting(0, game, rating, since, *_kind(rng, game, pool)))
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
                Waiting(ids[f"{tag}-{i}"], w.game, w.rating, w.since, w.players, w.clock, w.options)
                for i, w in enumerate(players)
            ]
            await conn.execute(
                db.quickmatch.insert(),
                [
                    {
                        "user_id": w.user_id,
                        "game": w.game,
                        "rating": w.rating,
                        "since": w.since,
                        "players": w.players,
                        "clock": w.clock,
                        "options": w.options,
                    }
                    for w in players
                ],
            )
        started = time.perf_counter()
        made = groups(players, at)
        rule_ms = (time.perf_counter() - started) * 1000
        database = Database(engine, origin="quickmatch-bench")
        matches = MatchStore(database, GameStore(database))
        passes: list[tuple[float, int, int, int]] = []
        for _ in range(2):
            started = time.perf_counter()
            done = await matches.run(
                at,  # the rule's instant: the pass makes the tables the rule did
                lambda _u: True,
                JOIN_GRACE,
                LONGEST,
                SHOWN,
                lambda members, at: table_row(members, at, lambda c: clock_of(c, 86400.0)),
                groups,
                nobody,
            )
            passes.append(
                (
                    (time.perf_counter() - started) * 1000,
                    len(done.matches),
                    sum(len(m[1]) for m in done.matches),
                    done.waiting,
                )
            )
    finally:
        await engine.dispose()
    return {
        "waiting": n,
        "db": "sqlite" if url.startswith("sqlite") else "postgresql",
        "pool": pool,
        "kinds": len({w.kind for w in players}),
        "tables_by_rule": len(made),
        "seated_by_rule": sum(len(g) for g in made),
        "rule_ms": round(rule_ms, 2),
        "pass_ms": round(passes[0][0], 1),
        "pass_tables": passes[0][1],
        "pass_seated": passes[0][2],
        "left_waiting": passes[0][3],
        "next_pass_ms": round(passes[1][0], 1),
    }


async def nobody(user_ids: list[int]) -> set[frozenset[int]]:
    """The pool's accounts share no device and block nobody: nobody is kept apart."""
    return set()


def run(args: argparse.Namespace) -> int:
    n = args.quickmatch
    if not 2 <= n <= MAX_WAITING:
        raise ArgumentError(f"--quickmatch must be 2 … {MAX_WAITING}")
    if args.db is not None and not args.db.startswith(("sqlite:", "postgres")):
        raise ArgumentError("--db must be a sqlite:/// or postgresql:// URL")
    pool = getattr(args, "quickmatch_pool", "mixed")
    if pool not in POOLS:
        raise ArgumentError(f"--quickmatch-pool must be one of {', '.join(POOLS)}")
    with tempfile.TemporaryDirectory(prefix="euphrates-quickmatch-") as tmp:
        url = args.db or f"sqlite:///{tmp}/quickmatch.db"
        figures = asyncio.run(measure(url, n, args.seed if args.seed is not None else 1, pool))
    print(f"{n} players waiting, {pool} pool of {figures['kinds']} kinds ({figures['db']}):")
    print(
        f"  the rule alone: {figures['rule_ms']} ms, {figures['tables_by_rule']} tables "
        f"seating {figures['seated_by_rule']}"
    )
    print(
        f"  a pass (claim, make the tables, write the games): {figures['pass_ms']} ms, "
        f"{figures['pass_tables']} games seating {figures['pass_seated']}, "
        f"{figures['left_waiting']} left waiting"
    )
    print(f"  the next pass over those left: {figures['next_pass_ms']} ms")
    print(json.dumps(figures))
    return 0
