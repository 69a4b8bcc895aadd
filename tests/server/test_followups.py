"""Follow-ups of a stored version: written in its transaction exactly when the version
is, never for a version another server stored first, and a failing one stores
nothing."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.config import async_db_url
from euphrates.server.store import models as db
from euphrates.server.store.database import (
    Database,
    Followup,
    StorageError,
    make_engine,
    migrate,
)
from euphrates.server.store.games import GameStore
from euphrates.server.store.rows import GameRow, LogRow, SeatRow
from tests.server.harness import run_async


def _game(game_id: str) -> GameRow:
    seats = [SeatRow(0, "human", taken=True), SeatRow(1, "human", taken=True)]
    return GameRow(game_id, "board", 2, {}, 7, "active", "h" * 64, seats)


async def _scenario(url: str) -> None:
    engine = make_engine(async_db_url(url))
    await migrate(engine)
    store = GameStore(Database(engine, "test"))
    store.start()
    try:
        await store.create_game(_game("g1"))
        seen: list[int] = []

        def mark(version: int) -> Followup:
            async def followup(conn: AsyncConnection) -> None:
                # Inside the version's transaction: the new entry is already visible.
                got = await conn.execute(
                    sa.select(sa.func.max(db.log.c.version)).where(db.log.c.game_id == "g1")
                )
                assert got.scalar() == version
                seen.append(version)

            return followup

        entry = LogRow(1, 0, "action", "rF4")
        assert await store.append("g1", entry, after=(mark(1),))
        # The same version again, as a racing server would: refused, no follow-up.
        assert not await store.append("g1", entry, after=(mark(1),))
        assert seen == [1]

        async def broken(conn: AsyncConnection) -> None:
            raise RuntimeError("a follow-up that fails")

        with pytest.raises(StorageError):
            await store.append("g1", LogRow(2, 1, "action", "rG4"), after=(broken,))
        assert [r.version for r in await store.load_log("g1")] == [1]
        # The writer goes on: the next append is stored with its follow-up.
        assert await store.append(
            "g1",
            LogRow(2, 1, "action", "rG4"),
            after=(mark(2),),
        )
        assert seen == [1, 2]
    finally:
        await store.close()


def test_followups_run_once_with_their_version(db_url: str) -> None:
    run_async(asyncio.wait_for(_scenario(db_url), 60))
