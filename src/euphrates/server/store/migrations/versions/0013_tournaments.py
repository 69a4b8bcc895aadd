"""Tournaments run by the server: the tournament, its players, its rounds' tables.

Revision ID: 0013_tournaments
Revises: 0012_fair_play
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_tournaments"
down_revision = "0012_fair_play"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(8), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots", sa.String(16)),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("late", sa.Boolean, nullable=False),
        sa.Column("most", sa.Integer, nullable=False),
        sa.Column("creator", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("schedule", sa.Text),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wake_at", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
    )
    op.create_index("tournaments_due", "tournaments", ["wake_at"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("left_round", sa.Integer),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), unique=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("places", sa.Text),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.UniqueConstraint("tournament_id", "round", "number", name="tournament_table_once"),
    )
    op.create_index("tournament_tables_round", "tournament_tables", ["tournament_id", "round"])


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_index("tournaments_due", "tournaments")
    op.drop_table("tournaments")
