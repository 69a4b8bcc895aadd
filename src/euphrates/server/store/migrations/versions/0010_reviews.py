"""Reviews: each ended game's review, computed once by the bot workers.

One row per game that ended (`game_id` is the key: one review a game), written
`queued` in the transaction of the game's final version; a server claims it with
`SELECT … FOR UPDATE SKIP LOCKED` and a lease (`lease_until`), so exactly one
computes it and a server that stopped mid-review leaves it to another; then `done`
with the review as JSON (`doc`), or `failed` after `attempts` tries.

Revision ID: 0010_reviews
Revises: 0009_quickmatch
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_reviews"
down_revision = "0009_quickmatch"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("doc", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "reviews_queued",
        "reviews",
        ["created_at"],
        postgresql_where=sa.text("status = 'queued'"),
        sqlite_where=sa.text("status = 'queued'"),
    )


def downgrade() -> None:
    op.drop_index("reviews_queued", "reviews")
    op.drop_table("reviews")
