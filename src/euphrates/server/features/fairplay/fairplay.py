"""Fair play's rules that are not a game's own change (docs/fair-play.md): who may take
a rated seat after leaving rated games before they were played, the devices and
addresses accounts sign in from (quick match pairs no two that share one), and
vacations from turn-based clocks.

What a game itself does when a player leaves — abort, a duel's end, a bot for the rest
— is the room's (game/seating.py); the rating's verdicts are the ratings' store's.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from datetime import timedelta

from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Database
from euphrates.server.store.fairplay import FairPlayStore, Vacation
from euphrates.server.store.rows import now

log = logging.getLogger("euphrates.server")

ABORT_LIMIT = 3
"""Rated games an account may leave before they were played in ABORT_WINDOW; then it
takes no rated seat until the oldest of them is ABORT_WINDOW old."""
ABORT_WINDOW = timedelta(days=1)
VACATION_DAYS = 21
"""Days a year an account's turn-based clocks may stand still."""
YEAR = timedelta(days=365)
DEVICE_COOKIE = "euphrates_device"
DEVICE_DAYS = 400


def new_device() -> str:
    return secrets.token_urlsafe(16)


class FairPlay:
    def __init__(self, database: Database, rooms: Rooms) -> None:
        self.store = FairPlayStore(database)
        self.rooms = rooms

    # --- aborts ------------------------------------------------------------------------
    async def check_aborts(self, user_id: int) -> None:
        """Refuse a rated seat to an account that aborted too many rated games lately."""
        since = now() - ABORT_WINDOW
        if await self.store.aborts_since(user_id, since) >= ABORT_LIMIT:
            raise Refusal(
                "too_many_aborts",
                f"this account left {ABORT_LIMIT} rated games before they were played in "
                "the last day: it takes no rated seat for a while (docs/fair-play.md)",
            )

    async def seat_rule(self, room: Room, seats: frozenset[int], user: User | None) -> None:
        """The rooms' seat rule: a rated seat is not taken by an account that aborts."""
        if room.row.rated and seats and user is not None:
            await self.check_aborts(user.id)

    # --- devices and addresses ------------------------------------------------------------
    async def seen(self, user_id: int, device: str | None, address: str) -> None:
        """The account signed up or in from this device and address. A loopback address
        is no mark: a server reached on its own machine only (no proxy telling the
        clients' addresses) sees every player there, and would pair nobody."""
        if device:
            await self.store.mark(user_id, "device", device)
        try:
            local = ipaddress.ip_address(address).is_loopback
        except ValueError:
            local = True
        if not local:
            await self.store.mark(user_id, "address", address)

    async def apart(self, user_ids: list[int]) -> set[frozenset[int]]:
        """Quick match's pairs kept apart: accounts sharing a device or an address seen
        lately (a person's second account), or one of which blocked the other."""
        kept = await self.store.sharing(user_ids)
        kept |= await self.blocked(user_ids)
        return kept

    async def blocked(self, user_ids: list[int]) -> set[frozenset[int]]:
        return await self.store.blocked(user_ids)

    # --- vacations ---------------------------------------------------------------------------
    async def vacation_state(self, user_id: int) -> tuple[Vacation | None, float]:
        """The account's vacation now, if any, and the days it has left this year."""
        at = now()
        taken = await self.store.vacations(user_id, at - YEAR)
        current = next((v for v in taken if v.starts <= at < v.ends), None)
        used = sum(
            (min(v.ends, at) - max(v.starts, at - YEAR)).total_seconds() / 86400
            for v in taken
            if v.starts < at
        )
        planned = sum((v.ends - max(v.starts, at)).total_seconds() / 86400 for v in taken)
        return current, max(0.0, VACATION_DAYS - used - planned)

    async def start_vacation(self, user: User, days: int) -> None:
        """`days` of vacation from now: the account's turn-based clocks stand still."""
        current, left = await self.vacation_state(user.id)
        if current is not None:
            raise Refusal("vacation_refused", "you are on vacation already")
        if days > left:
            raise Refusal(
                "vacation_refused",
                f"{int(left)} of {VACATION_DAYS} days of vacation are left this year",
            )
        at = now()
        await self.store.start_vacation(user.id, at, at + timedelta(days=days))
        await self._tell_games(user.id, started=True)

    async def end_vacation(self, user: User) -> None:
        """Back early: the clocks run again."""
        if not await self.store.end_vacation(user.id, now()):
            raise Refusal("vacation_refused", "you are not on vacation")
        await self._tell_games(user.id, started=False)

    async def _tell_games(self, user_id: int, started: bool) -> None:
        for game_id in await self.store.turn_based_games(user_id):
            try:
                room = await self.rooms.room(game_id)
                for seat in [s.seat for s in room.row.seats if s.user_id == user_id]:
                    await room.vacation_changed(seat, started)
            except Refusal as r:  # ended meanwhile
                log.info("game %s: vacation not applied: %s", game_id, r.message)
