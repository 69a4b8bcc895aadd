"""Accounts as players meet them: signing in, a profile, and deleting an account — the
policy over what store/accounts.py keeps.

Deleting an account is a change of every game it plays, not only of its rows: its
games still waiting free its seats (an open table it opened is abandoned), and in its
games being played a bot plays its seats to the end (game/seating.py,
`account_left`), so nobody waits for a deleted player for ever. Every server closes
its connections at once (an `account` signal), here and in every other process.
"""

from __future__ import annotations

import logging
from typing import Any

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.lockout import Lockout
from euphrates.server.features.accounts.passwords import verify_password
from euphrates.server.game.rooms import Rooms
from euphrates.server.store import ratings as rating_reads
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.database import Database
from euphrates.server.store.friends import FriendStore
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.notify_settings import NotifySettings

log = logging.getLogger("euphrates.server")

BAD_LOGIN = "that name and password do not match an account"


class Accounts:
    def __init__(self, database: Database, rooms: Rooms) -> None:
        self.database = database
        self.store = AccountStore(database)
        self.moderation = ModerationStore(database)
        self.lockout = Lockout(database)
        self.rooms = rooms

    async def login(self, name: str, password: str, address: str) -> User:
        """The account whose name and password these are. An unknown name and a wrong
        password are refused alike, after the same work (one Argon2id check), and
        counted alike against the name from `address` (lockout.py)."""
        await self.lockout.admit(name, address)
        # No account's name holds a control character or a lone surrogate (nor can
        # PostgreSQL look one up): such a name is unknown, checked as one.
        found = await self.store.find(name) if name.isprintable() else None
        ok = await verify_password(found[1] if found else None, password)
        if not ok or found is None:
            raise Refusal("bad_login", BAD_LOGIN)
        await self.lockout.passed(name, address)
        if found[0].disabled:  # only someone with the password learns this
            raise Refusal("account_disabled", "this account is disabled")
        return found[0]

    async def confirm(self, user: User, password: str, address: str) -> None:
        """The signed-in account's password again, before a change it guards (a new
        password, the account's deletion): counted as a log-in's is, so that a session
        left open is no faster way to guess it."""
        await self.lockout.admit(user.name, address)
        found = await self.store.find(user.name)
        if found is None or not await verify_password(found[1], password):
            raise Refusal("bad_login", "that password is not this account's")
        await self.lockout.passed(user.name, address)

    async def profile(self, name: str, viewer: User | None = None) -> dict[str, Any]:
        """A player's profile; to another signed-in player, whether they block them
        (never whether they are blocked: a block is its maker's alone to know)."""
        found = await self.store.find(name)
        if found is None:
            raise Refusal("unknown_user", "no such player")
        user = found[0]
        blocked = None
        if viewer is not None and viewer.id != user.id:
            blocked = await self.moderation.blocks(viewer.id, user.id)
        return {
            **user.public(),
            "games": await self.store.counts(user.id),
            "finished": await self.store.games(user.id, ended_only=True, limit=50),
            **await rating_reads.of_user(self.database, user.id),
            "blocked": blocked,
        }

    async def delete(self, user: User) -> None:
        """Delete the account: its address, hook and messages go, so do its follows
        both ways and its pending invitations, its name is
        replaced everywhere, its sessions end, and each game it plays goes on without
        it (the module's docstring)."""
        games = await self.rooms.store.open_games_of(user.id)
        await NotifySettings(self.database).forget(user.id)
        await FriendStore(self.database).forget_account(user.id)
        await self.store.delete(user.id)
        for game_id in games:
            try:
                room = await self.rooms.room(game_id)
                await room.account_left(user.id)
            except Refusal as r:  # ended or expired meanwhile: nothing left to do
                log.info("game %s after account %d left: %s", game_id, user.id, r.message)
        self.rooms.account_changed(user.id)
