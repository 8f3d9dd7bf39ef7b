"""seat_clocks: what a held seat's clock had left, and the version it was held at

A reclaim resumed a held seat's clock with the full move time, so a player could stall a game
for ever by reclaiming each time it ran out. The hold now records the seconds left (0: it ran
out) and the game's version, so a reclaim resumes where the clock stood, and a seat held because
its time ran out stays held until its bot has played that turn.

Revision ID: 0007_platform
Revises: 0006_moves_no_client_id_index
Create Date: 2026-12-02 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0007_platform"
down_revision = "0006_moves_no_client_id_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_clocks") as batch:
        batch.add_column(sa.Column("held_left", sa.Float(), nullable=True))
        batch.add_column(sa.Column("held_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat_clocks") as batch:
        batch.drop_column("held_version")
        batch.drop_column("held_left")
