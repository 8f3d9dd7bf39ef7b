"""The derived data and shortcuts the random-game speed work added to the rules (engine step 4):
each is checked against a plain reading of the rules over the states of random games."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import play_random
from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import cards, data, legal, phases, privileges
from tests.rulesets.fortuna.helpers import arrange, game, province


def _random_states(n, seed, steps=600, **opts):
    """Every state of a uniformly random game (the playouts' kind of game: long, hoarding cards)."""
    s = R.setup(n, R.Options(**opts), seed)
    rng = Rng(seed + 5)
    out = [s]
    for _ in range(steps):
        if not R.to_act(s):
            break
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
        out.append(s)
    return out


def _usable_by_the_table(s, seat):
    """usable_privileges read card by card from data.PRIVILEGES (the rule as written)."""
    pl = s["players"][seat]
    return [
        c
        for c in pl["hand"]
        if data.PRIVILEGES[c]["cls"] == "A"
        or (
            data.PRIVILEGES[c]["cls"] == "B"
            and not s["privilege_b_used"]
            and pl["position"] < data.PALACE_STEP
        )
    ]


@pytest.mark.parametrize("n", [2, 4])
def test_usable_privileges_match_the_privilege_table_in_random_games(n):
    """The A/B card sets behind usable_privileges give what the table says, card by card."""
    checked = 0
    for seed in range(4):
        for s in _random_states(n, seed):
            for seat in range(n):
                assert privileges.usable_privileges(s, seat) == _usable_by_the_table(s, seat)
                checked += bool(s["players"][seat]["hand"])
    assert checked > 500


def test_move_specs_build_the_legal_moves_with_their_keys_in_order():
    """legal_moves = make_move of each move_specs tuple; every move lists "type" first and then
    its fields in one fixed order per type (the JSON text of a move must not change)."""
    seen = set()
    for n in (2, 3, 4):
        for s in _random_states(n, 11, steps=400):
            for seat in R.to_act(s):
                moves = R.legal_moves(s, seat)
                assert moves == [legal.make_move(x) for x in phases.move_specs(s, seat)]
                for m in moves:
                    assert list(m) == ["type", *legal.FIELDS[m["type"]]]
                    seen.add(m["type"])
    assert seen >= {
        "play",
        "exchange",
        "military",
        "skip",
        "favour",
        "pass",
        "flip",
        "keep",
        "privilege",
        "end",
    }


@pytest.mark.parametrize("n,opts", [(2, {}), (3, {}), (4, {}), (2, {"two_player_flip": False})])
def test_playout_hook_equals_the_reference_loop_over_many_seeds(n, opts):
    """The playout hook (move_specs, one move built per draw) reaches the state play_random does."""
    for seed in range(12):
        s = R.setup(n, R.Options(**opts), seed)
        assert R.playout(s, Rng(seed)) == play_random(R, s, Rng(seed))


def test_unit_counts_never_come_from_the_far_end_of_the_tuple():
    """The counts sliced from a tuple give nothing for a negative room, as range() did (states
    outside the limits, e.g. built by a test, must not offer moves)."""
    s = arrange(game(2, seed=3), {})
    seat = R.to_act(s)[0]
    s = province(s, seat, centurions=5, vestals=6, money=20, water=-3, aqueduct=None)
    for card in ("centurions", "vestals", "harvest_grain", "harvest_wine"):
        assert cards.card_args(s, seat, card) == []
