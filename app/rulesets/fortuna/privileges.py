"""The privilege deck (draws, reshuffles, what each seat knows of it), privilege cards A and B,
and the road to Rome: moving a pawn and arriving at Caesar's palace (RB-F)."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortuna import data
from app.rulesets.fortuna.state import Player, Resource, State

PALACE_STEP = data.PALACE_STEP
LIMITS = data.LIMITS


def draw(s: State, k: int, seat: int) -> list[str]:
    """Up to k cards from the top of the privilege deck for `seat`, reshuffling the discards when
    it runs out; when both are empty no more cards come (RB-F). Only the drawer sees them, so
    only its knowledge of the deck changes (the others saw a card leave, not which)."""
    out: list[str] = []
    for _ in range(k):
        if not s["deck"]:
            reshuffle(s)
            if not s["deck"]:
                break
        out.append(s["deck"].pop())
    if out:
        known = s["known_in_deck"][seat]
        known[:] = [c for c in known if c not in out]
    return out


def reshuffle(s: State) -> None:
    """The discard pile becomes the new face-down deck (the deck is empty: cards being drawn stay
    in the drawer's hand, NOTES D15). Each seat now knows which of its own and of the face-up
    discards are in it, though not where; what it knew of the old deck no longer says anything.
    No card in a hand or on the palace table came from the new deck yet."""
    if not s["discard"]:
        return
    # No generator expressions in the functions that run during play: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    for seat in range(s["player_count"]):
        s["known_in_deck"][seat] = sorted(
            [d["card"] for d in s["discard"] if d["face_up"] or d["by"] == seat]
        )
    s["drawn_since_shuffle"] = [0] * s["player_count"]
    s["palace_drawn_since_shuffle"] = False
    rng = Rng(s["rng"])
    s["deck"] = rng.shuffled([d["card"] for d in s["discard"]])
    s["rng"] = rng.state
    s["discard"] = []
    s["events"].append({"k": "reshuffle", "n": len(s["deck"])})


def usable_privileges(s: State, seat: int) -> list[str]:
    """Privilege cards A (any time in your turn) and B (once per turn, not at the palace)."""
    pl = s["players"][seat]
    out: list[str] = []
    hand = pl["hand"]
    if not hand or data.PLAYABLE_PRIVILEGES.isdisjoint(hand):  # random games hoard C cards
        return out
    b_ok = not s["privilege_b_used"] and pl["position"] < PALACE_STEP
    for card in hand:
        if card in data.A_PRIVILEGES or (b_ok and card in data.B_PRIVILEGES):
            out.append(card)
    return out


def use_privilege(s: State, seat: int, card: str) -> None:
    """Play a privilege card A (resources) or B (one step); it is discarded face up."""
    pl = s["players"][seat]
    row = data.PRIVILEGES[card]
    pl["hand"].remove(card)
    s["discard"].append({"card": card, "face_up": True, "by": seat})
    for known in s["known_in_deck"]:  # everyone sees it: it is not in the deck
        if card in known:
            known.remove(card)
    # which card left is secret: count the least possible
    s["drawn_since_shuffle"][seat] = min(s["drawn_since_shuffle"][seat], len(pl["hand"]))
    if row["cls"] == "A":
        for res, amount in row["gain"].items():
            gain(pl, data.resource(res), amount)
    else:
        s["privilege_b_used"] = True
        move_pawn(s, seat, 1)


def gain(pl: Player, res: Resource, amount: int) -> None:
    """Add resources; Centurions and Vestals stop at 3 (the surplus is lost)."""
    if res == "centurions" or res == "vestals":
        pl[res] = min(LIMITS[res], pl[res] + amount)
    else:
        pl[res] += amount


def move_pawn(s: State, seat: int, steps: int) -> None:
    """Move toward Rome (never past Caesar's palace at 15); arriving there starts the palace race."""
    pl = s["players"][seat]
    before = pl["position"]
    pl["position"] = min(PALACE_STEP, pl["position"] + steps)
    if pl["position"] != before:
        s["events"].append({"k": "step", "seat": seat, "n": pl["position"] - before, "pos": pl["position"]})
    if pl["position"] == PALACE_STEP and seat not in s["arrivals"]:
        arrive(s, seat)


def arrive(s: State, seat: int) -> None:
    """RB-F The End of the Game: the first to reach the palace takes its 3 tokens and the top 3
    privilege cards, keeps one and leaves two face down; later arrivals choose from what is left.
    The round is then finished and the game ends (the Basilica has no effect here)."""
    s["arrivals"].append(seat)
    s["last_round"] = True
    s["events"].append({"k": "palace", "seat": seat, "place": len(s["arrivals"])})
    if len(s["arrivals"]) == 1:
        s["supply"] += s["palace_tokens"]
        s["palace_tokens"] = 0
        offered = draw(s, data.TOKENS_PALACE, seat)
        s["palace_drawn_since_shuffle"] = True  # drawn from the deck now in play
    else:
        offered = s["palace"]["cards"]
        s["palace"]["cards"] = []
        known = s["known_in_deck"][seat]  # the later arrival sees the cards left on the table
        known[:] = [c for c in known if c not in offered]
    if len(offered) > 1:
        s["palace_choice"] = {"seat": seat, "cards": offered}
        return
    pl = s["players"][seat]
    pl["hand"] = sorted(pl["hand"] + offered)
    s["drawn_since_shuffle"][seat] += len(offered) if s["palace_drawn_since_shuffle"] else 0
    if offered and len(s["arrivals"]) > 1:
        note_taken(s, seat, offered[0])


def note_taken(s: State, seat: int, card: str) -> None:
    """Remember which table card a later arrival took: the earlier arrivals saw those cards, so
    they know it is in that hand (determinize keeps it there)."""
    s["palace"]["taken"].append({"seat": seat, "card": card, "seen": list(s["palace"]["seen"])})
