"""`euphrates loadtest --startup --stored N`: what stored games cost a server that starts.

Fills a database with N games as a long-running server would have them — waiting for
players (some seats taken), being played (a log that stops part-way), over (a whole
log) — with logs of real games: uniformly random legal play, replayed from templates,
so every stored game replays exactly under its own seed. A few games being played are
stopped where a bot must move (as after a crash in a bot's turn): those, and only
those, a starting server must read. Then starts `euphrates serve` on it and measures
the time to the first answer of `/api/health`, the server's memory then, and the time
and memory once it has claimed every game where a bot must move. The last line is one
JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from euphrates.core import Rng
from euphrates.games import GAMES as REGISTRY
from euphrates.games import game_definition

KINDS = (("waiting", 0.5), ("active", 0.2), ("over", 0.3))
GAMES = tuple(
    zip(REGISTRY, (0.8, *[0.2 / max(1, len(REGISTRY) - 1)] * (len(REGISTRY) - 1)), strict=True)
)
"""Stored games by game: a club plays the first game most."""
BOT_DUE = 0.05
"""Of the games being played, the share stopped where a bot must move."""
TEMPLATES = 6
"""Random games recorded per game and number of players; stored games reuse them."""
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"


@dataclass
class Template:
    game: str
    players: int
    seed: int
    actions: list[str]
    movers: list[int | None]
    """Who decides after each number of actions (movers[k]: after the first k)."""


@dataclass
class Filled:
    counts: dict[str, int] = field(default_factory=lambda: {k: 0 for k, _ in KINDS})
    bot_due: int = 0
    log_rows: int = 0
    seconds: float = 0.0


def templates(rng: random.Random) -> list[Template]:
    out = []
    for game, _ in GAMES:
        definition = game_definition(game)
        for players in (2, 3, 4):
            for _ in range(TEMPLATES):
                seed = rng.getrandbits(63)
                state = definition.new_game(players, seed, {})
                play = Rng(rng.getrandbits(32))
                actions: list[str] = []
                movers: list[int | None] = [state.to_move()]
                while not state.is_over():
                    action = state.random_action(play)
                    state.apply(action)
                    actions.append(str(action))
                    movers.append(state.to_move())
                out.append(Template(game, players, seed, actions, movers))
    return out


def _pick(rng: random.Random, weights: tuple[tuple[str, float], ...]) -> str:
    names = [n for n, _ in weights]
    return rng.choices(names, [w for _, w in weights])[0]


def rows(
    n: int, rng: random.Random, filled: Filled
) -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Per stored game: its `games` row, its `seats` rows and its `log` rows (times as
    datetimes; the SQLite writer formats them)."""
    pool: dict[str, list[Template]] = {}
    for t in templates(rng):
        pool.setdefault(t.game, []).append(t)
    start = datetime.now(UTC)
    for _ in range(n):
        kind = _pick(rng, KINDS)
        t = rng.choice(pool[_pick(rng, GAMES)])
        gid = secrets.token_urlsafe(9)
        created = start - timedelta(hours=rng.uniform(0.1, 20))
        if kind == "waiting":
            length = 0
        elif kind == "over":
            length = len(t.actions)
        else:
            length = rng.randrange(1, len(t.actions))
        bot_seat = None
        wake = None
        if kind == "active" and rng.random() < BOT_DUE:
            bot_seat = t.movers[length]
            wake = created
            filled.bot_due += 1
        elif kind == "over" and rng.random() < 0.3:
            bot_seat = rng.randrange(t.players)
        seats = [
            (
                gid,
                s,
                "bot" if s == bot_seat else "human",
                "beginner" if s == bot_seat else None,
                None if s == bot_seat else f"Player {s + 1}",
                None if s == bot_seat else secrets.token_hex(32),
                kind != "waiting" or (s < t.players - 1 and rng.random() < 0.3),
            )
            for s in range(t.players)
        ]
        game = (
            gid,
            t.game,
            t.players,
            "{}",
            str(t.seed),
            kind,
            secrets.token_hex(32),
            created,
            created + timedelta(minutes=rng.uniform(0, 30)) if kind != "waiting" else created,
            wake,
            None,
        )
        log = [
            (gid, v, t.movers[v - 1], "action", t.actions[v - 1], created)
            for v in range(1, length + 1)
        ]
        filled.counts[kind] += 1
        filled.log_rows += length
        yield game, seats, log


def fill_sqlite(path: Path, n: int, rng: random.Random) -> Filled:
    filled = Filled()
    began = time.perf_counter()

    def when(value: Any) -> Any:
        return value.strftime(SQLITE_TIME) if isinstance(value, datetime) else value

    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA synchronous=OFF")
        # History is written as it was: the rule that no version follows a game's end
        # (store/models.py) is lifted while the games are filled in, then restored.
        (trigger,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'log_only_in_play'"
        ).fetchone()
        conn.execute("DROP TRIGGER log_only_in_play")
        batch: dict[str, list[tuple[Any, ...]]] = {"games": [], "seats": [], "log": []}
        statements = {
            "games": "INSERT INTO games (id, game, players, options, seed, status, host_hash, "
            "created_at, updated_at, wake_at, driver) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            "seats": "INSERT INTO seats VALUES (?,?,?,?,?,?,?)",
            "log": "INSERT INTO log VALUES (?,?,?,?,?,?)",
        }

        def flush() -> None:
            for table, pending in batch.items():
                conn.executemany(statements[table], pending)
                pending.clear()

        for game, seats, log in rows(n, rng, filled):
            batch["games"].append(tuple(when(v) for v in game))
            batch["seats"].extend(seats)
            batch["log"].extend(tuple(when(v) for v in entry) for entry in log)
            if len(batch["log"]) > 200_000:
                flush()
        flush()
        conn.execute(trigger)
    filled.seconds = time.perf_counter() - began
    return filled


async def fill_postgres(url: str, n: int, rng: random.Random) -> Filled:
    import asyncpg

    filled = Filled()
    began = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ALTER TABLE log DISABLE TRIGGER log_only_in_play")  # as on SQLite
        columns = {
            "games": [
                "id",
                "game",
                "players",
                "options",
                "seed",
                "status",
                "host_hash",
                "created_at",
                "updated_at",
                "wake_at",
                "driver",
            ],
            "seats": ["game_id", "seat", "kind", "level", "name", "token_hash", "taken"],
            "log": ["game_id", "version", "seat", "kind", "text", "created_at"],
        }
        batch: dict[str, list[tuple[Any, ...]]] = {t: [] for t in columns}

        async def flush() -> None:
            for table, pending in batch.items():
                if pending:
                    await conn.copy_records_to_table(table, records=pending, columns=columns[table])
                    pending.clear()

        for game, seats, log in rows(n, rng, filled):
            batch["games"].append(game)
            batch["seats"].extend(seats)
            batch["log"].extend(log)
            if len(batch["log"]) > 200_000:
                await flush()
        await flush()
        await conn.execute("ALTER TABLE log ENABLE TRIGGER log_only_in_play")
    finally:
        await conn.close()
    filled.seconds = time.perf_counter() - began
    return filled


async def _migrate(url: str) -> None:
    from euphrates.server.common.config import async_db_url
    from euphrates.server.store.database import make_engine, migrate

    engine = make_engine(async_db_url(url))
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


def _health(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/health", timeout=30) as r:
        doc: dict[str, Any] = json.loads(r.read())
        return doc


def run(args: argparse.Namespace) -> int:
    from euphrates.server.serve import spawn

    rng = random.Random(args.seed if args.seed is not None else 1)
    tmp = None
    if args.db:
        db = args.db
    else:
        tmp = tempfile.TemporaryDirectory(prefix="euphrates-startup-")
        db = f"sqlite:///{tmp.name}/stored.db"
    try:
        asyncio.run(_migrate(db))
        if db.startswith("sqlite"):
            filled = fill_sqlite(Path(db[len("sqlite:///") :]), args.stored, rng)
        else:
            filled = asyncio.run(fill_postgres(db, args.stored, rng))
        print(
            f"stored {args.stored} games ({filled.counts}, {filled.bot_due} with a bot to "
            f"move, {filled.log_rows} log rows) in {filled.seconds:.1f} s",
            flush=True,
        )
        began = time.perf_counter()
        # No bot workers: a claimed game then stays claimed (no bot moves it on to a
        # person's turn), so the count of games driven says when all were claimed.
        proc, url = spawn(db, "--bot-workers", "0")
        try:
            health = _health(url)
            first = time.perf_counter() - began
            rss_first = float(health["rss_mb"])
            deadline = time.perf_counter() + 300
            while health["driving"] < filled.bot_due and time.perf_counter() < deadline:
                time.sleep(0.1)
                health = _health(url)
            claimed = time.perf_counter() - began
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    finally:
        if tmp is not None:
            tmp.cleanup()
    result = {
        "stored": args.stored,
        **filled.counts,
        "bot_due": filled.bot_due,
        "log_rows": filled.log_rows,
        "fill_s": round(filled.seconds, 1),
        "first_health_s": round(first, 2),
        "rss_mb_first": rss_first,
        "claimed": int(health["driving"]),
        "all_claimed_s": round(claimed, 2),
        "rss_mb_claimed": float(health["rss_mb"]),
        "rooms": int(health["rooms"]),
    }
    print(f"  first health answer  {result['first_health_s']} s after start, {rss_first} MB")
    print(
        f"  games with a bot to move claimed: {result['claimed']} of {filled.bot_due} after "
        f"{result['all_claimed_s']} s, {result['rss_mb_claimed']} MB"
    )
    print(json.dumps(result))
    sys.stdout.flush()
    return 0
