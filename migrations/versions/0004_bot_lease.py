"""bot lease: one instance drives a game's bot seats

Revision ID: 0004_bot_lease
Revises: 0003_room_writes
Create Date: 2026-11-30 12:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0004_bot_lease"
down_revision = "0003_room_writes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("bot_owner", sa.String(length=32), nullable=True))
    op.add_column("games", sa.Column("bot_lease_until", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_lease_until")
        batch.drop_column("bot_owner")
