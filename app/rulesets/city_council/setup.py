"""Setup (RB Setup; Sandbox and Hard modes): tracks, workers, tiles, planning area, favour deal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from app.engine.rng import Rng
from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import (
    CARDS,
    FIXED,
    PLANNING,
    POWER_START,
    SETUP,
    SHAPE_ORDER,
    TILES,
)


# Long: the state's every key is laid out in one literal, the stored shape at a glance.
def new_state(players: int, mode: str, hard_budget: int, seed: int) -> State:
    """The state before the first Committees phase. With 2 players Prof. Phil is member 2."""
    rng = Rng.from_seed(seed, "city-council")
    row = SETUP[players]
    phil = players == 2
    members = players + 1 if phil else players
    sandbox = mode != "standard"
    budget = row["budget"] if not sandbox else (11 if mode == "sandbox" else hard_budget)
    s: State = {
        "players": players,
        "members": members,
        "phil": phil,
        "mode": mode,
        "goal": 13 if sandbox else 11,
        "card_end": not sandbox,
        "turn": 1,
        "phase": "committees",
        "window": None,
        "cursor": 0,
        "committee": [None] * members,
        "streak": [0] * members,
        "decider": None,
        "order": [],
        "budget": budget,
        "power": POWER_START,
        "community": 0,
        "crime": 0,
        "pollution": 0,
        "goods": row["goods"],
        "house": {"B": row["B"], "W": row["W"]},
        "advanced": sandbox,
        "buildings": {},
        "next_bid": 1,
        "covered": [],
        "tokens": {"sale": PLANNING["start_tokens"], "relocate": PLANNING["start_tokens"]},
        "stacks": {},
        "up": {},
        "bdiscard": {k: [] for k in SHAPE_ORDER},
        "deck": [],
        "fdiscard": [],
        "removed": [],
        "hands": [[] for _ in range(members)],
        "drawn": [None] * members,
        "vp": [0] * players,
        "scored": [[] for _ in range(players)],
        "funds": [0] * members,
        "phil_card": None,
        "plans": [None] * members,
        "delegates": [None] * members,
        "exec_vote": None,
        "plan_funds": [[0] * members for _ in range(members)],
        "approved": [],
        "executed": [],
        "failed": [],
        "acts_left": 0,
        "passes": 0,
        "zones_on": {},
        "activated": [],
        "active_names": {},
        "prison_freed": 0,
        "done": [False] * players,
        "end_flag": False,
        "defeat": None,
        "last": {},
        "rng": 0,
        "reserve_adv": [],  # last, where the standard game's setup has always added it
    }
    # RB Sandbox: "Play without the fixed buildings ... Cover the fixed buildings by placing the
    # Airport tile face down over them": the face-down Airport (out of play) only hides the
    # printing, its blocks are free (NOTES 23). `covered` stays in the state and views (wire
    # contract) and is always empty.
    if not sandbox:
        for f in FIXED:
            bid = f"b{s['next_bid']}"
            s["next_bid"] += 1
            s["buildings"][bid] = {
                "id": bid,
                "name": f["name"],
                "tile": None,
                "fixed": True,
                "cells": [list(c) for c in f["cells"]],
                "token": False,
                "prison": [0, 0],
            }
    tiles = [t for t, k in TILES.items() if not (sandbox and k.name == "Airport")]
    if sandbox:
        stacks = {sh: [t for t in tiles if TILES[t].shape == sh] for sh in SHAPE_ORDER}
        area = PLANNING["advanced"]
        s["tokens"] = {"sale": PLANNING["advanced_tokens"], "relocate": PLANNING["advanced_tokens"]}
    else:
        # RB Setup: starting tiles (light back) split into small and medium stacks; the advanced
        # tiles wait, split by shape, until the Starting Zone is full.
        stacks = {
            sh: [t for t in tiles if TILES[t].shape == sh and TILES[t].set == "start"] for sh in ("S", "M")
        }
        s["reserve_adv"] = sorted(t for t in tiles if TILES[t].set == "adv")
        area = PLANNING["start"]
    for sh in SHAPE_ORDER:
        if sh in stacks:
            rng.shuffle(stacks[sh])
            s["stacks"][sh] = stacks[sh]
            s["up"][sh] = [stacks[sh].pop(0) for _ in range(min(area[sh], len(stacks[sh])))]
    deck = sorted(CARDS)
    rng.shuffle(deck)
    for m in range(members):  # RB Setup: 2 favour cards each (Prof. Phil too, face down)
        s["hands"][m] = [deck.pop(), deck.pop()]
    s["deck"] = deck
    # RB Committees: in the first turn a random player token goes to the Election Committee
    # (never Prof. Phil, who cannot chair it).
    s["decider"] = rng.below(players)
    s["rng"] = rng.state
    return s


def upgrade_from_2(old: Mapping[str, Any]) -> State:
    """A snapshot stored under rules version 2 as version 3 stores it (NOTES "Version history"):
    the face-down Airport no longer takes the Sandbox Starting Zone's blocks (`covered` empty);
    a covered printed building is gone for good (no `covers` record to bring back); in the
    planning phase Prof. Phil has proposed already (he proposes first, by the card revealed when
    the phase began). Everything else is stored alike and plays on under the version-3 rules."""
    from app.rulesets.city_council import council, phil

    s: dict[str, Any] = dict(old)
    s["covered"] = []
    s["buildings"] = {bid: {k: v for k, v in b.items() if k != "covers"} for bid, b in s["buildings"].items()}
    m = s["players"]
    if s["phil"] and s["phase"] == "plan" and s["plans"][m] is None:
        s["plans"] = list(s["plans"])
        opts = {mv["target"] for mv in council.plan_options(cast(State, s), m) if mv["kind"] == "build"}
        tile = phil.pick_building(cast(State, s), opts)
        s["plans"][m] = {"kind": "build", "target": tile} if tile else {"kind": "none"}
    return cast(State, s)  # now in the version-3 shape
