"""The product's rulesets; importing this package registers each of them."""

from __future__ import annotations

import importlib

from app.engine import registry

PRODUCT_RULESETS = ("suburbia", "tiny_towns")


def load_all() -> None:
    """Import and register every product ruleset that is present."""
    for name in PRODUCT_RULESETS:
        try:
            module = importlib.import_module(f"app.rulesets.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"app.rulesets.{name}":
                raise
            continue
        ruleset = getattr(module, "RULESET", None)
        if ruleset is not None:
            registry.register(ruleset)


load_all()
