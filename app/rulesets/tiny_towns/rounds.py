"""The round flow: starting a round (Town Hall flip), the simultaneous placing and constructing
steps, the end of round (coins, Jeweler payouts, completed towns), the Master Builder passing left
and the end of the game."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.rulesets.tiny_towns.setup import town_hall_deck
from app.rulesets.tiny_towns.state import Edit, built, gain, has_empty, incomplete


def start_place(e: Edit, resource: str | None) -> None:
    """Everyone whose town is not complete now places (or reacts to) the named resource.
    `None`: a Town Hall free-choice round, where each player picks their own resource (a Fort
    Ironweed owner places nothing then, NOTES 41)."""
    e.s["named"] = resource
    e.s["phase"] = "place"
    for i in incomplete(e.s):
        pl = e.s["p"][i]
        skip = resource is None and built(pl, "no_master_builder")
        e.p(i)["placed"] = skip or not has_empty(pl["grid"])


def free_round(round_no: int) -> bool:
    """Town Hall: cards are drawn in the 1st and 2nd round of every three, and every 3rd round
    each player chooses their resource (UBG Town Hall rules)."""
    return round_no % 3 == 0


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
        # A step runs when no one owes a decision: nobody has a pending one and (monument,
        # place, build) every player is through the step. One plain loop, left at the first
        # player still owing something: this runs after every move.
        key: str | None
        if phase == "place":
            key, other = "placed", "complete"
        elif phase == "build":
            key, other = "done", "complete"
        elif phase == "monument":
            key = other = "monument"
        elif phase == "end":
            key = other = None  # only pending decisions hold the end of the round
        else:
            return
        for pl in s["p"]:
            if pl["pending"] or (key is not None and not (pl[key] or pl[other])):
                return
        if phase == "monument":
            start_round(e)
        elif phase == "place":
            s["phase"] = "build"
            for i in incomplete(s):
                e.p(i)["done"] = False
        elif phase == "build":
            end_round(e)
        else:  # end
            for i in incomplete(s):
                if not has_empty(s["p"][i]["grid"]):
                    complete(e, i)
            if not incomplete(e.s):
                e.s["phase"] = "over"
                return
            e.s["master"] = next_master(e.s)
            start_round(e)


_ROUND_FLAGS = ("museum_used", "forge_used", "ghost", "jeweler_unpaid")  # reset each round


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
        # The round's markers, by a list comprehension: compiled, a generator expression would
        # cost this function a closure on every call.
        if flags and any([flags.get(k) for k in _ROUND_FLAGS]):
            f = e.f(i, "flags")
            for k in _ROUND_FLAGS:
                f.pop(k, None)
    if not incomplete(s):
        s["phase"] = "over"
    elif s["town_hall"] is not None:
        _town_hall_reveal(e)


def _town_hall_reveal(e: Edit) -> None:
    """Town Hall: flip the next resource card for everyone (rounds 1 and 2 of every three) or let
    every player choose (round 3); when a card must be drawn from an empty deck, all 15 are
    reshuffled and 5 set aside face down again."""
    th = e.s["town_hall"]
    if free_round(e.s["round"]):
        e.s["town_hall"] = {**th, "free": True}
        start_place(e, None)
        return
    deck, discard, revealed = list(th["deck"]), list(th["discard"]), list(th["revealed"])
    if not deck:
        rng = Rng(e.s["rng"])
        fresh = town_hall_deck(rng)
        e.s["rng"] = rng.state
        deck, discard, revealed = fresh["deck"], fresh["discard"], []
    res = deck.pop(0)
    e.s["town_hall"] = {"deck": deck, "discard": discard, "revealed": [*revealed, res], "free": False}
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
    first: int | None = (willing or open_seats or [None])[0]
    return first
