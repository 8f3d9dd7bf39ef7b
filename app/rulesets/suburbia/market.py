"""The Real Estate Market: surcharges, taking a tile out (sliding right), and refilling from
stack A, then B, then C, with the "1 More Round" tile handled as it is flipped."""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints are plain Python (no-ops)
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

from app.rulesets.suburbia.tables import ONE_MORE_ROUND, SURCHARGES

State = dict[str, Any]


def surcharges(state: State) -> list[int]:
    """Surcharge per market slot, left to right."""
    return SURCHARGES["dale" if state["mode"] == "dale" else "standard"]


@cython.locals(market=list)
def take(s: State, slot: int) -> str:
    """Remove the tile in `slot` from the market (in `s`, a fresh copy); in the standard market
    the tiles to its left slide right to fill the gap (RB-S 'Adjust the Real Estate Market')."""
    market = s["market"]
    kind: str = market[slot]
    if s["mode"] == "dale":
        market = list(market)
        market[slot] = None  # Dale: the tiles not bought are left where they are
    else:  # the gap closes and the leftmost space empties (one copy, changed in place)
        market = list(market)
        del market[slot]
        market.insert(0, None)
    s["market"] = market
    return kind


def discard(s: State, kind: str) -> None:
    """Put a tile on the public discard pile."""
    s["discards"] = [*s["discards"], kind]


_STACKS = ("A", "B", "C")  # strings, not "ABC": compiled, a str's characters are made anew


def draw(s: State, in_place: bool = False) -> str | None:
    """Flip the top tile of the first non-empty stack (A, then B, then C); None if all empty.
    The stacks are copied first, unless `in_place`: a playout's private state (turn.playout),
    whose stacks are its own lists."""
    for letter in _STACKS:
        if s["stacks"][letter]:
            if in_place:
                top: str = s["stacks"][letter].pop()
                return top
            stacks = dict(s["stacks"])
            stack: list[str] = list(stacks[letter])
            kind = stack.pop()
            stacks[letter] = stack
            s["stacks"] = stacks
            return kind
    return None


@cython.locals(market=list)
def refill(s: State, seat: int, in_place: bool = False) -> bool:
    """Fill the empty market slots from the left with newly flipped tiles.

    Standard market: the "1 More Round" tile is set aside when flipped and replaced by the next
    tile (rules-data §4.5 decision); the end countdown starts. Dale: the game ends at once.
    Returns True when the game must end immediately (Dale only). `in_place`: see `draw`.
    """
    market = list(s["market"])
    for slot in range(len(market)):
        if market[slot] is not None:
            continue
        kind = draw(s, in_place)
        while kind == ONE_MORE_ROUND:
            if s["mode"] == "dale":
                s["market"] = market
                s["one_more_round"] = True
                return True
            s["one_more_round"] = True
            # +1: end_turn counts the current turn down too.
            s["final_turns"] = turns_after_flip(s, seat) + 1
            kind = draw(s, in_place)
        market[slot] = kind
    s["market"] = market
    return False


def turns_after_flip(s: State, seat: int) -> int:
    """Turns still to play after the current one: finish this round, then one full round
    starting with the Start Player (RB-S 'Game End')."""
    n: int = s["seats"]
    start: int = s["start"]
    return (start - seat - 1) % n + n


@cython.locals(market=list, extras=list, slots=list)
def discard_slots(state: State, seat: int) -> list[int]:
    """Market slots the seat can afford to discard (it pays only the slot's surcharge)."""
    money = state["p"][seat]["money"]
    market, extras = state["market"], surcharges(state)
    # by index: cheaper than enumerate(zip()), and every turn of a playout asks; a loop, not a
    # comprehension, which pure Python calls as a function each time
    slots = []
    for i in range(len(market)):
        if market[i] is not None and extras[i] <= money:
            slots.append(i)
    return slots
