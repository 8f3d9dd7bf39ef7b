"""Final scoring (buildings, collected diamonds, expense tracks, minus garbage left on tiles) and
the tie-break (NOTES decision 8)."""

from __future__ import annotations

from typing import Any

from app.engine.ruleset import Outcome, ranks_from_keys
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.state import Player, State


def breakdown(p: Player) -> dict[str, Any]:
    """One player's score by the four areas of the score sheet, plus the tie-break facts."""
    buildings = garbage = 0
    for c in p["city"].values():  # a loop, not generators: views score every player each move
        buildings += D.vp_of(c["tile"])
        if c["token"] == "garbage":
            garbage += 1
    tracks = {t: D.TRACKS[t]["vp"][p["tracks"][t]] for t in D.TYPES}
    on_tracks = sum(tracks.values())
    coins = p["silver"] + (p["card"]["silver"] + p["card"]["gold"] if p["card"] else 0)
    total = buildings + p["diamonds"] + on_tracks - garbage
    return {
        "buildings": buildings,
        "diamonds": p["diamonds"],
        "tracks": on_tracks,
        **{f"track_{t}": v for t, v in tracks.items()},
        "garbage": -garbage,
        "coins": coins,
        "total": total,
    }


def tie_key(b: dict[str, Any]) -> tuple[int, ...]:
    """Higher is better: score, then collected diamonds, fewer garbage on tiles, more coins."""
    return (b["total"], b["diamonds"], b["garbage"], b["coins"])


def outcome(state: State) -> Outcome | None:
    """Final scores and ranks once the game is over, else None."""
    if state["phase"] != "over":
        return None
    board = [breakdown(p) for p in state["players"]]
    return Outcome([b["total"] for b in board], ranks_from_keys([tie_key(b) for b in board]), board)
