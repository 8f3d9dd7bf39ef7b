"""Issue 30, learning at the table: each game's "How to play" guide (GET /api/rulesets/{id}/guide),
the rules page with the full rulebook (/rules/{id}), and the table's word on when a bot steps in
for an absent player (`bot_at`)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import update

from app.db.models import SeatClock
from app.engine import registry
from app.services.clocks import now
from tests.api.test_table import _clocked_game, _table, client  # noqa: F401  (the sweeper-less app)
from tests.support.api import doc, in_db
from tests.support.wait import wait_for

GAMES = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]


def _move_types(ruleset_id: str, games: int = 2, moves: int = 1500) -> set[str]:
    """Every kind of move offered in a few random games (the hints must cover each)."""
    from app import rulesets  # noqa: F401  (registers the games)

    ruleset = registry.get(ruleset_id)
    players = max(2, ruleset.min_players)
    seen: set[str] = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = ruleset.setup(players, ruleset.Options(), seed)
        for _ in range(moves):
            to_act = ruleset.to_act(state)
            if not to_act:
                break
            seat = rng.choice(to_act)
            legal = ruleset.legal_moves(state, seat)
            seen |= {m["type"] for m in legal}
            state = ruleset.apply(state, seat, rng.choice(legal))
    return seen


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_game_has_a_guide_with_its_turn_end_glossary_and_hints(client, ruleset_id):  # noqa: F811
    """The guide names the game, has a summary, sections with the end and scoring, a glossary,
    a hint for every kind of move the game offers, and a link to the rulebook the site serves."""
    r = client.get(f"/api/rulesets/{ruleset_id}/guide")
    assert r.status_code == 200, r.text
    guide = r.json()
    assert guide["name"] == registry.get(ruleset_id).name and len(guide["summary"]) > 40
    titles = [s["title"] for s in guide["sections"]]
    assert len(titles) >= 2 and any("end" in t.lower() for t in titles), titles
    assert all(s.get("text") or s.get("items") for s in guide["sections"])
    assert len(guide["glossary"]) >= 6 and all(
        g["term"] and len(g["meaning"]) > 10 for g in guide["glossary"]
    )
    missing = _move_types(ruleset_id) - set(guide["hints"])
    assert not missing, f"no hint for {sorted(missing)}"
    assert guide["rulebook"] == f"/rules/{ruleset_id}"
    page = client.get(guide["rulebook"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # Our summary first, then the rulebook's own text (escaped, line by line).
    assert page.text.index(titles[0].replace("'", "&#39;").split(" (")[0]) < page.text.index(
        "The full rulebook"
    )
    assert "<h1>" in page.text and guide["glossary"][0]["term"] in page.text


# In each game, kinds offered together (random games) and the one a player most likely wants.
MOST_WANTED = {
    "city-council": [("done", "discard"), ("score", "done"), ("activate", "pass"), ("fund", "fund_done")],
    "suburbia": [("buy", "lake"), ("basic", "lake"), ("invest", "lake")],
    "tiny-towns": [("build", "done")],
    "fortune-city": [("buy", "pass"), ("construct", "pass"), ("hire", "done")],
    "fortuna": [("military", "skip"), ("favour", "pass"), ("end", "privilege"), ("play", "privilege")],
}


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_the_hints_come_in_the_order_a_player_most_likely_wants(client, ruleset_id):  # noqa: F811
    """The table shows the first hint line only (the rest behind "more"), so the guide orders the
    kinds: every hinted kind once, the usual action before the chore or the pass offered with it
    (City Council's Done before Discard at the turn's end, Suburbia's market tile before a lake)."""
    guide = client.get(f"/api/rulesets/{ruleset_id}/guide").json()
    order = guide["hint_order"]
    assert sorted(order) == sorted(guide["hints"]), "hint_order names each hinted kind once"
    for first, then in MOST_WANTED[ruleset_id]:
        assert order.index(first) < order.index(then), (first, then)


def test_the_rules_page_shows_the_rulebook_text(client):  # noqa: F811
    """The full text is there: a sentence from Fortuna's rulebook and one from City Council's."""
    assert "only the players who are in the city of Rome" in client.get("/rules/fortuna").text
    assert "Hard Mode" in client.get("/rules/city-council").text


def test_a_game_without_a_guide_or_an_unknown_one_gets_a_404_sentence(client):  # noqa: F811
    """The test game has no guide; a name that is no ruleset has none either; nothing else leaks."""
    for path in (
        "/api/rulesets/testgame/guide",
        "/api/rulesets/nope/guide",
        "/rules/nope",
        "/rules/testgame",
        "/rules/..%2Fguides",
    ):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["detail"].endswith("."), (path, r.text)


def test_the_table_says_when_a_bot_steps_in_for_an_absent_player(client):  # noqa: F811
    """`bot_at`: none while the player is connected; once their socket is gone, their last sign
    of life plus the grace period (when the sweep would hold the seat); none once it is held."""
    game_id, _room_id, a, b = _clocked_game(client)
    clocks = client.app.state.platform.clocks
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b
    info = lambda: next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)
    with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
        ws.receive_json()
        wait_for(lambda: info()["connected"])
        assert info()["bot_at"] is None
    wait_for(lambda: not info()["connected"])
    from datetime import datetime

    at = datetime.fromisoformat(info()["bot_at"])
    assert now() < at <= now() + clocks.grace

    async def long_ago(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(last_seen=now() - timedelta(seconds=3600))
        )

    in_db(client, long_ago)
    assert datetime.fromisoformat(info()["bot_at"]) < now()  # due: the next sweep holds the seat
    client.portal.call(clocks.sweep)
    assert info()["held"] is True and info()["bot_at"] is None


def _bot_move_types(ruleset_id: str, games: int = 3) -> set[str]:
    """Every kind of move offered to a seat in `games` seeded games played to the end by the
    Normal bot in every seat (the moves a newcomer meets against bots)."""
    from app import rulesets  # noqa: F401  (registers the games)
    from app.engine import choosers

    ruleset = registry.get(ruleset_id)
    seen: set[str] = set()
    for seed in range(games):
        state = ruleset.setup(max(2, ruleset.min_players), ruleset.Options(), seed)
        for n in range(5000):
            to_act = ruleset.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            seen |= {m["type"] for m in ruleset.legal_moves(state, seat)}
            state = ruleset.apply(state, seat, choosers.heuristic(ruleset, state, seat, seed * 10_000 + n, 0))
    return seen


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_move_kind_of_three_bot_games_has_its_own_hint(client, ruleset_id):  # noqa: F811
    """Hints are per move kind, not one sentence per game: every kind offered in three seeded
    games of bots has a hint, each kind's hint is its own (no two kinds share a sentence), and
    each says something a newcomer can act on (a sentence, not a word)."""
    hints = client.get(f"/api/rulesets/{ruleset_id}/guide").json()["hints"]
    kinds = _bot_move_types(ruleset_id)
    assert len(kinds) >= 4, kinds
    missing = kinds - set(hints)
    assert not missing, f"no hint for {sorted(missing)}"
    texts = [hints[k] for k in sorted(kinds)]
    assert len(set(texts)) == len(texts), "two move kinds share one hint"
    assert all(len(t.split()) >= 4 and t.rstrip().endswith((".", ")")) for t in texts), texts
