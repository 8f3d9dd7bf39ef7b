"""Suburbia's data tables (data/*.toml), loaded and validated once at import.

Rules code reads these; a row naming an unknown effect scope, stat or tag fails at load time.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

# From the package, not `__file__`: a compiled module lives in .compiled/ (app.engine.compiled).
_DATA = files(__package__) / "data"

STATS = ("income", "reputation", "population", "money")
SCOPES = ("adjacent", "own", "every", "others", "after", "redline", "lake_pairs")
CATEGORIES = ("residential", "commercial", "industrial", "civic", "lake")
ICONS = ("restaurant", "office", "airport", "school", "skyscraper", "car_dealer")
TAGS = CATEGORIES + ICONS
ONE_MORE_ROUND = "one_more_round"


@dataclass(frozen=True, slots=True)  # slots: the rules read these fields on every move
class Effect:
    """One conditional effect: `amount` of `stat` per matching tile within `scope`."""

    stat: str
    amount: int
    scope: str
    match: frozenset[str]


@dataclass(frozen=True, slots=True)  # slots: the rules read these fields on every move
class TileKind:
    """A tile kind (market tile, basic tile or the lake)."""

    id: str
    name: str
    stack: str  # "A" | "B" | "C" | "basic" | "lake"
    category: str
    icon: str | None
    cost: int
    count: int
    immediate: tuple[tuple[str, int], ...]
    effects: tuple[Effect, ...]
    source: str

    @property
    def tags(self) -> frozenset[str]:
        """Category plus icon: what other tiles' effects match against."""
        return frozenset(t for t in (self.category, self.icon) if t)


@dataclass(frozen=True, slots=True)  # slots: the rules read these fields on every move
class Goal:
    """A goal tile: most/fewest of a measure, for a population bonus."""

    id: str
    name: str
    measure: str
    want: str
    bonus: int
    lake_or_investment: bool
    source: str


MEASURES = (
    "lakes",
    "lake_group",
    "airport",
    "money",
    "residential",
    "commercial",
    "industrial",
    "civic",
    "civic_group",
    "income",
    "reputation",
    "investments",
)


def _load(name: str) -> dict[str, Any]:
    with (_DATA / name).open("rb") as fh:
        return tomllib.load(fh)


def _effect(row: dict[str, Any], where: str) -> Effect:
    stat, scope, match = row["stat"], row["scope"], frozenset(row["match"])
    if stat not in STATS or scope not in SCOPES or not match <= set(TAGS):
        raise ValueError(f"{where}: bad effect {row}")
    if scope in ("redline", "lake_pairs") and match:
        raise ValueError(f"{where}: scope {scope} takes no match list")
    if scope not in ("redline", "lake_pairs") and not match:
        raise ValueError(f"{where}: scope {scope} needs a match list")
    if not isinstance(row["amount"], int) or row["amount"] == 0:
        raise ValueError(f"{where}: amount must be a non-zero integer")
    return Effect(stat, row["amount"], scope, match)


def _kind(row: dict[str, Any], stack: str, count: int) -> TileKind:
    imm = tuple(sorted(row["immediate"].items()))
    if any(k not in STATS or not isinstance(v, int) for k, v in imm):
        raise ValueError(f"{row['id']}: bad immediate effect")
    if row["category"] not in CATEGORIES or (row.get("icon") and row["icon"] not in ICONS):
        raise ValueError(f"{row['id']}: bad category or icon")
    effects = tuple(_effect(e, row["id"]) for e in row["effects"])
    for once in ("after", "redline"):  # a placed tile records one count for each (effects.py)
        if sum(1 for e in effects if e.scope == once) > 1:
            raise ValueError(f"{row['id']}: at most one {once} effect per tile")
    return TileKind(
        row["id"],
        row["name"],
        stack,
        row["category"],
        row.get("icon"),
        row["cost"],
        count,
        imm,
        effects,
        row["source"],
    )


def _load_all() -> tuple[dict[str, TileKind], dict[str, Goal], dict[str, Any]]:
    kinds: dict[str, TileKind] = {}
    for row in _load("tiles.toml")["tile"]:
        if row["stack"] not in ("A", "B", "C"):
            raise ValueError(f"{row['id']}: stack must be A, B or C")
        kinds[row["id"]] = _kind(row, row["stack"], row["count"])
    basic = _load("basic.toml")
    for row in basic["basic"]:
        kinds[row["id"]] = _kind(row, "basic", row["supply"])
    for row in basic["lake"]:
        kinds[row["id"]] = _kind(row, "lake", 0)
    n_rows = len(_load("tiles.toml")["tile"]) + len(basic["basic"]) + len(basic["lake"])
    if len(kinds) != n_rows:
        raise ValueError("tile ids must be unique")
    goals = {}
    for row in _load("goals.toml")["goal"]:
        if row["measure"] not in MEASURES or row["want"] not in ("most", "fewest"):
            raise ValueError(f"{row['id']}: bad goal")
        goals[row["id"]] = Goal(
            row["id"],
            row["name"],
            row["measure"],
            row["want"],
            row["bonus"],
            row["lake_or_investment"],
            row["source"],
        )
    return kinds, goals, _load("board.toml")


KINDS, GOALS, BOARD = _load_all()
LAKE = KINDS["lake"]
BASIC_IDS = tuple(k.id for k in KINDS.values() if k.stack == "basic")
STACK_TILES = {s: tuple(k.id for k in KINDS.values() if k.stack == s) for s in "ABC"}
SETUP = BOARD["setup"]
TRACK_MIN, TRACK_MAX = SETUP["track_min"], SETUP["track_max"]
STACK_SETUP = {row["mode"]: row for row in BOARD["stack_setup"]}
SURCHARGES: dict[str, list[int]] = {"standard": BOARD["market"]["standard"], "dale": BOARD["market"]["dale"]}
RED_LINES = {k: v for k, v in BOARD["red_lines"].items() if k != "source"}
if any(v != sorted(set(v)) for v in RED_LINES.values()):
    raise ValueError("red lines must be listed in increasing order")  # effects.lines_passed
BOARD_CELLS = frozenset((q, r) for q, r in BOARD["borough"]["board_cells"])
START_LAYOUT = tuple((t, q, r) for t, q, r in BOARD["borough"]["start"])
RANKS = tuple((row["min"], row["name"]) for row in BOARD["rank"])


# stack_pool's answers, built at import: every setup asks for them
_POOLS = {
    stack: tuple(k for k in kinds for _ in range(KINDS[k].count)) for stack, kinds in STACK_TILES.items()
}


def stack_pool(stack: str) -> list[str]:
    """Every physical tile of a stack letter, as kind ids (copies repeated)."""
    return list(_POOLS[stack])


def rank_name(population: int) -> str:
    """The solo rank title for a final population (RB-S 'Scoring for Both Solo Games')."""
    name: str = RANKS[0][1]
    for low, title in RANKS:
        if population >= low:
            name = title
    return name
