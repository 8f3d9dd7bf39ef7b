"""Phase 4 (the Emperor's favour: dice, favour cards, taxes), the 2-player rule and phase 5
(privilege tokens and cards)."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.helpers import arrange, at, enter, favours, game, play, province, seat_to_act


def _rolled(dice, n=3, seed=0, used=(), tokens=None, **fields):
    """A game in phase 4 of the first player's turn with the given dice."""
    s = game(n, seed)
    me = seat_to_act(s)
    s = favours(at(s, phase="favour", rolled=list(dice), chosen_slot=0), used, tokens)
    if fields:
        s = province(s, me, **fields)
    return s, me


def test_dice_come_from_the_states_generator():
    """Phase 4: the player rolls his own dice (one die at the start, more with the Clerus); the
    roll is chance from the state's seeded generator, so a replay rolls the same."""
    s = game(2, seed=4)
    me = seat_to_act(s)
    s = province(s, me, dice=3)
    s = at(s, phase="military", chosen_slot=0)
    a, b = R.apply(s, me, {"type": "skip"}), R.apply(s, me, {"type": "skip"})
    assert a["rolled"] == b["rolled"] and len(a["rolled"]) == 3 and all(1 <= d <= 6 for d in a["rolled"])
    rolls = set()
    for seed in range(30):
        t = at(s, rng=seed)
        rolls.add(tuple(R.apply(t, me, {"type": "skip"})["rolled"]))
    assert len(rolls) > 20


def test_only_favour_cards_up_to_the_highest_die():
    """Phase 4: a card with the same number or less than a die; dice are not added up."""
    s, me = _rolled([2, 1], wine=2, grain=2, centurions=2)
    cards = {m["card"] for m in R.legal_moves(s, me) if m["type"] == "favour"}
    assert cards == {1, 2}
    with pytest.raises(IllegalMove, match="up to your highest die"):
        R.apply(s, me, {"type": "favour", "card": 3, "n": 1})


@pytest.mark.parametrize(
    ("card", "fields", "steps"),
    [
        (1, {"water": 3}, [1]),
        (2, {"wine": 3}, [1, 2]),
        (3, {"grain": 1}, [1]),
        (3, {"grain": 5}, [1, 2]),
        (4, {"centurions": 3}, [1, 2, 3]),
        (5, {"married": True}, [1]),
        (5, {"married": True, "buildings": ["palace"]}, [2]),
        (5, {"married": False}, []),
        (6, {"vestals": 2}, [2]),
        (6, {"vestals": 0}, []),
    ],
)
def test_each_favour_card_and_its_maximum(card, fields, steps):
    """The Favor Cards: 1 water (max 1), 1-2 wine, 1-2 grain, 1-3 Centurions, marriage 1 (+1
    with a Palace, nothing given up), religion 1 per Vestal (kept)."""
    base = {"water": 0, "wine": 0, "grain": 0, "centurions": 0, "vestals": 0}
    s, me = _rolled([6], **{**base, **fields})
    offered = sorted(m["n"] for m in R.legal_moves(s, me) if m["type"] == "favour" and m["card"] == card)
    assert offered == steps


def test_favour_gives_up_the_resources_and_flips_the_card():
    """Favour: the delivered units go to the general stock, the pawn moves, and the used card is
    flipped over so nobody else uses it this round."""
    s, me = _rolled([4], centurions=3, position=2)
    s = play(s, {"type": "favour", "card": 4, "n": 2})
    assert (
        s["players"][me]["centurions"] == 1 and s["players"][me]["position"] == 4 and s["favours"][3]["used"]
    )
    nxt = seat_to_act(s)
    s = at(s, phase="favour", rolled=[6])
    assert 4 not in {m["card"] for m in R.legal_moves(s, nxt) if m["type"] == "favour"}


def test_religion_keeps_the_vestals():
    """Favour card 6: 1 step per Virgin; the Virgins are not lost."""
    s, me = _rolled([6], vestals=3)
    s = play(s, {"type": "favour", "card": 6, "n": 3})
    assert s["players"][me]["vestals"] == 3 and s["players"][me]["position"] == 3


def test_declining_costs_one_money_tax():
    """Taxes: not delivering (cannot or will not) costs 1 money; giving up units is voluntary."""
    s, me = _rolled([3], grain=2, money=4)
    s = play(s, {"type": "pass", "die": 3})
    assert s["players"][me]["money"] == 3 and s["players"][me]["grain"] == 2


def test_tax_without_money_is_a_step_back():
    """Taxes: with no money the player moves one step away from Rome (never below the village)."""
    s, me = _rolled([3], money=0, position=5, grain=0)
    s = play(s, {"type": "pass", "die": 3})
    assert (s["players"][me]["money"], s["players"][me]["position"]) == (0, 4)
    s, me = _rolled([3], money=0, position=0)
    assert play(s, {"type": "pass", "die": 3})["players"][me]["position"] == 0


def test_no_tax_when_no_face_up_card_is_available():
    """Turning the Favor Card: with NO face-up favour card available there is no tax."""
    s, me = _rolled([2], used=(1, 2), money=4)
    s = play(s, {"type": "pass", "die": 2})
    assert s["players"][me]["money"] == 4


def test_the_used_card_is_flipped_only_when_moving():
    """Turning the Favor Card: only a player who moved closer to Rome flips the card."""
    s, me = _rolled([2], wine=0, water=0, money=3)
    s = play(s, {"type": "pass", "die": 2})
    assert not any(f["used"] for f in s["favours"])


def test_two_player_start_player_flips_one_more_card_without_tokens():
    """2 Player Rules: only the start player flips one extra favour card of his choice directly
    after phase 4, never one with tokens."""
    s, me = _rolled([1], n=2, tokens={2: 1, 3: 2}, water=0, money=3)
    s = play(s, {"type": "pass", "die": 1})
    assert s["phase"] == "flip"
    flips = {m["card"] for m in R.legal_moves(s, me) if m["type"] == "flip"}
    assert flips == {1, 4, 5, 6}
    with pytest.raises(IllegalMove, match="tokens on it"):
        R.apply(s, me, {"type": "flip", "card": 2})
    s = play(s, {"type": "flip", "card": 5})
    assert s["favours"][4]["used"] and seat_to_act(s) != me
    s = at(s, phase="favour", rolled=[1])
    second = seat_to_act(s)
    s = province(s, second, water=0)
    s = play(s, {"type": "pass", "die": 1})
    assert s["phase"] != "flip" and s["round"] == 2  # the second player never flips


def test_two_player_flip_skipped_when_every_face_up_card_has_tokens():
    """2 Player Rules: when all face-up cards carry tokens, phase 4 ends at once."""
    s, me = _rolled([1], n=2, used=(1, 2, 3), tokens={4: 1, 5: 1, 6: 1})
    s = play(s, {"type": "pass", "die": 1})
    assert s["phase"] != "flip"


def test_two_player_flip_can_be_switched_off():
    """Option two_player_flip=False: the 2-player game plays without the extra flip."""
    s = game(2, two_player_flip=False)
    me = seat_to_act(s)
    s = at(favours(s), phase="favour", rolled=[1])
    s = province(s, me, water=0)
    assert play(s, {"type": "pass", "die": 1})["phase"] != "flip"


def test_one_token_draws_one_card_kept_secret():
    """Receive Privilege: 1 token, the top card from the pile; tokens back to the stock."""
    s, me = _rolled([1], tokens={1: 1}, water=1)
    top = s["deck"][-1]
    supply = s["supply"]
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    assert top in s["players"][me]["hand"] and s["favours"][0]["tokens"] == 0 and s["supply"] == supply + 1


def test_two_or_three_tokens_draw_that_many_keep_one_discard_the_rest():
    """Receive Privilege: 2 or 3 tokens, as many cards, keep one; the others are discarded."""
    s, me = _rolled([2], tokens={2: 2}, wine=1)
    s = play(s, {"type": "favour", "card": 2, "n": 1})
    assert s["phase"] == "keep" and len(s["choice"]["cards"]) == 2
    with pytest.raises(IllegalMove, match="Keep exactly 1"):
        R.apply(s, me, {"type": "keep", "cards": sorted(s["choice"]["cards"])})
    kept, other = s["choice"]["cards"]
    s = play(s, {"type": "keep", "cards": [kept]})
    assert kept in s["players"][me]["hand"] and s["discard"] == [{"card": other, "face_up": False, "by": me}]


def test_basilica_keeps_two_with_at_least_two_tokens():
    """The Basilica: keep an additional card when there were 2 or more tokens (not with 1)."""
    s, me = _rolled([3], tokens={3: 3}, grain=1, buildings=["basilica"])
    s = play(s, {"type": "favour", "card": 3, "n": 1})
    assert s["choice"]["keep"] == 2
    assert all(len(m["cards"]) == 2 for m in R.legal_moves(s, me))
    one, me = _rolled([1], tokens={1: 1}, water=1, buildings=["basilica"])
    one = play(one, {"type": "favour", "card": 1, "n": 1})
    assert len(one["players"][me]["hand"]) == 1


def test_discards_are_reshuffled_when_the_pile_is_used_up():
    """Receive Privilege: when the pile is used up, the discards are shuffled into a new pile."""
    s, me = _rolled([1], tokens={1: 2}, water=1)
    s["discard"] = [{"card": c, "face_up": True, "by": 1} for c in s["deck"][:-1]]
    s["deck"] = s["deck"][-1:]
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    assert s["phase"] == "keep" and len(s["choice"]["cards"]) == 2
    assert s["discard"] == [] and len(s["deck"]) == 20


def test_no_cards_left_no_privileges():
    """Receive Privilege: with no privilege cards left, no new privileges are received."""
    s, me = _rolled([1], tokens={1: 3}, water=1)
    s["deck"], s["discard"] = [], []
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    assert s["players"][me]["hand"] == [] and s["phase"] != "keep"


def test_privilege_a_gives_resources_and_b_a_step_once_per_turn():
    """Privilege cards A (resources) and B (a step) may be used at any time in the player's own
    turn, each once, discarded face up; only one B per turn; C is not played."""
    s, me = _rolled([1], hand=["A1", "B1", "B2", "C4"], grain=0, water=1)
    moves = {m["card"] for m in R.legal_moves(s, me) if m["type"] == "privilege"}
    assert moves == {"A1", "B1", "B2"}
    s = play(s, {"type": "privilege", "card": "A1"}, {"type": "privilege", "card": "B1"})
    assert s["players"][me]["grain"] == 2 and s["players"][me]["position"] == 1 and s["phase"] == "favour"
    assert {"card": "B1", "face_up": True, "by": me} in s["discard"]
    with pytest.raises(IllegalMove, match="only once per turn"):
        R.apply(s, me, {"type": "privilege", "card": "B2"})
    with pytest.raises(IllegalMove, match="score at the end"):
        R.apply(s, me, {"type": "privilege", "card": "C4"})
    with pytest.raises(IllegalMove, match="not your turn"):
        R.apply(s, 1 - me if s["player_count"] == 2 else (me + 1) % 3, {"type": "privilege", "card": "B2"})


def test_a_centurion_from_a_privilege_card_stops_at_three():
    """Limits: at most 3 Centurions, even from a privilege card A."""
    s, me = _rolled([1], hand=["A4"], centurions=3)
    s = play(s, {"type": "privilege", "card": "A4"})
    assert s["players"][me]["centurions"] == 3


def test_new_privilege_cards_can_be_used_before_the_turn_ends():
    """Privilege cards A and B may be used at any time in the turn: after phase 5 the player
    may still play them, then ends the turn."""
    s, me = _rolled([1], tokens={1: 1}, water=1)
    s["deck"][-1] = "B3"
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    assert s["phase"] == "wrap"
    assert {"type": "privilege", "card": "B3"} in R.legal_moves(s, me)
    s = play(s, {"type": "end"})
    assert seat_to_act(s) != me and "B3" in s["players"][me]["hand"]


def test_enter_privilege_without_tokens_ends_the_turn():
    """Phase 5: with no tokens nothing is drawn and the turn passes on."""
    s, me = _rolled([1])
    s["events"] = []
    enter(s, "privilege")
    assert s["turn"] == 1


def test_no_units_delivered_beyond_the_palace():
    """Favour cards 1-4: one unit per step; at step 14 only one more unit can be delivered."""
    s, me = _rolled([6], position=14, wine=2, grain=2, centurions=3)
    offered = {(m["card"], m["n"]) for m in R.legal_moves(s, me) if m["type"] == "favour"}
    assert offered == {(1, 1), (2, 1), (3, 1), (4, 1), (6, 1)}


def test_at_the_palace_no_favour_and_no_tax():
    """At Caesar's palace a pawn cannot move closer: no favour card is used (so no card is
    flipped or tokens taken) and declining costs no tax (decision)."""
    s, me = _rolled([6], position=15, wine=2, money=4, tokens={2: 2})
    assert [m for m in R.legal_moves(s, me) if m["type"] == "favour"] == []
    s = play(s, {"type": "pass", "die": 6})
    assert s["players"][me]["money"] == 4 and s["favours"][1] == {"used": False, "tokens": 2}


def test_decline_is_automatic_when_it_is_the_only_possible_move():
    """No busywork (docs/UX.md): with one die, nothing to deliver and no privilege card to play,
    declining is the only answer, so it happens at once, tax included."""
    s = game(3, seed=2)
    me = seat_to_act(s)
    s = province(s, me, water=0, wine=0, grain=0, centurions=0, vestals=0, money=3)
    s = play(s, {"type": "play", "slot": 0, "args": None})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    kinds = [e["k"] for e in s["last"]["events"]]
    assert kinds[:3] == ["roll", "auto", "tax"] and s["players"][me]["money"] == 2
    assert seat_to_act(s) != me


def test_two_player_flip_is_automatic_with_a_single_candidate():
    """2 Player Rules with no choice: when only one face-up card has no tokens it is flipped
    at once."""
    s, me = _rolled([1], n=2, tokens={1: 1, 2: 1, 3: 1, 5: 1, 6: 1}, water=1, money=3)
    s = play(s, {"type": "pass", "die": 1})
    assert {"k": "flip_favour", "seat": me, "card": 4} in s["last"]["events"]
    assert s["favours"][3]["used"] and seat_to_act(s) != me


def test_military_power_is_skipped_when_no_card_can_be_played():
    """Phase 3 with no choice: a Centurion but no face-up card that can be executed; the phase
    passes at once to the dice."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = arrange(s, {me: ["water", "marriage", "clerus"]})
    s = province(s, me, money=0, vestals=0, centurions=1)
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    assert {"k": "auto", "seat": me, "move": {"type": "skip"}} in s["last"]["events"]
    assert s["players"][me]["centurions"] == 1 and "roll" in [e["k"] for e in s["last"]["events"]]
