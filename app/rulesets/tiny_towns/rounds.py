"""The round flow: starting a round (Town Hall flip), the simultaneous placing and constructing
steps, the end of round (coins, Jeweler payouts, completed towns), the Master Builder passing left
and the end of the game."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.rulesets.tiny_towns.setup import town_hall_deck
from app.rulesets.tiny_towns.state import Edit, built, empties, gain, incomplete


def start_place(e: Edit, resource: str) -> None:
    """Everyone whose town is not complete now places (or reacts to) the named resource."""
    e.s["named"] = resource
    e.s["phase"] = "place"
    for i in incomplete(e.s):
        e.p(i)["placed"] = not empties(e.s["p"][i]["grid"])


def complete(e: Edit, seat: int) -> None:
    """Mark a town complete, recording the round (completion order for The Starloom)."""
    e.p(seat)["complete"] = True
    finish = list(e.s["finish"])
    finish[seat] = e.s["round"]
    e.s["finish"] = finish


def advance(e: Edit) -> None:
    """Run automatic steps until some seat owes a decision."""
    while True:
        s = e.s
        phase = s["phase"]
        busy = any(pl["pending"] for pl in s["p"])
        if phase == "monument" and all(pl["monument"] for pl in s["p"]) and not busy:
            start_round(e)
        elif phase == "place" and not busy and all(s["p"][i]["placed"] for i in incomplete(s)):
            s["phase"] = "build"
            for i in incomplete(s):
                e.p(i)["done"] = False
        elif phase == "build" and not busy and all(s["p"][i]["done"] for i in incomplete(s)):
            end_round(e)
        elif phase == "end" and not busy:
            for i in incomplete(s):
                if not empties(s["p"][i]["grid"]):
                    complete(e, i)
            if not incomplete(e.s):
                e.s["phase"] = "over"
                return
            e.s["master"] = next_master(e.s)
            start_round(e)
        else:
            return


def start_round(e: Edit) -> None:
    """A new round: reset the per-round markers; the Master Builder names next."""
    s = e.s
    s["round"] += 1
    s["phase"] = "name"
    s["named"] = None
    s["oddity_taken"] = False
    for i, pl in enumerate(s["p"]):
        if pl["builds"] or pl["placed"] or pl["done"]:
            q = e.p(i)
            q["builds"], q["placed"], q["done"] = 0, False, False
        flags = pl["flags"]
        if any(flags.get(k) for k in ("museum_used", "forge_used", "ghost", "jeweler_unpaid")):
            f = e.f(i, "flags")
            for k in ("museum_used", "forge_used", "ghost", "jeweler_unpaid"):
                f.pop(k, None)
    if not incomplete(s):
        s["phase"] = "over"
    elif s["town_hall"] is not None:
        _town_hall_reveal(e)


def _town_hall_reveal(e: Edit) -> None:
    """Town Hall: flip the next resource card for everyone; reshuffle when the deck is out."""
    th = e.s["town_hall"]
    deck, discard, revealed = list(th["deck"]), list(th["discard"]), list(th["revealed"])
    if not deck:
        rng = Rng(e.s["rng"])
        fresh = town_hall_deck(rng)
        e.s["rng"] = rng.state
        deck, discard, revealed = fresh["deck"], fresh["discard"], []
    res = deck.pop(0)
    e.s["town_hall"] = {"deck": deck, "discard": discard, "revealed": [*revealed, res]}
    start_place(e, res)


def end_round(e: Edit) -> None:
    """Jeweler payouts and the coin for 2+ constructions (RB-F), then the end-of-round step."""
    s = e.s
    s["phase"] = "end"
    if not s["coins_on"]:
        return
    for i, pl in enumerate(s["p"]):
        unpaid = pl["flags"].get("jeweler_unpaid", 0)
        for other in range(s["n"]):
            if other != i:
                gain(e, other, unpaid)
    for i, pl in enumerate(s["p"]):
        if pl["builds"] >= 2:  # exactly 1 coin, however many buildings
            gain(e, i, 1)


def next_master(s: dict[str, Any]) -> int | None:
    """The Master Builder token passes left to the next player whose town is not complete,
    skipping a Fort Ironweed owner unless they are the last such player."""
    n = s["n"]
    if s["solo"] or s["town_hall"] is not None:
        return None
    order = [(s["master"] + k) % n for k in range(1, n + 1)]
    open_seats = [i for i in order if not s["p"][i]["complete"]]
    willing = [i for i in open_seats if not built(s["p"][i], "no_master_builder")]
    return (willing or open_seats or [None])[0]
