"""RB Council Meeting: City Planning (the plans), Voting in two rounds and Vote Counting."""

from __future__ import annotations

from app.rulesets.city_council import phil, production as prod
from app.rulesets.city_council.state import Move, State, proposes, rng_of, save_rng
from app.rulesets.city_council.tables import SHAPE_ORDER, TILES, TOKENS


def plans_to_execute(s: State) -> int:
    """RB Vote Counting: 2 plans with 2-3 players, 3 with 4-5."""
    return 2 if s["players"] <= 3 else 3


def money_tokens_out(s: State) -> int:
    """Money tokens held as private funds, lying on plans or on building tiles."""
    return TOKENS["money"] - prod.BUDGET_MARKER - prod.money_tokens_free(s)


def available_tiles(s: State) -> list[str]:
    """Face-up tiles of the planning area: each stack's top and the tiles laid below (RB Setup)."""
    out = []
    for sh in SHAPE_ORDER:
        if s["stacks"].get(sh):
            out.append(s["stacks"][sh][0])
        out += s["up"].get(sh, [])
    return out


def plan_options(s: State, m: int) -> list[Move]:
    """RB City Planning: construct a planning-area building the City Budget can pay for, or put a
    Relocation or Sale token on a built building; the same tile never twice in a turn. The
    printed Starting-Zone buildings can be upgraded but not moved or sold (NOTES)."""
    taken_tiles = set()
    targeted = set()
    used = {"relocate": 0, "sell": 0}
    for p in s["plans"]:  # one pass over the plans already made this turn
        if p:
            k = p["kind"]
            if k == "build":
                taken_tiles.add(p["target"])
            elif k == "relocate" or k == "sell":
                targeted.add(p["target"])
                used[k] += 1
    out = []
    budget = s["budget"]
    for t in available_tiles(s):
        if t not in taken_tiles and TILES[t].cost <= budget:
            out.append({"type": "plan", "kind": "build", "target": t})
    movable = None  # the built buildings that may be relocated or sold, by id
    for kind, token in (("relocate", "relocate"), ("sell", "sale")):
        if used[kind] < s["tokens"][token]:
            if movable is None:
                movable = [
                    bid for bid, b in sorted(s["buildings"].items()) if not b["fixed"] and bid not in targeted
                ]
            for bid in movable:
                out.append({"type": "plan", "kind": kind, "target": bid})
    return out


def phil_plans(s: State) -> None:
    """RB Special Rules for 2 Players: 'At the beginning of the planning phase' one of Prof.
    Phil's cards is revealed at random and he proposes by it, before anyone else (so nobody
    takes his tile first, whatever his place in the turn order)."""
    m = s["players"]
    hand = s["hands"][m]
    if hand:
        rng = rng_of(s)
        s["phil_card"] = hand[rng.below(len(hand))]
        save_rng(s, rng)
    opts = {mv["target"] for mv in plan_options(s, m) if mv["kind"] == "build"}
    tile = phil.pick_building(s, opts)
    s["plans"][m] = {"kind": "build", "target": tile} if tile else {"kind": "none"}


def proposed(s: State) -> list[int]:
    """The members with a plan on the table, in turn order."""
    return [o for o in s["order"] if proposes(s["plans"][o])]


def vote_targets(s: State, m: int) -> list[int]:
    """RB Voting: a delegate goes on another member's plan."""
    return [o for o in s["order"] if o != m and proposes(s["plans"][o])]


def fund_targets(s: State, m: int) -> list[int]:
    """RB Voting, second round: private funds on construction plans, never more than the cost."""
    if s["funds"][m] <= 0:
        return []
    out = []
    for o in s["order"]:
        p = s["plans"][o]
        if p and p["kind"] == "build" and sum(s["plan_funds"][o]) < TILES[p["target"]].cost:
            out.append(o)
    return out


def phil_funds(s: State, m: int) -> None:
    """Prof. Phil puts what his own construction plan still lacks from his funds (RB 2 players)."""
    p = s["plans"][m]
    if p and p["kind"] == "build" and m in fund_targets(s, m):
        room = TILES[p["target"]].cost - sum(s["plan_funds"][m])
        give = min(room, s["funds"][m])
        s["funds"][m] -= give
        s["plan_funds"][m][m] += give


def plan_votes(s: State, o: int) -> int:
    """Delegates on a plan (the Executive's second delegate included)."""
    return s["delegates"].count(o) + (1 if s["exec_vote"] == o else 0)


def count_votes(s: State) -> str:
    """RB Vote Counting: the plans with most votes go to execution; private funds break ties, then
    the Election chairman chooses among plans still tied (the phase that follows, also recorded in
    the state: execute, or approve for that choice)."""
    plans = proposed(s)
    k = plans_to_execute(s)
    key = {o: (plan_votes(s, o), sum(s["plan_funds"][o])) for o in plans}
    if len(plans) <= k:
        s["approved"] = plans
        return enter_execute(s)
    ranked = sorted(plans, key=key.__getitem__, reverse=True)
    cut = key[ranked[k - 1]]
    above = [o for o in ranked if key[o] > cut]
    tied = [o for o in ranked if key[o] == cut]
    need = k - len(above)
    s["approved"] = above
    if len(tied) == need:
        s["approved"] += tied
        return enter_execute(s)
    s["tie"] = {"pool": tied, "need": need}
    s["phase"] = "approve"
    return "approve"


def enter_execute(s: State) -> str:
    """Start plan execution (RB Plan Execution)."""
    s["phase"] = "execute"
    s.pop("tie", None)
    return "execute"
