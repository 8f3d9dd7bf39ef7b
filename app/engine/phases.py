"""Phases as a table: each phase of a ruleset's turn says what runs when it is entered and which
moves it waits for, and `advance` walks from phase to phase until one waits for a seat.

A ruleset keeps `PHASES = {name: Phase(auto=..., legal=..., apply=...)}` beside its state; its
`apply` runs the handler the waiting phase names for the move, then `advance`s to the phase that
handler returns.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

S = TypeVar("S")

#: A move handler: changes the state (a private copy) and names the phase that comes next.
Handler = Callable[[S, int, Any], str]


@dataclass(frozen=True)
class Phase(Generic[S]):
    """One phase: `auto` runs on entering it and names the next phase, or None to wait here for
    a move; `legal` lists the waiting seat's moves; `apply` maps each move type it accepts to
    its handler."""

    auto: Callable[[S], str | None] | None = None
    legal: Callable[[S, int], list[Any]] | None = None
    apply: Mapping[str, Handler[S]] = field(default_factory=dict)


def advance(phases: Mapping[str, Phase[S]], state: S, name: str) -> str:
    """Enter phase `name`, and each phase an `auto` hands on to; the name of the phase that
    waits (the caller records it in the state)."""
    while True:
        auto = phases[name].auto
        following = None if auto is None else auto(state)
        if following is None:
            return name
        name = following
