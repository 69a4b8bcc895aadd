"""Open tables and presence: a game listed in the lobby for anyone signed in to sit
at, the account that opened it, and which server holds whose live connections.

`games.open` marks a game created as an open table (it stays set once the game
starts: it was found in the lobby); `games.creator` is the account that opened it,
its host. `presence` has one row per server and mark — an account connected at a
place (a table, or the lobby: `place` empty, `seat` -1), or a seat held at a table
(`user_id` 0, for guests too) — written only when a mark appears on or leaves a
server, never per request; a server's rows count only while it beats in `servers`.

Revision ID: 0006_tables
Revises: 0005_notes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_tables"
down_revision = "0005_notes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))
    if op.get_bind().dialect.name == "sqlite":
        # In place: SQLite's ADD COLUMN takes a REFERENCES clause, and a batch would
        # copy `games`, which the seats, the log and the chat reference.
        op.execute("ALTER TABLE games ADD COLUMN creator INTEGER REFERENCES users (id)")
    else:
        op.add_column("games", sa.Column("creator", sa.Integer, nullable=True))
        op.create_foreign_key("games_creator_fk", "games", "users", ["creator"], ["id"])
    op.create_index(
        "games_open",
        "games",
        ["created_at"],
        postgresql_where=sa.text("open AND status = 'waiting'"),
        sqlite_where=sa.text("open AND status = 'waiting'"),
    )
    op.create_table(
        "presence",
        sa.Column("server_id", sa.String(32), primary_key=True),
        sa.Column("place", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_index("games_open", "games")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("games_creator_fk", "games", type_="foreignkey")
    op.drop_column("games", "creator")  # SQLite drops a column in place since 3.35
    op.drop_column("games", "open")
