"""Bad moves raise IllegalMove naming the rule, and leave the input state unchanged."""

from __future__ import annotations

import json

import pytest

from app.engine.ruleset import IllegalMove
from tests.rulesets.suburbia.helpers import R, game, put, turn_of, with_market

MARKET = ["mint", "landfill", "freeway", "mint", "office_building", "hostel", "hostel"]


def playing():
    return put(turn_of(with_market(game(2, 3), MARKET), 0), 0, money=10)


def choosing():
    return R.setup(2, R.Options(), 3)


def discarding():
    s = playing()
    return R.apply(s, 0, {"type": "basic", "tile": "suburbs", "at": [1, 0]})


def over():
    return dict(playing(), phase="over")


CASES = [
    (playing, 1, {"type": "buy", "slot": 6, "at": [1, 1]}, "not your turn"),
    (playing, 0, {"type": "fly"}, "Unknown move"),
    (playing, 0, {"type": "buy", "slot": 9, "at": [1, 1]}, "Real Estate Market spaces"),
    (playing, 0, {"type": "buy", "slot": 0, "at": [1, 1]}, "cannot afford"),
    (playing, 0, {"type": "buy", "slot": 6, "at": [7, 7]}, "adjacent to one of your tiles"),
    (playing, 0, {"type": "buy", "slot": 6, "at": [0, 0]}, "empty space"),
    (playing, 0, {"type": "buy", "slot": 6, "at": [1, -1]}, "Borough Board"),
    (playing, 0, {"type": "buy", "slot": 6, "at": "here"}, "hex coordinates"),
    (playing, 0, {"type": "lake", "slot": 6, "at": [7, 7]}, "adjacent"),
    (playing, 0, {"type": "basic", "tile": "casino", "at": [1, 1]}, "Basic tiles are"),
    (playing, 0, {"type": "invest", "at": [5, 5]}, "one of your tiles"),
    (playing, 0, {"type": "discard", "slot": 6}, "discarding comes only after"),
    (playing, 0, {"type": "keep_goal", "goal": "miser"}, "take and place 1 tile"),
    (playing, 0, {"type": "pass"}, "pass only when"),
    (choosing, 0, {"type": "buy", "slot": 6, "at": [1, 1]}, "keeps 1 of the 2 secret goals"),
    (choosing, 0, {"type": "keep_goal", "goal": "not-dealt"}, "one of the two secret goals"),
    (discarding, 0, {"type": "buy", "slot": 6, "at": [1, 1]}, "must now discard"),
    (discarding, 0, {"type": "discard", "slot": None}, "Real Estate Market spaces"),
    (over, 0, {"type": "buy", "slot": 6, "at": [1, 1]}, "game is over"),
]


@pytest.mark.parametrize(("build", "seat", "move", "reason"), CASES, ids=[c[3] for c in CASES])
def test_illegal_move_names_the_rule_and_changes_nothing(build, seat, move, reason):
    """Each illegal move raises IllegalMove whose reason names the rule; input untouched."""
    state = build()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        R.apply(state, seat, move)
    assert reason in err.value.reason
    assert json.dumps(state, sort_keys=True) == before


def test_unaffordable_discard_is_refused():
    """Discarding pays the market cost above the tile: not allowed without the money."""
    s = put(discarding(), 0, money=1)
    with pytest.raises(IllegalMove, match="cannot afford"):
        R.apply(s, 0, {"type": "discard", "slot": 0})
    assert {m["slot"] for m in R.legal_moves(s, 0)} == {5, 6}


def test_invest_requires_the_price_again():
    """Investing costs the tile's printed price again."""
    s = put(playing(), 0, money=2, tiles=[("community_park", 0, 1)])
    with pytest.raises(IllegalMove, match="printed cost again"):
        R.apply(s, 0, {"type": "invest", "at": [0, 1]})


def test_every_legal_move_is_accepted_and_nothing_else_in_a_position():
    """legal_moves lists exactly what apply accepts for a sample of placements."""
    s = playing()
    legal = R.legal_moves(s, 0)
    cells = {tuple(m["at"]) for m in legal if m["type"] == "buy"}
    for q in range(-3, 4):
        for r in range(-3, 5):
            move = {"type": "lake", "slot": 6, "at": [q, r]}
            if (q, r) in cells:
                R.apply(s, 0, move)
            else:
                with pytest.raises(IllegalMove):
                    R.apply(s, 0, move)


def dale_game():
    s = game(1, 3, solo_mode="dale")
    return put(with_market(s, ["hostel", "mint", "landfill", "freeway"]), 0, money=5)


MORE = [
    (dale_game, {"type": "lake", "slot": 0, "at": [1, 1]}, "A lake costs the surcharge"),
    (dale_game, {"type": "buy", "slot": 1, "at": [1, 1]}, "cannot afford that tile"),
    (
        lambda: put(dale_game(), 0, money=2),
        {"type": "basic", "tile": "suburbs", "at": [1, 1]},
        "cannot afford that basic tile",
    ),
    (
        lambda: with_market(dale_game(), ["hostel", None, "landfill", "freeway"]),
        {"type": "buy", "slot": 1, "at": [1, 1]},
        "holds no tile",
    ),
    (lambda: put(dale_game(), 0, markers=0), {"type": "invest", "at": [0, 0]}, "no Investment Markers"),
    (dale_game, {"type": "keep_goal", "goal": "miser"}, "take and place 1 tile"),
]


@pytest.mark.parametrize(("build", "move", "reason"), MORE, ids=[c[2] for c in MORE])
def test_more_illegal_moves_name_the_rule(build, move, reason):
    """Lake (pays only the market cost: must afford it), market tile (printed cost plus
    surcharge), basic tile (printed cost), an empty market space, no markers left: each
    refused with the rule named, the input state unchanged, and no hidden value (stacks,
    goals, generator) in the reason."""
    state = build()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        R.apply(state, 0, move)
    assert reason in err.value.reason
    assert json.dumps(state, sort_keys=True) == before
    hidden = {
        *(k for st in state["stacks"].values() for k in st),
        *(g for sec in state["secret"] for g in sec["dealt"]),
        str(state["rng"]),
    }
    assert not any(h in err.value.reason for h in hidden)


# None of these can make a legal move: no market space -1 or 99, no cell that is not two ints,
# no goal of that name (a valid slot, cell or goal here could make a move legal).
JUNK = [
    None,
    -1,
    99,
    1.0,
    True,
    "x",
    [],
    [1],
    [1, 1, 1],
    ["a", "b"],
    [True, 1],
    {},
    {"a": 1},
    "suburbs",
    "no_such_goal",
    10**30,
]


@pytest.mark.parametrize(
    "build", [choosing, playing, discarding, dale_game], ids=["goal choice", "turn", "discard", "Dale game"]
)
def test_malformed_moves_are_refused_cleanly(build):
    """Any malformed move (wrong types, missing or extra fields, unknown type, a seat that
    does not exist) raises IllegalMove with a sentence, never another error, and leaves the
    state unchanged."""
    import itertools

    state = build()
    before = json.dumps(state, sort_keys=True)
    types = ["buy", "lake", "basic", "invest", "discard", "pass", "keep_goal", "fly", None, 3]
    for n, (kind, junk) in enumerate(itertools.product(types, JUNK)):
        move = {"type": kind, "slot": junk, "at": junk, "tile": junk, "goal": junk}
        if n % 3 == 0:
            move = {"type": kind, ["slot", "at", "tile", "goal"][n % 4]: junk}
        for seat in (0, 1, 9, -1):
            with pytest.raises(IllegalMove) as err:
                R.apply(state, seat, move)
            assert err.value.reason.endswith(".")
    for move in (None, "buy", ["buy"], 7):
        with pytest.raises(IllegalMove):
            R.apply(state, 0, move)
    assert json.dumps(state, sort_keys=True) == before


def test_a_market_tile_one_dollar_short_is_neither_listed_nor_accepted():
    """Taking a tile from the Real Estate Market (RB-S): pay its printed cost plus the surcharge
    above its space. With exactly that much the buy is listed and accepted; $1 short, no buy of
    that space is listed and apply refuses it, naming the price rule."""
    from app.rulesets.suburbia.market import surcharges
    from app.rulesets.suburbia.tables import KINDS

    s = playing()
    for slot, kind in enumerate(s["market"]):
        price = KINDS[kind].cost + surcharges(s)[slot]
        move = {"type": "buy", "slot": slot, "at": [1, 1]}
        exact = put(s, 0, money=price)
        assert move in R.legal_moves(exact, 0)
        R.apply(exact, 0, move)
        short = put(s, 0, money=price - 1)
        assert not [m for m in R.legal_moves(short, 0) if m["type"] == "buy" and m["slot"] == slot]
        with pytest.raises(IllegalMove, match="cannot afford"):
            R.apply(short, 0, move)


def _perturbed(move):
    """Near misses of a legal move: other cells, other slots/tiles/goals, bools for ints,
    an extra key, a missing key."""
    out = [{**move, "extra": 1}]
    out += [{k: v for k, v in move.items() if k != key} for key in move if key != "type"]
    if "at" in move:
        q, r = move["at"]
        out += [{**move, "at": [q + dq, r + dr]} for dq, dr in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        out.append({**move, "at": [float(q), r]})
    if "slot" in move:
        out += [{**move, "slot": move["slot"] + d} for d in (-1, 1)]
        out.append({**move, "slot": bool(move["slot"]) if move["slot"] in (0, 1) else str(move["slot"])})
    if "tile" in move:
        out.append({**move, "tile": "casino"})
    if "goal" in move:
        out.append({**move, "goal": "miser"})
    return out


@pytest.mark.parametrize("options", [{}, {"solo_mode": "dale"}])
def test_apply_accepts_exactly_the_listed_moves(options):
    """One source of truth: apply accepts a move if and only if legal_moves lists it (near
    misses of listed moves included), and a refusal always names a rule."""
    from app.engine.rng import Rng

    players = 1 if options else 3
    s = R.setup(players, R.Options.model_validate(options), 9)
    rng = Rng(9)
    checked = 0
    while R.to_act(s) and checked < 400:
        seat = R.to_act(s)[0]
        legal = R.legal_moves(s, seat)
        for move in _perturbed(rng.choice(legal)):
            listed = any(json.dumps(move, sort_keys=True) == json.dumps(m, sort_keys=True) for m in legal)
            try:
                R.apply(s, seat, move)
                accepted = True
            except IllegalMove as exc:
                accepted = False
                assert exc.reason.endswith(".")
            assert accepted == listed, move
            checked += 1
        s = R.apply(s, seat, rng.choice(legal))
