"""Rules review 2 (issue 25, items 10, 11 and 16): nobody inside Rome means nobody wins; a seat's
knowledge of the privilege deck changes only with what it saw; determinize depends only on what
the seat can see."""

from __future__ import annotations

import json

import pytest

from app.engine.rng import Rng
from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import data
from app.rulesets.fortuna.privileges import draw
from tests.rulesets.fortuna.helpers import arrange, at, clone, favours, game, play, province, seat_to_act


def _dump(s):
    return json.dumps(s, sort_keys=True)


# ----------------------------------------------------------------------------- item 10


def _round_forty(n, seed, positions):
    """A game in round 40 (the platform's last round) with the pawns at `positions`."""
    s = at(game(n, seed), round=data.MAX_ROUNDS)
    for seat, pos in enumerate(positions):
        s = province(s, seat, position=pos)
    return s


def _finish(s):
    """Play the round out with the bot."""
    rng = Rng(7)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.bot_move(s, seat, rng))
    return s


def test_nobody_inside_rome_means_nobody_wins():
    """How to Win: "only the players who are in the city of Rome (step 10 or more) at the end can
    win!" and The Winner of the Game: "A player cannot win the game if his marker is outside
    Rome". When the round guard ends a game with every pawn below step 10, the outcome names no
    winner, says so in words, and ranks nobody above another (every seat shares the rank)."""
    s = _finish(_round_forty(3, 2, [2, 5, 1]))
    assert s["phase"] == "over" and max(pl["position"] for pl in s["players"]) < data.GATE_STEP
    out = R.outcome(s)
    wire = out.to_json()
    assert wire["winners"] == []
    assert "no one wins" in wire["result"].lower() and "rome" in wire["result"].lower()
    assert out.ranks == [1, 1, 1]
    assert out.scores == [pl["position"] for pl in s["players"]]  # the steps, shown as before
    assert all(not b["inside_rome"] and b["privileges"] == [] for b in out.breakdown)


def test_one_player_inside_rome_wins_even_when_the_round_guard_ends_the_game():
    """The Winner of the Game: a single player inside Rome at the end wins (the guard's end is
    no different from the palace round in this); no 'no winner' mark."""
    s = _finish(_round_forty(3, 2, [2, 11, 1]))
    out = R.outcome(s)
    inside = [i for i, pl in enumerate(s["players"]) if pl["position"] >= data.GATE_STEP]
    assert inside and out.to_json()["winners"] == inside[:1] and out.extra == {}


# ----------------------------------------------------------------------------- item 11


def _reshuffled_draw():
    """Seat `me` draws 3 privilege cards, keeps one and discards two face down. The deck is then
    empty; seat `other` (later in the round) takes a favour card with 1 token: the two discards
    are reshuffled and `other` draws one of them, secretly. `other` holds one older card."""
    s = game(3, seed=1)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[1], chosen_slot=0), tokens={1: 3}), me, water=1)
    s["supply"] -= 3
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    drawn = s["choice"]["cards"]
    s = play(s, {"type": "keep", "cards": [drawn[0]]})
    while R.to_act(s) == [me]:  # a card just kept may be used before the turn ends: end it
        s = play(s, {"type": "end"} if s["phase"] == "wrap" else R.legal_moves(s, me)[0])
    assert R.to_act(s) != [me] and s["discard"] and all(not d["face_up"] for d in s["discard"])
    other = R.to_act(s)[0]
    older = next(c for c in data.PRIVILEGES if c not in drawn and c not in s["removed"])
    s = clone(s)
    s["deck"] = []  # (those cards leave the game: only the two discards can be drawn now)
    s = province(
        favours(at(s, phase="favour", rolled=[1], chosen_slot=0), tokens={1: 1}), other, water=1, hand=[older]
    )
    s["supply"] -= 1
    before = clone(s)
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    took = [c for c in s["players"][other]["hand"] if c != older]
    assert len(took) == 1 and took[0] in drawn[1:] and len(s["deck"]) == 1
    return before, s, me, other, sorted(drawn[1:]), took[0], older


def test_another_seats_secret_draw_does_not_change_what_a_seat_knows():
    """Receive Privilege: the cards drawn are kept secret, so a seat that saw its two discards
    go into the new deck still knows only that: after another seat draws one of them unseen, its
    knowledge (`known`, and `shuffled_in` in its view) names both, not the one left."""
    before, s, me, other, discards, took, _ = _reshuffled_draw()
    assert s["known_in_deck"][me] == discards  # before the fix the card `other` drew was struck off
    assert R.view(s, me)["shuffled_in"] == discards
    assert s["known_in_deck"][other] == []  # it saw no card go in: both were `me`'s, face down
    assert R.view(s, other)["shuffled_in"] == s["known_in_deck"][other]
    assert R.view(s, None)["shuffled_in"] is None


def test_determinize_does_not_reveal_which_discard_another_seat_drew():
    """Receive Privilege (secret draws) and item 11: re-dealt for `me`, the card `other` drew is
    either of `me`'s two discards, about half the time each (before the fix: the true one every
    time), while `other`'s older card is never one of them (it was in hand before the
    reshuffle) and the deck holds the other discard."""
    _, s, me, other, discards, took, older = _reshuffled_draw()
    hits = 0
    for k in range(400):
        det = R.determinize(s, me, Rng(k))
        hand = det["players"][other]["hand"]
        fresh = [c for c in hand if c in discards]
        assert len(fresh) == 1 and len(hand) == 2
        assert sorted(det["deck"] + fresh) == discards
        hits += fresh[0] == took
        third = [i for i in range(3) if i not in (me, other)][0]
        assert not set(det["players"][third]["hand"]) & set(discards)
    assert 160 <= hits <= 240, hits  # binomial(400, 1/2): 200 +- 40 is beyond 4 standard deviations


def test_a_privilege_card_played_face_up_leaves_every_seats_knowledge():
    """Privilege cards A and B are discarded face up when used: everyone sees the card, so no
    seat still counts it in the deck."""
    _, s, me, other, discards, took, _ = _reshuffled_draw()
    t = clone(s)
    t["players"][other]["hand"] = sorted(t["players"][other]["hand"] + ["B1"])
    t["known_in_deck"] = [
        sorted(k + ["B1"]) for k in t["known_in_deck"]
    ]  # as if B1 had been a face-up discard
    t["phase"], t["turn"], t["privilege_b_used"] = "wrap", t["order"].index(other), False
    t = play(t, {"type": "privilege", "card": "B1"})
    assert all("B1" not in k for k in t["known_in_deck"]) and t["known_in_deck"][me] == discards


def _where_known_cards_are(s):
    """Check that every card a seat counts in the deck is where that could be true: in the deck,
    or somewhere another seat put it since the last reshuffle (a face-down discard, a choice, at
    most `fresh[i]` cards of seat i's hand, the palace cards when they were drawn since)."""
    for me, known in enumerate(s["known_in_deck"]):
        assert known == sorted(set(known)), known
        for i, pl in enumerate(s["players"]):
            mine = [c for c in pl["hand"] if c in known]
            assert (i != me or not mine) and len(mine) <= s["drawn_since_shuffle"][i], (
                me,
                i,
                mine,
                s["drawn_since_shuffle"],
            )
        places = set(s["deck"]) | {d["card"] for d in s["discard"] if not d["face_up"] and d["by"] != me}
        if s["choice"] and s["choice"]["seat"] != me:
            places |= set(s["choice"]["cards"])
        if s["palace_drawn_since_shuffle"]:
            places |= set(s["palace"]["cards"]) | set((s["palace_choice"] or {}).get("cards", []))
        hands = {c for pl in s["players"] for c in pl["hand"]}
        assert all(c in places or c in hands for c in known), (me, known)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_what_a_seat_counts_in_the_deck_is_always_possible(n):
    """Item 11 over played games: after every move of random games (long, with reshuffles),
    each card a seat counts in the deck is in the deck or in a place another seat filled from it
    since, and `fresh` never undercounts, so a re-deal can always honour that knowledge."""
    reshuffles = 0
    for seed in range(4):
        s = R.setup(n, R.Options(), 40 + seed)
        rng = Rng(seed)
        while R.to_act(s):
            seat = R.to_act(s)[0]
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
            reshuffles += any(e["k"] == "reshuffle" for e in s["last"]["events"])
            _where_known_cards_are(s)
    assert reshuffles >= 3


# ----------------------------------------------------------------------------- item 16


def _mid_game(n, seed, want):
    """The first state of a random game where `want(state)` holds."""
    s = R.setup(n, R.Options(), seed)
    rng = Rng(seed)
    while R.to_act(s) and not want(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    assert want(s)
    return s


def test_determinize_reads_only_what_the_seat_can_see():
    """Fairness of a bot (issue 25 item 16): the privilege deck's order and other hands are
    secret (Privilege cards: kept secret), and so are the action cards dealt face down. Two
    states that differ only there look the same to the seat, so they must re-deal the same with
    the same generator. Before the fix the re-deal followed the true order of the hidden cards."""
    s = _mid_game(
        3, 4, lambda s: s["players"][s["order"][1]]["hand"] and len(s["deck"]) > 3 and s["round"] > 2
    )
    me, other = s["order"][0], s["order"][1]
    twin = clone(s)
    a, b = twin["players"][other]["hand"][0], twin["deck"][0]
    twin["players"][other]["hand"] = sorted(twin["players"][other]["hand"][1:] + [b])
    twin["deck"] = [a] + list(reversed(twin["deck"][1:]))
    assert R.view(twin, me) == R.view(s, me) and _dump(twin) != _dump(s)
    assert _dump(R.determinize(s, me, Rng(9))) == _dump(R.determinize(twin, me, Rng(9)))
    # the same for the action cards dealt face down at setup (unseen by everyone)
    s = game(4, seed=3)
    twin = clone(s)
    downs = [(side, 2) for side in range(1, 4)]
    cards = [twin["sides"][side][j]["card"] for side, j in downs]
    for (side, j), card in zip(downs, cards[1:] + cards[:1]):
        twin["sides"][side][j]["card"] = card
    me = 0
    assert R.view(twin, me) == R.view(s, me) and _dump(twin) != _dump(s)
    assert _dump(R.determinize(s, me, Rng(2))) == _dump(R.determinize(twin, me, Rng(2)))


def test_determinize_does_not_pass_on_what_other_seats_know():
    """Hidden information: which of its own discards another seat knows to be in the deck is
    its secret; the re-dealt state keeps only the seat's own knowledge."""
    _, s, me, other, discards, took, _ = _reshuffled_draw()
    det = R.determinize(s, me, Rng(1))
    assert det["known_in_deck"][me] == discards and all(
        det["known_in_deck"][i] == [] for i in range(3) if i != me
    )


# ----------------------------------------------------------------------------- item 12 (NOTES)


def test_a_bribed_trade_uses_the_bribers_market():
    """NOTES decision 20 (audit D5) and The Market ("+1 money per grain/wine sold"): a bribed
    Wine Trade sells the briber's wine with the briber's Market; the owner's Market does not
    count for the briber."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    other = 1 - me
    s = arrange(
        s, {me: ["bribe", "building", "water"], other: ["wine_trade", "clerus", "marriage"]}, down={other: 2}
    )
    bribe = {"type": "play", "slot": 0, "args": {"side": other, "slot": 0, "args": {"n": 2}}}
    mine = play(province(province(s, me, wine=2, buildings=["market"]), other, wine=0), bribe)
    assert mine["players"][me]["money"] == 5 - 2 + 2 * 4 and mine["players"][me]["wine"] == 0
    assert mine["players"][other]["money"] == 5 + 2 and mine["players"][other]["wine"] == 0
    theirs = play(province(province(s, me, wine=2), other, wine=3, buildings=["market"]), bribe)
    assert theirs["players"][me]["money"] == 5 - 2 + 2 * 3 and theirs["players"][other]["wine"] == 3


def test_a_reshuffle_in_the_middle_of_a_draw_shuffles_only_the_discards():
    """NOTES decision 21 (audit D15), Receive Privilege: "When the face-down pile is used up, the
    players shuffle the discarded privilege cards to form a new face-down pile". A draw of 3
    from a pile of 1 takes that card, then 2 from the shuffled discards; the card already drawn
    is not shuffled back."""
    s = clone(game(3, seed=1))
    last = s["deck"][-1]
    rest = s["deck"][:-1]
    s["deck"] = [last]
    s["discard"] = [{"card": c, "face_up": False, "by": 0} for c in rest[:5]]
    s["events"] = []
    got = draw(s, 3, 1)
    assert got[0] == last and set(got[1:]) <= set(rest[:5]) and last not in s["deck"]
    assert sorted(s["deck"] + got[1:]) == sorted(rest[:5]) and s["discard"] == []
    assert [e["k"] for e in s["events"]] == ["reshuffle"] and s["events"][0]["n"] == 5
