"""The log in words: one sentence per move, naming squares as the board labels them (columns
A-D left to right, rows 1-4 top to bottom), buildings and resources by name; a kept monument is
named only to its owner."""

from __future__ import annotations

from typing import Any

from app.rulesets.tiny_towns import data


def square(cell: Any) -> str:
    """'B3' for cell index 9 of the 4x4 grid (row by row from the top left)."""
    cell = int(cell)
    return f"{'ABCD'[cell % 4]}{cell // 4 + 1}"


def _card(cid: Any) -> str:
    return str(data.CARDS[cid]["name"]) if cid in data.CARDS else "a building"


def _list(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def log_text(state: dict[str, Any], seat: int, move: dict[str, Any], viewer: int | None) -> str:
    """One sentence about `seat` playing `move` (state before it), as `viewer` may know it."""
    who = f"{{seat{seat}}}"
    t = move.get("type")
    try:
        if t == "keep_monument":
            if viewer == seat and "monument" in move:
                return f"{who} kept the monument {_card(move['monument'])}."
            return f"{who} kept a secret monument."
        if t == "name":
            return f"{who} named {move['resource']} for everyone."
        if t == "choose_card":
            shown = state["solo_deck"]["shown"][move["index"]]
            return f"{who} took the {shown} resource card."
        if t == "take_oddity":
            return f"{who} took {{seat{int(move['from'])}}}'s Oddity Shop resource to {square(move['to'])}."
        if t == "place":
            return f"{who} placed {move['resource']} on {square(move['cell'])}."
        if t == "store":
            return f"{who} stored the resource on the building at {square(move['cell'])}."
        if t == "swap":
            return f"{who} swapped for the stored {move['take']} and placed it on {square(move['to'])}."
        if t == "bondmaker":
            return f"{who} put the resource on the Cottage at {square(move['cell'])}."
        if t == "museum":
            return f"{who} returned the resource to the supply (Museum, +1 coin)."
        if t == "build":
            grid = state["p"][seat]["grid"]
            used = _list([f"{grid[c]} on {square(c)}" for c in sorted(move["cells"])])
            return f"{who} constructed {_card(move['card'])} on {square(move['at'])} from {used}."
        if t == "done":
            return f"{who} finished constructing for this round."
        if t == "choose":
            return f"{who} chose {_choice(move)}."
    except (KeyError, IndexError, TypeError, ValueError):
        pass  # a move the log cannot word (never a legal one)
    return f"{who} played a move."


def _choice(move: dict[str, Any]) -> str:
    """A card effect's choice in words."""
    if move.get("stop"):
        return "to stop"
    if move.get("skip"):
        return "to skip the effect"
    if move.get("pay") is True:
        return "to pay the coins"
    if move.get("pay") is False:
        return "to replace it" + (f" on {square(move['to'])}" if "to" in move else "")
    if "line" in move:
        return f"to count the Teahouse's {move['line']}"
    if "coins" in move:
        return f"to spend {move['coins']} coin{'' if move['coins'] == 1 else 's'}"
    parts = []
    if "resource" in move:
        parts.append(str(move["resource"]))
    if "card" in move:
        parts.append(_card(move["card"]))
    if "cell" in move:
        parts.append(f"on {square(move['cell'])}")
    if "to" in move:
        parts.append(f"to {square(move['to'])}")
    return " ".join(parts) or "an option"
