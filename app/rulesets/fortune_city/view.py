"""What a seat may see, determinization of the hidden stack/box/bag, the log in words, the
catalogue. Hidden: the goods stack's order and content, the tiles removed face down at setup,
the bag's order, the generator. Everything on the table is public."""

from __future__ import annotations

from typing import Any

from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city import rules as R
from app.rulesets.fortune_city.scoring import breakdown

State = dict[str, Any]


def _bag_counts(bag: list[str]) -> dict[str, int]:
    out = {c: 0 for c in D.COLOURS}
    for c in bag:
        out[c] += 1
    return out


def view_state(state: State, seat: int | None) -> dict[str, Any]:
    """The table: market, boards, cities, tracks, supplies; the stack and box as counts and the
    bag as counts per colour (its content is public knowledge, its order is not)."""
    live = [{"score": breakdown(p)["total"], "income": R.income(p), "steps": R.truck_steps(p)}
            for p in state["p"]]
    return {
        "phase": state["phase"], "round": state["round"], "final": state["final"],
        "start": state["start"], "turn": state["turn"], "to_act": R.to_act(state),
        "market": state["market"], "market_size": state["n"] + D.SUPPLY["market_extra"],
        "stack": len(state["stack"]), "box": len(state["box"]), "bag": _bag_counts(state["bag"]),
        "returned": state["returned"], "banks": state["banks"], "vips": state["vips"],
        "players": state["p"], "live": live, "last": state["last"], "round_end": state["round_end"],
        "options": state["opts"], "seat": seat,
    }


def _seen(state: State) -> set[str]:
    seen = {m["tile"] for m in state["market"]} | set(state["returned"])
    for p in state["p"]:
        seen.update([t for t in p["zone"] if t])
        seen.update([c["t"] for c in p["city"].values()])
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
    box, pool = [], []
    for g in sorted(unseen):
        tiles = rng.shuffled(unseen[g])
        r = box_groups.get(g, 0)
        box += tiles[:r]
        pool += tiles[r:]
    s = dict(state)
    s["box"] = sorted(box)
    s["stack"] = rng.shuffled(pool)
    # the bag's order is hidden: shuffle its sorted content, or the re-deal would follow it
    s["bag"] = rng.shuffled(sorted(state["bag"]))
    s["rng"] = rng.next64()
    return s


# ---------------------------------------------------------------- words

def _pay_words(move: dict[str, Any], price: int) -> str:
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


def _where(p: dict[str, Any], at: list[int]) -> str:
    """A square in words: which of the city's buildings it touches."""
    k = R.key(*at)
    names = [D.name_of(p["city"][n]["t"], "building") for n in R.neighbours(k) if n in p["city"]]
    return f"next to the {names[0]} ({_spot(at)})" if names else f"at {_spot(at)}"


_GOT = {None: "nothing to pick up", "coin": "picked up 1 silver", "coin2": "picked up 2 silver",
        "diamond": "picked up a diamond", "garbage": "cleared a garbage token"}


def _auto_words(state: State, seat: int, move: dict[str, Any]) -> str:
    """What the rules then did by themselves (steps with one possible answer), in words."""
    try:
        after = R.apply_move(state, seat, move)
    except Exception:  # noqa: BLE001 - an illegal move has no consequences to tell
        return ""
    events = (after.get("last") or {}).get("auto") or []
    parts = []
    for e in events:
        who = f"{{seat{e['seat']}}}"
        if e["kind"] == "pass":
            parts.append(f"{who} could pay for nothing and passed")
        else:
            parts.append(f"{who}'s truck had one way to go, to the {D.name_of(e['tile'], 'building')} "
                         f"({_GOT[e['token']]})")
    return (" Then " + "; ".join(parts) + ".") if parts else ""


def log_text(state: State, seat: int, move: dict[str, Any], viewer: int | None) -> str:
    """One sentence for the log (state = before the move); players as {seatN} placeholders,
    followed by what the rules then did by themselves. Every fact in it is public."""
    return _log_main(state, seat, move) + _auto_words(state, seat, move)


def _log_main(state: State, seat: int, move: dict[str, Any]) -> str:
    who = f"{{seat{seat}}}"
    p = state["p"][seat]
    kind = move.get("type")
    if kind == "buy":
        slot = state["market"][move["slot"]]
        t = D.TILES[slot["tile"]]
        text = (f"{who} bought {t['good']} ({D.TRACKS[t['type']]['name']}, price {t['price']}) "
                f"and its {slot['citizen']} citizen, paying {_pay_words(move, t['price'])}")
        if "return" in move:
            text += f", and returned {D.name_of(p['zone'][move['return']])} to the box"
        return text + "."
    if kind == "bank":
        return (f"{who} bought and built a bank {_where(p, move['at'])}, paying "
                f"{_pay_words(move, D.SUPPLY['bank_price'])}.")
    if kind == "construct":
        tile = p["zone"][move["zone"]]
        t = D.TILES[tile]
        return (f"{who} constructed the {t['building']} ({D.TRACKS[t['type']]['name']}, {t['vp']} VP) "
                f"{_where(p, move['at'])}, paying {_pay_words(move, t['price'])}.")
    if kind == "vip":
        return f"{who} invited a VIP citizen, paying {_pay_words(move, D.SUPPLY['vip_price'])}."
    if kind == "pass":
        return f"{who} passed for the rest of the Player Actions phase."
    if kind == "hire":
        cell = p["city"][R.key(*move["at"])]
        track = D.type_of(cell["t"])
        now = min(D.SUPPLY["track_max"], p["tracks"][track] + 1)
        who_works = "a VIP citizen" if move["citizen"] == D.VIP else f"a {move['citizen']} citizen"
        return (f"{who} hired {who_works} into the {D.name_of(cell['t'], 'building')}; the "
                f"{D.TRACKS[track]['name']} marker is now in sector {now}.")
    if kind == "done":
        return f"{who} finished hiring citizens."
    if kind == "drive":
        cell = p["city"][R.key(*move["to"])]
        got = _GOT[cell["token"]]
        return f"{who}'s delivery truck drove to the {D.name_of(cell['t'], 'building')}: {got}."
    return f"{who} moved."


def describe(move: dict[str, Any]) -> str:
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
    if kind == "pass":
        return "Pass"
    if kind == "hire":
        return f"Hire {move['citizen']} at {_spot(move['at'])}"
    if kind == "done":
        return "Done hiring"
    if kind == "drive":
        return f"Drive to {_spot(move['to'])}"
    return str(move)


def catalogue() -> dict[str, Any]:
    """Public component data for the browser: tiles, tracks, colours, constants."""
    tiles = {t: {k: r[k] for k in ("good", "building", "type", "price", "vp", "production", "starting")}
             for t, r in D.TILES.items()}
    tracks = [{k: t[k] for k in ("id", "name", "citizen", "tile_colour", "bonus_kind", "bonus", "vp")}
              for t in D.TRACK_ROWS]
    sup = D.SUPPLY
    return {"tiles": tiles, "tracks": tracks, "bank": {"price": sup["bank_price"], "vp": sup["bank_vp"],
            "production": sup["bank_production"], "limit": sup["bank_limit"]},
            "vip_price": sup["vip_price"], "card_slots": {"silver": sup["card_silver_slots"],
            "gold": sup["card_gold_slots"]}, "lowest_row": D.LOWEST_ROW}
