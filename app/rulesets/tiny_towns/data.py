"""Loads the Tiny Towns tables (data/*.toml) into read-only dicts and precomputes pattern placements.

Loading fails on an unknown effect kind, a bad pattern letter or a duplicate id, so a typo in a
table never reaches a game.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

# From the package, not `__file__`: a compiled module lives in .compiled/ (app.engine.compiled).
_DIR = Path(str(files(__package__))) / "data"
SIZE = 4  # the town is a 4x4 grid (base rules)


def _load(name: str) -> dict[str, Any]:
    with open(_DIR / name, "rb") as fh:
        return tomllib.load(fh)


_RES = _load("resources.toml")
RESOURCES: list[str] = [r["id"] for r in _RES["resource"]]
RESOURCE_ROWS: list[dict[str, Any]] = _RES["resource"]
LETTERS: dict[str, str] = {r["letter"]: r["id"] for r in _RES["resource"]}
SOLO_COPIES: int = _RES["solo_deck"]["copies"]
SOLO_RANKS: list[dict[str, Any]] = _RES["solo_rank"]
TOWN_HALL_DISCARD: int = _RES["town_hall"]["discard"]

COLOURS: list[dict[str, Any]] = _load("colours.toml")["colour"]
BUILDINGS: list[dict[str, Any]] = _load("buildings.toml")["building"]
MONUMENTS: list[dict[str, Any]] = _load("monuments.toml")["monument"]

CARDS: dict[str, dict[str, Any]] = {}
for _row in BUILDINGS:
    CARDS[_row["id"]] = {**_row, "kind": "building"}
for _row in MONUMENTS:
    if _row["id"] in CARDS:
        raise ValueError(f"duplicate card id {_row['id']}")
    CARDS[_row["id"]] = {**_row, "kind": "monument", "colour": "monument"}
if len(CARDS) != len(BUILDINGS) + len(MONUMENTS):
    raise ValueError("duplicate building id")


def parse_pattern(rows: list[str]) -> list[list[str | None]]:
    """A pattern's rows of letters as a grid of resource ids (None where no cube is needed)."""
    grid: list[list[str | None]] = []
    for row in rows:
        out: list[str | None] = []
        for token in row.split():
            if token == ".":
                out.append(None)
            elif token in LETTERS:
                out.append(LETTERS[token])
            else:
                raise ValueError(f"bad pattern letter {token!r}")
        grid.append(out)
    if len({len(r) for r in grid}) != 1:
        raise ValueError(f"ragged pattern {rows}")
    return grid


def _variants(grid: list[list[str | None]]) -> list[list[list[str | None]]]:
    """The pattern under every rotation and mirror, without duplicates."""
    out: list[list[list[str | None]]] = []
    g = grid
    for _ in range(2):
        for _ in range(4):
            g = [list(row) for row in zip(*g[::-1])]  # rotate 90 degrees
            if g not in out:
                out.append(g)
        g = [row[::-1] for row in g]  # mirror
    return out


def _placements(grid: list[list[str | None]]) -> list[tuple[tuple[int, str], ...]]:
    """Every way the pattern lies on a 4x4 town: tuples of (square index, resource), deduplicated."""
    seen: set[tuple[tuple[int, str], ...]] = set()
    out: list[tuple[tuple[int, str], ...]] = []
    for v in _variants(grid):
        h, w = len(v), len(v[0])
        for r0 in range(SIZE - h + 1):
            for c0 in range(SIZE - w + 1):
                cells = tuple(
                    sorted(
                        ((r0 + r) * SIZE + c0 + c, res)
                        for r, row in enumerate(v)
                        for c, res in enumerate(row)
                        if res is not None
                    )
                )
                if cells not in seen:
                    seen.add(cells)
                    out.append(cells)
    return out


PLACEMENTS: dict[str, list[tuple[tuple[int, str], ...]]] = {
    cid: _placements(parse_pattern(card["pattern"])) for cid, card in CARDS.items()
}


def card(cid: str) -> dict[str, Any]:
    """The table row of a building or monument."""
    return CARDS[cid]


def is_monument(cid: str) -> bool:
    """Whether an id names a monument."""
    kind: str = CARDS[cid]["kind"]
    return kind == "monument"


def cottage_weight(cid: str | None) -> int:
    """How many Cottages a building counts as (0 for non-cottages)."""
    return CARDS[cid].get("cottage", 0) if cid in CARDS else 0


def is_feedable(cid: str | None) -> bool:
    """Whether a building needs feeding (Cottages, Barrett Castle, Eraflage Vineyard)."""
    return cid in CARDS and (CARDS[cid].get("cottage", 0) > 0 or CARDS[cid].get("feedable", False))


_PASSIVES = {cid: frozenset(row.get("passive", ())) for cid, row in CARDS.items()}
_REACTS = {cid: row["react"]["kind"] for cid, row in CARDS.items() if row.get("react")}


def has_passive(cid: str | None, name: str) -> bool:
    """Whether a card has a standing property."""
    passives = _PASSIVES.get(cid)  # type: ignore[arg-type]  # None is no key: .get gives None
    return passives is not None and name in passives


def react_kind(cid: str | None) -> str | None:
    """The card's reaction kind to another player's naming, if any."""
    return _REACTS.get(cid)  # type: ignore[arg-type]  # None is no key: .get gives None
