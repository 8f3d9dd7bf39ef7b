"""A new game (RB-F Game Preparation): the action cards dealt, the privilege deck shuffled, the
start-player track drawn, and the first player's turn opened."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortuna import data
from app.rulesets.fortuna.phases import advance
from app.rulesets.fortuna.state import SIDES, Options, Player, Slot, State


def new_player() -> Player:
    """A province at the start: 5 money, 1 grain, water, wine, die, Vestal and Centurion."""
    st = data.START
    return {
        "position": 0,
        "money": st["money"],
        "grain": st["grain"],
        "wine": st["wine"],
        "water": st["water"],
        "aqueduct": None,
        "aqueduct_round": 0,
        "dice": st["dice"],
        "vestals": st["vestals"],
        "centurions": st["centurions"],
        "buildings": [],
        "married": False,
        "hand": [],
    }


def setup_state(n: int, options: Options, seed: int) -> State:
    """Deal the action cards (3 per side, one face down in front of each player), shuffle the
    privilege deck (without the 4-pawn cards with 2-3 players), set the start-player track."""
    rng = Rng.from_seed(seed, "fortuna")
    order = rng.shuffled(list(range(n)))
    cards = rng.shuffled([row["id"] for row in data.ACTION_ROWS])
    sides: list[list[Slot]] = []
    for side in range(SIDES):
        row: list[Slot] = [{"card": cards[side * 3 + j], "face_up": True, "public": True} for j in range(3)]
        if side < n:
            row[2] = {"card": cards[side * 3 + 2], "face_up": False, "public": False}
        sides.append(row)
    removed = [r["id"] for r in data.PRIVILEGE_ROWS if r.get("four_pawns")] if n <= 3 else []
    deck = rng.shuffled([r["id"] for r in data.PRIVILEGE_ROWS if r["id"] not in removed])
    copies = "copies_4p" if n == 4 else "copies_2_3p"
    s: State = {
        "player_count": n,
        "options": options,
        "round": 1,
        "order": order,
        "turn": 0,
        "phase": "turn_start",
        "sides": sides,
        "chosen_slot": None,
        "rolled": None,
        "tokens_taken": 0,
        "privilege_b_used": False,
        "favours": [{"used": False, "tokens": 0} for _ in range(6)],
        "supply": data.TOKENS_TOTAL - data.TOKENS_PALACE,
        "palace_tokens": data.TOKENS_PALACE,
        "piles": {b["id"]: b[copies] for b in data.BUILDING_ROWS},
        "deck": deck,
        "discard": [],
        "removed": removed,
        "known_in_deck": [[] for _ in range(n)],
        "drawn_since_shuffle": [0] * n,
        "palace_drawn_since_shuffle": False,
        "choice": None,
        "palace": {"cards": [], "seen": [], "taken": []},
        "palace_choice": None,
        "resume": None,
        "arrivals": [],
        "last_round": False,
        "players": [new_player() for _ in range(n)],
        "last": None,
        "rng": rng.state,
        "events": [],
    }
    advance(s, "turn_start")
    s["events"] = []
    return s
