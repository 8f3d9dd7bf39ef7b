"""rooms.version guards room writes; one seat per player per room

Revision ID: 0003_room_writes
Revises: 0002_table
Create Date: 2026-11-30 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0003_room_writes"
down_revision = "0002_table"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    # Rows the old races left behind: a player's extra seats go to a bot (game running) or
    # empty (still in the lobby). (A seat with a player and a bot is a held seat: kept.)
    op.execute(
        "UPDATE seats SET bot = CASE WHEN (SELECT status FROM rooms WHERE rooms.id = seats.room_id)"
        " = 'lobby' THEN NULL ELSE 'Bot' END, player_id = NULL"
        " WHERE player_id IS NOT NULL AND EXISTS (SELECT 1 FROM seats AS s2"
        " WHERE s2.room_id = seats.room_id AND s2.player_id = seats.player_id AND s2.seat < seats.seat)"
    )
    with op.batch_alter_table("seats") as batch:
        batch.create_unique_constraint("uq_seats_room_player", ["room_id", "player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_room_player", type_="unique")
    op.drop_column("rooms", "version")
