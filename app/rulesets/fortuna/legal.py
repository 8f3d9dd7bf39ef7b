"""The moves each phase waits for, as `Spec` tuples (type, value, value) that `make_move` turns
into moves: a random game builds only the move it draws."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.cards import card_args
from app.rulesets.fortuna.state import Move, Resource, Spec, State, water_total

FAVOURS = data.FAVOURS
PALACE_STEP = data.PALACE_STEP

# The fields of each move type after "type", in the order its dict lists them.
FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("slot", "args"),
    "exchange": ("side", "slot"),
    "military": ("slot", "args"),
    "favour": ("card", "n"),
    "pass": ("die",),
    "flip": ("card",),
    "keep": ("cards",),
    "palace": ("card",),
    "privilege": ("card",),
    "skip": (),
    "end": (),
}


def make_move(spec: Spec) -> Move:
    """The move dict of a `Spec` tuple."""
    t = spec[0]
    k = len(spec)
    if k == 3:
        a, b = FIELDS[t]
        return {"type": t, a: spec[1], b: spec[2]}
    if k == 2:
        return {"type": t, FIELDS[t][0]: spec[1]}
    return {"type": t}


def play_specs(s: State, seat: int) -> list[Spec]:
    """Phase 2: one of your face-up action cards, executed with any choice it allows, or not."""
    specs: list[Spec] = []
    mine = s["sides"][seat]
    for i in range(3):
        slot = mine[i]
        if slot["face_up"]:
            specs.append(("play", i, None))
            for a in card_args(s, seat, slot["card"]):
                specs.append(("play", i, a))
    return specs


def exchange_specs(s: State, seat: int) -> list[Spec]:
    """Phase 2: the chosen card for a face-up card on another side."""
    specs: list[Spec] = []
    for side, row in enumerate(s["sides"]):
        if side != seat:
            for j in range(3):
                if row[j]["face_up"]:
                    specs.append(("exchange", side, j))
    return specs


def military_specs(s: State, seat: int) -> list[Spec]:
    """Phase 3: skip, or give up a Centurion to play another face-up card of yours."""
    specs: list[Spec] = [("skip",)]
    mine = s["sides"][seat]
    # the Centurion is given up first (it pays for the extra card), so the card is judged
    # without it, e.g. a Centurions card may refill the freed slot at its price (a temporary
    # change, undone below: legal_moves never alters its input)
    pl = s["players"][seat]
    pl["centurions"] -= 1
    try:
        for i in range(3):
            slot = mine[i]
            if slot["face_up"]:
                for a in card_args(s, seat, slot["card"]):
                    specs.append(("military", i, a))
    finally:
        pl["centurions"] += 1
    return specs


def favour_specs(s: State, seat: int) -> list[Spec]:
    """Phase 4: a favour card, or decline with one of the dice rolled."""
    specs = favour_options(s, seat)
    dice = s["rolled"]
    assert dice is not None  # rolled on the way into the phase
    for d in dice if len(dice) == 1 else sorted(set(dice)):  # one die: nothing to sort
        specs.append(("pass", d))
    return specs


def flip_specs(s: State, seat: int) -> list[Spec]:
    """The 2-player rule: one more favour card to flip."""
    return [("flip", k) for k in flippable(s)]


def keep_specs(s: State, seat: int) -> list[Spec]:
    """Phase 5: which of the privilege cards drawn to keep."""
    choice = s["choice"]
    assert choice is not None  # the phase is entered only with a choice to make
    return [("keep", sorted(c)) for c in combinations(choice["cards"], choice["keep"])]


def palace_specs(s: State, seat: int) -> list[Spec]:
    """At Caesar's palace: one of the privilege cards offered."""
    offer = s["palace_choice"]
    assert offer is not None  # the phase is entered only with an offer
    return [("palace", c) for c in offer["cards"]]


def wrap_specs(s: State, seat: int) -> list[Spec]:
    """The end of the turn (privilege cards are listed by the caller)."""
    return [("end",)]


def favour_options(s: State, seat: int) -> list[Spec]:
    """Every favour move: a face-up card numbered up to the highest die, with what it takes."""
    pl = s["players"][seat]
    out: list[Spec] = []
    room = PALACE_STEP - pl["position"]  # units are delivered one per step: none beyond the palace
    if room <= 0:
        return out
    fav = s["favours"]
    dice = s["rolled"]
    assert dice is not None  # rolled on the way into the phase
    for k, kind, key, steps in _FAVOUR_TAKES[: dice[0] if len(dice) == 1 else max(dice)]:
        if fav[k - 1]["used"]:
            continue
        if kind == 0:  # units given up, one per step
            most = water_total(pl) if key is None else pl[key]
            if room < most:  # noqa: PLR1730 - no call to min() on every listing
                most = room
            if most > 0:
                for n in steps[:most]:  # steps = 1..max_steps, so at most max_steps of them
                    out.append(("favour", k, n))
        elif kind == 1:  # marriage
            if pl["married"]:
                out.append(("favour", k, 1 + ("palace" in pl["buildings"])))
        elif pl["vestals"]:  # kind 2: one step per Vestal
            out.append(("favour", k, pl["vestals"]))
    return out


def _favour_take(k: int, row: dict[str, Any]) -> tuple[int, int, Resource | None, tuple[int, ...]]:
    gives = row["gives"]
    kind = {"married": 1, "vestals": 2}.get(gives, 0)
    key = None if gives == "water" or kind else data.resource(gives)
    return (k, kind, key, tuple(range(1, row["max_steps"] + 1)))


# Favour cards 1-6 as (number, kind, province key, the step counts 1..max_steps), in order: the
# rows favour_options reads on every favour step. Kind 0: units given up (key None: water, counted
# with the Aqueduct), 1: marriage, 2: Vestals (small ints: compared faster than the names).
_FAVOUR_TAKES = tuple(_favour_take(k, row) for k, row in sorted(FAVOURS.items()))


def taxed(s: State, die: int) -> bool:
    """Declining with this die costs tax unless no face-up favour card is available for it (or
    the pawn already stands at the palace and cannot move closer)."""
    if s["players"][s["order"][s["turn"]]]["position"] >= PALACE_STEP:
        return False
    for fav in s["favours"][:die]:
        if not fav["used"]:
            return True
    return False


def flippable(s: State) -> list[int]:
    """Favour cards the 2-player start player may flip: face up and without tokens."""
    return [k for k, f in enumerate(s["favours"], 1) if not f["used"] and f["tokens"] == 0]
