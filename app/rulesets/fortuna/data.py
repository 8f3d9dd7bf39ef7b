"""Loads the Fortuna tables (data/*.toml) into read-only dicts; a bad row fails at import."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

from app.rulesets.fortuna.state import Resource

# From the package, not `__file__`: a compiled module lives in .compiled/ (app.engine.compiled).
_DIR = Path(str(files("app.rulesets.fortuna"))) / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DIR / name, "rb") as fh:
        return tomllib.load(fh)


ACTION_ROWS: list[dict[str, Any]] = _load("actions.toml")["card"]
ACTIONS: dict[str, dict[str, Any]] = {row["id"]: row for row in ACTION_ROWS}
FAVOUR_ROWS: list[dict[str, Any]] = _load("favours.toml")["favour"]
FAVOURS: dict[int, dict[str, Any]] = {row["number"]: row for row in FAVOUR_ROWS}
BUILDING_ROWS: list[dict[str, Any]] = _load("buildings.toml")["building"]
BUILDINGS: dict[str, dict[str, Any]] = {row["id"]: row for row in BUILDING_ROWS}
PRIVILEGE_ROWS: list[dict[str, Any]] = _load("privileges.toml")["card"]
PRIVILEGES: dict[str, dict[str, Any]] = {row["id"]: row for row in PRIVILEGE_ROWS}
GAME: dict[str, Any] = _load("game.toml")

START = GAME["start"]
LIMITS = GAME["limits"]
PALACE_STEP: int = GAME["track"]["palace"]
GATE_STEP: int = GAME["track"]["gate"]
TOKENS_TOTAL: int = GAME["tokens"]["total"]
TOKENS_PALACE: int = GAME["tokens"]["palace"]
SLOT_PRICES: dict[str, list[int]] = {k: v for k, v in GAME["slots"].items() if k != "source"}
MAX_ROUNDS: int = GAME["guard"]["max_rounds"]

EFFECTS = frozenset({"harvest", "water", "trade", "recruit", "clerus", "build", "marry", "bribe", "step"})
GIVES = frozenset({"water", "wine", "grain", "centurions", "married", "vestals"})
VP_PER = frozenset(
    {"buildings", "grain", "wine", "water", "centurions", "vestals", "dice", "married", "money4"}
)
RESOURCES = ("grain", "wine", "water", "centurions", "vestals")

# The privilege cards that are played (A any time in your turn, B once per turn); C cards score.
A_PRIVILEGES = frozenset([r["id"] for r in PRIVILEGE_ROWS if r["cls"] == "A"])
B_PRIVILEGES = frozenset([r["id"] for r in PRIVILEGE_ROWS if r["cls"] == "B"])
PLAYABLE_PRIVILEGES = A_PRIVILEGES | B_PRIVILEGES


def resource(name: str) -> Resource:
    """A table's resource name as the province key that holds it (they are the same words)."""
    if name not in RESOURCES:
        raise ValueError(f"unknown resource {name!r}")
    return cast(Resource, name)


def validate() -> None:
    """Fail at import if a table row is malformed or names behaviour no code implements."""
    if len(ACTIONS) != 12 or len(ACTION_ROWS) != 12:
        raise ValueError("Fortuna has 12 distinct action cards")
    if sorted(FAVOURS) != [1, 2, 3, 4, 5, 6]:
        raise ValueError("favour cards must be numbered 1-6")
    for row in ACTION_ROWS:
        if row["effect"] not in EFFECTS:
            raise ValueError(f"action {row['id']}: unknown effect {row['effect']!r}")
        if row["effect"] == "step" and not isinstance(row.get("not_start_player"), bool):
            raise ValueError(f"action {row['id']}: not_start_player must be true or false")
    for row in FAVOUR_ROWS:
        if row["gives"] not in GIVES:
            raise ValueError(f"favour {row['number']}: unknown gives {row['gives']!r}")
    classes = [r["cls"] for r in PRIVILEGE_ROWS]
    if (classes.count("A"), classes.count("B"), classes.count("C")) != (5, 8, 13):
        raise ValueError("privilege cards must be A 5, B 8, C 13 (RB-F)")
    if sum(1 for r in PRIVILEGE_ROWS if r.get("four_pawns")) != 4:
        raise ValueError("exactly 4 privilege cards carry the 4 pawns (RB-F)")
    for row in PRIVILEGE_ROWS:
        if row["cls"] == "A" and not set(row["gain"]) <= set(RESOURCES):
            raise ValueError(f"privilege {row['id']}: unknown resource")
        if row["cls"] == "C" and row["vp"]["per"] not in VP_PER:
            raise ValueError(f"privilege {row['id']}: unknown VP count {row['vp']['per']!r}")
    if sum(b["copies_4p"] for b in BUILDING_ROWS) != 12:
        raise ValueError("there are 12 building cards (rules-data B2)")


validate()
