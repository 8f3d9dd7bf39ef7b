"""turn-based play that waits, and notifications

room_paces.timeout_policy: what an expired deadline does under a 'turn' pace (bot, skip, offer).
seat_clocks: release_after_turn (the 'skip' policy's one-turn hold), offered (the 'offer'
policy's open seat) and warned_for (the deadline a "12 hours left" notice was sent for).
vacations: a player's paused clocks and the days used this year.
notification_settings, push_subscriptions: a player's channels per event.
notification_outbox: notifications to send, claimed by one instance at a time with a lease.

Revision ID: 0011_turns
Revises: 0010_ratings
Create Date: 2026-12-02 05:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_turns"
down_revision = "0010_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_paces") as batch:
        batch.add_column(
            sa.Column("timeout_policy", sa.String(length=8), nullable=False, server_default="bot")
        )
    with op.batch_alter_table("seat_clocks") as batch:
        batch.add_column(
            sa.Column("release_after_turn", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("offered", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("warned_for", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "vacations",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("days_used", sa.Float(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], ondelete="CASCADE", name=op.f("fk_vacations_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_vacations")),
    )
    op.create_table(
        "notification_settings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("webhook_url", sa.String(length=500), nullable=True),
        sa.Column("always", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            ondelete="CASCADE",
            name=op.f("fk_notification_settings_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_notification_settings")),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(length=800), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            ondelete="CASCADE",
            name=op.f("fk_push_subscriptions_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("endpoint", name=op.f("pk_push_subscriptions")),
    )
    op.create_index(op.f("ix_push_subscriptions_player_id"), "push_subscriptions", ["player_id"])
    op.create_table(
        "notification_outbox",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("channel", sa.String(length=12), nullable=False),
        sa.Column("event", sa.String(length=20), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_outbox")),
        sa.UniqueConstraint("key", name=op.f("uq_notification_outbox_key")),
    )
    op.create_index(op.f("ix_notification_outbox_player_id"), "notification_outbox", ["player_id"])
    op.create_index(
        "ix_notification_outbox_status_not_before", "notification_outbox", ["status", "not_before"]
    )


def downgrade() -> None:
    op.drop_index("ix_notification_outbox_status_not_before", table_name="notification_outbox")
    op.drop_index(op.f("ix_notification_outbox_player_id"), table_name="notification_outbox")
    op.drop_table("notification_outbox")
    op.drop_index(op.f("ix_push_subscriptions_player_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notification_settings")
    op.drop_table("vacations")
    with op.batch_alter_table("seat_clocks") as batch:
        batch.drop_column("warned_for")
        batch.drop_column("offered")
        batch.drop_column("release_after_turn")
    with op.batch_alter_table("room_paces") as batch:
        batch.drop_column("timeout_policy")
