"""The steps of a turn that need no decision, each the `auto` of a phase (phases.py): the start
of a turn (phase 1), whether military power is possible, the roll, the 2-player flip, drawing
privilege cards, the end of a turn and of the round (RB-F)."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortuna import data
from app.rulesets.fortuna.legal import flippable
from app.rulesets.fortuna.privileges import draw, usable_privileges
from app.rulesets.fortuna.state import State

LIMITS = data.LIMITS
MAX_ROUNDS = data.MAX_ROUNDS


def start_turn(s: State) -> str:
    """Phase 1 (water from an Aqueduct built in an earlier round, if empty) and the flip of the
    face-down action card that opens phase 2."""
    seat = s["order"][s["turn"]]
    pl = s["players"][seat]
    s["chosen_slot"] = None
    s["rolled"] = None
    s["tokens_taken"] = 0
    s["privilege_b_used"] = False
    if pl["aqueduct"] == 0 and pl["aqueduct_round"] < s["round"]:
        pl["aqueduct"] = 1
        s["events"].append({"k": "aqueduct", "seat": seat})
    for slot in s["sides"][seat]:
        if not slot["face_up"]:
            slot["face_up"] = slot["public"] = True
            s["events"].append({"k": "flip_action", "seat": seat, "card": slot["card"]})
    return "play"


def military(s: State) -> str | None:
    """Phase 3 waits only if the player has a Centurion and a face-up card to play with it."""
    seat = s["order"][s["turn"]]
    mine = s["sides"][seat]
    if s["players"][seat]["centurions"] > 0 and (
        mine[0]["face_up"] or mine[1]["face_up"] or mine[2]["face_up"]
    ):
        return None
    return "roll"


def roll(s: State) -> str:
    """Phase 4 opens with the player's dice."""
    seat = s["order"][s["turn"]]
    rng = Rng(s["rng"])
    dice = [rng.below(6) + 1 for _ in range(s["players"][seat]["dice"])]  # randint(1, 6)
    s["rolled"] = dice
    s["rng"] = rng.state
    s["events"].append({"k": "roll", "seat": seat, "dice": list(dice)})
    return "favour"


def two_player_flip(s: State) -> str:
    """The 2-player rule: the start player flips one more favour card without tokens."""
    if (
        s["player_count"] == 2
        and s["options"].get("two_player_flip", True)
        and s["order"][s["turn"]] == s["order"][0]
        and flippable(s)
    ):
        return "flip"
    return "privilege"


def draw_privileges(s: State) -> str:
    """Phase 5: one privilege card per token taken (keep one, two with a Basilica and 2+
    tokens); a choice waits when more were drawn than may be kept."""
    seat = s["order"][s["turn"]]
    pl = s["players"][seat]
    took, s["tokens_taken"] = s["tokens_taken"], 0
    if took:
        drawn = draw(s, took, seat)
        keep = 2 if "basilica" in pl["buildings"] and took >= 2 else 1
        s["events"].append({"k": "draw", "seat": seat, "n": len(drawn), "keep": min(keep, len(drawn))})
        if len(drawn) > keep:
            s["choice"] = {"seat": seat, "cards": drawn, "keep": keep}
            return "keep"
        pl["hand"] = sorted(pl["hand"] + drawn)
        s["drawn_since_shuffle"][seat] += len(drawn)
    return "wrap"


def wrap(s: State) -> str | None:
    """The turn waits for its end only while a privilege card could still be used."""
    return None if usable_privileges(s, s["order"][s["turn"]]) else "next_turn"


def end_turn(s: State) -> str:
    """The next player on the start-player track, or the end of the round."""
    s["turn"] += 1
    s["chosen_slot"] = None
    s["rolled"] = None
    return "turn_start" if s["turn"] < s["player_count"] else "round_end"


def end_round(s: State) -> str:
    """RB-F End of the Game Round: new start-player order (the Fortuna card's holder, then by
    money, ties by clockwise distance from the start player); a token on each unused favour card
    (at most 3, while the supply lasts); used favour cards turned back. After a palace arrival
    (or the round guard) the game ends instead."""
    if s["last_round"] or s["round"] >= MAX_ROUNDS:
        s["events"].append({"k": "game_over"})
        return "over"
    n = s["player_count"]
    holder = None
    for side in range(n):
        row = s["sides"][side]
        if row[0]["card"] == "fortuna" or row[1]["card"] == "fortuna" or row[2]["card"] == "fortuna":
            holder = side
            break
    start = holder if holder is not None else s["order"][0]
    players = s["players"]
    # (money, distance, seat) tuples: the distances differ, so the seat never breaks a tie
    ranked = sorted(
        [(-players[seat]["money"], (seat - start) % n, seat) for seat in range(n) if seat != holder]
    )
    s["order"] = ([holder] if holder is not None else []) + [r[2] for r in ranked]
    most = LIMITS["tokens_per_favour"]
    for fav in s["favours"]:
        if not fav["used"] and fav["tokens"] < most and s["supply"] > 0:
            fav["tokens"] += 1
            s["supply"] -= 1
        fav["used"] = False
    s["round"] += 1
    s["turn"] = 0
    s["events"].append({"k": "round", "round": s["round"], "order": list(s["order"])})
    return "turn_start"
