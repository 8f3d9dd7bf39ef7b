"""Ruleset registry: ruleset id -> Ruleset. The product's rulesets register on import of app.rulesets."""

from __future__ import annotations

from app.engine.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset (idempotent for the same object); rejects a second ruleset under one id."""
    existing = _RULESETS.get(ruleset.id)
    if existing is not None and existing is not ruleset:
        raise ValueError(f"a different ruleset is already registered as {ruleset.id!r}")
    for attr in ("id", "version", "name", "min_players", "max_players", "Options"):
        if not hasattr(ruleset, attr):
            raise TypeError(f"ruleset {ruleset!r} lacks {attr}")
    if not 1 <= ruleset.min_players <= ruleset.max_players <= 6:
        raise ValueError(f"ruleset {ruleset.id!r} has a bad seat range")
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    """Remove a ruleset (tests that register a test-only game clean up with this)."""
    _RULESETS.pop(ruleset_id, None)


def get(ruleset_id: str) -> Ruleset | None:
    """The ruleset registered under `ruleset_id`, or None."""
    return _RULESETS.get(ruleset_id)


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset, sorted by id."""
    return [_RULESETS[k] for k in sorted(_RULESETS)]


def load(spec: str) -> None:
    """Register the rulesets named in `spec`, comma-separated `module[:attribute]` (attribute
    RULESET by default): CIVITAS_EXTRA_RULESETS, with which tests register their game."""
    import importlib

    for name in filter(None, (part.strip() for part in spec.split(","))):
        module_name, _, attr = name.partition(":")
        register(getattr(importlib.import_module(module_name), attr or "RULESET"))
