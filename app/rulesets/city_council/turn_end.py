"""RB Turn End: the planning area replenished (the advanced area once the Starting Zone is full),
Prof. Phil's hand, the committee counters, and whether the game ends."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.city_council.board import start_full
from app.rulesets.city_council.deck import discard_card
from app.rulesets.city_council.state import State, chair, rng_of, save_rng
from app.rulesets.city_council.tables import PLANNING, SHAPE_ORDER, TILES
from app.rulesets.city_council.windows import HAND_LIMIT


def replenish(s: State) -> None:
    """RB Turn End: unconstructed face-up tiles are discarded by size and the area refilled (stack
    tops stay); once the Starting Zone is full the advanced area is built from all stacks."""
    rng = rng_of(s)
    if not s["advanced"] and start_full(s):
        _open_advanced_area(s, rng)
    else:
        area = PLANNING["advanced"] if s["advanced"] else PLANNING["start"]
        for sh in s["stacks"]:
            s["bdiscard"][sh] += s["up"][sh]
            s["up"][sh] = []
            for _ in range(area[sh]):
                if len(s["stacks"][sh]) <= 1 and s["bdiscard"][sh]:
                    # RB "Reshuffle discard piles if needed": the shuffled pile goes under the top
                    pile = sorted(s["bdiscard"][sh])
                    rng.shuffle(pile)
                    s["stacks"][sh] = s["stacks"][sh] + pile
                    s["bdiscard"][sh] = []
                if len(s["stacks"][sh]) <= 1:
                    break  # the last tile stays on as the stack's top
                s["up"][sh].append(s["stacks"][sh].pop(0))
    save_rng(s, rng)


def _open_advanced_area(s: State, rng: Rng) -> None:
    """RB: the starting and advanced tiles of each shape shuffled into new stacks, the advanced
    planning area laid out, and the advanced number of Sale and Relocation tokens."""
    s["advanced"] = True
    pools: dict[str, list[str]] = {sh: [] for sh in SHAPE_ORDER}
    for sh in ("S", "M"):
        pools[sh] += s["stacks"].get(sh, []) + s["up"].get(sh, []) + s["bdiscard"][sh]
        s["bdiscard"][sh] = []
    for t in s["reserve_adv"]:
        pools[TILES[t].shape].append(t)
    s["reserve_adv"] = []
    for sh in SHAPE_ORDER:
        pool = sorted(pools[sh])
        rng.shuffle(pool)
        s["stacks"][sh] = pool
        s["up"][sh] = [pool.pop(0) for _ in range(min(PLANNING["advanced"][sh], len(pool)))]
    s["tokens"] = {"sale": PLANNING["advanced_tokens"], "relocate": PLANNING["advanced_tokens"]}


def finish_turn(s: State) -> str:
    """Phil's revealed card is discarded and his hand cut to 7; zone tokens go back; committee
    counters move to A or B; the game ends if someone reached the goal or the cards ran out
    (the phase that follows: over, or the next turn's committees)."""
    rng = rng_of(s)
    if s["phil"]:
        ph = s["players"]
        if s["phil_card"] in s["hands"][ph]:
            s["hands"][ph].remove(s["phil_card"])
            discard_card(s, s["phil_card"], None)
        while len(s["hands"][ph]) > HAND_LIMIT:
            c = s["hands"][ph].pop(rng.below(len(s["hands"][ph])))
            s["fdiscard"].append([c, 0])  # discarded face down, unseen
        s["phil_card"] = None
    save_rng(s, rng)
    s["zones_on"] = {}
    s["activated"] = []
    s["active_names"] = {}
    s["prison_freed"] = 0
    for m in range(s["members"]):
        s["streak"][m] += 1
    if max(s["vp"]) >= s["goal"] or s["end_flag"]:
        return "over"
    s["turn"] += 1
    s["decider"] = chair(s, "election")
    s["plans"] = [None] * s["members"]
    s["delegates"] = [None] * s["members"]
    s["exec_vote"] = None
    s["approved"], s["executed"], s["failed"] = [], [], []
    return "committees"
