"""Bad moves: in every phase a move outside legal_moves is refused with the sentence of that
phase's rule and leaves the game unchanged; through the API it is a 422 carrying that sentence."""

from __future__ import annotations

import copy
import json

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.city_council.reasons import RULES as _RULE
from app.rulesets.city_council.windows import WINDOWS
from tests.rulesets.city_council.helpers import R, random_states
from tests.support.api import doc, legal, new_player, new_room


def _near_miss(s, seat):
    """A move shaped like a legal one of this phase but not listed (a field changed)."""
    legal_keys = {json.dumps(m, sort_keys=True) for m in R.legal_moves(s, seat)}
    for mv in R.legal_moves(s, seat):
        for key, value in mv.items():
            bad = copy.deepcopy(mv)
            if key == "type":
                continue
            if isinstance(value, bool):
                bad[key] = not value
            elif isinstance(value, int):
                bad[key] = value + 7
            elif isinstance(value, str):
                bad[key] = value + "x"
            elif isinstance(value, list):
                bad[key] = value + value[:1] if value else ["x"]
            if json.dumps(bad, sort_keys=True) not in legal_keys:
                return bad
    return {"type": R.legal_moves(s, seat)[0]["type"], "nonsense": 1}


def test_every_phase_names_its_rule_and_changes_nothing():
    """Bad moves: in each phase met along random games (2-5 players, Sandbox) a near miss of a
    legal move raises IllegalMove whose sentence is that phase's rule, and the state is unchanged."""
    seen = set()
    for n, opts in ((2, {}), (3, {}), (4, {}), (5, {}), (3, {"mode": "sandbox"})):
        for _, _, s in random_states(n, 5, 400, **opts)[::2]:
            for seat in R.to_act(s):
                bad = _near_miss(s, seat)
                before = json.dumps(s, sort_keys=True)
                with pytest.raises(IllegalMove) as err:
                    R.apply(s, seat, bad)
                key = "window" if s["phase"] in WINDOWS else s["phase"]
                assert err.value.reason == _RULE[key] + ".", (s["phase"], bad, err.value.reason)
                assert json.dumps(s, sort_keys=True) == before
                seen.add(key)
    assert {
        "committees",
        "treasury",
        "draw",
        "plan",
        "vote",
        "fund",
        "vote2",
        "execute",
        "activate",
        "window",
    } <= seen, seen


def test_api_bad_move_is_422_naming_the_rule_and_the_game_is_unchanged(client):
    """Bad moves through the API: 422 whose detail is the rule's sentence; the document, version
    and log stay as they were."""
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, a, seats=2, ruleset="city-council")
    assert client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={}).status_code == 200
    game = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    first = doc(client, game, a)
    chair = a if first["seat"] in first["to_act"] else b
    before = doc(client, game, chair)
    moves = legal(client, game, chair)["moves"]
    assert moves and moves[0]["type"] == "committees"
    bad = {"type": "committees", "seats": ["election", "election", "election"]}
    r = client.post(
        f"/api/games/{game}/moves", headers=chair["headers"], json={"version": before["version"], "move": bad}
    )
    assert r.status_code == 422
    assert "Committees phase" in r.json()["detail"] and "Election" in r.json()["detail"]
    assert doc(client, game, chair) == before
    assert client.get(f"/api/games/{game}/log", headers=chair["headers"]).json()["moves"] == []
