"""Fair play: what a rated game counted, who left it, who shares a device, deserters,
vacations, reports of players, blocks, admins and log-in failures.

- `games.verdict`: a rated game's outcome for the ratings — `counted`, `repeat` (not
  counted: the same accounts met too often that day) or `voided` (by an admin); a game
  left before it was played ends `aborted` (a status), unrated for everyone.
- `rated_games`: one row per rated game that ended, its seats as rated (account or bot
  level, place counted): what a void recomputes the ratings from, in order. Filled
  here for the games rated before, by replaying them through the registry.
- `aborts`: each rated game an account left before it was played (counted, throttled).
- `account_marks`: the devices (a first-party cookie) and client addresses an account
  signed in from, hashed, with when last seen: quick match pairs no two accounts that
  share one.
- `seats.forfeit_at`, `seats.missed`: a real-time seat out of time is forfeited at
  `forfeit_at` unless its player is back; a turn-based seat's deadlines missed in a row.
- `vacations`: the days an account's turn-based clocks stand still.
- `reports`: a report of a player besides a chat line (`kind`, `target_user`), and how
  an admin settled it; `blocks`: who blocked whom; `users.admin`: the server's admins.
- `login_failures`: wrong passwords per account name and client address, for growing
  delays that never lock the owner out from another address.

Revision ID: 0012_fair_play
Revises: 0011_signals
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0012_fair_play"
down_revision = "0011_signals"
branch_labels = None
depends_on = None

LEFT = ("resigned", "replaced", "left")


def upgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("verdict", sa.String(16)))
    with op.batch_alter_table("seats") as b:
        b.add_column(sa.Column("forfeit_at", sa.DateTime(timezone=True)))
        b.add_column(sa.Column("missed", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("users") as b:
        # A text default: SQLite adds the column in place (a clause would copy the table,
        # which its foreign keys forbid once accounts have games).
        b.add_column(sa.Column("admin", sa.Boolean, nullable=False, server_default="0"))
    with op.batch_alter_table("reports") as b:
        b.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="chat"))
        b.add_column(
            sa.Column("target_user", sa.Integer, sa.ForeignKey("users.id", name="reports_target"))
        )
        b.add_column(sa.Column("resolved_at", sa.DateTime(timezone=True)))
        b.add_column(sa.Column("resolution", sa.String(16)))
        b.alter_column("game_id", existing_type=sa.String(32), nullable=True)
        b.alter_column("seq", existing_type=sa.Integer, nullable=True)
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("grp", sa.String(4), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("rated_games_order", "rated_games", ["game", "grp", "created_at"])
    op.create_table(
        "aborts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("aborts_user", "aborts", ["user_id", "created_at"])
    op.create_table(
        "account_marks",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("value", sa.String(64), primary_key=True),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_marks_value", "account_marks", ["kind", "value"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("vacations_user", "vacations", ["user_id", "ends_at"])
    op.create_table(
        "blocks",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "login_failures",
        sa.Column("name_key", sa.String(128), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True)),
    )
    _rated_before(op.get_bind())


def _rated_before(conn: sa.Connection) -> None:
    """A `rated_games` row for each game rated before this migration: its seats, each
    placed as it was rated (the engine's result through the registry, those who left
    last), and every such game `counted`."""
    from euphrates.games import game_definition
    from euphrates.match.ratings import group_of, places_with_abandons

    rated = conn.execute(
        sa.text(
            "SELECT g.id, g.game, g.players, g.seed, g.options, MIN(h.created_at) AS at "
            "FROM rating_history h JOIN games g ON g.id = h.game_id "
            "GROUP BY g.id, g.game, g.players, g.seed, g.options"
        )
    ).all()
    for r in rated:
        seats = conn.execute(
            sa.text(
                "SELECT seat, kind, level, user_id FROM seats WHERE game_id = :g ORDER BY seat"
            ),
            {"g": r.id},
        ).all()
        log = conn.execute(
            sa.text("SELECT kind, text FROM log WHERE game_id = :g ORDER BY version"), {"g": r.id}
        ).all()
        state = game_definition(r.game).new_game(r.players, int(r.seed), json.loads(r.options))
        standing: list[str] = []
        for entry in log:
            if entry.kind == "undo":
                standing.pop()
            else:
                standing.append(entry.text)
        for text in standing:
            state.apply(text)
        outcome = state.outcome()
        if outcome is None:
            continue
        left = conn.execute(
            sa.text(
                "SELECT seat FROM notes WHERE game_id = :g AND kind IN ('resigned', 'replaced', "
                "'left') ORDER BY id"
            ),
            {"g": r.id},
        ).all()
        users = [s.user_id for s in seats]
        abandoned = [int(n.seat) for n in left if n.seat is not None and users[n.seat] is not None]
        places = places_with_abandons(list(outcome.places), abandoned)
        doc: list[dict[str, Any]] = [
            {"user": s.user_id, "level": s.level if s.user_id is None else None, "place": p}
            for s, p in zip(seats, places, strict=True)
        ]
        conn.execute(
            sa.text(
                "INSERT INTO rated_games (game_id, game, grp, seats, verdict, created_at) "
                "VALUES (:g, :game, :grp, :seats, 'counted', :at)"
            ),
            {
                "g": r.id,
                "game": r.game,
                "grp": group_of(r.players),
                "seats": json.dumps(doc),
                "at": r.at,
            },
        )
        conn.execute(sa.text("UPDATE games SET verdict = 'counted' WHERE id = :g"), {"g": r.id})


def downgrade() -> None:
    op.drop_table("login_failures")
    op.drop_index("blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("vacations_user", "vacations")
    op.drop_table("vacations")
    op.drop_index("account_marks_value", "account_marks")
    op.drop_table("account_marks")
    op.drop_index("aborts_user", "aborts")
    op.drop_table("aborts")
    op.drop_index("rated_games_order", "rated_games")
    op.drop_table("rated_games")
    op.execute("DELETE FROM reports WHERE game_id IS NULL OR seq IS NULL")
    with op.batch_alter_table("reports") as b:
        b.drop_constraint("reports_target", type_="foreignkey")
        b.drop_column("resolution")
        b.drop_column("resolved_at")
        b.drop_column("target_user")
        b.drop_column("kind")
        b.alter_column("game_id", existing_type=sa.String(32), nullable=False)
        b.alter_column("seq", existing_type=sa.Integer, nullable=False)
    # Plain columns go without recreating their tables (SQLite drops them in place): the
    # log's trigger (0011) reads `games`, which a recreation would take from under it.
    for table, column in (
        ("users", "admin"),
        ("seats", "missed"),
        ("seats", "forfeit_at"),
        ("games", "verdict"),
    ):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
