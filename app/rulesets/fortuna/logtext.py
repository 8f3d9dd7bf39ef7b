"""The log in words: one sentence per move, as each viewer may know it, with the events it
caused; and short move labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.apply import apply_move
from app.rulesets.fortuna.state import Event, Move, State

RES_WORDS = {
    "grain": "grain",
    "wine": "wine",
    "water": "water",
    "centurions": "Centurion",
    "vestals": "Vestal Virgin",
}


def card_name(card: str | None) -> str:
    """An action card's printed name."""
    return data.ACTIONS[card]["name"] if card in data.ACTIONS else "a face-down card"


def privilege_words(card: str) -> str:
    """What a privilege card does, in words."""
    row = data.PRIVILEGES[card]
    if row["cls"] == "A":
        gains = [f"+{n} {RES_WORDS[r]}" for r, n in row["gain"].items()]
        return "privilege card A (" + ", ".join(gains) + ")"
    if row["cls"] == "B":
        return "privilege card B (1 step toward Rome)"
    return f"privilege card C ({row['name']})"


def args_words(card: str, args: dict[str, Any] | None, side_word: Any = None) -> str:
    """How an action card was executed, in words."""
    if args is None:
        return "without executing it"
    row = data.ACTIONS[card]
    return _ARGS_WORDS[row["effect"]](row, args, side_word)


def _recruited(row: dict[str, Any], args: dict[str, Any]) -> str:
    what = "Centurion" if row["what"] == "centurions" else "Vestal Virgin"
    return f"recruiting {args['n']} {what}{'s' if args['n'] > 1 else ''}"


def _built(args: dict[str, Any]) -> str:
    building = data.BUILDINGS[args["b"]]
    name = building["name"]
    return f"building {'an' if name[0] in 'AEIOU' else 'a'} {name} for {building['cost']} money"


_ARGS_WORDS: dict[str, Callable[[dict[str, Any], dict[str, Any], Any], str]] = {
    "harvest": lambda row, args, _: (
        f"spending {args['water']} water for "
        f"{row['base'] + row['per_water'] * args['water']} {row['resource']}"
    ),
    "water": lambda row, args, _: f"putting {row['amount']} water into the reservoir",
    "trade": lambda row, args, _: f"selling {args['n']} {row['resource']}",
    "recruit": lambda row, args, _: _recruited(row, args),
    "clerus": lambda row, args, _: "giving up a Vestal Virgin for one more die",
    "build": lambda row, args, _: _built(args),
    "marry": lambda row, args, _: f"marrying for {row['cost']} money",
    "bribe": lambda row, args, side_word: (
        f"paying {row['cost']} money to {{seat{args['side']}}} to play their {side_word or 'card'}"
    ),
    "step": lambda row, args, _: "moving 1 step toward Rome",
}


def _who(seat: int) -> str:
    """A seat as the platform's name placeholder."""
    return f"{{seat{seat}}}"


_EVENT_WORDS: dict[str, Callable[[Event, str], str]] = {
    "roll": lambda ev, who: f"{who} rolls {' and '.join([str(d) for d in ev['dice']])}",
    "step": lambda ev, who: f"{who} moves {ev['n']} step{'s' if ev['n'] > 1 else ''} to step {ev['pos']}",
    "tax": lambda ev, who: (
        f"{who} pays 1 money tax" if "money" in ev else f"{who} has no money and steps back to {ev['pos']}"
    ),
    "no_tax": lambda ev, who: f"{who} has no favour card available for that die and pays no tax",
    "draw": lambda ev, who: (
        f"{who} draws {ev['n']} privilege card{'s' if ev['n'] != 1 else ''} and keeps {ev['keep']}"
    ),
    "palace": lambda ev, who: (
        f"{who} reaches Caesar's palace (arrival {ev['place']}): this is the last round"
    ),
    "aqueduct": lambda ev, who: f"{who}'s Aqueduct fills with water",
    "reshuffle": lambda ev, who: "the privilege discards are shuffled into a new deck",
    "round": lambda ev, who: (
        f"round {ev['round']} begins; start-player order: " + ", ".join([f"{{seat{x}}}" for x in ev["order"]])
    ),
    "game_over": lambda ev, who: "the game is over",
    "flip_favour": lambda ev, who: (
        f"{who} flips favour card {ev['card']} ({data.FAVOURS[ev['card']]['name']})"
    ),
}

_AUTO_WORDS = {
    "pass": lambda ev, who: f"{who} cannot win the Emperor's favour with the {ev['move']['die']}",
    "skip": lambda ev, who: f"{who} has no card for military power",
}


def _event_words(ev: Event) -> str | None:
    """An event in words (None: an event the sentence does not mention)."""
    who = f"{{seat{ev['seat']}}}" if "seat" in ev else ""
    words = _AUTO_WORDS.get(ev["move"]["type"]) if ev["k"] == "auto" else _EVENT_WORDS.get(ev["k"])
    return None if words is None else words(ev, who)


def _play(s: State, seat: int, move: Move, viewer: int | None) -> str:
    me = _who(seat)
    card = s["sides"][seat][move["slot"]]["card"]
    args = move["args"]
    if args is not None and data.ACTIONS[card]["effect"] == "bribe":
        target = s["sides"][args["side"]][args["slot"]]["card"]
        return (
            f"{me} plays {card_name(card)}, {args_words(card, args, card_name(target))} "
            f"({args_words(target, args['args'])})"
        )
    return f"{me} plays {card_name(card)}, {args_words(card, args)}"


def _exchange(s: State, seat: int, move: Move, viewer: int | None) -> str:
    chosen = s["chosen_slot"]
    give = card_name(None if chosen is None else s["sides"][seat][chosen]["card"])
    take = card_name(s["sides"][move["side"]][move["slot"]]["card"])
    side = move["side"]
    where = f"{{seat{side}}}'s side" if side < s["player_count"] else f"the empty side {side + 1}"
    return f"{_who(seat)} exchanges {give} for {take} from {where}; {take} lies face down, protected"


def _military(s: State, seat: int, move: Move, viewer: int | None) -> str:
    card = s["sides"][seat][move["slot"]]["card"]
    return (
        f"{_who(seat)} gives up a Centurion to play {card_name(card)} as well, "
        f"{args_words(card, move['args'])}"
    )


def _favour(s: State, seat: int, move: Move, viewer: int | None) -> str:
    row = data.FAVOURS[move["card"]]
    gives = row["gives"]
    what = "" if gives in ("married", "vestals") else f", giving up {move['n']} {RES_WORDS.get(gives, gives)}"
    return f"{_who(seat)} uses favour card {move['card']} ({row['name']}){what}"


def _keep(s: State, seat: int, move: Move, viewer: int | None) -> str:
    if viewer == seat:
        return f"{_who(seat)} keeps " + " and ".join([privilege_words(c) for c in move["cards"]])
    n = len(move["cards"])
    return f"{_who(seat)} keeps {n} privilege card{'s' if n > 1 else ''}"


def _palace(s: State, seat: int, move: Move, viewer: int | None) -> str:
    card = privilege_words(move["card"]) if viewer == seat else "a privilege card"
    return f"{_who(seat)} takes {card} at Caesar's palace"


_HEADS: dict[str, Callable[[State, int, Move, int | None], str]] = {
    "play": _play,
    "exchange": _exchange,
    "military": _military,
    "favour": _favour,
    "keep": _keep,
    "palace": _palace,
    "skip": lambda s, seat, move, viewer: f"{_who(seat)} does not use military power",
    "pass": lambda s, seat, move, viewer: (
        f"{_who(seat)} declines the Emperor's favour with the {move['die']}"
    ),
    "flip": lambda s, seat, move, viewer: (
        f"{_who(seat)} flips favour card {move['card']} "
        f"({data.FAVOURS[move['card']]['name']}) (2-player rule)"
    ),
    "privilege": lambda s, seat, move, viewer: f"{_who(seat)} plays {privilege_words(move['card'])}",
    "end": lambda s, seat, move, viewer: f"{_who(seat)} ends the turn",
}


def log_text(s: State, seat: int, move: Move, viewer: int | None) -> str:
    """One sentence a person can follow on the board; `s` is the state before the move."""
    t = move.get("type")
    head = (
        _HEADS[t](s, seat, move, viewer) if isinstance(t, str) and t in _HEADS else f"{_who(seat)} plays {t}"
    )
    try:
        events = apply_move(s, seat, move)["last"]
        said = [] if events is None else events["events"]
    except Exception:  # noqa: BLE001 - words only; a bad move simply gets no consequences
        said = []
    tail = [w for w in [_event_words(e) for e in said if e["k"] != "bribe"] if w]
    return head + ("; " + "; ".join(tail) if tail else "") + "."


_LABELS: dict[str, Callable[[Move], str]] = {
    "play": lambda m: f"play card {m['slot'] + 1}" + ("" if m["args"] is None else f" {m['args']}"),
    "exchange": lambda m: f"exchange with side {m['side'] + 1}, card {m['slot'] + 1}",
    "military": lambda m: f"military: card {m['slot'] + 1} {m['args']}",
    "favour": lambda m: f"favour card {m['card']} for {m['n']} step{'s' if m['n'] > 1 else ''}",
    "pass": lambda m: f"decline the favour (die {m['die']})",
    "flip": lambda m: f"flip favour card {m['card']}",
    "keep": lambda m: "keep " + ", ".join(m["cards"]) if "cards" in m else "keep privilege cards",
    "palace": lambda m: f"take {m['card']} at the palace" if "card" in m else "take a palace card",
    "privilege": lambda m: f"use privilege {m['card']}",
    "skip": lambda m: "skip military power",
    "end": lambda m: "end turn",
}


def describe(move: Move) -> str:
    """A short label for a move (move lists)."""
    t = move.get("type")
    label = _LABELS.get(t) if isinstance(t, str) else None
    return label(move) if label is not None else ", ".join(f"{k}={v}" for k, v in move.items())
