"""Which games need a process to act, which process does, and which processes live.

`games.wake_at` is set while a game needs some server to act on it (today: a bot must
move; later a clock's deadline) and `games.driver` names the server that does. Each
server keeps its row in `servers` beating; a game whose driver stopped beating is
claimed by another (`SELECT … FOR UPDATE SKIP LOCKED`). Start-up reads only these
games, through the partial index, never every game; waiting games are expired through
the other one.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("wake_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("driver", sa.String(32), nullable=True))
    op.create_index(
        "games_wake",
        "games",
        ["wake_at"],
        postgresql_where=sa.text("wake_at IS NOT NULL"),
        sqlite_where=sa.text("wake_at IS NOT NULL"),
    )
    op.create_index(
        "games_waiting",
        "games",
        ["updated_at"],
        postgresql_where=sa.text("status = 'waiting'"),
        sqlite_where=sa.text("status = 'waiting'"),
    )
    op.create_table(
        "servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("beat", sa.DateTime(timezone=True), nullable=False),
    )
    # Games being played with a bot seat may have a bot to move: mark them all; the
    # server that claims one and finds a person to move clears the mark.
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("wake_at", sa.DateTime(timezone=True)),
    )
    seats = sa.table("seats", sa.column("game_id", sa.String), sa.column("kind", sa.String))
    with_bots = sa.select(seats.c.game_id).where(seats.c.kind == "bot")
    op.execute(
        games.update()
        .where(games.c.status == "active", games.c.id.in_(with_bots))
        .values(wake_at=datetime.now(UTC))
    )


def downgrade() -> None:
    op.drop_table("servers")
    op.drop_index("games_waiting", "games")
    op.drop_index("games_wake", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("driver")
        batch.drop_column("wake_at")
