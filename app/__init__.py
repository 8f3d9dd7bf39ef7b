"""Civitas: an online table for city-building board games."""

from app.engine import compiled as _compiled

# Before any rules module is imported: where a build matches its source, the compiled rules run.
_compiled.install()
