"""The product's rulesets; importing this package registers each of them."""

from __future__ import annotations

import importlib

from app.engine import registry

PRODUCT_RULESETS = ("suburbia", "tiny_towns", "fortuna", "fortune_city", "city_council")


def load_all() -> None:
    """Import and register every product ruleset."""
    for name in PRODUCT_RULESETS:
        registry.register(importlib.import_module(f"app.rulesets.{name}").RULESET)


load_all()
