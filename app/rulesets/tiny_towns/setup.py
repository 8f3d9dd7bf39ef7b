"""Game setup: the building cards in play, the monument deal, the solo resource deck, the towns."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.rulesets.tiny_towns import data


def _eligible(row: dict[str, Any], fortune: bool, solo: bool, town_hall: bool = False) -> bool:
    return (
        (row["set"] == "base" or fortune)
        and (row.get("solo", True) or not solo)
        and (row.get("town_hall", True) or not town_hall)
    )


def town_hall_deck(rng: Rng) -> dict[str, Any]:
    """Town Hall: the 15 resource cards shuffled, the top 5 set aside face down."""
    cards = rng.shuffled(_SOLO_CARDS)
    k = data.TOWN_HALL_DISCARD
    return {"deck": cards[k:], "discard": cards[:k], "revealed": [], "free": False}


def deal_buildings(
    rng: Rng, fortune: bool, max_fortune: int, solo: bool, town_hall: bool = False
) -> list[str]:
    """Cottage plus one card per coloured pile; Fortune cards are shuffled into their piles and
    a Fortune card drawn beyond the limit is set aside for the next card of that pile."""
    chosen: dict[str, str] = {}
    fortune_count = 0
    piles = _PILES
    for colour in rng.shuffled(piles):  # random pile order so the limit favours no colour
        pile = _pile(colour["id"], fortune and max_fortune > 0, solo, town_hall)
        for row in rng.shuffled(pile):
            if row["set"] == "fortune" and fortune_count >= max_fortune:
                continue
            chosen[colour["id"]] = row["id"]
            fortune_count += row["set"] == "fortune"
            break
    # A list, not a generator expression: compiled, that would cost a closure on every call.
    return [*_FIXED, *[chosen[c["id"]] for c in piles]]


_PILES = [c for c in data.COLOURS if "fixed" not in c]  # the coloured piles, in table order
_FIXED = [c["fixed"] for c in data.COLOURS if "fixed" in c]  # the Cottage


def _pile(colour: str, fortune: bool, solo: bool, town_hall: bool) -> tuple[dict[str, Any], ...]:
    """The building rows of one colour pile eligible in this game, in table order."""
    return tuple(
        b for b in data.BUILDINGS if b["colour"] == colour and _eligible(b, fortune, solo, town_hall)
    )


def _monument_pool(fortune_monuments: bool, solo: bool) -> tuple[str, ...]:
    """The ids of the monuments dealt in this game, sorted."""
    return tuple(sorted(m["id"] for m in data.MONUMENTS if _eligible(m, fortune_monuments, solo)))


_SOLO_CARDS = tuple(r for r in data.RESOURCES for _ in range(data.SOLO_COPIES))  # 3 of each


def new_player(dealt: list[str]) -> dict[str, Any]:
    """An empty 4x4 town with an empty chest and two dealt monuments."""
    return {
        "grid": [None] * (data.SIZE * data.SIZE),
        "coins": 0,
        "dealt": dealt,
        "monument": None,
        "discarded": None,
        "built_monument": False,
        "store": {},
        "marks": {},
        "pending": [],
        "placed": False,
        "done": False,
        "complete": False,
        "builds": 0,
        "flags": {},
    }


def setup_state(players: int, opts: dict[str, Any], seed: int) -> dict[str, Any]:
    """The initial state (monument choice is the first, simultaneous, decision)."""
    rng = Rng.from_seed(seed, "tiny-towns")
    solo = players == 1
    fortune = bool(opts["fortune"])
    town_hall = bool(opts.get("town_hall")) and not solo
    buildings = deal_buildings(rng, fortune, opts["max_fortune_buildings"], solo, town_hall)
    pool = list(_monument_pool(bool(fortune and opts["fortune_monuments"]), solo))
    deck = rng.shuffled(pool)
    dealt = [sorted(deck[2 * i : 2 * i + 2]) for i in range(players)]
    solo_deck = None
    if solo:
        cards = rng.shuffled(_SOLO_CARDS)
        solo_deck = {"shown": cards[:3], "deck": cards[3:]}
    return {
        "n": players,
        "solo": solo,
        "coins_on": fortune,
        "opts": dict(opts),
        "phase": "monument",
        "round": 0,
        "master": None if solo or town_hall else rng.below(players),
        "town_hall": town_hall_deck(rng) if town_hall else None,
        "named": None,
        "oddity_taken": False,
        "buildings": buildings,
        "monument_pool": pool,
        "solo_deck": solo_deck,
        "finish": [None] * players,
        "last": None,
        "p": [new_player(d) for d in dealt],
        "rng": rng.state,
    }
