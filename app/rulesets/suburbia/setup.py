"""Initial state: stacks, market, basic supply, goals, boroughs and the start player."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.rulesets.suburbia.tables import (
    BASIC_IDS,
    GOALS,
    KINDS,
    ONE_MORE_ROUND,
    SETUP,
    STACK_SETUP,
    START_LAYOUT,
    SURCHARGES,
    stack_pool,
)


GOAL_IDS = tuple(sorted(GOALS))  # the order goals are shuffled from


def game_mode(players: int, solo_mode: str) -> str:
    """'multi' for 2-4 players, else the chosen solo game."""
    return "multi" if players > 1 else solo_mode


def new_player() -> dict[str, Any]:
    """A borough with the three starting tiles; its income 0 and reputation 1 are what those
    tiles produce (RB-S 'Starting the Game'; a scenario test recomputes them)."""
    tiles = [{"t": t, "at": [q, r], "lake": False, "inv": False} for t, q, r in START_LAYOUT]
    return {
        "money": SETUP["money"],
        "income": 0,
        "rep": 1,
        "pop": SETUP["population"],
        "markers": SETUP["investment_markers"],
        "tiles": tiles,
    }


def build_stacks(rng: Rng, mode: str, players: int) -> tuple[dict[str, list[str]], list[int]]:
    """A, B, C stacks (top = last element) and [extra, mixed] describing where 1MR may lie."""
    conf = STACK_SETUP["dale" if mode == "dale" else "lone_architect" if players == 1 else str(players)]
    size, mixed, extra = conf["size"], conf["mixed"], conf["extra"]
    stacks = {}
    for letter in "AB":
        stacks[letter] = rng.shuffled(stack_pool(letter))[:size]
    box_c = rng.shuffled(stack_pool("C"))
    top, bottom_mix, box_c = box_c[: size - mixed], box_c[size - mixed : size], box_c[size:]
    mix = rng.shuffled([*bottom_mix, ONE_MORE_ROUND])
    # Stored bottom-first: the 4 extra box tiles, then the mixed group, then the rest on top.
    stacks["C"] = [*box_c[:extra], *mix, *reversed(top)]
    return stacks, [extra, mixed]


def deal_goals(rng: Rng, mode: str, players: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Public goals (one per player; Dale: 3 without lake/investment goals; LA: none) and the
    two secret goals dealt to each seat."""
    if mode == "lone_architect":
        return [], []
    pool = rng.shuffled(GOAL_IDS)
    public: list[str] = []
    want = 3 if mode == "dale" else players
    while len(public) < want:
        g = pool.pop()
        if mode == "dale" and GOALS[g].lake_or_investment:
            continue  # RB-S Dale set-up: discard it and reveal another
        public.append(g)
    secret = [{"dealt": sorted([pool.pop(), pool.pop()]), "kept": None} for _ in range(players)]
    return public, secret


def setup_state(players: int, solo_mode: str, red_lines: str, seed: int) -> dict[str, Any]:
    """The whole initial state."""
    rng = Rng.from_seed(seed, "suburbia-setup")
    mode = game_mode(players, solo_mode)
    stacks, c_mix = build_stacks(rng, mode, players)
    slots = len(SURCHARGES["dale" if mode == "dale" else "standard"])
    market: list[str | None] = []
    for _ in range(slots):
        market.insert(0, stacks["A"].pop())  # the first tile drawn ends up rightmost
    public, secret = deal_goals(rng, mode, players)
    boroughs = [new_player() for _ in range(players + (1 if mode == "dale" else 0))]
    start = 0 if mode == "dale" else rng.below(players)  # Dale: you go first each round
    return {
        "mode": mode,
        "seats": players,
        "red_lines": red_lines,
        "rng": rng.state,
        "stacks": stacks,
        "c_mix": c_mix,
        "market": market,
        "basic": {b: KINDS[b].count for b in BASIC_IDS},
        "discards": [],
        "goals": public,
        "secret": secret,
        "p": boroughs,
        "start": start,
        "turn": start,
        "round": 1,
        "phase": "choose_goal" if secret else "play",
        "one_more_round": False,
        "final_turns": None,
        "last": None,
        "final": None,
    }
