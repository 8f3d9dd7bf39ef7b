"""Deploys do not strand games (issue 12): a game in progress under version 1 of its rules keeps
playing after the server moves to version 2, through the ruleset's `upgrade_state` hook."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.config import sync_url
from app.engine import registry
from app.engine.ruleset import CannotUpgrade, RulesetHooks
from app.main import create_app
from tests.support.api import doc, legal, play_first_legal, play_to_end, started_game
from tests.support.testgame import TEST_GAME, TestGame, TestGameOptions


class TestGameV2(RulesetHooks):
    """Version 2 stores the scores under 'points' (a storage change a rules fix might make);
    it wraps version 1's rules and refuses a state in the old format."""

    __test__ = False
    id, name, version = "testgame", "Test Game", "2"
    min_players, max_players = 1, 6
    Options = TestGameOptions

    def __init__(self):
        self.inner = TestGame()

    @staticmethod
    def _v1(state):
        state = dict(state)
        state["scores"] = state.pop("points")
        return state

    @staticmethod
    def _v2(state):
        state = dict(state)
        state["points"] = state.pop("scores")
        return state

    def setup(self, players, options, seed):
        return self._v2(self.inner.setup(players, options, seed))

    def to_act(self, state):
        return self.inner.to_act(self._v1(state))

    def legal_moves(self, state, seat):
        return self.inner.legal_moves(self._v1(state), seat)

    def apply(self, state, seat, move):
        return self._v2(self.inner.apply(self._v1(state), seat, move))

    def view(self, state, seat):
        return self.inner.view(self._v1(state), seat)

    def outcome(self, state):
        return self.inner.outcome(self._v1(state))

    def determinize(self, state, seat, rng):
        return self._v2(self.inner.determinize(self._v1(state), seat, rng))

    def public_move(self, state, seat, move, viewer):
        return self.inner.public_move(self._v1(state), seat, move, viewer)

    def log_text(self, state, seat, move, viewer):
        return self.inner.log_text(self._v1(state), seat, move, viewer)

    def upgrade_state(self, state, from_version):
        """Version 1 -> 2: rename the scores; a game without a snapshot replays from setup."""
        if from_version != "1":
            raise CannotUpgrade(f"no way from version {from_version}")
        return None if state is None else self._v2(state)


def _swap(ruleset):
    registry.unregister("testgame")
    registry.register(ruleset)


def test_a_game_in_progress_is_upgraded_to_the_new_rules_version(settings):
    """Three moves under version 1 (a snapshot at version 2, one move after it), then a server
    with version 2: the game loads, its document is unchanged, it accepts the next move and
    plays to the end; the upgrade is recorded (new version, a snapshot in the new format)."""
    v1 = settings.model_copy(update={"snapshot_every": 2})
    with TestClient(create_app(v1)) as client:
        game_id, (a, b) = started_game(client, options={"rounds": 3})
        for _ in range(3):
            player = a if legal(client, game_id, a)["moves"] else b
            play_first_legal(client, game_id, player)
        before = {who: doc(client, game_id, p) for who, p in (("a", a), ("b", b))}
    v2 = v1.model_copy(update={"extra_rulesets": ""})
    _swap(TestGameV2())
    try:
        with TestClient(create_app(v2)) as client:
            assert {who: doc(client, game_id, p) for who, p in (("a", a), ("b", b))} == before
            player = a if legal(client, game_id, a)["moves"] else b
            assert play_first_legal(client, game_id, player) == 4
            final = play_to_end(client, game_id, [a, b])
            assert final["status"] == "finished"
        engine = create_engine(sync_url(settings.database_url))
        with engine.connect() as conn:
            version = conn.execute(
                text("SELECT ruleset_version FROM games WHERE id = :g"), {"g": game_id}
            ).scalar()
            snapshot = conn.execute(
                text("SELECT state FROM snapshots WHERE game_id = :g AND version = 3"), {"g": game_id}
            ).scalar()
        engine.dispose()
        assert version == "2"
        assert "points" in (snapshot if isinstance(snapshot, dict) else __import__("json").loads(snapshot))
    finally:
        _swap(TEST_GAME)


def test_a_rules_change_without_an_upgrade_still_refuses_old_games(settings):
    """A version bump whose ruleset cannot carry old states keeps refusing them with a 409."""
    with TestClient(create_app(settings)) as client:
        game_id, (a, b) = started_game(client)
        play_first_legal(client, game_id, a)

    class Bumped(TestGame):
        __test__ = False
        version = "9"

    _swap(Bumped())
    try:
        with TestClient(create_app(settings.model_copy(update={"extra_rulesets": ""}))) as client:
            r = client.get(f"/api/games/{game_id}")
            assert r.status_code == 409 and "version 1" in r.json()["detail"]
    finally:
        _swap(TEST_GAME)


def test_a_rolling_deploy_reads_each_snapshot_as_the_version_that_wrote_it(settings):
    """A rolling deploy runs both versions at once on one database. A new replica loads a game
    and records the upgrade (a version-2 snapshot, the game marked version 2) while an old
    replica, holding the game in memory, plays on and stores its next snapshot in version 1's
    format. A replica of either version that loads the game afterwards must read each snapshot
    as the version that wrote it: the new one the upgrade's snapshot (then the moves since), the
    old one its own; neither may take the old replica's snapshot for a version-2 state."""
    v1 = settings.model_copy(update={"snapshot_every": 2})
    v2 = v1.model_copy(update={"extra_rulesets": ""})
    with TestClient(create_app(v1)) as old:
        game_id, (a, b) = started_game(old, options={"rounds": 3})
        play_first_legal(old, game_id, a if legal(old, game_id, a)["moves"] else b)  # version 1
        _swap(TestGameV2())
        try:
            with TestClient(create_app(v2)) as new:
                assert doc(new, game_id, a)["version"] == 1  # loaded: the upgrade is recorded
            for expected in (2, 3):  # the old replica's copy plays on; a snapshot at 2, v1 format
                player = a if legal(old, game_id, a)["moves"] else b
                assert play_first_legal(old, game_id, player) == expected
            before = {who: doc(old, game_id, p) for who, p in (("a", a), ("b", b))}
            with TestClient(create_app(v2)) as fresh:
                assert {who: doc(fresh, game_id, p) for who, p in (("a", a), ("b", b))} == before
                player = a if legal(fresh, game_id, a)["moves"] else b
                assert play_first_legal(fresh, game_id, player) == 4
                final = play_to_end(fresh, game_id, [a, b])
                assert final["status"] == "finished"
        finally:
            _swap(TEST_GAME)
        _swap(TEST_GAME)  # the old replica's version comes back to load the game afresh
        with TestClient(create_app(v2)) as old_again:
            assert doc(old_again, game_id) == final
