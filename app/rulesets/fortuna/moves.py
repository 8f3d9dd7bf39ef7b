"""What each move does to the table (a private copy, the move already checked legal), one
handler per move type; each names the phase that comes next (phases.PHASES)."""

from __future__ import annotations

from app.rulesets.fortuna import data
from app.rulesets.fortuna.cards import execute, spend_water
from app.rulesets.fortuna.legal import taxed
from app.rulesets.fortuna.privileges import move_pawn, note_taken, use_privilege
from app.rulesets.fortuna.state import Move, State

FAVOURS = data.FAVOURS


def play(s: State, seat: int, move: Move) -> str:
    """Phase 2: choose a card and execute it (args) or not (args null)."""
    s["chosen_slot"] = move["slot"]
    card = s["sides"][seat][move["slot"]]["card"]
    if move["args"] is not None:
        execute(s, seat, card, move["args"])
    return "exchange"


def exchange(s: State, seat: int, move: Move) -> str:
    """Phase 2: the chosen card changes places with a face-up card on another side."""
    chosen = s["chosen_slot"]
    assert chosen is not None  # set by the play move that opened the phase
    mine = s["sides"][seat][chosen]
    theirs = s["sides"][move["side"]][move["slot"]]
    mine["card"], theirs["card"] = theirs["card"], mine["card"]
    mine["face_up"], mine["public"] = False, True  # face down, but everyone saw which card it is
    return "military"


def military(s: State, seat: int, move: Move) -> str:
    """Phase 3: give up the top Centurion to play another face-up card of yours."""
    s["players"][seat]["centurions"] -= 1
    execute(s, seat, s["sides"][seat][move["slot"]]["card"], move["args"])
    return "roll"


def skip(s: State, seat: int, move: Move) -> str:
    """Phase 3: no military power."""
    return "roll"


def favour(s: State, seat: int, move: Move) -> str:
    """Phase 4: give up what favour card `card` takes, `n` units for `n` steps, and take its
    tokens (privilege cards to draw in phase 5)."""
    pl = s["players"][seat]
    k, n = move["card"], move["n"]
    gives = FAVOURS[k]["gives"]
    if gives == "water":
        spend_water(pl, n)
    elif gives in ("wine", "grain", "centurions"):
        pl[data.resource(gives)] -= n
    fav = s["favours"][k - 1]
    fav["used"] = True
    s["tokens_taken"] = fav["tokens"]
    s["supply"] += fav["tokens"]
    fav["tokens"] = 0
    s["events"].append({"k": "favour", "seat": seat, "card": k, "n": n, "tokens": s["tokens_taken"]})
    move_pawn(s, seat, n)
    return "flip2"


def decline(s: State, seat: int, move: Move) -> str:
    """Phase 4: decline the favour with one die; its number decides the tax (RB-F)."""
    pl = s["players"][seat]
    if not taxed(s, move["die"]):
        s["events"].append({"k": "no_tax", "seat": seat})
    elif pl["money"] > 0:
        pl["money"] -= 1
        s["events"].append({"k": "tax", "seat": seat, "money": 1})
    else:
        pl["position"] = max(0, pl["position"] - 1)
        s["events"].append({"k": "tax", "seat": seat, "step_back": 1, "pos": pl["position"]})
    return "flip2"


def flip(s: State, seat: int, move: Move) -> str:
    """The 2-player rule: flip one more favour card."""
    s["favours"][move["card"] - 1]["used"] = True
    s["events"].append({"k": "flip_favour", "seat": seat, "card": move["card"]})
    return "privilege"


def keep(s: State, seat: int, move: Move) -> str:
    """Phase 5: keep the chosen cards; the others are discarded face down."""
    choice = s["choice"]
    assert choice is not None  # the phase waits only with a choice
    s["choice"] = None
    pl = s["players"][seat]
    pl["hand"] = sorted(pl["hand"] + move["cards"])
    s["drawn_since_shuffle"][seat] += len(move["cards"])
    for card in choice["cards"]:
        if card not in move["cards"]:
            s["discard"].append({"card": card, "face_up": False, "by": seat})
    return "wrap"


def palace(s: State, seat: int, move: Move) -> str:
    """At Caesar's palace: keep one card offered; the rest stay face down for later arrivals."""
    offer = s["palace_choice"]
    assert offer is not None and s["resume"] is not None  # set together on arrival
    s["palace_choice"] = None
    pl = s["players"][seat]
    pl["hand"] = sorted(pl["hand"] + [move["card"]])
    s["drawn_since_shuffle"][seat] += 1 if s["palace_drawn_since_shuffle"] else 0
    rest = [c for c in offer["cards"] if c != move["card"]]
    if len(s["arrivals"]) > 1:
        note_taken(s, seat, move["card"])
    s["palace"]["seen"] = sorted(set(s["palace"]["seen"]) | {seat})
    s["palace"]["cards"] = rest  # face down on the table for the next arrival
    following, s["resume"] = s["resume"], None
    return following


def privilege(s: State, seat: int, move: Move) -> str:
    """A privilege card A or B, in a phase that allows them; the phase goes on."""
    use_privilege(s, seat, move["card"])
    return s["phase"]


def end(s: State, seat: int, move: Move) -> str:
    """The end of the turn."""
    return "next_turn"
