"""Placeholder: replaced below."""
from __future__ import annotations
from typing import Any

def choose(state: Any, seat: int, rng: Any) -> Any:
    return None

def describe(move: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in move.items())
