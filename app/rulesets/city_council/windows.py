"""RB Favors & Scoring: the scoring windows of a turn, what a seat may score or discard in them,
and scoring a card."""

from __future__ import annotations

from app.rulesets.city_council.deck import discard_card
from app.rulesets.city_council.favours import card_vp, metrics
from app.rulesets.city_council.state import Move, State
from app.rulesets.city_council.tables import CARDS

HAND_LIMIT = 7
#: The scoring windows (every player answers each), by the phase each opens after.
WINDOWS = ("window_activation", "window_resolution", "window_monitoring", "turn_end")


def _any_general(hand: list[str]) -> bool:
    """Whether a hand holds a General card (the only cards that read `metrics`)."""
    for c in hand:
        if CARDS[c].kind == "general":
            return True
    return False


def scorable(
    s: State, seat: int, m: dict[str, int] | None = None, cards: list[str] | None = None
) -> list[tuple[str, int]]:
    """Cards `seat` could score in the current window, with their VP (never in turn 1); `m` is
    `metrics(s)` when the caller has it already; `cards`: only these of the hand are looked at."""
    if s["turn"] == 1:
        return []
    turn_end = s["phase"] == "turn_end"
    hand = s["hands"][seat] if cards is None else cards
    if m is None and _any_general(hand):
        m = metrics(s)  # only General cards read the metrics (a hand of Building cards: none)
    out = []
    for c in hand:
        vp = card_vp(s, c, m, turn_end)
        if vp:
            out.append((c, vp))
    return out


def window_moves(s: State, seat: int) -> list[Move]:
    """Score a card; at turn end also discard; done (at turn end only with 7 cards or fewer)."""
    out: list[Move] = [{"type": "score", "card": c} for c, _ in scorable(s, seat)]
    if s["phase"] == "turn_end":
        out += [{"type": "discard", "card": c} for c in s["hands"][seat]]
        if len(s["hands"][seat]) <= HAND_LIMIT:
            out.append({"type": "done"})
    else:
        out.append({"type": "done"})
    return out


def enter_window(s: State, name: str) -> str:
    """Open a scoring window: every player is asked and answers (score, or `done`: nothing more
    to score now), as at the table. Who is asked never depends on the hands (RB: favour cards are
    'kept secretly in your hand and only revealed upon scoring')."""
    s["done"] = [False] * s["players"]
    return name


def score_card(s: State, seat: int, card: str) -> int:
    """RB Favors & Scoring: the card is revealed and scored; a General card goes face down to the
    discard pile, a Building card is removed from play."""
    vp = dict(scorable(s, seat, cards=[card]))[card]  # the card played is in the hand (apply checked)
    s["hands"][seat].remove(card)
    s["vp"][seat] += vp
    s["scored"][seat].append({"card": card, "vp": vp, "turn": s["turn"]})
    if CARDS[card].kind == "general":
        discard_card(s, card, None)
    else:
        s["removed"].append(card)
    return vp
