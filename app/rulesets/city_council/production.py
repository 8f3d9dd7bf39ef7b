"""Production (RB Production phase): zone and building activation, the unemployment report,
action resolution with the $11 cap, and the Lifestyle monitor. Token reserves are derived from the
fixed totals (RB: 'the number of tokens and workers of each type is deliberately calculated')."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any

from app.rulesets.city_council.board import zones_of  # noqa: F401  (re-exported: tests read it here)
from app.rulesets.city_council.favours import community_count, prison_count
from app.rulesets.city_council.state import Building, State
from app.rulesets.city_council.tables import (
    BUDGET_MAX,
    LIFESTYLE,
    POWER_MAX,
    TOKENS,
    UNEMPLOYMENT,
    ZONE_GRID,
    ZONES,
    Kind,
    kind_of,
    KIND_BY_NAME,
    TILES,
)


def _placed(s: State, key: str) -> int:
    n = 0
    for rec in s["activated"]:
        if not rec.get("resolved"):
            n += rec["put"].get(key, 0)
    return n


def reserve(s: State, what: str) -> int:
    """Tokens or workers of a kind left in the reserve pile."""
    if what == "B":
        return TOKENS["B"] - s["house"]["B"] - _placed(s, "B") - _placed(s, "BX")
    if what == "W":
        return TOKENS["W"] - s["house"]["W"] - _placed(s, "W")
    if what == "crime":
        return TOKENS["crime"] - s["crime"] - _placed(s, "jail") - prison_count(s)
    if what == "pollution":
        return TOKENS["pollution"] - s["pollution"]
    if what == "goods":
        return TOKENS["goods"] - s["goods"] - _placed(s, "goods")
    if what == "community":
        on_zones = len([src for src in s["zones_on"].values() if src == "section"])
        on_tiles = len([b for b in s["buildings"].values() if b["token"]])
        return TOKENS["community"] - s["community"] - on_zones - on_tiles - _placed(s, "community")
    raise KeyError(what)


def check_defeat(s: State) -> None:
    """RB Defeat: all Crime or all Pollution tokens on their section ends the game at once."""
    if s["defeat"] is None and (s["crime"] >= TOKENS["crime"] or s["pollution"] >= TOKENS["pollution"]):
        s["defeat"] = "crime" if s["crime"] >= TOKENS["crime"] else "pollution"
        s["phase"] = "over"


def add_crime(s: State, n: int) -> None:
    """Crime tokens from the reserve to the Criminal Activity section (as many as exist)."""
    s["crime"] += max(0, min(n, reserve(s, "crime")))
    check_defeat(s)


def add_pollution(s: State, n: int) -> None:
    """Pollution tokens from the reserve to the Pollution Level section."""
    s["pollution"] += max(0, min(n, reserve(s, "pollution")))
    check_defeat(s)


def apply_effects(s: State, eff: dict[str, int]) -> None:
    """A monitor's effects: workers arrive from the reserve or leave housing, Community tokens are
    removed from the section, Crime tokens added (C4: missing tokens are simply not moved)."""
    for w in ("W", "B"):
        d = eff.get(w, 0)
        if d > 0:
            s["house"][w] += min(d, reserve(s, w))
        elif d < 0:
            s["house"][w] -= min(-d, s["house"][w])
    d = eff.get("community", 0)
    if d < 0:
        s["community"] -= min(-d, s["community"])
    if eff.get("crime", 0) > 0:
        add_crime(s, eff["crime"])


# --- activation -----------------------------------------------------------------------------


def zone_active(s: State, b: Mapping[str, Any]) -> bool:
    """RB Activating a Building: on or overlapping the Starting Zone or an activated zone."""
    zones_on = s["zones_on"]
    for r, c in b["cells"]:
        z = ZONE_GRID[r][c]
        if z == "start" or z in zones_on:
            return True
    return False


def _need(kind: Kind, boxes: tuple[int, ...]) -> dict[str, int]:
    need: dict[str, int] = dict(kind.special) if boxes else {}
    for i in boxes:
        for k, v in kind.boxes[i].inputs.items():
            need[k] = need.get(k, 0) + v
    return need


def have_now(s: State) -> tuple[int, int, int, int, int, int]:
    """What activation boxes can take now, in the order of `_need_vector` (RB Example 8: a box's
    money is a Money token from the reserve, 7 in all (RB Components), as well as a dollar of the
    City Budget)."""
    house = s["house"]
    return (
        house["B"],
        house["W"],
        min(s["budget"], money_tokens_free(s)),
        s["goods"],
        s["community"],
        s["crime"],
    )


def _need_vector(need: dict[str, int]) -> tuple[int, int, int, int, int, int]:
    """A box set's needs as a tuple: Blue workers (specialised ones too: RB 'BX' is a Blue worker),
    White workers, money, goods, Community tokens, Crime tokens (prison bars)."""
    return (
        need.get("B", 0) + need.get("BX", 0),
        need.get("W", 0),
        need.get("money", 0),
        need.get("goods", 0),
        need.get("community", 0),
        need.get("jail", 0),
    )


BUDGET_MARKER = 1  # RB Setup: the City Budget is marked "by placing a Money token" on its track


def money_tokens_free(s: State) -> int:
    """Money tokens in the reserve: 7 minus the one marking the City Budget, private funds, funds
    on plans and tokens on tiles."""
    out = BUDGET_MARKER + sum(s["funds"]) + _placed(s, "money")
    for row in s["plan_funds"]:
        out += sum(row)
    return TOKENS["money"] - out


def _combos_of(kind: Kind) -> list[tuple[list[int], tuple[int, ...], list[int]]]:
    """A kind's sets of action boxes ('/' boxes are either/or), each with what it needs
    (`_need_vector`) and the Prison boxes it uses."""
    got: list[tuple[list[int], tuple[int, ...], list[int]]] = []
    idx = range(len(kind.boxes))
    for size in range(1, len(kind.boxes) + 1):
        for combo in combinations(idx, size):
            groups = [kind.boxes[i].group for i in combo if kind.boxes[i].group]
            if len(groups) != len(set(groups)):
                continue
            prison = [kind.boxes[i].inputs["prison"] - 1 for i in combo if kind.boxes[i].inputs.get("prison")]
            got.append((list(combo), _need_vector(_need(kind, combo)), prison))
    return got


# Each kind's box sets by name (fixed data, made at import: never added to later).
_COMBOS = {name: _combos_of(kind) for name, kind in KIND_BY_NAME.items()}


def box_sets(b: Mapping[str, Any], kind: Kind, have: tuple[int, ...]) -> list[list[int]]:
    """`box_choices` of building record `b` of kind `kind`, given `have_now(s)`."""
    # No generator expressions in the functions that run during play: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    bars = b["prison"]
    h0, h1, h2, h3, h4, h5 = have
    out = []
    for combo, vec, prison in _COMBOS[kind.name]:
        # `have` covers every need (`_need_vector`), and a Prison box runs only on a Crime token
        if (
            vec[0] <= h0
            and vec[1] <= h1
            and vec[2] <= h2
            and vec[3] <= h3
            and vec[4] <= h4
            and vec[5] <= h5
            and (not prison or all([bars[i] for i in prison]))
        ):
            out.append(list(combo))
    return out


def box_choices(s: State, bid: str, have: tuple[int, ...] | None = None) -> list[list[int]]:
    """Every set of action boxes the building can run now (RB: choose one or more boxes; '/'
    boxes are either/or; the specialised worker is placed once; the Prison runs only on a box
    holding a Crime token). `have` is `have_now(s)`, when the caller has it already."""
    b = s["buildings"][bid]
    return box_sets(b, kind_of(b), have_now(s) if have is None else have)


def activation_candidates(s: State) -> Iterator[tuple[str, Building, Kind]]:
    """Buildings not yet activated this turn, with boxes, on an active zone (power plants need
    no activated zone), with their kinds, one by one (`can_activate` stops at the first that
    can run a box set)."""
    activated = s["activated"]
    done = {rec["b"] for rec in activated} if activated else ()
    zones_on = s["zones_on"]
    for bid, b in s["buildings"].items():
        if bid in done:
            continue
        tile = b.get("tile")
        kind = TILES[tile] if tile else KIND_BY_NAME[b["name"]]  # kind_of, inlined (hot loop)
        if not kind.boxes:
            continue
        if not kind.power_plant:
            # zone_active, inlined: on or overlapping the Starting Zone or an activated zone
            for r, c in b["cells"]:
                z = ZONE_GRID[r][c]
                if z == "start" or z in zones_on:
                    break
            else:
                continue
        yield bid, b, kind


def activatable_buildings(s: State) -> dict[str, list[list[int]]]:
    """Buildings that may be activated now, with their box choices (RB: once per turn; power
    plants need no activated zone)."""
    return {bid: choices for bid, _kind, choices in activatable(s)}


def activatable(s: State) -> list[tuple[str, Kind, list[list[int]]]]:
    """`activatable_buildings` as (building id, its kind, its box choices), in the buildings'
    order."""
    have = have_now(s)
    out = []
    for bid, b, kind in activation_candidates(s):
        choices = box_sets(b, kind, have)
        if choices:
            out.append((bid, kind, choices))
    return out


def can_activate(s: State) -> bool:
    """Whether any building or zone may be activated now (`activatable_buildings` or
    `zone_options` is not empty)."""
    have = have_now(s)
    for _bid, b, kind in activation_candidates(s):
        if box_sets(b, kind, have):
            return True
    return bool(zone_options(s))


def zone_options(s: State) -> list[dict[str, Any]]:
    """Zones that may be activated: not yet this turn, holding a building, with Power on the
    track and a Community token from the section or a permanent token on a building there (RB
    Activating a Zone; the Playground token 'can also be used to activate the zone it is built on')."""
    zones_on = s["zones_on"]
    if s["power"] < 1 or len(zones_on) >= TOKENS["power_tokens"]:
        return []
    section = s["community"] >= 1
    used = set(zones_on.values())
    # zone -> the buildings there whose permanent token may activate it; a zone is a key as soon
    # as it holds any building when a section token can activate it
    here: dict[str, list[str]] = {}
    for bid, b in s["buildings"].items():
        own = b["token"] and bid not in used
        if not (section or own):
            continue  # this building offers no way to activate its zones
        for r, c in b["cells"]:
            z = ZONE_GRID[r][c]
            if z == "start" or z == "lake" or z in zones_on:
                continue
            bids = here.get(z)
            if bids is None:
                bids = here[z] = []
            if own and bid not in bids:
                bids.append(bid)
    if not here:
        return []
    out = []
    for z in ZONES:
        bids = here.get(z)
        if bids is None:
            continue
        if section:
            out.append({"type": "zone", "zone": z, "token": "section"})
        for bid in sorted(bids):
            out.append({"type": "zone", "zone": z, "token": bid})
    return out


def activate_zone(s: State, zone: str, token: str) -> None:
    """Place a Power token (Power Supply -1) and a Community token on the zone."""
    s["power"] -= 1
    if token == "section":
        s["community"] -= 1
    s["zones_on"][zone] = token


def activate_building(s: State, seat: int, bid: str, boxes: list[int]) -> None:
    """Place the workers and tokens the chosen boxes require on the tile (RB Production A)."""
    kind = kind_of(s["buildings"][bid])
    need = _need(kind, tuple(boxes))
    s["house"]["B"] -= need.get("B", 0) + need.get("BX", 0)
    s["house"]["W"] -= need.get("W", 0)
    s["budget"] -= need.get("money", 0)  # RB Example 8: a Money token, City Budget -$1
    s["goods"] -= need.get("goods", 0)
    s["community"] -= need.get("community", 0)
    s["crime"] -= need.get("jail", 0)  # RB: the prison-bars symbol takes a Crime token
    s["activated"].append({"b": bid, "boxes": list(boxes), "by": seat, "put": need})
    s["active_names"][kind.name] = s["active_names"].get(kind.name, 0) + 1


# --- unemployment, resolution, monitoring -----------------------------------------------------


def unemployment(s: State) -> dict[str, Any]:
    """RB Production B: the workers left in housing pick the monitor's spots; apply both sides."""
    w, b = s["house"]["W"], s["house"]["B"]
    eff_w = UNEMPLOYMENT["W"][min(w, max(UNEMPLOYMENT["W"]))]
    eff_b = UNEMPLOYMENT["B"][min(b, max(UNEMPLOYMENT["B"]))]
    apply_effects(s, eff_w)
    if s["defeat"] is None:
        apply_effects(s, eff_b)
    return {"W": w, "B": b, "white": eff_w, "blue": eff_b}


def _incarcerate(s: State) -> None:
    """RB incarcerated population: with the Prison built the token goes on its first box,
    pushing earlier tokens right (overcrowding); otherwise back to the reserve."""
    prisons = [b for b in s["buildings"].values() if kind_of(b).name == "Prison"]
    if not prisons:
        return
    p = prisons[0]["prison"]
    if p[0]:
        p[1] = 1  # a token already on box 2 is pushed out to the reserve
    p[0] = 1


# Complex: RB Production C is one sequence over the activated buildings, read as the rulebook is.
def resolve(s: State) -> list[dict[str, Any]]:
    """RB Production C: each activated building produces, building after building (the Prison
    first, so tokens arriving this turn wait for a later activation); workers return to housing,
    educated workers and used tokens to the reserve; the City Budget never exceeds $11."""
    report = []
    records = sorted(s["activated"], key=lambda r: kind_of(s["buildings"][r["b"]]).name != "Prison")
    for rec in records:
        b = s["buildings"][rec["b"]]
        kind = kind_of(b)
        put = rec["put"]
        rec["resolved"] = True
        s["house"]["B"] += put.get("B", 0)
        s["house"]["W"] += put.get("W", 0)
        before = s["budget"]
        for i in sorted(rec["boxes"], key=lambda i: -kind.boxes[i].inputs.get("prison", 0)):
            box = kind.boxes[i]
            out = box.outputs
            if out.get("money"):
                s["budget"] = min(BUDGET_MAX, s["budget"] + out["money"])
            if out.get("community"):
                s["community"] += min(out["community"], reserve(s, "community"))
            if out.get("goods"):
                s["goods"] += min(out["goods"], reserve(s, "goods"))
            if out.get("power"):
                s["power"] = min(POWER_MAX, s["power"] + out["power"])
            if out.get("W"):
                s["house"]["W"] += min(out["W"], reserve(s, "W"))
            if out.get("crime_x"):
                s["crime"] -= min(out["crime_x"], s["crime"])
            if out.get("pollution_x"):
                s["pollution"] -= min(out["pollution_x"], s["pollution"])
            if box.inputs.get("jail"):
                _incarcerate(s)
            slot = box.inputs.get("prison")
            if slot == 2:
                b["prison"][1] = 0
                s["prison_freed"] += 1
            elif slot == 1:
                b["prison"][0] = 0
                b["prison"][1] = 1
            if out.get("crime"):
                add_crime(s, out["crime"])
        if kind.pollution:
            add_pollution(s, kind.pollution)
        report.append({"b": rec["b"], "name": kind.name, "money": s["budget"] - before})
        if s["defeat"]:
            break
    return report


def lifestyle(s: State) -> dict[str, Any]:
    """RB Monitoring: index = Crime + Pollution - Community; apply the monitor's effects."""
    index = s["crime"] + s["pollution"] - community_count(s)
    for lo, hi, eff in LIFESTYLE:
        if lo <= index <= hi:
            apply_effects(s, eff)
            return {"index": index, "effects": eff}
    return {"index": index, "effects": {}}
