"""What the routes need, started with the application and stopped with it: the one
place the server is put together.

Start-up applies the migrations, opens the database, starts the log writer and the
bot workers, the rooms, the claims that drive every game due (in the background, so a
restarted server carries on and still answers at once), the listener that hears
other processes (PostgreSQL's `NOTIFY`, SQLite's signals table), presence, the open
tables and their lobby, quick match, turn messages and reviews; each feature hooks
into the rooms (follow-ups, seat rules, drivers, watchers). Shutdown stops them in
the reverse order, handing this server's games over to the others.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

from euphrates.server.common.buckets import Buckets
from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.features.accounts.accounts import Accounts
from euphrates.server.features.accounts.passwords import warm
from euphrates.server.features.chat.chat import Chat
from euphrates.server.features.fairplay.fairplay import FairPlay
from euphrates.server.features.friends.friends import Friends
from euphrates.server.features.friends.live import FriendsLive
from euphrates.server.features.hints.hints import HintBudget
from euphrates.server.features.lifetime import lifetime
from euphrates.server.features.moderation.moderation import Moderation
from euphrates.server.features.notifications.notifier import Notifier
from euphrates.server.features.presence.presence import Presence
from euphrates.server.features.quickmatch.quickmatch import QuickMatch, RatingLookup
from euphrates.server.features.ratings import ratings
from euphrates.server.features.reviews.reviewer import Reviewer
from euphrates.server.features.tables.lobby import Lobby
from euphrates.server.features.tables.tables import Tables
from euphrates.server.features.tour.tour import TourDriver
from euphrates.server.features.tournaments.tournaments import Tournaments
from euphrates.server.game.claims import Claims
from euphrates.server.game.rooms import Rooms
from euphrates.server.game.workers import BotPool
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.games import GameStore
from euphrates.server.store.listen import Listener
from euphrates.server.store.ratings import match_rating


class Services:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._rooms: Rooms | None = None
        self._accounts: Accounts | None = None
        self._chat: Chat | None = None
        self._moderation: Moderation | None = None
        self._tables: Tables | None = None
        self._lobby: Lobby | None = None
        self._notifier: Notifier | None = None
        self._quickmatch: QuickMatch | None = None
        self._reviewer: Reviewer | None = None
        self._presence: Presence | None = None
        self._fairplay: FairPlay | None = None
        self._friends: Friends | None = None
        self._tournaments: Tournaments | None = None
        self.rating: RatingLookup = match_rating
        """The rating quick match pairs by (quickmatch.py, store/ratings.py)."""
        self.created = Buckets(settings.games_per_hour / 3600, settings.games_per_hour)
        """Games each client address may still create (a bucket an hour wide)."""
        per_minute = settings.logins_per_minute
        self.logins = Buckets(per_minute / 60, per_minute)
        """Log-in and sign-up attempts per client address (a name's wrong passwords are
        counted in the database: accounts/lockout.py)."""
        self.signups = Buckets(settings.signups_per_hour / 3600, settings.signups_per_hour)
        self.hints = HintBudget(settings.hints_per_minute)
        self.connections: dict[str, int] = {}
        """WebSocket connections held per client address (transport/ws.py)."""

    def _started(self, what: Any) -> Any:
        assert what is not None, "the server has not started"
        return what

    @property
    def rooms(self) -> Rooms:
        """The games of this process (from start-up on)."""
        rooms: Rooms = self._started(self._rooms)
        return rooms

    @property
    def accounts(self) -> Accounts:
        accounts: Accounts = self._started(self._accounts)
        return accounts

    @property
    def chat(self) -> Chat:
        chat: Chat = self._started(self._chat)
        return chat

    @property
    def moderation(self) -> Moderation:
        moderation: Moderation = self._started(self._moderation)
        return moderation

    @property
    def tables(self) -> Tables:
        """The open tables (from start-up on)."""
        tables: Tables = self._started(self._tables)
        return tables

    @property
    def lobby(self) -> Lobby:
        """The open lobbies' connections (from start-up on)."""
        lobby: Lobby = self._started(self._lobby)
        return lobby

    @property
    def quickmatch(self) -> QuickMatch:
        """The quick match pool (from start-up on)."""
        quickmatch: QuickMatch = self._started(self._quickmatch)
        return quickmatch

    @property
    def reviewer(self) -> Reviewer:
        """Ended games' reviews (from start-up on)."""
        reviewer: Reviewer = self._started(self._reviewer)
        return reviewer

    @property
    def notifier(self) -> Notifier:
        """Turn messages out of the browser (from start-up on)."""
        notifier: Notifier = self._started(self._notifier)
        return notifier

    @property
    def fairplay(self) -> FairPlay:
        """Fair play's rules beside the games' own (from start-up on)."""
        fairplay: FairPlay = self._started(self._fairplay)
        return fairplay

    @property
    def tournaments(self) -> Tournaments:
        """Tournaments run by the server (from start-up on)."""
        tournaments: Tournaments = self._started(self._tournaments)
        return tournaments

    @property
    def friends(self) -> Friends:
        """Follows and invitations to a seat by name (from start-up on)."""
        friends: Friends = self._started(self._friends)
        return friends

    @property
    def presence(self) -> Presence:
        """Who is online, across servers (from start-up on)."""
        presence: Presence = self._started(self._presence)
        return presence

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any) -> AsyncIterator[None]:
        settings = self.settings
        engine = make_engine(async_db_url(settings.db_url))
        await migrate(engine)
        await warm()
        database = Database(engine, origin=secrets.token_hex(8))
        store = GameStore(database)
        store.start()
        pool = None
        if settings.bot_workers > 0:
            pool = BotPool(settings.bot_workers, settings.bot_command, settings.hint_workers)
            await pool.start()
        rooms = self._rooms = Rooms(store, settings, pool)
        rooms.drivers.register(TourDriver())
        presence = self._presence = Presence(database, settings.presence_grace)
        rooms.presence_of = presence.of_seats
        self._accounts = Accounts(database, rooms)
        self._chat = Chat(settings, database, rooms.chat)
        self._moderation = Moderation(database, rooms)
        tables = self._tables = Tables(rooms, presence)
        lobby = self._lobby = Lobby(tables, rooms)
        fairplay = self._fairplay = FairPlay(database, rooms)
        rooms.seat_rules.append(fairplay.seat_rule)
        quickmatch = self._quickmatch = QuickMatch(rooms, lobby, presence, fairplay, self.rating)
        notifier = self._notifier = Notifier(database, settings)
        rooms.followup_makers.append(notifier.make)
        rooms.followup_makers.append(ratings.maker)
        rooms.followup_makers.append(lifetime.maker)
        rooms.seat_rules.append(ratings.check_seats)
        reviewer = self._reviewer = Reviewer(
            rooms, pool, settings.review_poll, settings.review_depth
        )
        rooms.followup_makers.append(reviewer.make)
        friends = self._friends = Friends(database, rooms, presence, notifier)
        friends_live = FriendsLive(friends, lobby, rooms, presence)
        self.moderation.block_listeners.append(friends_live.everyone)
        tournaments = self._tournaments = Tournaments(
            rooms, lobby, fairplay, settings, self.rating, notifier
        )
        listener = Listener(database, rooms.heard, rooms.missed)
        await listener.start()
        rooms.start()
        claims = Claims(rooms)
        await claims.start()
        await presence.start()  # after the claims' first beat: its marks count
        lobby.start()
        quickmatch.start()
        await notifier.start()
        reviewer.start()
        friends_live.start()
        tournaments.start_loop()
        try:
            yield
        finally:
            await tournaments.close()
            await friends_live.close()
            await reviewer.close()
            await notifier.close()
            await listener.close()
            await quickmatch.close()
            await lobby.close()
            await presence.close()
            await claims.stop()
            await rooms.close()
            await claims.leave()
            if pool is not None:
                await pool.close()
            await store.close()
            await database.close()
