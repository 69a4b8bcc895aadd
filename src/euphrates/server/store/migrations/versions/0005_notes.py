"""Notes: what happened to a game between its versions — a clock that ran out, a bot
standing in for a person or playing their late turn, a player back, a seat given to a
bot — so that the move log and the record tell everything, not only the moves.

Revision ID: 0005_notes
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_notes"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("by_seat", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("notes_game", "notes", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("notes_game", "notes")
    op.drop_table("notes")
