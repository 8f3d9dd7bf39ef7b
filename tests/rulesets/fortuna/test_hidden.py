"""Hidden information: the privilege deck's order, other players' cards, face-down discards,
unseen palace cards, setup face-down action cards and the generator never show in a view, a
diff, the log or an error; determinize keeps what the seat knows."""

from __future__ import annotations

import json

import pytest

from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import data
from app.rulesets.fortuna.logtext import privilege_words
from tests.rulesets.fortuna.helpers import at, clone, favours, game, play, province, seat_to_act


def _states(n, seed, steps=400, **opts):
    s = R.setup(n, R.Options(**opts), seed)
    rng = Rng(seed + 77)
    out = [(None, None, s)]
    for _ in range(steps):
        if not R.to_act(s):
            break
        seat = R.to_act(s)[0]
        move = R.bot_move(s, seat, rng) if rng.below(3) else rng.choice(R.legal_moves(s, seat))
        s = R.apply(s, seat, move)
        out.append((seat, move, s))
    return out


def test_determinize_keeps_every_view_and_moves_hidden_cards():
    """determinize: view(determinize(s, seat), seat) == view(s, seat); other players' cards and
    the deck order change."""
    moved = 0
    for n in (2, 4):
        for _, _, s in _states(n, 3)[::9]:
            for seat in [*range(n), None]:
                det = R.determinize(s, seat, Rng(5))
                assert R.view(det, seat) == R.view(s, seat)
                if seat == 0 and (
                    det["deck"] != s["deck"] or det["players"][1]["hand"] != s["players"][1]["hand"]
                ):
                    moved += 1
    assert moved > 5


def test_determinize_keeps_own_discards_and_what_went_back_into_the_deck():
    """determinize keeps everything the seat knows: its own hand, the cards it discarded face
    down, and (after a reshuffle) that those cards are somewhere in the deck."""
    s = game(3, seed=1)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[1], chosen_slot=0), tokens={1: 3}), me, water=1)
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    drawn = s["choice"]["cards"]
    s = play(s, {"type": "keep", "cards": [drawn[0]]})
    for k in range(10):
        det = R.determinize(s, me, Rng(k))
        assert det["players"][me]["hand"] == [drawn[0]]
        assert sorted(d["card"] for d in det["discard"] if d["by"] == me) == sorted(drawn[1:])
    t = clone(s)
    t["deck"] = []
    from app.rulesets.fortuna.privileges import draw

    t["events"] = []
    card = draw(t, 1, me)[0]  # reshuffles the 2 discards; the seat draws one of them itself
    t["players"][me]["hand"] = sorted(t["players"][me]["hand"] + [card])
    for k in range(10):
        det = R.determinize(t, me, Rng(k))
        assert det["deck"] == [c for c in drawn[1:] if c != card]


def test_setup_face_down_cards_are_hidden_even_from_the_owner_unless_the_option_says():
    """Setup: the face-down action card stays secret until flipped (decision); with
    peek_own_card its owner may look at it."""
    s = game(3, seed=4)
    other = s["order"][1]
    down = next(slot["card"] for slot in s["sides"][other] if not slot["face_up"])
    for viewer in (other, None, s["order"][0]):
        assert down not in json.dumps(R.view(s, viewer)["sides"][other])
    peek = game(3, seed=4, peek_own_card=True)
    assert down in json.dumps(R.view(peek, other)["sides"][other])
    assert down not in json.dumps(R.view(peek, s["order"][0])["sides"][other])


def _plant(s):
    """Markers in every hidden place: the deck, hands, face-down discards, pending choices,
    palace cards, hidden action cards, the generator."""
    s = clone(s)
    s["deck"] = [f"CANARY-deck-{k}" for k in range(len(s["deck"]))]
    for i, pl in enumerate(s["players"]):
        if i != R.to_act(s)[0]:  # the mover's own cards stay real so its moves can be listed
            pl["hand"] = [f"CANARY-{i}-hand-{k}" for k in range(len(pl["hand"]))]
    for d in s["discard"]:
        if not d["face_up"]:
            d["card"] = f"CANARY-{d['by']}-discard"
    if s["choice"]:
        s["choice"]["cards"] = [f"CANARY-{s['choice']['seat']}-choice" for _ in s["choice"]["cards"]]
    if s["palace_choice"]:
        s["palace_choice"]["cards"] = [
            f"CANARY-{s['palace_choice']['seat']}-pal" for _ in s["palace_choice"]["cards"]
        ]
    s["palace"]["cards"] = ["CANARY-palace" for _ in s["palace"]["cards"]]
    for row in s["sides"]:
        for slot in row:
            if not slot["face_up"] and not slot["public"]:
                slot["card"] = "CANARY-action"
    s["rng"] = "CANARY-rng"
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_canary_markers_never_leak(n):
    """Hidden info: no marker of a seat reaches another seat's or the spectator's view, the view
    diffs, the public log, the log text, or IllegalMove reasons."""
    states = _states(n, 11, 300)
    viewers = [*range(n), None]
    previous = {v: None for v in viewers}
    texts = {v: [] for v in viewers}
    for _seat, _move, s in states:
        if s["phase"] == "over":
            continue  # at the end the hands of players inside Rome are revealed on purpose
        planted = _plant(s)
        for v in viewers:
            view = R.view(planted, v)
            texts[v].append(json.dumps(view))
            if previous[v] is not None:
                texts[v].append(json.dumps(diff(previous[v], view)))
            previous[v] = view
        for bad in (
            {"type": "keep", "cards": ["CANARY-x"]},
            {"type": "privilege", "card": "C1"},
            {"type": "exchange", "side": 0, "slot": 2},
            {"type": "palace", "card": "A1"},
        ):
            for v in range(n):
                try:
                    R.apply(planted, v, bad)
                except IllegalMove as exc:
                    texts[None].append(exc.reason)
                except (KeyError, TypeError, ValueError):
                    pass  # a legal move on the planted state reached the planted generator
    saw_palace = set(states[-1][2]["palace"]["seen"])  # grows only; empty before any arrival
    for v in viewers:
        blob = "\n".join(texts[v])
        for marker in ("CANARY-rng", "CANARY-deck", "CANARY-action", "CANARY-palace"):
            if marker != "CANARY-palace" or v not in saw_palace:
                assert marker not in blob, (v, marker)
        for owner in range(n):
            if owner != v:
                assert f"CANARY-{owner}-" not in blob, (v, owner)
    assert any("CANARY-0-" in t for t in texts[0])  # the owner does see their own cards


def test_log_hides_kept_cards_from_others():
    """Log: which privilege cards were kept is shown to the keeper only (public_move, log_text,
    and the public 'last move' in the views)."""
    s = game(3, seed=1)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[1], chosen_slot=0), tokens={1: 2}), me, water=1)
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    card = s["choice"]["cards"][0]
    move = {"type": "keep", "cards": [card]}
    assert R.public_move(s, me, move, me) == move
    for viewer in (None, (me + 1) % 3):
        assert R.public_move(s, me, move, viewer) == {"type": "keep", "count": 1}
        assert card not in R.log_text(s, me, move, viewer)
    after = R.apply(s, me, move)
    assert card not in json.dumps(after["last"])
    assert "privilege card" in R.log_text(s, me, move, me)


def test_log_text_is_words_with_seat_placeholders():
    """Log in words: names, places and consequences (dice), players as {seatN} placeholders."""
    s = game(2, seed=3)
    me = seat_to_act(s)
    card = s["sides"][me][0]["card"]
    text = R.log_text(s, me, {"type": "play", "slot": 0, "args": None}, None)
    assert text.startswith(f"{{seat{me}}} plays ") and R.catalogue()["actions"][card]["name"] in text
    s = at(s, phase="military", chosen_slot=0)
    assert "rolls" in R.log_text(s, me, {"type": "skip"}, 1 - me)


def test_determinize_keeps_the_palace_cards_the_first_arrival_left_while_the_second_chooses():
    """The End of the Game / determinize: the first to reach the palace saw the two cards it left
    face down; while the second arrival chooses from them, a re-deal for the first arrival must
    still offer exactly those two cards (it knows them), not cards from the deck."""
    s = game(4, seed=0)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[6], chosen_slot=0)), me, position=13, vestals=2)
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    s = play(s, {"type": "palace", "card": s["palace_choice"]["cards"][0]})
    left = sorted(s["palace"]["cards"])
    while s["turn"] == 0:
        s = play(
            s,
            {"type": "end"}
            if s["phase"] == "wrap"
            else [m for m in R.legal_moves(s, me) if m["type"] != "privilege"][0],
        )
    second = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[6])), second, position=14, vestals=1)
    s = play(s, {"type": "favour", "card": 6, "n": 1})
    assert s["phase"] == "palace" and sorted(s["palace_choice"]["cards"]) == left
    for k in range(10):
        det = R.determinize(s, me, Rng(k))
        assert sorted(det["palace_choice"]["cards"]) == left
        assert R.view(det, me) == R.view(s, me)


def test_determinize_keeps_the_palace_card_a_later_arrival_took_from_the_seen_ones():
    """The End of the Game / determinize: the first arrival saw the two cards it left; when the
    second arrival takes one, the other still lies on the table, so the first arrival knows the
    card in the second's hand. A re-deal for the first arrival keeps it there."""
    s = game(4, seed=0)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[6], chosen_slot=0)), me, position=13, vestals=2)
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    s = play(s, {"type": "palace", "card": s["palace_choice"]["cards"][0]})
    left = sorted(s["palace"]["cards"])
    while s["turn"] == 0:
        s = play(
            s,
            {"type": "end"}
            if s["phase"] == "wrap"
            else [m for m in R.legal_moves(s, me) if m["type"] != "privilege"][0],
        )
    second = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[6])), second, position=14, vestals=1, hand=[])
    s = play(s, {"type": "favour", "card": 6, "n": 1})
    s = play(s, {"type": "palace", "card": left[1]})
    assert left[1] in s["players"][second]["hand"]
    for k in range(10):
        det = R.determinize(s, me, Rng(k))
        assert left[1] in det["players"][second]["hand"] and det["palace"]["cards"] == [left[0]]
        assert R.view(det, me) == R.view(s, me)
    seen_by_nobody_else = [x for x in range(4) if x not in (me, second)][0]
    moved = sum(
        left[1] not in R.determinize(s, seen_by_nobody_else, Rng(k))["players"][second]["hand"]
        for k in range(10)
    )
    assert moved > 0  # a seat that never saw the palace cards cannot know it


class _CanaryCards(dict):
    """The privilege table, where a marker reads as a card C (never played, scores nothing)."""

    def __missing__(self, key):
        if isinstance(key, str) and key.startswith("CANARY"):
            return {"id": key, "cls": "C", "name": key, "vp": {"per": "dice", "each": 0}}
        raise KeyError(key)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_canary_markers_never_reach_the_log_text_or_public_moves(n, monkeypatch):
    """Hidden info, the log: for every move of played games, the log text and the public move
    each other seat and a spectator receive name no card hidden from them (markers in the
    deck, other hands, face-down discards, unseen palace cards and face-down action cards;
    the mover's own cards stay real so its move can be replayed) nor the generator's state."""
    states = _states(n, 23, 300)
    checked = 0
    monkeypatch.setattr(data, "PRIVILEGES", _CanaryCards(data.PRIVILEGES))  # markers are C cards
    assert any("CANARY-action" in json.dumps(_plant(s)["sides"]) for _, _, s in states)
    for (_, _, before), (seat, move, _) in zip(states, states[1:]):
        planted = _plant(before)
        planted["rng"] = before["rng"]  # the move is replayed for its consequences
        if planted["choice"] and planted["choice"]["seat"] == seat:
            planted["choice"]["cards"] = list(before["choice"]["cards"])
        if planted["palace_choice"] and planted["palace_choice"]["seat"] == seat:
            planted["palace_choice"]["cards"] = list(before["palace_choice"]["cards"])
        after = R.apply(before, seat, move)
        for side, row in enumerate(after["sides"]):  # a card the move flips is public after it
            for j, slot in enumerate(row):
                if slot["face_up"] or slot["public"]:
                    planted["sides"][side][j]["card"] = before["sides"][side][j]["card"]
        R.apply(planted, seat, move)  # still legal: the words come from a real replay
        for v in [*range(n), None]:
            if v == seat:
                continue
            text = R.log_text(planted, seat, move, v) + json.dumps(R.public_move(planted, seat, move, v))
            assert "CANARY" not in text and str(before["rng"]) not in text, (v, move, text)
            if move["type"] in ("keep", "palace"):
                kept = move.get("cards", [move.get("card")])
                assert not any(c in text or privilege_words(c) in text for c in kept), (v, text)
            checked += 1
    assert checked > 100


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    """Hidden info, the view: a seat's privilege cards reach its own view and no other seat's
    (the others see how many); views are plain JSON."""
    s = game(4, seed=2)
    me = seat_to_act(s)
    s = province(s, me, hand=["A1"])
    s["players"][(me + 1) % 4]["hand"] = ["A1", "C3"]
    s = play(s, {"type": "play", "slot": 0, "args": None})
    views = {v: R.view(s, v) for v in (me, (me + 1) % 4, None)}
    for v, view in views.items():
        assert json.loads(json.dumps(view)) == view
        assert view["p"][me]["hand"] == (["A1"] if v == me else None)
        assert view["p"][me]["hand_size"] == 1 and view["p"][(me + 1) % 4]["hand_size"] == 2
    assert views[None]["p"][(me + 1) % 4]["hand"] is None
