"""Alembic environment: metadata from app.db.models, URL from the settings (or the caller's config)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

from app.config import get_settings, sync_url
from app.db.models import Base

config = context.config
url = sync_url(config.get_main_option("sqlalchemy.url") or get_settings().database_url)


def run_migrations_offline() -> None:
    """Emit SQL without a connection."""
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run against the database."""
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            # Replicas starting together must not migrate at the same time.
            connection.execute(text("SELECT pg_advisory_lock(727274)"))
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            compare_type=True,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
