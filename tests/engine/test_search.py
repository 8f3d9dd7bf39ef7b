"""The search bot (app/engine/search.py), its ruleset hooks and the levels built on it: fair by
construction for every product ruleset, repeatable, and stronger than its own prior on a game
where the prior is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from app import rulesets as _product  # noqa: F401  (registers the product's rulesets)
from app.engine import choosers, registry
from app.engine.conformance import SealedRuleset, SealedState, check_search_is_fair, sampled_states
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove, Outcome, random_move
from app.engine.search import Budget, Search, best_first, search, win_chances

PRODUCT = [r for r in registry.all_rulesets() if r.__class__.__module__.startswith("app.rulesets")]


def _by_iterations(ruleset, state, seat, seed, iterations):
    return search(ruleset, state, seat, seed, Budget(seconds=None, iterations=iterations, width=6))


@pytest.mark.parametrize("ruleset", PRODUCT, ids=lambda r: r.id)
def test_the_search_is_fair_and_repeatable_in_every_game(ruleset):
    """At states spread over random games: the search reads the true state only through
    determinize for its own seat (a sealed state fails any other read), and a twin state with
    the same view gives the same legal move for the same seed and iteration cap."""
    players = max(2, ruleset.min_players)
    checked = 0
    for i, state in enumerate(sampled_states(ruleset, players, {}, 31, 5)):
        for seat in ruleset.to_act(state)[:1]:
            check_search_is_fair(
                ruleset, state, seat, 1000 + i, f"{ruleset.id} state {i}", _by_iterations, iterations=16
            )
            checked += 1
    assert checked >= 4


def test_a_search_that_reads_the_true_state_fails_the_fairness_check():
    """The sealed state is a real guard: a bot peeking at the state, or determinizing it for
    another seat, is caught."""
    ruleset = registry.get("tiny-towns")
    state = ruleset.setup(2, ruleset.Options(), 3)
    seat = ruleset.to_act(state)[0]

    def peeks(r, s, seat_, seed, iterations):
        return r.legal_moves(s, seat_)[0]

    def other_seat(r, s, seat_, seed, iterations):
        return r.legal_moves(r.determinize(s, 1 - seat_, Rng(seed)), seat_)[0]

    for cheat in (peeks, other_seat):
        with pytest.raises(AssertionError):
            check_search_is_fair(ruleset, state, seat, 5, "cheat", cheat)
    with pytest.raises(AssertionError):
        SealedState(state, seat)["phase"]
    assert (
        SealedRuleset(ruleset).determinize(SealedState(state, seat), seat, Rng(1))["phase"] == state["phase"]
    )


@pytest.mark.parametrize("ruleset", PRODUCT, ids=lambda r: r.id)
def test_every_game_has_search_hooks_from_its_bot(ruleset):
    """`evaluate` gives each seat a chance in [0, 1]; `candidates` lists at most k legal moves
    with no repeats, and every one of them when k is large."""
    players = max(2, ruleset.min_players)
    for state in sampled_states(ruleset, players, {}, 7, 6):
        values = ruleset.evaluate(state)
        assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
        for seat in ruleset.to_act(state):
            legal = [repr(sorted(m.items())) for m in ruleset.legal_moves(state, seat)]
            few = [repr(sorted(m.items())) for m in ruleset.candidates(state, seat, 3)]
            assert len(few) == min(3, len(legal)) and set(few) <= set(legal)
            everything = [repr(sorted(m.items())) for m in ruleset.candidates(state, seat, 10_000)]
            assert sorted(everything) == sorted(legal)


def test_win_chances_follow_the_margin():
    """The leader's chance is above one half, the others' below, and equal scores give halves."""
    lead, behind, last = win_chances([30.0, 26.0, 10.0], 4.0)
    assert lead > 0.5 > behind > last
    assert win_chances([5.0, 5.0], 4.0) == [0.5, 0.5]


def test_best_first_puts_the_choice_first_and_keeps_k():
    moves = [{"a": 1}, {"a": 2}, {"a": 3}]
    assert best_first({"a": 3}, moves, 2) == [{"a": 3}, {"a": 1}]
    assert best_first(None, moves, 2) == moves[:2]


class Race:
    """A toy game: two seats alternate adding 1, 2 or 3 to a shared total; whoever brings it to
    exactly 10 wins, passing 10 loses. Each seat holds a hidden card the rules never read, so
    determinize has something to re-deal. The candidates' order puts adding 1 first: a prior
    that is often wrong."""

    id = "race"

    def setup(self, seats: int = 2) -> dict[str, Any]:
        return {"total": 0, "turn": 0, "cards": [4, 7], "over": False, "winner": None}

    def to_act(self, state):
        return [] if state["over"] else [state["turn"]]

    def legal_moves(self, state, seat):
        return [{"add": n} for n in (1, 2, 3)] if not state["over"] and seat == state["turn"] else []

    def apply(self, state, seat, move):
        if seat != state["turn"] or move.get("add") not in (1, 2, 3) or state["over"]:
            raise IllegalMove("Not a legal addition.")
        total = state["total"] + move["add"]
        out = dict(state, total=total, turn=1 - seat)
        if total >= 10:
            out.update(over=True, winner=seat if total == 10 else 1 - seat)
        return out

    def outcome(self, state):
        if not state["over"]:
            return None
        ranks = [1 if s == state["winner"] else 2 for s in range(2)]
        return Outcome([int(r == 1) for r in ranks], ranks)

    def determinize(self, state, seat, rng):
        cards = list(state["cards"])
        cards[1 - seat] = rng.below(10)
        return dict(state, cards=cards)

    def candidates(self, state, seat, k):
        return self.legal_moves(state, seat)[:k]

    def random_move(self, state, seat, rng):
        return rng.choice(self.legal_moves(state, seat))


def test_the_search_finds_the_win_its_prior_ranks_last():
    """From a total of 7 the winning move adds 3 (the prior's last choice). From 5 only adding
    1 wins by force, two moves deep: every rival reply from 6 (to 7, 8 or 9) lets the seat
    reach 10."""
    race = Race()
    state = dict(race.setup(), total=7)
    assert search(race, state, 0, 1, Budget(seconds=None, iterations=200)) == {"add": 3}
    state = dict(race.setup(), total=5)
    assert search(race, state, 0, 2, Budget(seconds=None, iterations=2000)) == {"add": 1}


def test_same_seed_and_cap_give_the_same_move_and_the_cap_is_kept():
    race = Race()
    state = race.setup()
    moves = {repr(search(race, state, 0, 9, Budget(seconds=None, iterations=150))) for _ in range(3)}
    assert len(moves) == 1
    run = Search(race, 0, Rng(9), Budget(seconds=None, iterations=150))
    run.run(state)
    assert run.iterations == 150


def test_the_levels_a_host_may_choose_exist_and_easy_plays_some_random_moves():
    """Easy, Normal, Hard and Expert are levels; Hard and Expert think for about 0.5 s and 2 s;
    Easy plays the heuristic's move mostly, and another legal move sometimes."""
    assert set(choosers.PLAYABLE) <= set(choosers.LEVELS)
    assert choosers.level("hard").budget == 0.5 and choosers.level("expert").budget == 2.0
    ruleset = registry.get("suburbia")
    state = ruleset.setup(2, ruleset.Options(), 4)
    walker = Rng(4)
    while ruleset.to_act(state) and state["phase"] == "choose_goal":
        seat = ruleset.to_act(state)[0]
        state = ruleset.apply(state, seat, random_move(ruleset, state, seat, walker))
    seat = ruleset.to_act(state)[0]
    normal = choosers.heuristic(ruleset, state, seat, 0, 0.0)
    legal = ruleset.legal_moves(state, seat)
    picks = [choosers.easy(ruleset, state, seat, seed, 0.0) for seed in range(40)]
    assert all(p in legal for p in picks)
    same = sum(p == normal for p in picks)
    assert 20 <= same < 40


def test_two_normal_tiny_towns_bots_do_not_build_the_same_town():
    """Two bots of one level, each with the seed the server derives for its seat, build
    different towns from the same resources (before, two heuristic bots built square for square
    identical towns: equal placements were broken by the list's order)."""
    ruleset = registry.get("tiny-towns")
    for game in range(2):
        state = ruleset.setup(2, ruleset.Options(), 40 + game)
        step = 0
        while to_act := ruleset.to_act(state):
            seat = to_act[0]
            seed = Rng.from_seed(40 + game, "bot", step, seat).state
            state = ruleset.apply(state, seat, choosers.heuristic(ruleset, state, seat, seed, 0.0))
            step += 1
        grids = [p["grid"] for p in state["p"]]
        assert grids[0] != grids[1]


class PerfectRace(Race):
    """The race with a bot that plays perfectly: it moves to a total of 2, 6 or 10 when it can."""

    def bot_move(self, state, seat, rng):
        for move in self.legal_moves(state, seat):
            if (state["total"] + move["add"]) % 4 == 2:
                return move
        return None


def test_greedy_rollouts_play_the_bot_and_judge_by_its_games():
    """With rollouts by the ruleset's bot to the end of the game, every leaf is judged by how
    the bot would finish it: from 0 the search finds the only winning move (to 2) in 30
    iterations and values it above the others (random playouts judge it no better)."""
    race = PerfectRace()
    run = Search(race, 0, Rng(3), Budget(seconds=None, iterations=30, rollout=None, greedy=True))
    assert run.run(race.setup()) == {"add": 2}
    values = {c.move["add"]: c.reward / c.visits for c in run.root.children.values()}
    assert values[2] > max(values[1], values[3]) + 0.3


@pytest.mark.parametrize("ruleset", PRODUCT, ids=lambda r: r.id)
def test_a_hard_decision_through_the_worker_entry_is_legal_in_every_game(ruleset):
    """What a bot worker runs for a Hard seat (choosers.decide, with a short budget here) gives
    a legal move at states spread over a game."""
    players = max(2, ruleset.min_players)
    for i, state in enumerate(sampled_states(ruleset, players, {}, 13, 3)):
        seat = ruleset.to_act(state)[0]
        move = choosers.decide(
            {
                "ruleset": ruleset.id,
                "state": state,
                "seat": seat,
                "level": "hard",
                "seed": 77 + i,
                "budget": 0.05,
            }
        )
        assert move in ruleset.legal_moves(state, seat)


def test_a_deadline_stops_the_search_on_either_clock():
    """Without an iteration cap the search stops at its deadline, wall-clock or CPU time."""
    race = Race()
    for cpu in (False, True):
        run = Search(race, 0, Rng(1), Budget(seconds=0.05, iterations=None, cpu=cpu))
        assert run.run(race.setup()) in race.legal_moves(race.setup(), 0)
        assert run.iterations > 0


def test_hard_and_expert_search_with_the_games_own_settings(monkeypatch):
    """The levels' search budget: the level's seconds, the engine's defaults for judging leaves,
    and a game's own `search_settings` over them (Fortune City's longer rollouts)."""
    seen = []
    monkeypatch.setattr(choosers, "search", lambda r, s, seat, seed, budget: seen.append(budget))
    for game in ("fortune-city", "tiny-towns"):
        ruleset = registry.get(game)
        state = ruleset.setup(2, ruleset.Options(), 1)
        for name in ("hard", "expert"):
            level = choosers.level(name)
            level.chooser(ruleset, state, ruleset.to_act(state)[0], 1, level.budget)
    assert [(b.seconds, b.rollout, b.greedy) for b in seen] == [
        (0.5, 20, True),
        (2.0, 20, True),
        (0.5, 2, True),
        (2.0, 2, True),
    ]
