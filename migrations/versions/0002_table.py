"""the table: room paces, seat clocks and presence, chat, rematches

Revision ID: 0002_table
Revises: 0001_initial
Create Date: 2026-11-30 12:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0002_table"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_paces",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("pace", sa.String(length=16), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("reserve_seconds", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_room_paces_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_room_paces")),
    )
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reserve_left", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
        sa.Column("connected", sa.Integer(), nullable=False),
        sa.Column("held", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_seat_clocks_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_clocks")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("spectator", sa.Boolean(), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_chat_messages_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index(op.f("ix_chat_messages_room_id"), "chat_messages", ["room_id"], unique=False)
    op.create_table(
        "rematches",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("new_room_id", sa.String(length=32), nullable=False),
        sa.Column("by_seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_rematches_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_rematches")),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_index(op.f("ix_chat_messages_room_id"), table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("seat_clocks")
    op.drop_table("room_paces")
