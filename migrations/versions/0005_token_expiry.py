"""players' tokens expire and rotate (the previous token keeps a short grace)

Revision ID: 0005_token_expiry
Revises: 0004_bot_lease
Create Date: 2026-11-30 12:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0005_token_expiry"
down_revision = "0004_bot_lease"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("token_expires_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("players", sa.Column("prev_token_hash", sa.String(length=64), nullable=True))
    op.add_column("players", sa.Column("prev_valid_until", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_players_prev_token_hash"), "players", ["prev_token_hash"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_players_prev_token_hash"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("prev_valid_until")
        batch.drop_column("prev_token_hash")
        batch.drop_column("token_expires_at")
