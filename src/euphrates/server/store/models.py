"""The database's tables, as SQLAlchemy Core `Table`s (the schema; Alembic's migrations
in `migrations/` create and change it).

A game is stored as what determines it — its options, seed and seats — and its log:
one row per version, an action or an undo, keyed by (game, version) so that two
servers can never both append the same version. Everything else (the state, the
views, the events) is rebuilt by replaying the log through the engine. A version is
appended only while its game is being played: a trigger (migration 0011) drops any
other, so a game ended from outside a server (the admin command) takes no move after
its end, whichever process tries.
"""

from __future__ import annotations

import sqlalchemy as sa

from euphrates.server.store.metadata import metadata

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(8), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON
    sa.Column("seed", sa.String(20), nullable=False),  # 0 .. 2**64-1 as text; never sent
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("wake_at", sa.DateTime(timezone=True)),
    # set while some server must act on the game (a bot to move); None otherwise
    sa.Column("driver", sa.String(32)),  # the server that acts on it
    sa.Column("clock", sa.Text),  # JSON of the clock chosen; NULL: no clock
    sa.Column("clock_seat", sa.Integer),  # whose clock runs
    sa.Column("clock_since", sa.DateTime(timezone=True)),
    sa.Column("deadline", sa.DateTime(timezone=True)),  # when it runs out
    sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
    # an open table: listed in the lobby, any signed-in player may sit at it
    sa.Column("creator", sa.Integer, sa.ForeignKey("users.id")),  # who opened it: its host
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    # rated: every person plays from an account, no take-backs; rated when it ends
    sa.Column("verdict", sa.String(16)),
    # a rated game's outcome for the ratings: counted | repeat | voided (docs/fair-play.md)
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # human | bot
    sa.Column("level", sa.String(16)),
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("taken", sa.Boolean, nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id")),
    # the account the seat belongs to: then its link alone no longer acts for it
    sa.Column("remaining_ms", sa.BigInteger),  # time left when its clock last stopped
    sa.Column("standin", sa.String(16)),  # level of a bot playing for the person
    sa.Column("forfeit_at", sa.DateTime(timezone=True)),
    # real-time, out of time: forfeited then unless its player is back
    sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
    # turn-based: deadlines missed in a row
)

log = sa.Table(
    "log",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer),
    sa.Column("kind", sa.String(8), nullable=False),  # action | undo
    sa.Column("text", sa.String(200)),
    sa.Column("bot", sa.String(16)),  # level of a bot that moved for a person's seat
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

chat = sa.Table(
    "chat",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer),
    sa.Column("author", sa.String(64), nullable=False),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id")),  # the account that said it
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),  # as chosen, NFC
    sa.Column("name_key", sa.String(128), nullable=False, unique=True),  # compared: folded
    sa.Column("password_hash", sa.String(256), nullable=False),  # Argon2id, encoded
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("muted", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
    # JSON: per-account options (notifications, …) that later features hang here
    sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),  # SHA-256 of the cookie's value
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id")),  # a chat line's game
    sa.Column("seq", sa.Integer),  # a chat line's number
    sa.Column("reporter", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False, server_default="chat"),  # chat | player
    sa.Column("target_user", sa.Integer, sa.ForeignKey("users.id")),  # a reported player
    sa.Column("resolved_at", sa.DateTime(timezone=True)),
    sa.Column("resolution", sa.String(16)),  # dismissed | muted | disabled
)

notes = sa.Table(
    "notes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),  # it happened after this version
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer),
    sa.Column("level", sa.String(16)),
    sa.Column("by_seat", sa.Integer),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

servers = sa.Table(
    "servers",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("beat", sa.DateTime(timezone=True), nullable=False),
)

presence = sa.Table(
    "presence",
    metadata,
    # One row per server and mark: an account connected at a place (a game's id, or ""
    # for the lobby; seat -1), or a seat held at a table (user_id 0). Written when a
    # mark appears on or leaves a server, never per request (presence.py).
    sa.Column("server_id", sa.String(32), primary_key=True),
    sa.Column("place", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, primary_key=True),
)

notify_settings = sa.Table(
    "notify_settings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("email", sa.String(254)),  # verified: turn mail goes here; only its owner sees it
    sa.Column("email_pending", sa.String(254)),  # given, its code not yet entered
    sa.Column("code_hash", sa.String(64)),  # SHA-256 of the code mailed to email_pending
    sa.Column("code_expires", sa.DateTime(timezone=True)),
    sa.Column("code_tries", sa.Integer, nullable=False, server_default="0"),
    sa.Column("webhook", sa.String(500)),  # its path often holds the hook's secret
    sa.Column("email_on", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("webhook_on", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("digest", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("digest_hour", sa.Integer, nullable=False, server_default="18"),
    sa.Column("timezone", sa.String(64), nullable=False, server_default="UTC"),
    sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
    sa.Column("digest_next", sa.DateTime(timezone=True)),  # set while the digest is chosen
)

awaiting = sa.Table(
    "awaiting",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    # a row while the game's decision is this account's seat's (the digest's list)
)

notices = sa.Table(
    "notices",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(80), nullable=False),  # turn:GAME:SEAT:N or digest:USER:DAY
    sa.Column("channel", sa.String(8), nullable=False),  # email | webhook
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id")),
    sa.Column("seat", sa.Integer),
    sa.Column("payload", sa.Text),  # a digest's games (JSON), composed when claimed
    sa.Column("state", sa.String(10), nullable=False),  # queued | sent | withdrawn | failed
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("lease_until", sa.DateTime(timezone=True)),
    sa.Column("leased_by", sa.String(32)),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("sent_at", sa.DateTime(timezone=True)),
    sa.UniqueConstraint("key", "channel", name="notices_key"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("game", sa.String(8), primary_key=True),
    sa.Column("grp", sa.String(4), primary_key=True),  # "2" | "3-4" (players)
    sa.Column("mu", sa.Float, nullable=False),  # OpenSkill Plackett–Luce
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("game", sa.String(8), nullable=False),
    sa.Column("grp", sa.String(4), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),  # as counted: abandons last
    sa.Column("before", sa.Integer, nullable=False),  # shown rating before the game
    sa.Column("after", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("user_id", "game_id", name="rating_history_once"),
)

quickmatch = sa.Table(
    "quickmatch",
    metadata,
    # One row per account waiting for a quick match (store/quickmatch.py), kept a while once
    # paired so that the player learns of the game made for them.
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("game", sa.String(8), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),  # matched at, as read when it joined
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id")),  # once paired
    sa.Column("matched_at", sa.DateTime(timezone=True)),
    # What the wait asks for besides the game (0016_quickmatch_tables): the defaults
    # are what every wait was before, a duel at the medium clock with no option.
    sa.Column("players", sa.Integer, nullable=False, server_default="2"),
    sa.Column("clock", sa.String(16), nullable=False, server_default="medium"),
    sa.Column("options", sa.Text, nullable=False, server_default="{}"),
)

reviews = sa.Table(
    "reviews",
    metadata,
    # One row per ended game: its review's job, then the review (reviews.py).
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("status", sa.String(8), nullable=False),  # queued | done | failed
    sa.Column("lease_until", sa.DateTime(timezone=True)),  # while a server computes it
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("doc", sa.Text),  # JSON, once done
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

signals = sa.Table(
    "signals",
    metadata,
    # SQLite only: the signals of a process beside the server (the admin command),
    # which the server reads every second (listen.py); kept an hour.
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("payload", sa.String(1000), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

rated_games = sa.Table(
    "rated_games",
    metadata,
    # One row per rated game that ended: its seats as rated (JSON: account or bot level,
    # place counted), what a void recomputes the ratings from, in order.
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("game", sa.String(8), nullable=False),
    sa.Column("grp", sa.String(4), nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("verdict", sa.String(16), nullable=False),  # counted | repeat | voided
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

aborts = sa.Table(
    "aborts",
    metadata,
    # A rated game an account left before it was played (docs/fair-play.md).
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

account_marks = sa.Table(
    "account_marks",
    metadata,
    # A device (the first-party cookie) or client address an account signed in from,
    # as a keyed hash: quick match pairs no two accounts sharing one.
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),  # device | address
    sa.Column("value", sa.String(64), primary_key=True),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
)

vacations = sa.Table(
    "vacations",
    metadata,
    # Days an account's turn-based clocks stand still.
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

blocks = sa.Table(
    "blocks",
    metadata,
    # `user_id` blocked `blocked_id`: no chat between them, never paired by quick match.
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

login_failures = sa.Table(
    "login_failures",
    metadata,
    # Wrong passwords per account name (its key) and client address: growing delays
    # for that pair, never for the owner from another address.
    sa.Column("name_key", sa.String(128), primary_key=True),
    sa.Column("address", sa.String(64), primary_key=True),
    sa.Column("failures", sa.Integer, nullable=False),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("locked_until", sa.DateTime(timezone=True)),
)

sa.Index("games_status", games.c.status)
sa.Index("rated_games_order", rated_games.c.game, rated_games.c.grp, rated_games.c.created_at)
sa.Index("aborts_user", aborts.c.user_id, aborts.c.created_at)
sa.Index("account_marks_value", account_marks.c.kind, account_marks.c.value)
sa.Index("vacations_user", vacations.c.user_id, vacations.c.ends_at)
sa.Index("blocks_blocked", blocks.c.blocked_id)
sa.Index(
    "reviews_queued",
    reviews.c.created_at,
    postgresql_where=reviews.c.status == "queued",
    sqlite_where=reviews.c.status == "queued",
)
sa.Index("ratings_board", ratings.c.game, ratings.c.grp)
sa.Index("seats_user", seats.c.user_id)
sa.Index("chat_user", chat.c.user_id)
sa.Index("sessions_user", sessions.c.user_id)
sa.Index("notes_game", notes.c.game_id, notes.c.id)
sa.Index(
    "games_wake",
    games.c.wake_at,
    postgresql_where=games.c.wake_at.isnot(None),
    sqlite_where=games.c.wake_at.isnot(None),
)
sa.Index("awaiting_user", awaiting.c.user_id)
sa.Index("notices_user", notices.c.user_id)
sa.Index(
    "notices_due",
    notices.c.due_at,
    postgresql_where=notices.c.state == "queued",
    sqlite_where=notices.c.state == "queued",
)
sa.Index(
    "notices_game",
    notices.c.game_id,
    postgresql_where=notices.c.state == "queued",
    sqlite_where=notices.c.state == "queued",
)
sa.Index(
    "notify_digest",
    notify_settings.c.digest_next,
    postgresql_where=notify_settings.c.digest_next.isnot(None),
    sqlite_where=notify_settings.c.digest_next.isnot(None),
)
sa.Index(
    "games_open",
    games.c.created_at,
    postgresql_where=sa.and_(games.c.open, games.c.status == "waiting"),
    sqlite_where=sa.and_(games.c.open, games.c.status == "waiting"),
)
sa.Index(
    "quickmatch_waiting",
    quickmatch.c.game,
    quickmatch.c.since,
    postgresql_where=quickmatch.c.game_id.is_(None),
    sqlite_where=quickmatch.c.game_id.is_(None),
)
sa.Index(
    "games_waiting",
    games.c.updated_at,
    postgresql_where=games.c.status == "waiting",
    sqlite_where=games.c.status == "waiting",
)

# The club's season — tournaments, friends, lifetime statistics — in a module of their
# own (season_tables.py), on the same metadata; named here as every other table.
from euphrates.server.store.season_tables import (  # noqa: E402
    follows,
    invitations,
    lifetime,
    lifetime_games,
    lifetime_opponents,
    tournament_players,
    tournament_tables,
    tournaments,
)

__all__ = [
    "aborts",
    "account_marks",
    "awaiting",
    "blocks",
    "chat",
    "follows",
    "games",
    "invitations",
    "lifetime",
    "lifetime_games",
    "lifetime_opponents",
    "log",
    "login_failures",
    "metadata",
    "notes",
    "notices",
    "notify_settings",
    "presence",
    "quickmatch",
    "rated_games",
    "rating_history",
    "ratings",
    "reports",
    "reviews",
    "seats",
    "servers",
    "sessions",
    "signals",
    "tournament_players",
    "tournament_tables",
    "tournaments",
    "users",
    "vacations",
]
