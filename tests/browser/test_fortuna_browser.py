"""Fortuna's end in the real game page: with nobody inside Rome the banner and the ranking say
that no one won (RB-F The Winner of the Game)."""

from __future__ import annotations

from tests.browser.test_rulesets_browser import _finished_as


def test_nobody_in_rome_says_no_one_wins(live_server, page):
    """The Winner of the Game: "A player cannot win the game if his marker is outside Rome".
    When the round guard ends a game with every pawn outside Rome, the banner says no one wins
    (not "X wins" or "share the win"), no row of the ranking is a winner or carries a rank
    number, and the Fortuna table says it too. The server's snapshot is rewritten to such an
    outcome (reaching round 40 through the API takes hundreds of moves)."""
    from app.engine.rng import Rng
    from app.rulesets.fortuna import RULESET as R
    from tests.rulesets.fortuna.helpers import at, game as new_game

    s = at(new_game(2, 2), round=40)
    rng = Rng(7)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.bot_move(s, seat, rng))
    outcome = R.outcome(s).to_json()
    assert outcome["ranks"] == [1, 1] and outcome["winners"] == []
    result = _finished_as(live_server, page, "fortuna", outcome, "[data-outcome]")
    title = result.locator("h2").inner_text()
    assert title.startswith("No one wins") and "share" not in title, title
    assert result.locator(".ranking li").count() == 2
    assert result.locator(".ranking li.winner").count() == 0
    assert result.locator(".ranking li strong").count() == 0  # no "1." for everyone
    assert "No one wins" in result.locator("[data-nowinner]").inner_text()
