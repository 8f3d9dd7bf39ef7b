"""Persistence: SQLAlchemy 2 models and the session factory."""
