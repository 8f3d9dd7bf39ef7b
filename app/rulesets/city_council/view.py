"""What each seat may see, determinization, the public log (moves and sentences), the catalogue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engine.memo import latest, shared
from app.rulesets.city_council.legal import to_act
from app.rulesets.city_council.windows import WINDOWS
from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import (
    CARDS,
    COMMITTEES,
    FIXED,
    KIND_BY_NAME,
    SHAPE_ORDER,
    TILES,
    ZONE_GRID,
    ZONES,
    Kind,
)

_PUBLIC = (
    "players",
    "members",
    "phil",
    "mode",
    "goal",
    "turn",
    "phase",
    "committee",
    "streak",
    "order",
    "decider",
    "budget",
    "power",
    "community",
    "crime",
    "pollution",
    "goods",
    "house",
    "advanced",
    "buildings",
    "covered",
    "tokens",
    "removed",
    "vp",
    "scored",
    "funds",
    "phil_card",
    "plans",
    "delegates",
    "exec_vote",
    "plan_funds",
    "approved",
    "executed",
    "failed",
    "zones_on",
    "activated",
    "active_names",
    "prison_freed",
    "done",
    "end_flag",
    "defeat",
    "last",
    "cursor",
    "acts_left",
)


def _table(s: State) -> dict[str, Any]:
    """Everything every viewer sees, in the view's key order (`hand` and `drawn` are each viewer's
    own, filled in by `view`). It holds the state's own objects, which moves replace and nothing
    changes; what it derives (planning area, counts) is fresh."""
    plain: Mapping[str, Any] = s  # read by the names listed
    t: dict[str, Any] = {k: plain[k] for k in _PUBLIC}
    t["to_act"] = to_act(s)
    t["planning"] = {
        sh: {
            "top": s["stacks"][sh][0] if s["stacks"][sh] else None,
            "count": len(s["stacks"][sh]),
            "up": list(s["up"][sh]),
        }
        for sh in SHAPE_ORDER
        if sh in s["stacks"]
    }
    t["building_discards"] = s["bdiscard"]
    t["advanced_waiting"] = len(s["reserve_adv"])
    t["deck"] = len(s["deck"])
    t["discard_pile"] = len(s["fdiscard"])
    t["hand_counts"] = [len(h) for h in s["hands"]]
    t["drawing"] = [d is not None for d in s["drawn"]]
    t["hand"] = None
    t["drawn"] = None
    for k in ("tie", "pending", "report", "last_exec"):
        t[k] = s.get(k)
    # the previous version's unchanged parts, so the diff skips them by identity (app.engine.diff)
    return shared("city-council/table", t)


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The public table plus the seat's own favour hand and drawn cards. Stacks show only their
    face-up top and size; the favour deck and discard pile only their size; never the generator.
    The table is built once per state for every viewer (the game's memo, app/engine/memo.py)."""
    v = dict(latest(s, "city-council/table", _table, s))
    if seat is not None:
        v["hand"] = shared(("city-council/hand", seat), list(s["hands"][seat]))
        v["drawn"] = shared(("city-council/drawn", seat), s["drawn"][seat])
    return v


def determinize(s: State, seat: int | None, rng: Any) -> State:
    """Re-deal what `seat` cannot see: other hands and drawn pairs, Prof. Phil's hidden cards, the
    favour deck, the discards the seat did not see, and the building stacks below their tops.
    Kept: the seat's hand and drawn cards, what it discarded, every public card."""
    d = s.copy()
    known_disc = [(c, mask) for c, mask in s["fdiscard"]]
    bit = 0 if seat is None else (1 << seat)
    public_mask = (1 << s["players"]) - 1

    def knows(mask: int) -> bool:
        return mask == public_mask or bool(mask & bit)

    pool: list[str] = []
    for m, hand in enumerate(s["hands"]):
        if m != seat:
            pool += [c for c in hand if c != s["phil_card"] or m != s["players"]]
    for m, drawn in enumerate(s["drawn"]):
        if m != seat and drawn:
            pool += drawn
    pool += s["deck"]
    pool += [c for c, mask in known_disc if not knows(mask)]
    pool = rng.shuffled(sorted(pool))
    hands = []
    for m, hand in enumerate(s["hands"]):
        if m == seat:
            hands.append(list(hand))
        else:
            hands.append([c if (c == s["phil_card"] and m == s["players"]) else pool.pop() for c in hand])
    d["hands"] = hands
    d["drawn"] = [
        dr if dr is None else list(dr) if m == seat else [pool.pop() for _ in dr]
        for m, dr in enumerate(s["drawn"])
    ]
    d["fdiscard"] = [[c, mask] if knows(mask) else [pool.pop(), mask] for c, mask in known_disc]
    d["deck"] = [pool.pop() for _ in s["deck"]]
    # sorted before the shuffle, as the favour pool above: the hidden order must not reach the
    # re-deal, so two states a seat cannot tell apart determinize alike (rules review item 16)
    d["stacks"] = {sh: (st[:1] + rng.shuffled(sorted(st[1:]))) for sh, st in s["stacks"].items()}
    d["rng"] = rng.next64()
    return d


def public_move(s: State, seat: int, move: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The move as `viewer` sees it: kept and discarded favour cards stay secret to their owner."""
    if viewer == seat:
        return move
    if move.get("type") == "keep":
        return {"type": "keep", "count": len(move.get("cards", []))}
    if move.get("type") == "discard":
        return {"type": "discard"}
    return move


def _building_name(s: State, bid: Any) -> str:
    b = s["buildings"].get(bid) if isinstance(bid, str) else None
    return b["name"] if b else "a building"


def _who(m: int, s: State) -> str:
    return "Prof. Phil" if s["phil"] and m == s["players"] else f"{{seat{m}}}"


# Long and complex: one short branch per move type, each its sentence, read in order.
def log_text(s: State, seat: int, move: dict[str, Any], viewer: int | None) -> str:
    """One sentence for the log, in words, revealing nothing `viewer` may not know."""
    who = f"{{seat{seat}}}"
    t = move.get("type")
    if t == "committees":
        parts = [f"{_who(m, s)}: {c.capitalize()}" for m, c in enumerate(move["seats"]) if c]
        return f"{who} set the committees: {', '.join(parts)}."
    if t == "embezzle":
        return f"{who} (Treasury) embezzled $1 from the City Budget."
    if t == "decline":
        return f"{who} (Treasury) took no money from the City Budget."
    if t == "keep":
        n = len(move.get("cards", []))
        if viewer == seat:
            names = ", ".join(CARDS[c].name for c in move["cards"])
            return f"{who} kept {names}."
        return f"{who} kept {n} favour card{'s' if n > 1 else ''}."
    if t == "plan":
        if move["kind"] == "build":
            k = TILES[move["target"]]
            return f"{who} proposed to construct the {k.name} (${k.cost})."
        verb = "relocate" if move["kind"] == "relocate" else "sell"
        return f"{who} proposed to {verb} the {_building_name(s, move['target'])}."
    if t in ("vote", "vote2"):
        extra = " second" if t == "vote2" else ""
        return f"{who} put a{extra} Delegate on {_who(move['plan'], s)}'s plan."
    if t == "vote2_pass":
        return f"{who} kept the second Delegate."
    if t == "fund":
        return f"{who} put $1 of private funds on {_who(move['plan'], s)}'s plan."
    if t == "fund_done":
        return f"{who} placed no more private funds."
    if t == "approve":
        return f"{who} (Election) chose {_who(move['plan'], s)}'s plan among the tied plans."
    if t == "execute":
        p = s["plans"][move["plan"]]
        if p["kind"] == "sell":
            b = s["buildings"][p["target"]]
            k = KIND_BY_NAME[b["name"]]
            return f"{who} sold the {b['name']} for ${k.cost - 1}."
        if p["kind"] == "relocate":
            return f"{who} relocated the {_building_name(s, p['target'])} to {_cells(move['cells'])}."
        k = TILES[p["target"]]
        if move.get("upgrade"):
            return (
                f"{who} upgraded the {_building_name(s, move['upgrade'])} to the {k.name} "
                f"at {_cells(move['cells'])}."
            )
        return f"{who} constructed the {k.name} at {_cells(move['cells'])}."
    if (
        t in ("zone", "activate", "pass")
        and s["phase"] == "activate"
        and s["phil"]
        and s["order"][s["cursor"]] == s["players"]
        and not s.get("pending")
    ):
        inner = log_text({**s, "phil": False}, seat, move, viewer)
        return inner[:-1] + " for Prof. Phil."
    if t == "zone":
        src = (
            "a Community token"
            if move["token"] == "section"
            else f"the {_building_name(s, move['token'])}'s Community token"
        )
        return f"{who} activated {ZONES[move['zone']]['name']} with a Power token and {src}."
    if t == "activate" and move.get("chair"):
        return (
            f"{who} activated the {_building_name(s, move['building'])}; the Election chairman "
            f"decides which action box it uses."
        )
    if t == "police":
        bid = s["pending"]["b"] if s.get("pending") else None
        what = "incarcerate a Crime token" if move["boxes"] == [0] else "remove a Crime token"
        return f"{who} (Election) decided the {_building_name(s, bid)} will {what}."
    if t == "activate":
        n = len(move["boxes"])
        return f"{who} activated the {_building_name(s, move['building'])} ({n} action box{'es' if n > 1 else ''})."
    if t == "pass":
        return f"{who} activated nothing more."
    if t == "score":
        return f"{who} scored {CARDS[move['card']].name}."
    if t == "discard":
        if viewer == seat:
            return f"{who} discarded {CARDS[move['card']].name}."
        return f"{who} discarded a favour card."
    if t == "done":
        if s["phase"] != "turn_end":  # every member answers each window (nothing to score, or no more)
            return f"{who} scores nothing more now."
        return f"{who} is done."
    return f"{who} moved."


def _cells(cells: list[list[int]]) -> str:
    return " ".join(f"{chr(65 + c)}{r + 1}" for r, c in sorted(cells))


def describe(move: dict[str, Any]) -> str:
    """A short label for a move."""
    t = move.get("type")
    if t == "plan":
        return f"plan {move['kind']} {move['target']}"
    if t == "execute":
        return f"execute plan {move['plan']}" + (f" at {_cells(move['cells'])}" if move.get("cells") else "")
    if t == "activate":
        return f"activate {move['building']} boxes {move['boxes']}"
    return " ".join(str(v) for v in move.values())


def box_text(kind: Kind) -> list[str]:
    """Readable action boxes of a building kind."""
    out = []
    for box in kind.boxes:
        ins = " + ".join(f"{v} {k}" for k, v in box.inputs.items())
        outs = " + ".join(f"{v} {k}" for k, v in box.outputs.items()) or "(moves Crime)"
        out.append(f"{ins} → {outs}" + (f" [{box.group}]" if box.group else ""))
    return out


def catalogue() -> dict[str, Any]:
    """Public component data for the browser renderer."""
    kinds = {}
    for name, k in KIND_BY_NAME.items():
        kinds[name] = {
            "shape": k.shape,
            "cost": k.cost,
            "type": k.type,
            "set": k.set,
            "special": k.special,
            "boxes": box_text(k),
            "pollution": k.pollution,
            "power_plant": k.power_plant,
            "permanent_community": k.permanent_community,
            "upgrades_to": list(k.upgrades_to),
        }
    tiles = {
        t: {"name": k.name, "shape": k.shape, "cost": k.cost, "type": k.type, "set": k.set}
        for t, k in TILES.items()
    }
    cards = {
        c.id: {
            "name": c.name,
            "kind": c.kind,
            "buildings": list(c.buildings),
            "conditions": [{"text": x.text, "vp": x.vp, "bonus": x.bonus} for x in c.conditions],
        }
        for c in CARDS.values()
    }
    return {
        "kinds": kinds,
        "tiles": tiles,
        "cards": cards,
        "zone_grid": ZONE_GRID,
        "zones": {z: {"name": v["name"], "type": v["type"]} for z, v in ZONES.items()},
        "committees": list(COMMITTEES),
        "fixed": [f["name"] for f in FIXED],
        "windows": list(WINDOWS),
        "colours": {
            "residential": "#5aa454",
            "commercial": "#4a7fc1",
            "industrial": "#e0b432",
            "safety": "#c94c4c",
            "start": "#d9d2c3",
            "lake": "#8fd0ea",
        },
    }
