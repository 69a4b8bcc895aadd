"""What the routes need, started with the application and stopped with it.

Start-up applies the migrations, starts the log writer and the bot workers, lets the
drivers claim every game whose next decision is a bot's (in the background, so a
restarted server carries on and still answers at once), on PostgreSQL listens for
other servers' notifications and shares who is online with them; the open tables and
the lobby's connections hear of every change; quick match pairs players; the sender of
turn messages starts; ended games are reviewed.
Shutdown stops them in the reverse order, handing this server's games over to the
others.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.features.accounts import passwords
from euphrates.server.features.notifications.notifier import Notifier
from euphrates.server.features.quickmatch.quickmatch import QuickMatch, RatingLookup
from euphrates.server.features.ratings import ratings
from euphrates.server.features.reviews.reviewer import Reviewer
from euphrates.server.features.tables.lobby import Lobby
from euphrates.server.features.tables.tables import Tables
from euphrates.server.game.claims import Drivers
from euphrates.server.game.rooms import Hub
from euphrates.server.game.workers import BotPool
from euphrates.server.store import models as db
from euphrates.server.store.games import Store
from euphrates.server.store.listen import Listener
from euphrates.server.store.ratings import match_rating
from euphrates.server.transport.guard import Buckets


class Services:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._hub: Hub | None = None
        self._tables: Tables | None = None
        self._lobby: Lobby | None = None
        self._notifier: Notifier | None = None
        self._quickmatch: QuickMatch | None = None
        self._reviewer: Reviewer | None = None
        self.rating: RatingLookup = match_rating
        """The rating quick match pairs by (quickmatch.py, ratingstore.py)."""
        self.created = Buckets(settings.games_per_hour / 3600, settings.games_per_hour)
        """Games each client address may still create (a bucket an hour wide)."""
        per_minute = settings.logins_per_minute
        self.logins = Buckets(per_minute / 60, per_minute)
        """Log-in and sign-up attempts per client address."""
        self.login_names = Buckets(per_minute / 60, per_minute)
        """Log-in attempts per account name, from any address."""
        self.signups = Buckets(settings.signups_per_hour / 3600, settings.signups_per_hour)

    @property
    def hub(self) -> Hub:
        """The games of this process (from start-up on)."""
        assert self._hub is not None, "the server has not started"
        return self._hub

    @property
    def tables(self) -> Tables:
        """The open tables (from start-up on)."""
        assert self._tables is not None, "the server has not started"
        return self._tables

    @property
    def lobby(self) -> Lobby:
        """The open lobbies' connections (from start-up on)."""
        assert self._lobby is not None, "the server has not started"
        return self._lobby

    @property
    def quickmatch(self) -> QuickMatch:
        """The quick match pool (from start-up on)."""
        assert self._quickmatch is not None, "the server has not started"
        return self._quickmatch

    @property
    def reviewer(self) -> Reviewer:
        """Ended games' reviews (from start-up on)."""
        assert self._reviewer is not None, "the server has not started"
        return self._reviewer

    @property
    def notifier(self) -> Notifier:
        """Turn messages out of the browser (from start-up on)."""
        assert self._notifier is not None, "the server has not started"
        return self._notifier

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any) -> AsyncIterator[None]:
        settings = self.settings
        engine = db.make_engine(async_db_url(settings.db_url))
        await db.migrate(engine)
        await passwords.warm()
        store = Store(engine, origin=secrets.token_hex(8))
        await store.start()
        pool = None
        if settings.bot_workers > 0:
            pool = BotPool(settings.bot_workers, settings.bot_command)
            await pool.start()
        hub = self._hub = Hub(store, settings, pool)
        tables = self._tables = Tables(hub)
        lobby = self._lobby = Lobby(tables)
        quickmatch = self._quickmatch = QuickMatch(hub, lobby, self.rating)
        notifier = self._notifier = Notifier(hub, settings)
        hub.followup_makers.append(notifier.make)
        hub.followup_makers.append(ratings.maker)
        reviewer = self._reviewer = Reviewer(hub, pool, settings.review_poll)
        hub.followup_makers.append(reviewer.make)
        listener = None
        if not store.sqlite:
            listener = Listener(engine, hub)
            await listener.start()
        hub.start()
        drivers = Drivers(hub)
        await drivers.start()
        await hub.presence.start()  # after the drivers' first beat: its marks count
        lobby.start()
        quickmatch.start()
        await notifier.start()
        reviewer.start()
        try:
            yield
        finally:
            await reviewer.close()
            await notifier.close()
            if listener is not None:
                await listener.close()
            await quickmatch.close()
            await lobby.close()
            await hub.presence.close()
            await drivers.stop()
            await hub.close()
            await drivers.leave()
            if pool is not None:
                await pool.close()
            await store.close()
