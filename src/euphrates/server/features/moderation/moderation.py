"""Moderation as players and admins meet it: a player reported or blocked by name, a
report settled, an account muted, disabled or let back.

A mute or a disable takes effect at once on every server: the store sends the
`account` signal in the change's transaction, which closes the account's connections
in every other process, and this process closes its own here (a process does not hear
its own signals). A block needs no signal for the chat: each chat line is checked
against the blocks when it is read (store/chat.py); the lobbies' friends panels are
told (a `friends` signal to the other servers, `block_listeners` here), since a follow
across a block shows nothing (features/friends).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import clean_reason
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.database import Database
from euphrates.server.store.moderation import ModerationStore


class Moderation:
    def __init__(self, database: Database, rooms: Rooms) -> None:
        self.store = ModerationStore(database)
        self.accounts = AccountStore(database)
        self.rooms = rooms
        self.block_listeners: list[Callable[[], None]] = []
        """Told of each block made or lifted in this process (the friends' panels)."""

    async def player(self, name: str) -> User:
        found = await self.accounts.find(name)
        if found is None:
            raise Refusal("unknown_user", "no such player")
        return found[0]

    async def report(self, reporter: User, name: str, reason: str) -> None:
        target = await self.player(name)
        await self.store.report_player(target.id, reporter.id, clean_reason(reason))

    async def block(self, user: User, name: str, on: bool) -> bool:
        """Block a player, or no longer; whether `user` blocks them now."""
        target = await self.player(name)
        if on:
            await self.store.block(user.id, target.id)
        else:
            await self.store.unblock(user.id, target.id)
        for listen in self.block_listeners:
            listen()
        return on

    async def settle(self, admin: User, report_id: int, resolution: str) -> None:
        """Settle a report (and those of the same line or player); a mute or disable
        it decides closes the account's connections here too."""
        changed = await self.store.settle(report_id, resolution, by=admin.id)
        if changed is not None:
            self.rooms.account_changed(changed)

    async def standing(self, admin: User, name: str, **values: bool | None) -> dict[str, Any]:
        """Mute, unmute, disable or enable an account by name."""
        target = await self.player(name)
        chosen = {k: v for k, v in values.items() if v is not None}
        if not chosen:
            raise Refusal("bad_request", "say what to change: muted, disabled")
        if target.id == admin.id and chosen.get("disabled"):
            raise Refusal("bad_request", "you cannot disable your own account")
        await self.store.standing(target.id, **chosen)
        self.rooms.account_changed(target.id)
        return await self.account(name)

    async def account(self, name: str) -> dict[str, Any]:
        """An account's standing and its latest reports, for an admin."""
        found = await self.store.account(name)
        if found is None:
            raise Refusal("unknown_user", "no such player")
        return found
