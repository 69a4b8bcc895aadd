"""Notifications out of the browser: each account's channels (a verified e-mail
address, a webhook) and choices, the decisions that wait for an account's seat, and
the outgoing messages.

`notify_settings` holds one account's channels and choices; the address is its
owner's alone. `awaiting` has a row while a game's decision is an account's seat's
(the digest lists them). `notices` is the outbox: one row per message, unique by what
it is about (`turn:GAME:SEAT:N`, `digest:USER:DAY`) and its channel, so that a second
message for the same turn cannot exist; senders claim due rows with a lease.

Revision ID: 0007_notifications
Revises: 0006_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_notifications"
down_revision = "0006_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("email", sa.String(254)),
        sa.Column("email_pending", sa.String(254)),
        sa.Column("code_hash", sa.String(64)),
        sa.Column("code_expires", sa.DateTime(timezone=True)),
        sa.Column("code_tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("webhook", sa.String(500)),
        sa.Column("email_on", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("webhook_on", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("digest", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("digest_hour", sa.Integer, nullable=False, server_default="18"),
        sa.Column("timezone", sa.String(64), nullable=False, server_default="UTC"),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("digest_next", sa.DateTime(timezone=True)),
    )
    op.create_index(
        "notify_digest",
        "notify_settings",
        ["digest_next"],
        postgresql_where=sa.text("digest_next IS NOT NULL"),
        sqlite_where=sa.text("digest_next IS NOT NULL"),
    )
    op.create_table(
        "awaiting",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("awaiting_user", "awaiting", ["user_id"])
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id")),
        sa.Column("seat", sa.Integer),
        sa.Column("payload", sa.Text),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("leased_by", sa.String(32)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True)),
        sa.UniqueConstraint("key", "channel", name="notices_key"),
    )
    op.create_index("notices_user", "notices", ["user_id"])
    for name, column in (("notices_due", "due_at"), ("notices_game", "game_id")):
        op.create_index(
            name,
            "notices",
            [column],
            postgresql_where=sa.text("state = 'queued'"),
            sqlite_where=sa.text("state = 'queued'"),
        )


def downgrade() -> None:
    for name in ("notices_game", "notices_due", "notices_user"):
        op.drop_index(name, "notices")
    op.drop_table("notices")
    op.drop_index("awaiting_user", "awaiting")
    op.drop_table("awaiting")
    op.drop_index("notify_digest", "notify_settings")
    op.drop_table("notify_settings")
