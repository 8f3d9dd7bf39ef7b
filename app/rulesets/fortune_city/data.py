"""Loads the Fortune City tables (data/*.toml) into read-only structures, checking them on import.

A table row with an unknown type, production or a duplicate id fails the import, so a typo never
reaches a game.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

# From the package, not `__file__`: a compiled module lives in .compiled/ (app.engine.compiled).
_DIR = Path(str(files("app.rulesets.fortune_city"))) / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DIR / name, "rb") as fh:
        return tomllib.load(fh)


_GAME = _load("game.toml")
SUPPLY: dict[str, Any] = _GAME["supply"]
CITIZENS_IN_BOX: dict[str, int] = _GAME["citizens"]
REMOVAL: dict[int, dict[str, Any]] = {int(k): v for k, v in _GAME["removal"].items()}
LOWEST_ROW: int = _GAME["board"]["lowest_row"]
COMPONENTS: dict[str, dict[str, Any]] = _GAME["components"]

_MAX_PLAYERS = max(REMOVAL)
if COMPONENTS["gold"]["count"] < _MAX_PLAYERS * SUPPLY["card_gold_slots"]:
    raise ValueError("too few gold coins for every card's gold slots: the engine keeps no gold count")
if COMPONENTS["credit_cards"]["count"] < _MAX_PLAYERS:
    raise ValueError("fewer credit cards than players")

TRACK_ROWS: list[dict[str, Any]] = _load("tracks.toml")["track"]
TRACKS: dict[str, dict[str, Any]] = {t["id"]: t for t in TRACK_ROWS}
TYPES: list[str] = [t["id"] for t in TRACK_ROWS]
CITIZEN_OF: dict[str, str] = {t["id"]: t["citizen"] for t in TRACK_ROWS}
TYPE_OF_CITIZEN: dict[str, str] = {v: k for k, v in CITIZEN_OF.items()}
COLOURS: list[str] = [CITIZEN_OF[t] for t in TYPES]
VIP = "vip"
BANK = "bank"
CITY_HALL = "city_hall"
FINANCIAL = "financial"  # border colour shared by banks and City Hall (rulebook: banks not next to it)
PRODUCTIONS = {"coin": 1, "coin2": 2, "diamond": 0, "garbage": 0}

TILE_ROWS: list[dict[str, Any]] = _load("tiles.toml")["tile"]
TILES: dict[str, dict[str, Any]] = {}
for _row in TILE_ROWS:
    if _row["id"] in TILES or _row["id"] in (BANK, CITY_HALL):
        raise ValueError(f"duplicate tile id {_row['id']}")
    if _row["type"] not in TRACKS:
        raise ValueError(f"{_row['id']}: unknown type {_row['type']!r}")
    if _row["production"] not in PRODUCTIONS:
        raise ValueError(f"{_row['id']}: unknown production {_row['production']!r}")
    TILES[_row["id"]] = _row

STARTING: list[str] = [t for t, r in TILES.items() if r["starting"]]
STACK_TILES: list[str] = [t for t, r in TILES.items() if not r["starting"]]

for _t in TYPES:
    _n = sum(1 for t in STACK_TILES if TILES[t]["type"] == _t)
    if _n != 11:
        raise ValueError(f"type {_t} has {_n} stack tiles; the rulebook says 11 of each")
for _n, _rem in REMOVAL.items():
    for _t in TYPES:
        for _p in _rem["prices"]:
            if not any(TILES[x]["type"] == _t and TILES[x]["price"] == _p for x in STACK_TILES):
                raise ValueError(f"no {_t} tile at price {_p} to remove for {_n} players")


TYPE_OF_TILE: dict[str, str] = {
    **{t: r["type"] for t, r in TILES.items()},
    BANK: FINANCIAL,
    CITY_HALL: FINANCIAL,
}


def type_of(tile: str) -> str:
    """The border colour / type of a tile id (banks and City Hall are the financial colour)."""
    return TYPE_OF_TILE[tile]


def production_of(tile: str) -> str | None:
    """The production token a building makes (City Hall makes none)."""
    if tile == CITY_HALL:
        return None
    made: str | None = SUPPLY["bank_production"] if tile == BANK else TILES[tile]["production"]
    return made


def vp_of(tile: str) -> int:
    """A constructed building's printed victory points."""
    if tile == CITY_HALL:
        return 0
    vp: int = SUPPLY["bank_vp"] if tile == BANK else TILES[tile]["vp"]
    return vp


def name_of(tile: str, side: str = "good") -> str:
    """A person-readable name: the goods side or the building side."""
    if tile == BANK:
        return "Bank"
    if tile == CITY_HALL:
        return "City Hall"
    name: str = TILES[tile][side]
    return name
