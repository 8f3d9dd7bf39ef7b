"""The log in words: one sentence per move (every Fortune City move is public), followed by what
the rules then did by themselves, and short labels for move lists."""

from __future__ import annotations

from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.apply import apply_move
from app.rulesets.fortune_city.board import key, neighbours
from app.rulesets.fortune_city.state import Move, Player, State


def _pay_words(move: Move, price: int) -> str:
    if move.get("gold"):
        return "1 gold coin"
    c = move.get("card", 0)
    parts = []
    if price - c:
        parts.append(f"{price - c} silver from hand")
    if c:
        parts.append(f"{c} silver from the credit card")
    return " and ".join(parts) or "nothing"


def _spot(at: list[int]) -> str:
    """A square by column and row in words (never raw coordinates)."""
    x, y = at
    return f"column {x:+d}, row {y}" if x else f"row {y} above City Hall"


def _where(p: Player, at: list[int]) -> str:
    """A square in words: which of the city's buildings it touches."""
    x, y = at
    names = [D.name_of(p["city"][n]["tile"], "building") for n in neighbours(key(x, y)) if n in p["city"]]
    return f"next to the {names[0]} ({_spot(at)})" if names else f"at {_spot(at)}"


_GOT = {
    None: "nothing to pick up",
    "coin": "picked up 1 silver",
    "coin2": "picked up 2 silver",
    "diamond": "picked up a diamond",
    "garbage": "cleared a garbage token",
}


def _auto_words(state: State, seat: int, move: Move) -> str:
    """What the rules then did by themselves (steps with one possible answer), in words."""
    try:
        after = apply_move(state, seat, move)
    except Exception:  # noqa: BLE001 - an illegal move has no consequences to tell
        return ""
    events = (after["last"] or {}).get("auto") or []
    parts = []
    for e in events:
        who = f"{{seat{e['seat']}}}"
        if e["kind"] == "pass":
            parts.append(f"{who} could pay for nothing and passed")
        else:
            parts.append(
                f"{who}'s truck had one way to go, to the {D.name_of(e['tile'], 'building')} "
                f"({_GOT[e['token']]})"
            )
    return (" Then " + "; ".join(parts) + ".") if parts else ""


def log_text(state: State, seat: int, move: Move, viewer: int | None) -> str:
    """One sentence for the log (state = before the move); players as {seatN} placeholders,
    followed by what the rules then did by themselves. Every fact in it is public."""
    return _log_main(state, seat, move) + _auto_words(state, seat, move)


def _action_words(state: State, who: str, p: Player, move: Move) -> str:
    """A Player Actions move in words."""
    kind = move.get("type")
    if kind == "buy":
        slot = state["market"][move["slot"]]
        t = D.TILES[slot["tile"]]
        text = (
            f"{who} bought {t['good']} ({D.TRACKS[t['type']]['name']}, price {t['price']}) "
            f"and its {slot['citizen']} citizen, paying {_pay_words(move, t['price'])}"
        )
        if "return" in move:
            text += f", and returned {D.name_of(p['zone'][move['return']] or '')} to the box"
        return text + "."
    if kind == "bank":
        return (
            f"{who} bought and built a bank {_where(p, move['at'])}, paying "
            f"{_pay_words(move, D.SUPPLY['bank_price'])}."
        )
    if kind == "construct":
        t = D.TILES[p["zone"][move["zone"]] or ""]
        return (
            f"{who} constructed the {t['building']} ({D.TRACKS[t['type']]['name']}, {t['vp']} VP) "
            f"{_where(p, move['at'])}, paying {_pay_words(move, t['price'])}."
        )
    if kind == "vip":
        return f"{who} invited a VIP citizen, paying {_pay_words(move, D.SUPPLY['vip_price'])}."
    return f"{who} passed for the rest of the Player Actions phase."


def _log_main(state: State, seat: int, move: Move) -> str:
    who = f"{{seat{seat}}}"
    p = state["players"][seat]
    kind = move.get("type")
    if kind in ("buy", "bank", "construct", "vip", "pass"):
        return _action_words(state, who, p, move)
    if kind == "hire":
        cell = p["city"][key(*move["at"])]
        track = D.type_of(cell["tile"])
        now = min(D.SUPPLY["track_max"], p["tracks"][track] + 1)
        who_works = "a VIP citizen" if move["citizen"] == D.VIP else f"a {move['citizen']} citizen"
        return (
            f"{who} hired {who_works} into the {D.name_of(cell['tile'], 'building')}; the "
            f"{D.TRACKS[track]['name']} marker is now in sector {now}."
        )
    if kind == "done":
        return f"{who} finished hiring citizens."
    if kind == "drive":
        cell = p["city"][key(*move["to"])]
        got = _GOT[cell["token"]]
        return f"{who}'s delivery truck drove to the {D.name_of(cell['tile'], 'building')}: {got}."
    return f"{who} moved."


def describe(move: Move) -> str:
    """A short label for a move (move lists)."""
    kind = move.get("type")
    pay = " with gold" if move.get("gold") else (f" ({move['card']} from card)" if move.get("card") else "")
    if kind == "buy":
        ret = f", return zone {move['return'] + 1}" if "return" in move else ""
        return f"Buy market tile {move['slot'] + 1}{pay}{ret}"
    if kind == "bank":
        return f"Build a bank at {_spot(move['at'])}{pay}"
    if kind == "construct":
        return f"Construct zone {move['zone'] + 1} at {_spot(move['at'])}{pay}"
    if kind == "vip":
        return f"Invite a VIP{pay}"
    if kind == "hire":
        return f"Hire {move['citizen']} at {_spot(move['at'])}"
    if kind == "drive":
        return f"Drive to {_spot(move['to'])}"
    return _PLAIN.get(str(kind), str(move))


_PLAIN = {"pass": "Pass", "done": "Done hiring"}
