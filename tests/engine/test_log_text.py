"""The log-in-words hook: its default and the contract every ruleset's override keeps."""

from __future__ import annotations

from app.engine.ruleset import RulesetHooks


class _Hidden(RulesetHooks):
    """A ruleset that hides seat 1's moves from everyone else."""

    def public_move(self, state, seat, move, viewer):
        """Seat 1's move shows only to seat 1."""
        if seat == 1 and viewer != 1:
            return {"secret": True}
        return move

    def describe_move(self, move):
        """Label with the keys in order."""
        return " ".join(f"{k}:{v}" for k, v in move.items())


def test_default_log_text_describes_the_public_move() -> None:
    """Rule (HELPERS contract): the default log sentence is describe_move(public_move(...))."""
    hooks = _Hidden()
    assert hooks.log_text({}, 0, {"cell": 3}, None) == "cell:3"
    assert hooks.log_text({}, 1, {"cell": 3}, 0) == "secret:True"
    assert hooks.log_text({}, 1, {"cell": 3}, 1) == "cell:3"
