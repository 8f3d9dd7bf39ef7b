"""moves: who held the seat; game_events: seats taken, left, held by a bot and returned

The log used to name every move by whoever holds the seat now, so a player who left had all of
their past moves renamed to the bot. Each move now keeps the seat's holder as it was (player, bot
holding a player's seat, or bot), and seat changes are events placed between the moves.

Revision ID: 0009_history
Revises: 0008_accounts
Create Date: 2026-12-02 05:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_history"
down_revision = "0008_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("moves", sa.Column("actor_player", sa.String(length=32), nullable=True))
    op.add_column("moves", sa.Column("actor_bot", sa.String(length=40), nullable=True))
    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_events")),
    )
    op.create_index(op.f("ix_game_events_game_id"), "game_events", ["game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_game_events_game_id"), table_name="game_events")
    op.drop_table("game_events")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("actor_bot")
        batch.drop_column("actor_player")
