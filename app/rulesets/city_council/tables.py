"""City Council's data tables (data/*.toml) loaded and validated once at import, plus board geometry.

Rules code reads these; a row naming an unknown shape, type, box key or metric fails at load time.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

# From the package, not `__file__`: a compiled module lives in .compiled/ (app.engine.compiled).
_DATA = Path(str(files(__package__))) / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DATA / name, "rb") as fh:
        return tomllib.load(fh)


BOARD = _load("board.toml")
_BUILDINGS = _load("buildings.toml")
_FAVOURS = _load("favours.toml")

TYPES = ("residential", "commercial", "industrial", "safety")
IN_KEYS = {"B", "W", "BX", "money", "goods", "community", "jail", "prison"}
OUT_KEYS = {"money", "community", "goods", "power", "W", "crime", "crime_x", "pollution_x"}
COMMITTEES = ("transport", "treasury", "election", "union", "executive")  # RB turn order 1st..5th
SIZE = BOARD["board"]["size"]
BUDGET_MAX: int = BOARD["tracks"]["budget_max"]
POWER_MAX = BOARD["tracks"]["power_max"]
POWER_START: int = BOARD["tracks"]["power_start"]
TOKENS: dict[str, int] = {k: v for k, v in BOARD["tokens"].items() if k != "source"}
SETUP = {row["players"]: row for row in BOARD["setup"]}
PLANNING = BOARD["planning"]
ZONES = {z["id"]: z for z in BOARD["zone"]}
SHAPE_ORDER = ("S", "M", "L", "LT")  # small to large (Prof. Phil takes the largest first)

# Base cells of each shape (row, col); orientations are derived below (RB: "Buildings may be
# rotated in any direction").
_SHAPES = {
    "S": [(0, 0)],
    "M": [(0, 0), (0, 1)],
    "L": [(0, 0), (0, 1), (1, 0), (1, 1)],
    "LT": [(0, 0), (1, 0), (2, 0), (2, 1)],
}


def _normal(cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def _orientations(cells: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct quarter turns of a shape. Never its mirror image: a tile has one printed
    face (RB Building Placement: 'Buildings may be rotated in any direction')."""
    out: list[tuple[tuple[int, int], ...]] = []
    current = list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]
        norm = _normal(current)
        if norm not in out:
            out.append(norm)
    return out


ORIENTATIONS = {shape: _orientations(cells) for shape, cells in _SHAPES.items()}


def zone_of(r: int, c: int) -> str:
    """The zone id of block (r, c)."""
    zone: str = BOARD["board"]["regions"][r // 3][c // 3]
    return zone


ZONE_GRID = [[zone_of(r, c) for c in range(SIZE)] for r in range(SIZE)]
BUILD_CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE) if ZONE_GRID[r][c] != "lake"]
# Each block as a bit (r * SIZE + c) of the occupancy masks, made once rather than shifted per use.
CELL_BIT = [[1 << (r * SIZE + c) for c in range(SIZE)] for r in range(SIZE)]
ZONE_CELLS: dict[str, list[tuple[int, int]]] = {}
for _r, _c in BUILD_CELLS:
    ZONE_CELLS.setdefault(ZONE_GRID[_r][_c], []).append((_r, _c))
BUILD_ZONES = [z for z in ZONE_CELLS if z != "start"]


@dataclass(frozen=True)
class Box:
    """One action box: inputs placed at activation, outputs produced at resolution."""

    inputs: dict[str, int]
    outputs: dict[str, int]
    group: str | None


@dataclass(frozen=True)
class Kind:
    """A building kind (one row of buildings.toml; two rows may share a name: starting/advanced)."""

    name: str
    set: str
    shape: str
    cost: int
    type: str
    special: dict[str, int]
    boxes: tuple[Box, ...]
    pollution: int
    permanent_community: bool
    power_plant: bool
    chair_chooses: bool
    upgrades_to: tuple[str, ...]
    source: str


def slug(name: str) -> str:
    """A lowercase id fragment for a building name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


TILES: dict[str, Kind] = {}  # tile id -> kind, for all 44 tiles
KIND_BY_NAME: dict[str, Kind] = {}
_counter: dict[str, int] = {}
for row in _BUILDINGS["building"]:
    if row["shape"] not in _SHAPES or row["type"] not in TYPES or row["set"] not in ("start", "adv"):
        raise ValueError(f"bad building row {row['name']}")
    boxes = []
    for b in row["boxes"]:
        if set(b["in"]) - IN_KEYS or set(b["out"]) - OUT_KEYS:
            raise ValueError(f"{row['name']}: unknown box key")
        boxes.append(Box(dict(b["in"]), dict(b["out"]), b.get("group")))
    if set(row.get("special", {})) - IN_KEYS:
        raise ValueError(f"{row['name']}: unknown special key")
    kind = Kind(
        row["name"],
        row["set"],
        row["shape"],
        row["cost"],
        row["type"],
        dict(row.get("special", {})),
        tuple(boxes),
        row.get("pollution", 0),
        row.get("permanent_community", False),
        row.get("power_plant", False),
        row.get("either_or_by") == "election",
        tuple(row["upgrades_to"]),
        row["source"],
    )
    KIND_BY_NAME.setdefault(kind.name, kind)
    for _ in range(row["copies"]):
        n = _counter[kind.name] = _counter.get(kind.name, 0) + 1
        TILES[f"{slug(kind.name)}-{n}"] = kind
for _k in KIND_BY_NAME.values():
    for _u in _k.upgrades_to:
        if _u not in KIND_BY_NAME:
            raise ValueError(f"{_k.name} upgrades to unknown {_u}")

FIXED = [{"name": f["name"], "cells": [tuple(c) for c in f["cells"]]} for f in BOARD["fixed"]]
for _f in FIXED:
    if _f["name"] not in KIND_BY_NAME or len(_f["cells"]) != len(_SHAPES[KIND_BY_NAME[_f["name"]].shape]):
        raise ValueError(f"bad fixed building {_f}")


def kind_of(building: Mapping[str, Any]) -> Kind:
    """The kind of a built building record (tile id, or a fixed building's name)."""
    tile = building.get("tile")
    return TILES[tile] if tile else KIND_BY_NAME[building["name"]]


# --- favour cards -----------------------------------------------------------------------------

METRICS = {
    "crime",
    "pollution",
    "community",
    "goods",
    "budget",
    "power",
    "prison",
    "house_B",
    "house_W",
    "jobs_W",
    "city_B",
    "city_W",
    "full_ind",
    "full_com",
    "full_res",
    "zones_built",
    "ind_built",
    "res_active",
    "ind_zones_on",
    "power_active",
    "prison_freed",
}
_OPS = {">=", ">", "<", "<=", "=="}


def _term(text: str) -> tuple[int, str | None]:
    """'3' -> (3, None); 'budget' -> (1, 'budget'); '2*budget' -> (2, 'budget')."""
    if text.isdigit():
        return int(text), None
    k, _, metric = text.rpartition("*")
    factor = int(k) if k else 1
    if metric not in METRICS and not (metric.startswith("active:") and metric[7:] in KIND_BY_NAME):
        raise ValueError(f"unknown favour metric {metric!r}")
    return factor, metric


def _parse(expr: str) -> tuple[list[str], str, tuple[int, str | None]]:
    m = re.fullmatch(r"(.+?) (>=|<=|==|>|<) (.+)", expr)
    if not m:
        raise ValueError(f"bad favour expression {expr!r}")
    lhs = [t.strip() for t in m.group(1).split("+")]
    for t in lhs:
        _term(t)
    return lhs, m.group(2), _term(m.group(3).strip())


@dataclass(frozen=True)
class Condition:
    """One condition of a General card."""

    text: str
    vp: int
    bonus: bool
    turn_end: bool
    exprs: tuple[Any, ...]


@dataclass(frozen=True)
class Card:
    """A favour card: General (conditions) or Building (three buildings worth 1/2/3)."""

    id: str
    kind: str
    name: str
    buildings: tuple[str, ...]
    conditions: tuple[Condition, ...]
    source: str


CARDS: dict[str, Card] = {}
for row in _FAVOURS["general"]:
    conds = tuple(
        Condition(
            c["text"],
            c["vp"],
            c.get("bonus", False),
            c.get("when") == "turn_end",
            tuple(_parse(e) for e in c["all"]),
        )
        for c in row["conditions"]
    )
    for b in row["buildings"]:
        if b not in KIND_BY_NAME:
            raise ValueError(f"{row['id']}: unknown building {b}")
    CARDS[row["id"]] = Card(row["id"], "general", row["name"], tuple(row["buildings"]), conds, row["source"])
for row in _FAVOURS["building_card"]:
    for b in row["buildings"]:
        if b not in KIND_BY_NAME:
            raise ValueError(f"{row['id']}: unknown building {b}")
    CARDS[row["id"]] = Card(
        row["id"], "building", " / ".join(row["buildings"]), tuple(row["buildings"]), (), row["source"]
    )
if len(CARDS) != 52 or len(TILES) != 44:
    raise ValueError("City Council needs 52 favour cards and 44 building tiles (RB Components)")

BUILDING_LEVEL_VP = tuple(_FAVOURS["building_levels"]["vp"])
if len(BUILDING_LEVEL_VP) != 3:
    raise ValueError("building_levels.vp needs the white, light-grey and dark-grey values")

UNEMPLOYMENT: dict[str, dict[int, dict[str, int]]] = {side: {} for side in ("W", "B")}
for row in BOARD["unemployment"]:
    for n in row["counts"]:
        UNEMPLOYMENT[row["side"]][n] = dict(row["effects"])
LIFESTYLE = [(row["min"], row["max"], dict(row["effects"])) for row in BOARD["lifestyle"]]
