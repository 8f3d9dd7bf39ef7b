"""rooms.undo: whether players may take their moves back (off, misclick, turn)

A take-back is stored as a row of the move log like any move (`{"undo": n}`), with a snapshot
of the state it returns to, so the move log needs no new column: only the room's option is new.
Rooms from before are `off`, as they were created.

Revision ID: 0012_undo
Revises: 0011_turns
Create Date: 2026-12-02 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_undo"
down_revision = "0011_turns"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("undo", sa.String(length=16), nullable=False, server_default="off"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("undo")
