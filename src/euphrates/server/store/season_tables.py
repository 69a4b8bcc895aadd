"""The club's season's tables — tournaments, friends, lifetime statistics — on the
schema's one metadata (models.py names them with every other table; Alembic's
migrations 0013–0015 create them)."""

from __future__ import annotations

import sqlalchemy as sa

from euphrates.server.store.metadata import metadata

# --- tournaments (features/tournaments, store/tournaments.py) -------------------------

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("game", sa.String(8), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),  # seats a table
    sa.Column("options", sa.Text, nullable=False),  # JSON, the game's options
    sa.Column("clock", sa.Text),  # JSON of the games' clock; NULL: none
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("bots", sa.String(16)),  # the level that fills a table's empty seats; NULL: byes
    sa.Column("format", sa.String(12), nullable=False),  # swiss | robin
    sa.Column("rounds", sa.Integer, nullable=False),  # planned (a round robin's: at its start)
    sa.Column("late", sa.Boolean, nullable=False),  # late entries (Swiss, first half)
    sa.Column("most", sa.Integer, nullable=False),  # entrants at most
    sa.Column("creator", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),  # signup | running | over | cancelled
    sa.Column("round", sa.Integer, nullable=False, server_default="0"),  # being played
    sa.Column("seed", sa.String(20), nullable=False),  # a round robin's schedule; never sent
    sa.Column("schedule", sa.Text),  # JSON: a round robin's rounds, fixed at its start
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("wake_at", sa.DateTime(timezone=True)),  # when a server must act on it
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True)),
)

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),  # the skill at entry: seeds and ties
    sa.Column("left_round", sa.Integer),  # withdrew: paired in no round after this one
)

tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    # One row per table of a round, or per bye (game_id NULL, one seat).
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),  # the table's number in its round
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), unique=True),
    sa.Column("seats", sa.Text, nullable=False),  # JSON: account per seat, null a bot
    sa.Column("places", sa.Text),  # JSON: once ended, each seat's place (1 best)
    sa.Column("ended_at", sa.DateTime(timezone=True)),
    sa.UniqueConstraint("tournament_id", "round", "number", name="tournament_table_once"),
)
sa.Index("tournaments_due", tournaments.c.wake_at)
sa.Index("tournament_tables_round", tournament_tables.c.tournament_id, tournament_tables.c.round)

# --- friends (features/friends/): who follows whom, invitations to a seat by name ---------
follows = sa.Table(
    "follows",
    metadata,
    # `user_id` follows `followed_id`: sees whether they are online and their games
    # (never both ways: a follow needs no consent, and blocks win over it).
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("followed_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

invitations = sa.Table(
    "invitations",
    metadata,
    # A table's host inviting an account by name to a free seat; it stands while
    # `pending`, the game waits, the seat is free and it is younger than a day.
    sa.Column("id", sa.String(32), primary_key=True),  # random, as a game's id
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),  # invited
    sa.Column("state", sa.String(10), nullable=False),
    # pending | accepted | declined | withdrawn
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True)),
)
sa.Index("follows_followed", follows.c.followed_id)
sa.Index("invitations_user", invitations.c.user_id, invitations.c.state)
sa.Index("invitations_host", invitations.c.host_id, invitations.c.created_at)
sa.Index("invitations_game", invitations.c.game_id)

# --- lifetime statistics (features/lifetime, store/lifetime.py) ---------------------------
# Per account, game and players, added to in the transaction of each game's end (never
# computed from the records when read); head to head per opponent ("u:<id>",
# "bot:<level>", "guest"); each ended game counted once.
_SUMMED = [
    f"{c}_{o}_{s}"
    for c in ("revolts", "wars")
    for o in ("won", "lost")
    for s in ("attacking", "defending")
]
_SUMMED += ["monuments", "treasures", "catastrophes", "placed"]
_SUMMED += [f"points_{c}" for c in ("red", "blue", "green", "black")]


def _key_and_counts(*counts: str) -> list[sa.Column[int] | sa.Column[str]]:
    return [
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(8), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        *(sa.Column(c, sa.Integer, nullable=False, server_default="0") for c in counts),
    ]


lifetime = sa.Table(
    "lifetime",
    metadata,
    # `places`, `score`: sums (the score: the weakest colour's points); `scored`: the
    # games with a score; `aborted` and `abandoned` games are not among `games`
    *_key_and_counts("games", "wins", "places", "scored", "score", "rated", "left_early"),
    *(
        sa.Column(c, sa.Integer, nullable=False, server_default="0")
        for c in ["aborted", "abandoned", *_SUMMED]
    ),
    sa.Column("best", sa.Integer),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
)
lifetime_opponents = sa.Table(
    "lifetime_opponents",
    metadata,
    *_key_and_counts("games", "above", "below", "tied"),
    sa.Column("opponent", sa.String(40), primary_key=True),
    sa.Column("opponent_id", sa.Integer, sa.ForeignKey("users.id")),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
)
lifetime_games = sa.Table(
    "lifetime_games",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # over | aborted
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
