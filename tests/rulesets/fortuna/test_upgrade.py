"""Stored games survive rules versions (upgrade_state): version-5 snapshots (the state's short
keys) carried to version 6 (full key names) are the states version 6 reaches by the same moves,
look the same to every seat and play on; versions 3-4 carry too; older ones are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import CannotUpgrade
from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.test_review2 import _where_known_cards_are

# States written by version 5 of the rules (made with `git show b688af5`'s tree): seeded games,
# one state kept at each kind of decision and at the end, with the moves that reached it.
STORED = json.loads((Path(__file__).parent / "data" / "v5_states.json").read_text())


def _replayed(game: dict) -> dict:
    """The state version 6 reaches from the same setup by the same moves."""
    s = R.setup(game["players"], R.Options(**game["options"]), game["seed"])
    for seat, move in game["moves"]:
        s = R.apply(s, seat, move)
    return s


def test_the_stored_states_are_version_5_and_cover_every_decision():
    """The fixture holds short-key states at each decision a snapshot can be taken at."""
    assert STORED["version"] == "5" and R.version == "6"
    steps = {g["state"]["step"] for g in STORED["games"]}
    assert steps == {"exchange", "favour", "flip", "keep", "military", "over", "palace", "wrap"}
    assert all("p" in g["state"] and "players" not in g["state"] for g in STORED["games"])


@pytest.mark.parametrize("index", range(len(STORED["games"])))
def test_a_version_5_snapshot_becomes_the_state_version_6_reaches(index):
    """Carried to version 6, each stored state equals the state the same moves reach now, every
    seat's view and legal moves included, and the game plays on to the end from it."""
    game = STORED["games"][index]
    carried = R.upgrade_state(game["state"], "5")
    replayed = _replayed(game)
    assert carried == replayed
    for seat in (*range(game["players"]), None):
        assert R.view(carried, seat) == R.view(replayed, seat)
    rng = Rng(index)
    while R.to_act(carried):
        seat = R.to_act(carried)[0]
        assert R.legal_moves(carried, seat) == R.legal_moves(replayed, seat)
        move = R.bot_move(carried, seat, rng)
        carried, replayed = R.apply(carried, seat, move), R.apply(replayed, seat, move)
    assert R.outcome(carried) is not None and carried == replayed


def test_a_version_5_game_without_a_snapshot_replays_from_setup():
    """Version 6 plays version 5's games, so a game with no snapshot replays its moves (None)."""
    assert R.upgrade_state(None, "5") is None


def test_version_3_and_4_snapshots_play_on_and_older_games_are_refused():
    """Versions 3 and 4 (no counts of cards drawn since the reshuffle, each seat's known cards
    only those still in the deck) carry with zero counts and play to the end, their knowledge
    staying possible and their re-deals matching their views; a game without a snapshot, or
    from versions 1-2, is refused (the platform's 409)."""
    stored = next(g["state"] for g in STORED["games"] if g["state"]["step"] == "wrap")
    old = {k: v for k, v in stored.items() if k not in ("fresh", "fresh_palace")}
    old["known"] = [[c for c in k if c in stored["deck"]] for k in stored["known"]]
    rng = Rng(4)
    for version in ("3", "4"):
        carried = R.upgrade_state(old, version)
        assert carried["drawn_since_shuffle"] == [0] * stored["n"]
        assert carried["palace_drawn_since_shuffle"] is False
        assert carried["known_in_deck"] == old["known"] and carried["deck"] == old["deck"]
        while R.to_act(carried):
            seat = R.to_act(carried)[0]
            carried = R.apply(carried, seat, R.bot_move(carried, seat, rng))
            _where_known_cards_are(carried)
            for me in range(stored["n"]):
                assert R.view(R.determinize(carried, me, Rng(1)), me) == R.view(carried, me)
        assert R.outcome(carried) is not None
    for state, older in ((None, "4"), (None, "3"), (old, "2"), (old, "1")):
        with pytest.raises(CannotUpgrade, match="cannot carry"):
            R.upgrade_state(state, older)
