"""Log in words (the log_text hook): one sentence per move, with names as placeholders, board
squares as the renderer labels them, and nothing the viewer may not know."""

from __future__ import annotations

import re

from app.rulesets.city_council.tables import CARDS, TILES
from tests.rulesets.city_council.helpers import R, random_states


def test_every_move_has_a_sentence_without_raw_ids():
    """Log: every move of random games reads as a sentence naming the mover ({seatN}), never a
    raw tile id, JSON or a phase key."""
    seen = set()
    for n in (2, 4):
        states = random_states(n, 8, 500)
        for (_, _, before), (seat, move, _) in zip(states, states[1:]):
            for viewer in (seat, None):
                text = R.log_text(before, seat, move, viewer)
                seen.add(move["type"])
                assert text.startswith(f"{{seat{seat}}}") and text.endswith(".")
                assert "{'" not in text and '"' not in text
                assert not any(t in text for t in TILES if re.search(rf"\b{re.escape(t)}\b", text))
    assert {"committees", "keep", "plan", "vote", "activate", "done"} <= seen


def test_sentences_name_places_and_prices():
    """Log: constructions name the building and its blocks (A1-I9), proposals the price."""
    states = random_states(3, 2, 600)
    texts = [R.log_text(b, seat, mv, None) for (_, _, b), (seat, mv, _) in zip(states, states[1:])]
    assert any(re.search(r"proposed to construct the [A-Z][\w .-]+ \(\$\d\)", t) for t in texts)
    assert any(re.search(r"constructed the .+ at ([A-I][1-9] ?)+\.", t) for t in texts)


def test_secret_cards_named_only_to_their_owner():
    """Log: the kept or discarded favour card is named to its owner only."""
    states = random_states(3, 4, 200)
    checked = 0
    for (_, _, before), (seat, move, _) in zip(states, states[1:]):
        if move["type"] in ("keep", "discard"):
            cards = move.get("cards") or [move["card"]]
            other = (seat + 1) % 3
            for viewer in (other, None):
                text = R.log_text(before, seat, move, viewer)
                assert not any(CARDS[c].name in text for c in cards), text
            assert all(CARDS[c].name in R.log_text(before, seat, move, seat) for c in cards)
            checked += 1
    assert checked
