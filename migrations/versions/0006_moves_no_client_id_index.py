"""moves: drop the unique (game, seat, client move id) index; the version guard already decides

A move is stored only by a writer whose copy of the game is at the version the database holds
(the guard: UPDATE games ... WHERE version = <the copy's>), and a copy at that version holds every
stored move's client id (loaded with the game, added as it catches up). So a repeated id is
always answered from the copy before anything is written, and the index could never refuse a
row. It cost one b-tree page per move (a quarter of a SQLite commit's WAL frames).

Revision ID: 0006_moves_no_client_id_index
Revises: 0005_token_expiry
Create Date: 2026-12-01 20:00:00
"""

from __future__ import annotations

from alembic import op


revision = "0006_moves_no_client_id_index"
down_revision = "0005_token_expiry"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite cannot drop a constraint in place: batch mode copies the table without it.
    with op.batch_alter_table("moves") as batch:
        batch.drop_constraint("uq_moves_client_id", type_="unique")


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.create_unique_constraint("uq_moves_client_id", ["game_id", "seat", "client_move_id"])
