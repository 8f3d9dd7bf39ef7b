"""The shared value types and hook defaults: competition ranks with ties, the outcome document,
and what a ruleset gets when it does not override a hook."""

from __future__ import annotations

from app.engine.ruleset import IllegalMove, Outcome, RulesetHooks, ranks_from_keys


def test_ranks_share_ties_and_skip_the_places_they_take():
    """Ranks: larger keys rank higher; tied seats share a rank and the next rank skips (1, 1, 3)."""
    assert ranks_from_keys([(3,), (5,), (3,), (1,)]) == [2, 1, 2, 4]
    assert ranks_from_keys([(2, 1), (2, 3), (2, 1)]) == [2, 1, 2]  # later keys break ties
    assert ranks_from_keys([(0,), (0,)]) == [1, 1]


def test_outcome_document_lists_winners_and_keeps_extra_fields():
    """Outcome: scores, ranks, every seat ranked first as a winner, breakdowns, and extras."""
    outcome = Outcome([7, 9, 9], [3, 1, 1], [{"a": 1}, {"a": 2}, {"a": 3}], {"rank_name": "x"})
    assert outcome.winners == [1, 2]
    assert outcome.to_json() == {
        "scores": [7, 9, 9],
        "ranks": [3, 1, 1],
        "winners": [1, 2],
        "breakdown": [{"a": 1}, {"a": 2}, {"a": 3}],
        "rank_name": "x",
    }


def test_hook_defaults():
    """Hooks: by default everyone sees every move, there is no own bot, no catalogue, a move is
    described as key=value pairs and its log line is that description; IllegalMove keeps its
    reason."""
    hooks = RulesetHooks()
    move = {"type": "bid", "card": "K001"}
    assert hooks.public_move({}, 0, move, 1) is move
    assert hooks.bot_move({}, 0, None) is None and hooks.catalogue() == {}
    assert hooks.describe_move(move) == "type=bid, card=K001"
    assert hooks.log_text({}, 0, move, None) == "type=bid, card=K001"
    assert not hooks.has_bot and hooks.conformance_options == []
    error = IllegalMove("Bids must be cards.")
    assert error.reason == str(error) == "Bids must be cards."


class _Secret(RulesetHooks):
    """A ruleset whose moves only their own seat sees, unless the state says they are public."""

    def public_move(self, state, seat, move, viewer):
        return move if viewer == seat or (state or {}).get("public") else None


def test_default_log_line_says_only_what_the_viewer_may_see():
    """Log in words: the default sentence is built from public_move for that viewer, with the
    state before the move and the mover's seat: a hidden move reads as nothing."""
    hooks, move = _Secret(), {"type": "bid", "card": "K001"}
    assert hooks.log_text({}, 0, move, 0) == "type=bid, card=K001"
    assert hooks.log_text({}, 0, move, 1) == ""
    assert hooks.log_text({"public": True}, 0, move, 1) == "type=bid, card=K001"
    assert hooks.log_text({}, 1, move, 1) == "type=bid, card=K001"
