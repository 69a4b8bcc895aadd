"""Clocks: each game's clock as chosen, whose clock runs and its deadline, each seat's
time left and the bot that stands in for it, and which log entries a bot made for a
person's seat.

`games.clock` is the clock's JSON (NULL: no clock); `clock_seat`, `clock_since` and
`deadline` say whose clock runs since when and when it runs out (the deadline is also
the game's `wake_at` while nothing else is due, so the drivers act on it). Seats keep
`remaining_ms` (their time when their clock last stopped) and `standin` (the level of a
bot playing for them). `log.bot` names the level of a bot that made that move for a
person's seat, for the record.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))
        batch.add_column(sa.Column("clock_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("clock_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("remaining_ms", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("standin", sa.String(16), nullable=True))
    with op.batch_alter_table("log") as batch:
        batch.add_column(sa.Column("bot", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("log") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("standin")
        batch.drop_column("remaining_ms")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("clock_since")
        batch.drop_column("clock_seat")
        batch.drop_column("clock")
