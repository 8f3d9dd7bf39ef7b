"""Action cards (RB-F phase 2 and military power): every way to execute a card now, and its
effect. The cards' numbers come from data/actions.toml."""

from __future__ import annotations

from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.privileges import move_pawn
from app.rulesets.fortuna.state import Player, Resource, State

ACTIONS = data.ACTIONS
BUILDINGS = data.BUILDINGS
LIMITS = data.LIMITS
PALACE_STEP = data.PALACE_STEP
SLOT_PRICES = data.SLOT_PRICES

# The province key each harvest, trade or recruit card changes, by card id.
_GOODS: dict[str, Resource] = {
    card: data.resource(row.get("resource") or row["what"])
    for card, row in ACTIONS.items()
    if row["effect"] in ("harvest", "trade", "recruit")
}

# 0, 1, 2... up to the most water a harvest spends and the most units a recruit takes
_UNITS = tuple(
    range(1 + max(max(row.get("max_water", 0), row.get("max_per_action", 0)) for row in ACTIONS.values()))
)


def spend_water(pl: Player, k: int) -> None:
    """Spend water, the Aqueduct's first (it refills only when empty)."""
    if k and pl["aqueduct"]:
        pl["aqueduct"] -= 1
        k -= 1
    pl["water"] -= k


def add_money(pl: Player, amount: int) -> None:
    """Money stops at 20 (RB-F); anything beyond is lost."""
    pl["money"] = min(LIMITS["money"], pl["money"] + amount)


def slot_cost(what: str, have: int, k: int) -> int:
    """The price of the next k slots (province board: 1, 2, 3)."""
    return sum(SLOT_PRICES[what][have : have + k])  # a slice, not a generator: called per listing


def card_args(s: State, seat: int, card: str, bribe: bool = True) -> list[dict[str, Any]]:
    """Every way to execute action card `card` now (an empty list: it cannot be executed)."""
    row = ACTIONS[card]
    return _ARGS[row["effect"]](s, seat, card, row, bribe)


def _harvest_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    pl = s["players"][seat]
    most = pl["water"] + (pl["aqueduct"] or 0)  # water_total, inline: this runs on every listing
    if row["max_water"] < most:  # noqa: PLR1730 - no call to min() on every listing
        most = row["max_water"]
    # a slice: no range() on every listing (and, like range, nothing below zero)
    return [{"water": w} for w in _UNITS[: most + 1]] if most >= 0 else []


def _no_choice(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    return [{}]


def _trade_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    return [{"n": k} for k in range(1, s["players"][seat][_GOODS[card]] + 1)]


def _recruit_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    pl = s["players"][seat]
    have = pl[_GOODS[card]]
    room = min(row["max_per_action"], LIMITS[row["what"]] - have)
    return (
        [{"n": k} for k in _UNITS[1 : room + 1] if slot_cost(row["what"], have, k) <= pl["money"]]
        if room > 0
        else []
    )


def _clerus_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    pl = s["players"][seat]
    return [{}] if pl["vestals"] > 0 and pl["dice"] < LIMITS["dice"] else []


def _build_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    return [{"b": b} for b in buildable(s, seat)]


def _marry_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    pl = s["players"][seat]
    return [{}] if not pl["married"] and pl["money"] >= row["cost"] else []


def _bribe_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    pl = s["players"][seat]
    if not bribe or pl["money"] < row["cost"]:
        return []
    out = []
    for side in range(s["player_count"]):
        if side == seat:
            continue
        for j, slot in enumerate(s["sides"][side]):
            if slot["face_up"] and ACTIONS[slot["card"]]["effect"] != "bribe":
                # the fee is paid first, so the bribed card is judged with the fee taken
                # (a temporary change, undone below: legal_moves never alters its input)
                pl["money"] -= row["cost"]
                try:
                    inner = card_args(s, seat, slot["card"], bribe=False)
                finally:
                    pl["money"] += row["cost"]
                out += [{"side": side, "slot": j, "args": a} for a in inner]
    return out


def _step_args(s: State, seat: int, card: str, row: dict[str, Any], bribe: bool) -> list[dict[str, Any]]:
    if row["not_start_player"] and s["order"][0] == seat:
        return []  # the card makes you start player or moves you, not both (NOTES)
    return [{}] if s["players"][seat]["position"] < PALACE_STEP else []


_ARGS = {
    "harvest": _harvest_args,
    "water": _no_choice,
    "trade": _trade_args,
    "recruit": _recruit_args,
    "clerus": _clerus_args,
    "build": _build_args,
    "marry": _marry_args,
    "bribe": _bribe_args,
    "step": _step_args,
}


def buildable(s: State, seat: int) -> list[str]:
    """Buildings the player may buy: from the piles, at most 3, one of each type, paid in full,
    the Palace only once married."""
    pl = s["players"][seat]
    if len(pl["buildings"]) >= LIMITS["buildings"]:
        return []
    return [
        b
        for b, row in BUILDINGS.items()
        if s["piles"][b] > 0
        and b not in pl["buildings"]
        and row["cost"] <= pl["money"]
        and (pl["married"] or not row["requires_married"])
    ]


def execute(s: State, seat: int, card: str, args: dict[str, Any]) -> None:
    """Carry out action card `card` with the chosen arguments (already checked legal)."""
    row = ACTIONS[card]
    _EFFECTS[row["effect"]](s, seat, card, row, args)


def _harvest(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    spend_water(pl, args["water"])
    pl[_GOODS[card]] += row["base"] + row["per_water"] * args["water"]


def _water(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    s["players"][seat]["water"] += row["amount"]


def _trade(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    pl[_GOODS[card]] -= args["n"]
    add_money(pl, args["n"] * (row["price"] + ("market" in pl["buildings"])))


def _recruit(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    key = _GOODS[card]
    pl["money"] -= slot_cost(row["what"], pl[key], args["n"])
    pl[key] += args["n"]


def _clerus(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    pl["vestals"] -= 1
    pl["dice"] += 1


def _build(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    b = args["b"]
    pl["money"] -= BUILDINGS[b]["cost"]
    s["piles"][b] -= 1
    pl["buildings"].append(b)
    if b == "aqueduct":
        pl["aqueduct"] = 0
        pl["aqueduct_round"] = s["round"]


def _marry(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    pl = s["players"][seat]
    pl["money"] -= row["cost"]
    pl["married"] = True


def _bribe(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    s["players"][seat]["money"] -= row["cost"]
    add_money(s["players"][args["side"]], row["cost"])
    target = s["sides"][args["side"]][args["slot"]]["card"]
    s["events"].append({"k": "bribe", "seat": seat, "owner": args["side"], "card": target})
    execute(s, seat, target, args["args"])


def _step(s: State, seat: int, card: str, row: dict[str, Any], args: dict[str, Any]) -> None:
    move_pawn(s, seat, row["amount"])


_EFFECTS = {
    "harvest": _harvest,
    "water": _water,
    "trade": _trade,
    "recruit": _recruit,
    "clerus": _clerus,
    "build": _build,
    "marry": _marry,
    "bribe": _bribe,
    "step": _step,
}
