"""Signals across processes on SQLite, and no version after a game's end.

`signals`: on SQLite one server serves a database, and a process beside it that
changes what the server holds (the `euphrates admin` command ending a game, disabling
or muting an account) leaves a row here, which the server reads every second — the
path PostgreSQL's `NOTIFY` takes there (store/database.py).

The trigger `log_only_in_play` drops a log entry whose game is not being played
(`status` other than `active`), on both databases: whichever process ends a game, a
move written after the end is not stored, and its writer is told so (the entry is
missing from `RETURNING`, as one another server appended first). On SQLite the
writes are serialised, so the end and a move are strictly ordered; on PostgreSQL the
trigger reads the status committed when the move's statement began.

Revision ID: 0011_signals
Revises: 0010_reviews
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_signals"
down_revision = "0010_reviews"
branch_labels = None
depends_on = None

SQLITE_TRIGGER = """
CREATE TRIGGER log_only_in_play BEFORE INSERT ON log
WHEN (SELECT status FROM games WHERE id = NEW.game_id) IS NOT 'active'
BEGIN SELECT RAISE(IGNORE); END
"""

PG_FUNCTION = """
CREATE FUNCTION log_only_in_play() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM games WHERE id = NEW.game_id) IS DISTINCT FROM 'active' THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""

PG_TRIGGER = """
CREATE TRIGGER log_only_in_play BEFORE INSERT ON log
FOR EACH ROW EXECUTE FUNCTION log_only_in_play()
"""


def upgrade() -> None:
    op.create_table(
        "signals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("payload", sa.String(1000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute(SQLITE_TRIGGER)
    else:
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER log_only_in_play")
    else:
        op.execute("DROP TRIGGER log_only_in_play ON log")
        op.execute("DROP FUNCTION log_only_in_play()")
    op.drop_table("signals")
