"""snapshots: the rules version each snapshot's state is stored under

A rolling deploy across a rules version runs old and new replicas on one database for a while:
a new one upgrades a game and marks it with the new version, while an old one, holding the game
in memory, goes on storing snapshots in the old format. Marking the game alone cannot say which
snapshot is in which format; each snapshot now says so itself. Rows from before stay NULL (read
as the game's ruleset_version, which is what they were written under).

Revision ID: 0007_deploy
Revises: 0007_platform
Create Date: 2026-12-02 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_deploy"
down_revision = "0007_platform"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("snapshots", sa.Column("ruleset_version", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("ruleset_version")
