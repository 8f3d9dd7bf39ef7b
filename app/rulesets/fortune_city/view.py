"""What a seat may see, determinization of the hidden stack, box and bag, and the catalogue.
Hidden: the goods stack's order and content, the tiles removed face down at setup, the bag's
order, the generator. Everything on the table is public, so every seat sees the same table.

The view keeps the wire shape the browser reads (a city square is {t, token, worker}, the truck
{at, prev, left}). It is built from fresh data once per state for all viewers, and the game's
memo (app/engine/memo.py, `shared`) gives its unchanged parts the previous table's objects, so
the diffs between consecutive views skip them by identity.
"""

from __future__ import annotations

from typing import Any

from app.engine.memo import latest, shared
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import income, truck_steps
from app.rulesets.fortune_city.legal import to_act
from app.rulesets.fortune_city.scoring import breakdown
from app.rulesets.fortune_city.state import Player, State


def _bag_counts(bag: list[str]) -> dict[str, int]:
    out = {c: 0 for c in D.COLOURS}
    for c in bag:
        out[c] += 1
    return out


def wire_player(p: Player) -> dict[str, Any]:
    """A player board in the view's shape (fresh data: nothing shared with the state)."""
    truck, card = p["truck"], p["card"]
    return {
        **p,
        "zone": list(p["zone"]),
        "park": dict(p["park"]),
        "tracks": dict(p["tracks"]),
        "card": None if card is None else dict(card),
        "city": {
            k: {"t": c["tile"], "token": c["token"], "worker": c["worker"]} for k, c in p["city"].items()
        },
        "truck": {"at": truck["at"], "prev": truck["previous"], "left": truck["steps_left"]},
    }


def _table(state: State) -> dict[str, Any]:
    """The view without its seat: the same for every viewer, its unchanged parts the previous
    table's objects."""
    players = state["players"]
    return shared(
        "fortune-city/table",
        {
            "phase": state["phase"],
            "round": state["round"],
            "final": state["final"],
            "start": state["start"],
            "turn": state["turn"],
            "to_act": to_act(state),
            "market": [{"tile": m["tile"], "citizen": m["citizen"]} for m in state["market"]],
            "market_size": state["player_count"] + D.SUPPLY["market_extra"],
            "stack": len(state["stack"]),
            "box": len(state["box"]),
            "bag": _bag_counts(state["bag"]),
            "returned": list(state["returned"]),
            "banks": state["banks"],
            "vips": state["vips"],
            "players": [wire_player(p) for p in players],
            "live": [
                {"score": breakdown(p)["total"], "income": income(p), "steps": truck_steps(p)}
                for p in players
            ],
            "last": state["last"],
            "round_end": state["round_end"],
            "options": state["options"],
        },
    )


def view_state(state: State, seat: int | None) -> dict[str, Any]:
    """The table: market, boards, cities, tracks, supplies; the stack and box as counts and the
    bag as counts per colour (its content is public knowledge, its order is not)."""
    return {**latest(state, "fortune-city/table", _table, state), "seat": seat}


def _seen(state: State) -> set[str]:
    seen = {m["tile"] for m in state["market"]} | set(state["returned"])
    for p in state["players"]:
        seen.update([t for t in p["zone"] if t])
        seen.update([c["tile"] for c in p["city"].values()])
    return seen


def determinize_state(state: State, seat: int | None, rng: Any) -> State:
    """Re-deal the unseen tiles between the stack and the face-down box (keeping the removal's
    shape: the same number per type and price), reshuffle the stack and the bag, new generator.
    Nothing any seat has seen moves. Canonical: the pools are put in a fixed order before each
    shuffle, so two states that look the same re-deal the same from one generator."""
    seen = _seen(state)
    box_groups: dict[tuple[str, int], int] = {}
    for t in state["box"]:
        g = (D.TILES[t]["type"], D.TILES[t]["price"])
        box_groups[g] = box_groups.get(g, 0) + 1
    unseen: dict[tuple[str, int], list[str]] = {}
    for t in D.STACK_TILES:
        if t not in seen:
            unseen.setdefault((D.TILES[t]["type"], D.TILES[t]["price"]), []).append(t)
    box: list[str] = []
    pool: list[str] = []
    for g in sorted(unseen):
        tiles = rng.shuffled(unseen[g])
        r = box_groups.get(g, 0)
        box += tiles[:r]
        pool += tiles[r:]
    s = state.copy()
    s["box"] = sorted(box)
    s["stack"] = rng.shuffled(pool)
    # the bag's order is hidden: shuffle its sorted content, or the re-deal would follow it
    s["bag"] = rng.shuffled(sorted(state["bag"]))
    s["rng"] = rng.next64()
    return s


def catalogue() -> dict[str, Any]:
    """Public component data for the browser: tiles, tracks, colours, constants."""
    tiles = {
        t: {k: r[k] for k in ("good", "building", "type", "price", "vp", "production", "starting")}
        for t, r in D.TILES.items()
    }
    tracks = [
        {k: t[k] for k in ("id", "name", "citizen", "tile_colour", "bonus_kind", "bonus", "vp")}
        for t in D.TRACK_ROWS
    ]
    sup = D.SUPPLY
    return {
        "tiles": tiles,
        "tracks": tracks,
        "bank": {
            "price": sup["bank_price"],
            "vp": sup["bank_vp"],
            "production": sup["bank_production"],
            "limit": sup["bank_limit"],
        },
        "vip_price": sup["vip_price"],
        "card_slots": {"silver": sup["card_silver_slots"], "gold": sup["card_gold_slots"]},
        "lowest_row": D.LOWEST_ROW,
    }
