"""What each seat may see, the hidden-information re-deal (determinize) and log filtering.

Hidden: the privilege deck's order, other players' privilege cards, cards others drew and
discarded face down, the palace cards a seat has not seen, the action cards dealt face down at
setup (until flipped), and the generator.
"""

from __future__ import annotations

from typing import Any

from app.engine.memo import part
from app.rulesets.fortuna import data
from app.rulesets.fortuna.apply import public_form
from app.rulesets.fortuna.state import FavourCard, Move, Player, Slot, State, active, clone_state

# The parts of a view that most moves leave as they were (a province, a side of the board, the
# favour cards, the piles, the order) come from the game's memo (app/engine/memo.py) by a key
# summarising their content, so the diff between a seat's consecutive views skips them. A key
# holding ids names parts the memo's entry keeps alive, so those ids cannot be reused meanwhile.
# Parts are built by module functions given their arguments, not lambdas, and the view holds no
# generator expressions: compiled, either would allocate a closure on every call.


def _player_view(pl: Player, reveal: bool) -> dict[str, Any]:
    key = (
        "p",
        pl["position"],
        pl["money"],
        pl["grain"],
        pl["wine"],
        pl["water"],
        pl["aqueduct"],
        pl["dice"],
        pl["vestals"],
        pl["centurions"],
        tuple(pl["buildings"]),
        pl["married"],
        tuple(pl["hand"]) if reveal else None,
        len(pl["hand"]),
    )
    return part(key, _make_player_view, pl, reveal)


def _make_player_view(pl: Player, reveal: bool) -> dict[str, Any]:
    return {
        "pos": pl["position"],
        "money": pl["money"],
        "grain": pl["grain"],
        "wine": pl["wine"],
        "water": pl["water"],
        "aqueduct": pl["aqueduct"],
        "dice": pl["dice"],
        "vestals": pl["vestals"],
        "centurions": pl["centurions"],
        "buildings": list(pl["buildings"]),
        "married": pl["married"],
        "hand": list(pl["hand"]) if reveal else None,
        "hand_size": len(pl["hand"]),
    }


def _side_view(row: list[Slot], peek: bool) -> list[dict[str, Any]]:
    shown = tuple(
        [
            (slot["card"] if peek or slot["face_up"] or slot["public"] else None, slot["face_up"])
            for slot in row
        ]
    )
    return part(("side", shown), _make_side, shown)


def _make_side(shown: tuple[tuple[str | None, bool], ...]) -> list[dict[str, Any]]:
    return [{"card": card, "up": up} for card, up in shown]


def _make_favours(favours: list[FavourCard]) -> list[dict[str, Any]]:
    return [{"card": k, "used": f["used"], "tokens": f["tokens"]} for k, f in enumerate(favours, 1)]


def _as_is(value: Any) -> Any:
    return value


# Long: the view is one literal, key by key, so what each seat is shown can be read at a glance.
def view_state(s: State, seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it (None: a spectator)."""
    over = s["phase"] == "over"
    peek = bool(s["options"].get("peek_own_card", False))
    choice, offer, discard = s["choice"], s["palace_choice"], s["discard"]
    sides = [_side_view(row, peek and side == seat) for side, row in enumerate(s["sides"])]
    players = [
        _player_view(pl, i == seat or (over and pl["position"] >= data.GATE_STEP))
        for i, pl in enumerate(s["players"])
    ]
    favours = tuple([(f["used"], f["tokens"]) for f in s["favours"]])
    return {
        "seat": seat,
        "players": s["player_count"],
        "options": s["options"],
        "round": s["round"],
        "order": part(("order", tuple(s["order"])), list, s["order"]),
        "turn": s["turn"],
        "active": active(s),
        "step": s["phase"],
        "chosen": s["chosen_slot"],
        "dice": s["rolled"],
        "b_used": s["privilege_b_used"],
        "sides": part(("sides", tuple([id(r) for r in sides])), _as_is, sides),
        "favours": part(("favours", favours), _make_favours, s["favours"]),
        "supply": s["supply"],
        "palace_tokens": s["palace_tokens"],
        "piles": part(("piles", tuple(s["piles"].items())), dict, s["piles"]),
        "deck_size": len(s["deck"]),
        "removed": s["removed"],
        # what the seat knows of the deck (it saw these go in at the last reshuffle and has not
        # seen them since; another seat may have drawn some) and, for everyone, how many cards
        # of each hand and whether the palace cards came from the deck since then (at most)
        "shuffled_in": None if seat is None else list(s["known_in_deck"][seat]),
        "since_shuffle": {"hands": list(s["drawn_since_shuffle"]), "palace": s["palace_drawn_since_shuffle"]},
        "discard": {
            "face_up": [d["card"] for d in discard if d["face_up"]],
            "face_down": len([d for d in discard if not d["face_up"]]),
            "mine": [d["card"] for d in discard if not d["face_up"] and d["by"] == seat],
        },
        "choice": None
        if choice is None
        else {
            "seat": choice["seat"],
            "count": len(choice["cards"]),
            "keep": choice["keep"],
            "cards": choice["cards"] if choice["seat"] == seat else None,
        },
        "palace": {
            "count": len(s["palace"]["cards"]),
            "cards": s["palace"]["cards"] if seat in s["palace"]["seen"] else None,
        },
        "palace_choice": None
        if offer is None
        else {
            "seat": offer["seat"],
            "count": len(offer["cards"]),
            "cards": offer["cards"] if offer["seat"] == seat else None,
        },
        "arrivals": s["arrivals"],
        "end": s["last_round"],
        "last": s["last"],
        "p": part(("plist", tuple([id(x) for x in players])), _as_is, players),
    }


def determinize_state(s: State, seat: int | None, rng: Any) -> State:
    """A state `seat` cannot tell from `s`, drawn from what its view shows (item 16 of issue 25:
    two states that look the same to the seat re-deal the same with the same generator): the
    action cards dealt face down and every privilege card the seat has not seen are re-dealt
    from sorted lists. Its own hand and face-down discards, the palace cards it saw and public
    cards stay. The cards it knows went into the deck at the last reshuffle (`known_in_deck`) go
    to the deck or to a place another seat filled from that deck since (`drawn_since_shuffle`):
    another seat may have drawn them, and the seat did not see which."""
    d = clone_state(s)
    _redeal_action_cards(d, seat, rng)
    fixed = _fixed_palace_cards(d, seat)
    places, pool = _unseen_places(d, seat, fixed)
    known = set(d["known_in_deck"][seat]) if seat is not None else set()
    region = sum([p[2] for p in places])
    sure = sorted([c for c in pool if c in known])[:region]  # never more than fit (old snapshots)
    others = rng.shuffled(sorted([c for c in pool if c not in sure]))
    spare = region - len(sure)
    fresh_cards, old_cards = rng.shuffled(sure + others[:spare]), others[spare:]
    for where, k, f in places:
        part = fresh_cards[:f] + old_cards[: k - f]
        fresh_cards, old_cards = fresh_cards[f:], old_cards[k - f :]
        _deal(d, seat, where, part, fixed)
    # What the other seats know is hidden from this one: in the re-dealt state they know nothing
    # of the deck, and a palace card a later arrival took stays recorded only if this seat saw it.
    d["known_in_deck"] = [list(d["known_in_deck"][i]) if i == seat else [] for i in range(d["player_count"])]
    d["palace"]["taken"] = [x for x in d["palace"]["taken"] if seat is not None and seat in x["seen"]]
    d["rng"] = rng.next64()
    return d


def _redeal_action_cards(d: State, seat: int | None, rng: Any) -> None:
    """The action cards dealt face down that nobody (or only their owner, peeking) has seen."""
    peek = bool(d["options"].get("peek_own_card", False))
    hidden = [
        slot
        for side, row in enumerate(d["sides"])
        for slot in row
        if not slot["face_up"] and not slot["public"] and not (peek and side == seat)
    ]
    for slot, card in zip(hidden, rng.shuffled(sorted([slot["card"] for slot in hidden]))):
        slot["card"] = card


def _fixed_palace_cards(d: State, seat: int | None) -> dict[int, list[str]]:
    """Palace cards a later arrival took from those the seat saw on the table: known to be there."""
    fixed: dict[int, list[str]] = {}
    for x in d["palace"]["taken"]:
        if seat is not None and seat in x["seen"] and x["card"] in d["players"][x["seat"]]["hand"]:
            fixed.setdefault(x["seat"], []).append(x["card"])
    return fixed


def _unseen_places(
    d: State, seat: int | None, fixed: dict[int, list[str]]
) -> tuple[list[tuple[Any, int, int]], list[str]]:
    """The places of the cards the seat has not seen, in a fixed order: (place, how many cards,
    how many of them may have come from the deck since the last reshuffle); and those cards
    (`fixed`: the palace cards known to be in a hand stay out of it)."""
    over = d["phase"] == "over"
    pool = list(d["deck"])
    places: list[tuple[Any, int, int]] = [("deck", len(pool), len(pool))]
    for i, pl in enumerate(d["players"]):
        if i != seat and not (over and pl["position"] >= data.GATE_STEP):  # revealed at the end
            rest = list(pl["hand"])
            for card in fixed.get(i, []):
                rest.remove(card)
            pool += rest
            places.append((i, len(rest), min(d["drawn_since_shuffle"][i], len(rest))))
    choice = d["choice"]
    if choice is not None and choice["seat"] != seat:
        pool += choice["cards"]
        places.append(("choice", len(choice["cards"]), len(choice["cards"])))
    # a later arrival chooses from the cards the earlier arrivals left face down: they saw them
    saw_offer = len(d["arrivals"]) > 1 and seat in d["palace"]["seen"]
    offer = d["palace_choice"]
    fresh_palace = d["palace_drawn_since_shuffle"]
    if offer is not None and offer["seat"] != seat and not saw_offer:
        pool += offer["cards"]
        places.append(("palace_choice", len(offer["cards"]), len(offer["cards"]) if fresh_palace else 0))
    if seat not in d["palace"]["seen"]:
        pool += d["palace"]["cards"]
        k = len(d["palace"]["cards"])
        places.append(("palace", k, k if fresh_palace else 0))
    secret = [x for x in d["discard"] if not x["face_up"] and x["by"] != seat]
    pool += [x["card"] for x in secret]
    places.append(("discard", len(secret), len(secret)))  # all after the reshuffle
    return places, pool


def _deal(d: State, seat: int | None, where: Any, part: list[str], fixed: dict[int, list[str]]) -> None:
    """Put the re-dealt cards `part` in place `where`."""
    if where == "deck":
        d["deck"] = part
    elif where == "choice" and d["choice"] is not None:
        d["choice"]["cards"] = part
    elif where == "palace_choice" and d["palace_choice"] is not None:
        d["palace_choice"]["cards"] = part
    elif where == "palace":
        d["palace"]["cards"] = part
    elif where == "discard":
        secret = [x for x in d["discard"] if not x["face_up"] and x["by"] != seat]
        for x, card in zip(secret, part):
            x["card"] = card
    else:
        d["players"][where]["hand"] = sorted(part + fixed.get(where, []))


def public_move_for(s: State, seat: int, move: Move, viewer: int | None) -> Move:
    """The mover sees the move as sent; others do not learn which privilege cards were kept."""
    return move if viewer == seat else public_form(move)
