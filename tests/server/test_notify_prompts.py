"""What a version means for turn messages (which seat waits, whether it is told), and
the outbox's rows as versions come and go: a prompt is told once however often a move
is taken back and made again, a move taken back before its message went out withdraws
it, and a seat that acted is no longer waited for."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, cast

import sqlalchemy as sa

from euphrates.core.protocol import GameState
from euphrates.server.common.clock import Clock, realtime, turn_based
from euphrates.server.common.config import async_db_url
from euphrates.server.features.notifications.notifier import Prompt, prompt
from euphrates.server.game.room import Room
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, make_engine, migrate, now
from euphrates.server.store.notices import NoticeStore
from euphrates.server.store.notify_settings import next_digest
from euphrates.server.store.rows import GameRow, SeatRow
from tests.server.harness import run_async


class State:
    """A state as the notifier reads it: standing actions, whose decision, the end."""

    def __init__(self, version: int, seat: int | None) -> None:
        self.version = version
        self.seat = seat

    def to_move(self) -> int | None:
        return self.seat

    def is_over(self) -> bool:
        return self.seat is None


def room(state: State, accounts: bool = True, clock: Clock | None = None) -> Room:
    seats = [
        SeatRow(0, "human", taken=True, user_id=1 if accounts else None),
        SeatRow(1, "human", taken=True, user_id=2 if accounts else None),
    ]
    row = GameRow("g1", "board", 2, {}, 7, "active", "h" * 64, seats, clock=clock)
    return cast(Room, SimpleNamespace(row=row, state=state, scripted=False))


def at(version: int, seat: int | None) -> GameState[Any]:
    return cast(GameState[Any], State(version, seat))


def test_a_prompt_is_each_time_the_decision_comes_to_another_seat() -> None:
    turn = Clock.new(turn_based(1), 2)
    assert prompt(room(State(5, 0), clock=turn), at(6, 1), None) == Prompt("g1", 1, 6, True)
    # The same seat goes on deciding: it waits still, it is not told again.
    assert prompt(room(State(5, 0)), at(6, 0), None) == Prompt("g1", 0, 6, False)
    # A defence asked of seat 1 during seat 0's turn is its own prompt, and so is the
    # decision coming back to seat 0 after it.
    assert prompt(room(State(6, 1)), at(7, 0), None) == Prompt("g1", 0, 7, True)
    # An undo gives the decision back to the seat at the table: nobody is told.
    assert prompt(room(State(6, 1)), at(5, 0), None) == Prompt("g1", 0, 5, False)
    # The game starts: its first seat is told.
    assert prompt(room(State(0, 0)), at(0, 0), "active") == Prompt("g1", 0, 0, True)
    # The game ends: nobody waits.
    assert prompt(room(State(40, 1)), at(41, None), "over") == Prompt("g1", None, 41, False)


def test_some_games_never_notify() -> None:
    fast = Clock.new(realtime("fast"), 2)
    assert prompt(room(State(5, 0), clock=fast), at(6, 1), None) is None
    assert prompt(room(State(5, 0), accounts=False), at(6, 1), None) is None
    bot = room(State(5, 0))
    bot.row.seats[1] = SeatRow(1, "bot", "strong", taken=True)
    assert prompt(bot, at(6, 1), None) == Prompt("g1", 1, 6, False)


def test_the_digest_comes_at_the_hour_chosen_in_the_players_zone() -> None:
    from datetime import UTC, datetime

    winter = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    assert next_digest(18, "Europe/Berlin", winter) == datetime(2026, 1, 10, 17, 0, tzinfo=UTC)
    assert next_digest(7, "Europe/Berlin", winter) == datetime(2026, 1, 11, 6, 0, tzinfo=UTC)
    summer = datetime(2026, 7, 10, 12, 0, tzinfo=UTC)
    assert next_digest(18, "Europe/Berlin", summer) == datetime(2026, 7, 10, 16, 0, tzinfo=UTC)
    # Exactly at the hour: the next day's.
    at_hour = datetime(2026, 1, 10, 17, 0, tzinfo=UTC)
    assert next_digest(18, "Europe/Berlin", at_hour) == at_hour + timedelta(days=1)


async def _outbox(url: str) -> None:
    engine = make_engine(async_db_url(url))
    await migrate(engine)
    notices = NoticeStore(Database(engine, "test"))
    n = db.notices
    try:
        async with engine.begin() as conn:
            for table in (db.notices, db.awaiting, db.notify_settings):
                await conn.execute(table.delete())
            ids = []
            for name in ("Pia", "Quin"):
                ids.append(
                    (
                        await conn.execute(
                            db.users.insert()
                            .values(
                                name=name,
                                name_key=name.lower(),
                                password_hash="!",
                                created_at=now(),
                            )
                            .returning(db.users.c.id)
                        )
                    ).scalar_one()
                )
            await conn.execute(
                db.games.insert().values(
                    id="outbox1",
                    game="board",
                    players=2,
                    options="{}",
                    seed="7",
                    status="active",
                    host_hash="h" * 64,
                    created_at=now(),
                    updated_at=now(),
                )
            )
            for seat, uid in enumerate(ids):
                await conn.execute(
                    db.seats.insert().values(
                        game_id="outbox1", seat=seat, kind="human", taken=True, user_id=uid
                    )
                )
            await conn.execute(
                db.notify_settings.insert().values(
                    user_id=ids[1], webhook="https://hooks.example.org/q", webhook_on=True
                )
            )

        async def step(seat: int | None, version: int, notify: bool) -> bool:
            async with engine.begin() as conn:
                return await notices.hand_over(
                    conn, "outbox1", seat, version, notify, now(), mail=False
                )

        async def outbox() -> list[tuple[str, str]]:
            async with engine.connect() as conn:
                got = await conn.execute(sa.select(n.c.key, n.c.state).order_by(n.c.id))
                return [(r.key, r.state) for r in got]

        async def waiting() -> list[int]:
            async with engine.connect() as conn:
                got = await conn.execute(sa.select(db.awaiting.c.seat))
                return sorted(r.seat for r in got)

        key = "turn:outbox1:1:6"
        assert await step(1, 6, True)  # Pia moves; Quin's turn: one message
        assert await outbox() == [(key, "queued")] and await waiting() == [1]
        assert not await step(0, 5, False)  # Pia takes it back before it went out
        assert await outbox() == [(key, "withdrawn")] and await waiting() == [0]
        assert await step(1, 6, True)  # and makes it again: the same message, queued
        assert await outbox() == [(key, "queued")]
        async with engine.begin() as conn:
            await conn.execute(n.update().values(state="sent"))
        await step(0, 5, False)  # taken back and made again once it went out:
        await step(1, 6, True)
        assert await outbox() == [(key, "sent")]  # no second message
        assert not await step(0, 7, True)  # Quin acted; Pia asked for nothing
        assert await waiting() == [0]
        await step(None, 60, False)  # the game ended
        assert await waiting() == []
    finally:
        async with engine.begin() as conn:
            for table in (db.notices, db.awaiting, db.notify_settings):
                await conn.execute(table.delete())
            await conn.execute(db.seats.delete().where(db.seats.c.game_id == "outbox1"))
            await conn.execute(db.games.delete().where(db.games.c.id == "outbox1"))
            await conn.execute(db.users.delete().where(db.users.c.name.in_(["Pia", "Quin"])))
        await engine.dispose()


def test_a_move_taken_back_and_made_again_is_told_once(db_url: str) -> None:
    run_async(asyncio.wait_for(_outbox(db_url), 60))
