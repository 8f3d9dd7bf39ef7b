"""initial schema

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-29 14:27:38.000254
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_players_token_hash")),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(length=40), nullable=False),
        sa.Column("host_id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"], name=op.f("fk_rooms_host_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("invite_code", name=op.f("uq_rooms_invite_code")),
    )
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.create_index("ix_rooms_status_private", ["status", "private"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("ruleset_version", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=40), nullable=False),
        sa.Column("seed_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("to_act", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_games_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_seats_player_id_players")),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_seats_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "seat", name=op.f("pk_seats")),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.JSON(), nullable=False),
        sa.Column("client_move_id", sa.String(length=80), nullable=True),
        sa.Column("to_act", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_moves_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_moves")),
        sa.UniqueConstraint("game_id", "seat", "client_move_id", name="uq_moves_client_id"),
    )
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_snapshots_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "version", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index("ix_rooms_status_private")

    op.drop_table("rooms")
    op.drop_table("players")
