"""Quick match: the players waiting for an opponent.

One row per account in the pool (`user_id` is the key: one game at a time): the game,
the rating it is matched at (read when it joined), since when it waits, and once
paired the game made for it (`game_id`, `matched_at`), kept a little while so that a
player who was not connected at that moment learns of it. Servers claim the rows
still waiting with `SELECT … FOR UPDATE SKIP LOCKED`, so nobody is paired twice.

Revision ID: 0009_quickmatch
Revises: 0008_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_quickmatch"
down_revision = "0008_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quickmatch",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id")),
        sa.Column("matched_at", sa.DateTime(timezone=True)),
    )
    op.create_index(
        "quickmatch_waiting",
        "quickmatch",
        ["game", "since"],
        postgresql_where=sa.text("game_id IS NULL"),
        sqlite_where=sa.text("game_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("quickmatch_waiting", "quickmatch")
    op.drop_table("quickmatch")
