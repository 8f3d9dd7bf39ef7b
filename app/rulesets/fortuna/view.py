"""What each seat may see, the hidden-information re-deal (determinize), log filtering and the
log in words.

Hidden: the privilege deck's order, other players' privilege cards, cards others drew and
discarded face down, the palace cards a seat has not seen, the action cards dealt face down at
setup (until flipped), and the generator.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.rules import active, apply_move, clone_state, public_form

RES_WORDS = {"grain": "grain", "wine": "wine", "water": "water", "centurions": "Centurion",
             "vestals": "Vestal Virgin"}


def _peek(s: dict[str, Any]) -> bool:
    return bool(s["opts"].get("peek_own_card", False))


def _slot_view(s: dict[str, Any], side: int, slot: dict[str, Any], seat: int | None) -> dict[str, Any]:
    seen = slot["up"] or slot["pub"] or (_peek(s) and side == seat)
    return {"card": slot["c"] if seen else None, "up": slot["up"]}


# View parts by content: a part equal to one built before is that same object, so the diff
# between a seat's consecutive views skips it by identity (app/engine/diff.py) instead of walking
# it. Views are never changed after they are built (they are sent, compared and diffed). Two
# generations of at most _GENERATION parts each (about 600 bytes a part): a full new generation
# pushes out the old one, and a part used again moves to the new one, so the parts of games in
# play stay while memory stays bounded. A miss only costs a longer diff.
# A part's builder is a module function given its arguments, not a lambda, and the views hold no
# generator expressions: compiled, either would allocate a closure on every call.
_GENERATION = 4096
_PARTS: list[dict[Any, Any]] = [{}, {}]


def _part(key: Any, build: Any, *args: Any) -> Any:
    """The view part for `key` (a hashable summary of its whole content), built once by
    `build(*args)`."""
    new = _PARTS[0]
    part = new.get(key)
    if part is None:
        part = _PARTS[1].get(key)
        if part is None:
            part = build(*args)
        if len(new) >= _GENERATION:
            _PARTS[1], _PARTS[0] = new, {}
            new = _PARTS[0]
        new[key] = part
    return part


def _player_view(pl: dict[str, Any], reveal: bool) -> dict[str, Any]:
    key = ("p", pl["pos"], pl["money"], pl["grain"], pl["wine"], pl["water"], pl["aq"], pl["dice"],
           pl["vestals"], pl["cent"], tuple(pl["bld"]), pl["married"],
           tuple(pl["hand"]) if reveal else None, len(pl["hand"]))
    return _part(key, _make_player_view, pl, reveal)


def _make_player_view(pl: dict[str, Any], reveal: bool) -> dict[str, Any]:
    return {
        "pos": pl["pos"], "money": pl["money"], "grain": pl["grain"], "wine": pl["wine"],
        "water": pl["water"], "aqueduct": pl["aq"], "dice": pl["dice"], "vestals": pl["vestals"],
        "centurions": pl["cent"], "buildings": list(pl["bld"]), "married": pl["married"],
        "hand": list(pl["hand"]) if reveal else None, "hand_size": len(pl["hand"]),
    }


def _make_side(slots: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [dict(zip(("card", "up"), v)) for v in slots]


def _make_favours(fav: tuple[tuple[Any, Any], ...]) -> list[dict[str, Any]]:
    return [{"card": k + 1, "used": u, "tokens": n} for k, (u, n) in enumerate(fav)]


def _as_is(value: Any) -> Any:
    return value


def view_state(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The table as `seat` sees it (None: a spectator)."""
    over = s["step"] == "over"
    players = [_player_view(pl, i == seat or (over and pl["pos"] >= data.GATE_STEP))
               for i, pl in enumerate(s["p"])]
    sides = []
    for side, row in enumerate(s["sides"]):
        slots = tuple([_slot_view(s, side, slot, seat).values() for slot in row])
        key = ("side", tuple([tuple(v) for v in slots]))
        sides.append(_part(key, _make_side, slots))
    fav = tuple([(f["used"], f["tokens"]) for f in s["fav"]])
    ch, pc = s["choice"], s["palace_choice"]
    return {
        "seat": seat, "players": s["n"], "options": s["opts"], "round": s["round"],
        "order": _part(("order", tuple(s["order"])), list, s["order"]),
        "turn": s["turn"], "active": active(s), "step": s["step"],
        "chosen": s["chosen"], "dice": s["dice"], "b_used": s["b_used"],
        "sides": _part(("sides", tuple([id(r) for r in sides])), _as_is, sides),
        "favours": _part(("fav", fav), _make_favours, fav),
        "supply": s["supply"], "palace_tokens": s["palace_tokens"],
        "piles": _part(("piles", tuple(s["piles"].items())), dict, s["piles"]),
        "deck_size": len(s["deck"]), "removed": s["out"],
        # what the seat knows of the deck (it saw these go in at the last reshuffle and has not
        # seen them since; another seat may have drawn some) and, for everyone, how many cards
        # of each hand and whether the palace cards came from the deck since then (at most)
        "shuffled_in": None if seat is None else list(s["known"][seat]),
        "since_shuffle": {"hands": list(s["fresh"]), "palace": s["fresh_palace"]},
        "discard": {"face_up": [d["c"] for d in s["discard"] if d["up"]],
                    "face_down": len([d for d in s["discard"] if not d["up"]]),
                    "mine": [d["c"] for d in s["discard"] if not d["up"] and d["by"] == seat]},
        "choice": None if ch is None else {"seat": ch["seat"], "count": len(ch["cards"]), "keep": ch["keep"],
                                           "cards": ch["cards"] if ch["seat"] == seat else None},
        "palace": {"count": len(s["palace"]["cards"]),
                   "cards": s["palace"]["cards"] if seat in s["palace"]["seen"] else None},
        "palace_choice": None if pc is None else {"seat": pc["seat"], "count": len(pc["cards"]),
                                                  "cards": pc["cards"] if pc["seat"] == seat else None},
        "arrivals": s["arrivals"], "end": s["end"], "last": s["last"],
        "p": _part(("plist", tuple([id(x) for x in players])), _as_is, players),
    }


def determinize_state(s: dict[str, Any], seat: int | None, rng: Any) -> dict[str, Any]:
    """A state `seat` cannot tell from `s`, drawn from what its view shows (item 16 of issue 25:
    two states that look the same to the seat re-deal the same with the same generator): the
    action cards dealt face down and every privilege card the seat has not seen are re-dealt
    from sorted lists. Its own hand and face-down discards, the palace cards it saw and public
    cards stay. The cards it knows went into the deck at the last reshuffle (`known`) go to the
    deck or to a place another seat filled from that deck since (`fresh`): another seat may
    have drawn them, and the seat did not see which."""
    d = clone_state(s)
    hidden = [slot for side, row in enumerate(d["sides"]) for slot in row
              if not slot["up"] and not slot["pub"] and not (_peek(d) and side == seat)]
    for slot, card in zip(hidden, rng.shuffled(sorted([slot["c"] for slot in hidden]))):
        slot["c"] = card
    over = d["step"] == "over"
    # palace cards a later arrival took from those the seat saw on the table: known to be there
    fixed: dict[int, list[str]] = {}
    for x in d["palace"].get("taken", []):
        if seat is not None and seat in x["seen"] and x["card"] in d["p"][x["seat"]]["hand"]:
            fixed.setdefault(x["seat"], []).append(x["card"])
    # The places of the cards the seat has not seen, in a fixed order: (place, how many cards,
    # how many of them may have come from the deck since the last reshuffle).
    pool = list(d["deck"])
    places: list[tuple[Any, int, int]] = [("deck", len(pool), len(pool))]
    for i, pl in enumerate(d["p"]):
        if i != seat and not (over and pl["pos"] >= data.GATE_STEP):  # revealed at the end
            rest = list(pl["hand"])
            for card in fixed.get(i, []):
                rest.remove(card)
            pool += rest
            places.append((i, len(rest), min(d["fresh"][i], len(rest))))
    if d["choice"] is not None and d["choice"]["seat"] != seat:
        pool += d["choice"]["cards"]
        places.append(("choice", len(d["choice"]["cards"]), len(d["choice"]["cards"])))
    # a later arrival chooses from the cards the earlier arrivals left face down: they saw them
    saw_offer = len(d["arrivals"]) > 1 and seat in d["palace"]["seen"]
    pc = d["palace_choice"]
    if pc is not None and pc["seat"] != seat and not saw_offer:
        pool += pc["cards"]
        places.append(("palace_choice", len(pc["cards"]), len(pc["cards"]) if d["fresh_palace"] else 0))
    if seat not in d["palace"]["seen"]:
        pool += d["palace"]["cards"]
        k = len(d["palace"]["cards"])
        places.append(("palace", k, k if d["fresh_palace"] else 0))
    secret_discards = [x for x in d["discard"] if not x["up"] and x["by"] != seat]
    pool += [x["c"] for x in secret_discards]
    places.append(("discard", len(secret_discards), len(secret_discards)))  # all after the reshuffle
    known = set(d["known"][seat]) if seat is not None else set()
    region = sum([p[2] for p in places])
    sure = sorted([c for c in pool if c in known])[:region]  # never more than fit (old snapshots)
    others = rng.shuffled(sorted([c for c in pool if c not in sure]))
    spare = region - len(sure)
    fresh_cards, old_cards = rng.shuffled(sure + others[:spare]), others[spare:]
    for where, k, f in places:
        part = fresh_cards[:f] + old_cards[:k - f]
        fresh_cards, old_cards = fresh_cards[f:], old_cards[k - f:]
        if where == "deck":
            d["deck"] = part
        elif where == "choice":
            d["choice"]["cards"] = part
        elif where == "palace_choice":
            d["palace_choice"]["cards"] = part
        elif where == "palace":
            d["palace"]["cards"] = part
        elif where == "discard":
            for x, card in zip(secret_discards, part):
                x["c"] = card
        else:
            d["p"][where]["hand"] = sorted(part + fixed.get(where, []))
    # What the other seats know is hidden from this one: in the re-dealt state they know nothing
    # of the deck, and a palace card a later arrival took stays recorded only if this seat saw it.
    d["known"] = [list(d["known"][i]) if i == seat else [] for i in range(d["n"])]
    d["palace"]["taken"] = [x for x in d["palace"].get("taken", []) if seat is not None and seat in x["seen"]]
    d["rng"] = rng.next64()
    return d


def public_move_for(s: dict[str, Any], seat: int, move: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The mover sees the move as sent; others do not learn which privilege cards were kept."""
    return move if viewer == seat else public_form(move)


# ----------------------------------------------------------------------------- words

def card_name(card: str | None) -> str:
    """An action card's printed name."""
    return data.ACTIONS[card]["name"] if card in data.ACTIONS else "a face-down card"


def privilege_words(card: str) -> str:
    """What a privilege card does, in words."""
    row = data.PRIVILEGES[card]
    if row["cls"] == "A":
        return "privilege card A (" + ", ".join(f"+{n} {RES_WORDS[r]}" for r, n in row["gain"].items()) + ")"
    if row["cls"] == "B":
        return "privilege card B (1 step toward Rome)"
    return f"privilege card C ({row['name']})"


def args_words(card: str, args: dict[str, Any] | None, side_word: Any = None) -> str:
    """How an action card was executed, in words."""
    row = data.ACTIONS[card]
    if args is None:
        return "without executing it"
    eff = row["effect"]
    if eff == "harvest":
        got = row["base"] + row["per_water"] * args["water"]
        return f"spending {args['water']} water for {got} {row['resource']}"
    if eff == "water":
        return f"putting {row['amount']} water into the reservoir"
    if eff == "trade":
        return f"selling {args['n']} {row['resource']}"
    if eff == "recruit":
        return f"recruiting {args['n']} {'Centurion' if row['what'] == 'centurions' else 'Vestal Virgin'}{'s' if args['n'] > 1 else ''}"
    if eff == "clerus":
        return "giving up a Vestal Virgin for one more die"
    if eff == "build":
        name = data.BUILDINGS[args["b"]]["name"]
        return f"building {'an' if name[0] in 'AEIOU' else 'a'} {name} for {data.BUILDINGS[args['b']]['cost']} money"
    if eff == "marry":
        return f"marrying for {row['cost']} money"
    if eff == "bribe":
        return f"paying {row['cost']} money to {{seat{args['side']}}} to play their {side_word or 'card'}"
    return "moving 1 step toward Rome"


def _event_words(ev: dict[str, Any]) -> str | None:
    k = ev["k"]
    who = f"{{seat{ev['seat']}}}" if "seat" in ev else ""
    if k == "roll":
        return f"{who} rolls {' and '.join(str(d) for d in ev['dice'])}"
    if k == "step":
        return f"{who} moves {ev['n']} step{'s' if ev['n'] > 1 else ''} to step {ev['pos']}"
    if k == "tax":
        return f"{who} pays 1 money tax" if "money" in ev else f"{who} has no money and steps back to {ev['pos']}"
    if k == "no_tax":
        return f"{who} has no favour card available for that die and pays no tax"
    if k == "draw":
        return f"{who} draws {ev['n']} privilege card{'s' if ev['n'] != 1 else ''} and keeps {ev['keep']}"
    if k == "palace":
        return f"{who} reaches Caesar's palace (arrival {ev['place']}): this is the last round"
    if k == "aqueduct":
        return f"{who}'s Aqueduct fills with water"
    if k == "reshuffle":
        return "the privilege discards are shuffled into a new deck"
    if k == "round":
        return (f"round {ev['round']} begins; start-player order: "
                + ", ".join(f"{{seat{x}}}" for x in ev["order"]))
    if k == "game_over":
        return "the game is over"
    if k == "flip_favour":
        return f"{who} flips favour card {ev['card']} ({data.FAVOURS[ev['card']]['name']})"
    if k == "auto" and ev["move"]["type"] == "pass":
        return f"{who} cannot win the Emperor's favour with the {ev['move']['die']}"
    if k == "auto" and ev["move"]["type"] == "skip":
        return f"{who} has no card for military power"
    return None


def log_text(s: dict[str, Any], seat: int, move: dict[str, Any], viewer: int | None) -> str:
    """One sentence a person can follow on the board; `s` is the state before the move."""
    me = f"{{seat{seat}}}"
    t = move.get("type")
    mine = s["sides"][seat]
    if t == "play":
        card = mine[move["slot"]]["c"]
        extra = None
        if move["args"] is not None and data.ACTIONS[card]["effect"] == "bribe":
            extra = card_name(s["sides"][move["args"]["side"]][move["args"]["slot"]]["c"])
            inner = move["args"]["args"]
            head = (f"{me} plays {card_name(card)}, {args_words(card, move['args'], extra)} "
                    f"({args_words(s['sides'][move['args']['side']][move['args']['slot']]['c'], inner)})")
        else:
            head = f"{me} plays {card_name(card)}, {args_words(card, move['args'])}"
    elif t == "exchange":
        give = card_name(mine[s["chosen"]]["c"])
        take = card_name(s["sides"][move["side"]][move["slot"]]["c"])
        where = f"{{seat{move['side']}}}'s side" if move["side"] < s["n"] else f"the empty side {move['side'] + 1}"
        head = f"{me} exchanges {give} for {take} from {where}; {take} lies face down, protected"
    elif t == "military":
        card = mine[move["slot"]]["c"]
        head = f"{me} gives up a Centurion to play {card_name(card)} as well, {args_words(card, move['args'])}"
    elif t == "skip":
        head = f"{me} does not use military power"
    elif t == "favour":
        row = data.FAVOURS[move["card"]]
        gives = row["gives"]
        what = "" if gives in ("married", "vestals") else f", giving up {move['n']} {RES_WORDS.get(gives, gives)}"
        head = f"{me} uses favour card {move['card']} ({row['name']}){what}"
    elif t == "pass":
        head = f"{me} declines the Emperor's favour with the {move['die']}"
    elif t == "flip":
        head = f"{me} flips favour card {move['card']} ({data.FAVOURS[move['card']]['name']}) (2-player rule)"
    elif t == "keep":
        if viewer == seat:
            head = f"{me} keeps " + " and ".join(privilege_words(c) for c in move["cards"])
        else:
            head = f"{me} keeps {len(move['cards'])} privilege card{'s' if len(move['cards']) > 1 else ''}"
    elif t == "palace":
        head = f"{me} takes " + (privilege_words(move["card"]) if viewer == seat else "a privilege card") + " at Caesar's palace"
    elif t == "privilege":
        head = f"{me} plays {privilege_words(move['card'])}"
    elif t == "end":
        head = f"{me} ends the turn"
    else:
        head = f"{me} plays {t}"
    try:
        events = apply_move(s, seat, move)["last"]["events"]
    except Exception:  # noqa: BLE001 - words only; a bad move simply gets no consequences
        events = []
    tail = [w for w in (_event_words(e) for e in events if e["k"] not in ("bribe",)) if w]
    return head + ("; " + "; ".join(tail) if tail else "") + "."


def describe(move: dict[str, Any]) -> str:
    """A short label for a move (move lists)."""
    t = move.get("type")
    if t == "play":
        return f"play card {move['slot'] + 1}" + ("" if move["args"] is None else f" {move['args']}")
    if t == "exchange":
        return f"exchange with side {move['side'] + 1}, card {move['slot'] + 1}"
    if t == "military":
        return f"military: card {move['slot'] + 1} {move['args']}"
    if t == "favour":
        return f"favour card {move['card']} for {move['n']} step{'s' if move['n'] > 1 else ''}"
    if t == "pass":
        return f"decline the favour (die {move['die']})"
    if t == "flip":
        return f"flip favour card {move['card']}"
    if t == "keep":
        return "keep " + ", ".join(move["cards"]) if "cards" in move else "keep privilege cards"
    if t == "palace":
        return f"take {move['card']} at the palace" if "card" in move else "take a palace card"
    if t == "privilege":
        return f"use privilege {move['card']}"
    if t == "skip":
        return "skip military power"
    if t == "end":
        return "end turn"
    return ", ".join(f"{k}={v}" for k, v in move.items())
