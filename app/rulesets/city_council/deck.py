"""The favour deck (RB Favors & Scoring): drawing with reshuffles, the discard pile and who knows
what lies on it, and the Union Committee's draw."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.city_council.state import State, chair, is_phil, rng_of, save_rng


def draw_cards(s: State, rng: Rng, n: int) -> list[str]:
    """Draw up to n favour cards, reshuffling the discard pile into the deck when short (RB
    Favors & Scoring); if even that is not enough the game ends at the end of this turn."""
    out = []
    for _ in range(n):
        if not s["deck"] and s["fdiscard"]:
            pile = [c for c, _ in s["fdiscard"]]
            rng.shuffle(pile)
            s["deck"] = pile
            s["fdiscard"] = []
        if not s["deck"]:
            if s["card_end"]:
                s["end_flag"] = True
            break
        out.append(s["deck"].pop())
    return out


def discard_card(s: State, card: str, seat: int | None) -> None:
    """A card to the favour discard pile, remembering who knows it is there (None = everyone)."""
    mask = (1 << s["players"]) - 1 if seat is None else (1 << seat)
    s["fdiscard"].append([card, mask])


def deal_draw(s: State) -> str:
    """RB Union Committee's turn: everyone draws 2 and keeps one; the Union chairman keeps both.
    Prof. Phil's discard is chosen blind, i.e. at random. The draw phase follows."""
    rng = rng_of(s)
    union = chair(s, "union")
    for m in s["order"]:
        cards = draw_cards(s, rng, 2)
        if is_phil(s, m):
            if len(cards) == 2 and m != union:
                k = rng.below(2)
                s["fdiscard"].append([cards[1 - k], 0])  # a blind discard: nobody knows it
                cards = [cards[k]]
            s["hands"][m] += cards
        elif len(cards) <= 1:
            s["hands"][m] += cards  # a single card left is simply kept
        else:
            s["drawn"][m] = sorted(cards)
    save_rng(s, rng)
    return "draw"


def keep_options(s: State, m: int) -> list[list[str]]:
    """Which drawn cards a member may keep: one of the two, or both for the Union chairman
    (who may still keep just one)."""
    cards = s["drawn"][m]
    assert cards is not None  # only a member who drew a pair keeps from it (to_act)
    out = [[c] for c in cards]
    if chair(s, "union") == m:
        out.append(sorted(cards))
    return out


def keep(s: State, seat: int, cards: list[str]) -> None:
    """The drawn cards named go to the hand, the others to the discard pile (known to `seat`)."""
    drawn = s["drawn"][seat]
    assert drawn is not None  # only a member who drew a pair keeps from it (to_act)
    for c in drawn:
        if c in cards:
            s["hands"][seat].append(c)
        else:
            discard_card(s, c, seat)
    s["drawn"][seat] = None
