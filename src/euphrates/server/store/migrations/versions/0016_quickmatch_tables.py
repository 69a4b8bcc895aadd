"""Quick match for every table: player count, clock and options of a wait.

A wait names the table it wants: how many players (2–4), the clock (a real-time
preset's name, or `turn:<days>`) and the game's options that differ from their
defaults (canonical JSON). The columns' defaults are what every wait was before —
a duel at the medium clock with no option — so a row written by an older server
keeps its meaning. SQLite adds a column with a constant default in place.

Revision ID: 0016_quickmatch_tables
Revises: 0015_lifetime
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_quickmatch_tables"
down_revision = "0015_lifetime"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "quickmatch", sa.Column("players", sa.Integer, nullable=False, server_default="2")
    )
    op.add_column(
        "quickmatch", sa.Column("clock", sa.String(16), nullable=False, server_default="medium")
    )
    op.add_column("quickmatch", sa.Column("options", sa.Text, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("quickmatch") as batch:
        batch.drop_column("options")
        batch.drop_column("clock")
        batch.drop_column("players")
