"""ratings and rated_games: each player's rating per game and pool, and the games folded in

Ratings are a pure fold over finished games in order (app/ratings.py); these tables hold its
result, kept up to date as games end and rebuilt by `python -m app.cli ratings rebuild`.

Revision ID: 0010_ratings
Revises: 0009_history
Create Date: 2026-12-02 06:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_ratings"
down_revision = "0009_history"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("pool", sa.String(length=8), nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "ruleset", "pool", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_ruleset_pool", "ratings", ["ruleset", "pool"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("ruleset", sa.String(length=40), nullable=False),
        sa.Column("pool", sa.String(length=8), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lineup", sa.JSON(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
    )
    op.create_index("ix_rated_games_ruleset_pool_finished", "rated_games", ["ruleset", "pool", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_rated_games_ruleset_pool_finished", table_name="rated_games")
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_ruleset_pool", table_name="ratings")
    op.drop_table("ratings")
