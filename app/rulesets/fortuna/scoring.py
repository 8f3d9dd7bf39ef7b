"""End-of-game scoring (RB-F The Winner of the Game): steps plus privilege points C, only for
players inside Rome (step 10+); ties by steps, money, Centurions, then Vestals."""

from __future__ import annotations

from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.state import Player, State, water_total


def count(pl: Player, per: str) -> int:
    """How many units a C card counts for this player (resources are not spent by scoring)."""
    if per == "buildings":
        return len(pl["buildings"])
    if per == "water":
        return water_total(pl)
    if per == "married":
        return int(pl["married"])
    if per == "money4":
        return pl["money"] // 4
    if per == "dice":
        return pl["dice"]
    return pl[data.resource(per)]


def card_points(pl: Player, card: str) -> int:
    """Points of one privilege card C for this player (0 for A and B cards)."""
    row = data.PRIVILEGES[card]
    if row["cls"] != "C":
        return 0
    return int(row["vp"]["each"]) * count(pl, row["vp"]["per"])


def breakdown(s: State) -> list[dict[str, Any]]:
    """Each seat's score: steps, the privilege cards revealed (inside Rome only) and the total."""
    out = []
    for pl in s["players"]:
        inside = pl["position"] >= data.GATE_STEP
        cards: list[dict[str, Any]] = (
            [
                {"card": c, "points": card_points(pl, c)}
                for c in pl["hand"]
                if data.PRIVILEGES[c]["cls"] == "C"
            ]
            if inside
            else []
        )
        privilege = sum([c["points"] for c in cards])
        out.append(
            {
                "steps": pl["position"],
                "inside_rome": inside,
                "privileges": cards,
                "privilege_points": privilege,
                "total": pl["position"] + privilege,
                "money": pl["money"],
                "centurions": pl["centurions"],
                "vestals": pl["vestals"],
            }
        )
    return out


def tie_key(b: dict[str, Any]) -> tuple[Any, ...]:
    """Only players inside Rome can win; then total, steps, money, Centurions, Vestals."""
    return (b["inside_rome"], b["total"], b["steps"], b["money"], b["centurions"], b["vestals"])
