"""Friends: who follows whom, and invitations to a seat by name.

- `follows`: an account following another (no consent asked: it shows whether they
  are online and their games, and a block on either side hides it all).
- `invitations`: a table's host inviting an account by name to a free seat, with its
  state (`pending`, `accepted`, `declined`, `withdrawn`); a pending one stands only
  while the game waits and the seat is free.

Revision ID: 0014_friends
Revises: 0013_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_friends"
down_revision = "0013_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("followed_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("follows_followed", "follows", ["followed_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
    )
    op.create_index("invitations_user", "invitations", ["user_id", "state"])
    op.create_index("invitations_host", "invitations", ["host_id", "created_at"])
    op.create_index("invitations_game", "invitations", ["game_id"])


def downgrade() -> None:
    op.drop_index("invitations_game", "invitations")
    op.drop_index("invitations_host", "invitations")
    op.drop_index("invitations_user", "invitations")
    op.drop_table("invitations")
    op.drop_index("follows_followed", "follows")
    op.drop_table("follows")
