"""Ratings: whether a game is rated, each account's rating per game and player-count
group, and a history row per rated game of each account.

`ratings` holds μ and σ of OpenSkill's Plackett–Luce model and the games counted;
`rating_history` one row per account and rated game (unique: a game rates each account
once), with the shown rating before and after and the place counted.

Revision ID: 0008_ratings
Revises: 0007_notifications
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_ratings"
down_revision = "0007_notifications"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(8), primary_key=True),
        sa.Column("grp", sa.String(4), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["game", "grp"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("grp", sa.String(4), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "game_id", name="rating_history_once"),
    )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_index("ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_column("games", "rated")
