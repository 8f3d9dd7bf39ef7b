"""What each seat may see, the hidden-information re-deal (determinize) and log filtering.

Hidden: other players' dealt monument pairs and kept monuments until built, the solo resource
deck's order, the Town Hall deck's order and discards, and the generator state.
"""

from __future__ import annotations

from typing import Any, Callable

from app.engine.memo import derived
from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import chest_size


def _player_view(pl: dict[str, Any], own: bool) -> dict[str, Any]:
    # A town's view is the same object for as long as the player's dict is (moves copy a player
    # only when they change it), so view diffs skip unchanged towns by identity.
    return derived(pl, own, _make_player_view, pl, own)


def _make_player_view(pl: dict[str, Any], own: bool) -> dict[str, Any]:
    secret_ok = own or pl["built_monument"]
    return {
        "grid": pl["grid"],
        "coins": pl["coins"],
        "chest": chest_size(pl),
        "store": pl["store"],
        "marks": pl["marks"],
        "placed": pl["placed"],
        "done": pl["done"],
        "complete": pl["complete"],
        "builds": pl["builds"],
        "flags": pl["flags"],
        "pending": pl["pending"],
        "built_monument": pl["built_monument"],
        "has_monument": pl["monument"] is not None,
        "monument": pl["monument"] if secret_ok else None,
        "dealt": pl["dealt"] if own else None,
    }


def view_state(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it (None: a spectator)."""
    deck = state["solo_deck"]
    return {
        "seat": seat,
        "players": state["n"],
        "solo": state["solo"],
        "coins_on": state["coins_on"],
        "options": state["opts"],
        "phase": state["phase"],
        "round": state["round"],
        "master": state["master"],
        "named": state["named"],
        "oddity_taken": state["oddity_taken"],
        "buildings": state["buildings"],
        "monument_pool": state["monument_pool"],
        "finish": state["finish"],
        "last": state["last"],
        "solo_deck": None if deck is None else {"shown": deck["shown"], "deck_size": len(deck["deck"])},
        "town_hall": None
        if state["town_hall"] is None
        else {
            "deck_size": len(state["town_hall"]["deck"]),
            "discarded": len(state["town_hall"]["discard"]),
            "revealed": state["town_hall"]["revealed"],
            "free_choice": state["town_hall"]["free"],
        },
        "towns": [_player_view(pl, i == seat) for i, pl in enumerate(state["p"])],
    }


def determinize_state(state: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
    """Re-deal everything `seat` cannot see: others' unbuilt (and discarded) monuments, the solo
    deck order; the seat's own discarded monument is known to it, so it is never re-dealt."""
    known: set[str] = set()
    for i, pl in enumerate(state["p"]):
        if i == seat:
            known |= set(pl["dealt"] or ()) | ({pl["monument"]} if pl["monument"] else set())
            known |= {pl["discarded"]} if pl.get("discarded") else set()
        elif pl["built_monument"]:
            known.add(pl["monument"])
    pool = rng.shuffled([m for m in state["monument_pool"] if m not in known])
    s = dict(state)
    players = list(state["p"])
    for i, pl in enumerate(players):
        if i == seat or pl["built_monument"]:
            continue
        q = dict(pl)
        if pl["dealt"] is not None:
            q["dealt"] = sorted([pool.pop(), pool.pop()])
        if pl["monument"] is not None:
            q["monument"] = pool.pop()
        if pl.get("discarded"):
            q["discarded"] = pool.pop()
        players[i] = q
    s["p"] = players
    if state["solo_deck"] is not None:
        s["solo_deck"] = {
            "shown": state["solo_deck"]["shown"],
            "deck": rng.shuffled(state["solo_deck"]["deck"]),
        }
    th = state["town_hall"]
    if th is not None:  # the face-down discards and the deck order are unknown to everyone
        cards = rng.shuffled(th["deck"] + th["discard"])
        s["town_hall"] = {
            "deck": cards[: len(th["deck"])],
            "discard": cards[len(th["deck"]) :],
            "revealed": th["revealed"],
            "free": th["free"],
        }
    s["rng"] = rng.next64()
    return s


def public_move_for(move: dict[str, Any], seat: int, viewer: int | None) -> dict[str, Any]:
    """A kept monument is secret: others only learn that a monument was kept."""
    if move.get("type") == "keep_monument" and viewer != seat:
        return {"type": "keep_monument"}
    return move


def _name(cid: Any) -> str:
    return str(data.CARDS[cid]["name"]) if cid in data.CARDS else str(cid)


def describe(move: dict[str, Any]) -> str:
    """A short human label for a move (squares numbered 1-16, row by row)."""
    t = move.get("type")

    def sq(key: str) -> str:
        return f"square {int(move[key]) + 1}"

    labels: dict[str, Callable[[], str]] = {
        "keep_monument": lambda: (
            f"keep {_name(move['monument'])}" if "monument" in move else "keep a monument"
        ),
        "name": lambda: f"name {move['resource']}",
        "choose_card": lambda: f"take resource card {move['index'] + 1}",
        "take_oddity": lambda: f"take seat {move['from'] + 1}'s Oddity Shop cube to {sq('to')}",
        "place": lambda: f"place {move['resource']} on {sq('cell')}",
        "store": lambda: f"store the resource on {sq('cell')}",
        "swap": lambda: f"swap for the stored {move['take']}, placed on {sq('to')}",
        "bondmaker": lambda: f"put the resource on the Cottage at {sq('cell')}",
        "museum": lambda: "return the resource (Museum, +1 coin)",
        "build": lambda: f"construct {_name(move['card'])} on {sq('at')}",
        "done": lambda: "done constructing",
    }
    try:
        if t in labels:
            return labels[t]()
        if t == "choose":
            parts = [
                _name(v) if k == "card" else f"square {int(v) + 1}" if k in ("cell", "to") else f"{k} {v}"
                for k, v in move.items()
                if k != "type"
            ]
            return "choose " + ", ".join(parts)
    except (KeyError, TypeError, ValueError):
        pass
    return ", ".join(f"{k}={v}" for k, v in move.items())
