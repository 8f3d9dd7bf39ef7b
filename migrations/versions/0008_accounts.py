"""accounts: players get an e-mail, a password and a deletion mark; sessions move to their own table

A player was a guest with one token (and the one it replaced) on the players row, so one player
could be signed in on one device only. Each device now holds its own session (player_sessions:
the token's hash, its expiry, the token it replaced and that token's grace, a label and when it
started); the players' token columns move there (one session per existing player, same token).
account_codes holds the single-use codes sent or shown to a player: e-mail verification,
password reset, and the short code that signs in a second device (stored hashed).

Revision ID: 0008_accounts
Revises: 0007_deploy
Create Date: 2026-12-02 05:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_accounts"
down_revision = "0007_deploy"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_sessions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("prev_token_hash", sa.String(length=64), nullable=True),
        sa.Column("prev_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("label", sa.String(length=80), nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            ondelete="CASCADE",
            name=op.f("fk_player_sessions_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_player_sessions_token_hash")),
    )
    op.create_index(op.f("ix_player_sessions_player_id"), "player_sessions", ["player_id"])
    op.create_index(op.f("ix_player_sessions_prev_token_hash"), "player_sessions", ["prev_token_hash"])
    # Every existing player keeps its token (and the one it replaced) as its first session.
    op.execute(
        "INSERT INTO player_sessions (id, player_id, token_hash, expires_at, "
        "prev_token_hash, prev_valid_until, label, created_at) SELECT id, id, token_hash, "
        "token_expires_at, prev_token_hash, prev_valid_until, '', created_at FROM players"
    )
    op.create_table(
        "account_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], ondelete="CASCADE", name=op.f("fk_account_codes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_account_codes")),
    )
    op.create_index(op.f("ix_account_codes_player_id"), "account_codes", ["player_id"])
    op.drop_index(op.f("ix_players_prev_token_hash"), table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_token_hash", type_="unique")
        batch.drop_column("prev_valid_until")
        batch.drop_column("prev_token_hash")
        batch.drop_column("token_expires_at")
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("password_hash", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_unique_constraint("uq_players_email", ["email"])


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_email", type_="unique")
        batch.drop_column("deleted_at")
        batch.drop_column("password_hash")
        batch.drop_column("email_verified")
        batch.drop_column("email")
        batch.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("token_expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("prev_token_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("prev_valid_until", sa.DateTime(timezone=True), nullable=True))
    # One token per player again: its newest session's; a player with none gets a hash no token has.
    newest = (
        "(SELECT s.{0} FROM player_sessions s WHERE s.player_id = players.id "
        "ORDER BY s.created_at DESC, s.id DESC LIMIT 1)"
    )
    op.execute(
        "UPDATE players SET "
        + ", ".join(
            f"{column} = {newest.format(source)}"
            for column, source in (
                ("token_hash", "token_hash"),
                ("token_expires_at", "expires_at"),
                ("prev_token_hash", "prev_token_hash"),
                ("prev_valid_until", "prev_valid_until"),
            )
        )
    )
    op.execute("UPDATE players SET token_hash = 'ended-' || id WHERE token_hash IS NULL")
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint("uq_players_token_hash", ["token_hash"])
    op.create_index(op.f("ix_players_prev_token_hash"), "players", ["prev_token_hash"])
    op.drop_index(op.f("ix_account_codes_player_id"), table_name="account_codes")
    op.drop_table("account_codes")
    op.drop_index(op.f("ix_player_sessions_prev_token_hash"), table_name="player_sessions")
    op.drop_index(op.f("ix_player_sessions_player_id"), table_name="player_sessions")
    op.drop_table("player_sessions")
