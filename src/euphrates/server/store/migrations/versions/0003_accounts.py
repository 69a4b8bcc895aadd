"""Accounts: users, their server-side sessions, seats and chat lines tied to an
account, and reports of chat lines.

A seat with a `user_id` belongs to that account: its link alone no longer acts for it.
`users.settings` is a JSON object for per-account options that later features add
(notifications); nothing here reads it. Self-contained: it touches only what it adds.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("muted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
        sa.UniqueConstraint("name_key", name="users_name_key_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("sessions_user", "sessions", ["user_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("reporter", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    for table in ("seats", "chat"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
            batch.create_foreign_key(f"{table}_user_fk", "users", ["user_id"], ["id"])
        op.create_index(f"{table}_user", table, ["user_id"])


def downgrade() -> None:
    for table in ("chat", "seats"):
        op.drop_index(f"{table}_user", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(f"{table}_user_fk", type_="foreignkey")
            batch.drop_column("user_id")
    op.drop_table("reports")
    op.drop_index("sessions_user", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")
