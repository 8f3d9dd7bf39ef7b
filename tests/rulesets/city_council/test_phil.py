"""Prof. Phil, the puppet council member of the 2-player game (RB Special Rules for 2 Players)."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.city_council import phil
from app.rulesets.city_council.council import available_tiles, money_tokens_out
from app.rulesets.city_council.phases import advance
from app.rulesets.city_council.tables import TILES
from tests.rulesets.city_council.helpers import R, clone, game, take_tile

PHIL = 2


def _area_with(s, names_up_s):
    """Lay out the small column: the stack top, then the named tiles below it."""
    s["up"]["S"] = [take_tile(s, n) for n in names_up_s]
    return s


def test_phil_plan_matches_revealed_card_highest_placed():
    """RB 2 players: Phil proposes a building on his revealed card found in the planning area;
    with several, the one placed higher."""
    s = clone(game(2, 1))
    _area_with(s, ["Firm", "Diner", "Diner"])
    s["phil_card"] = "b01"  # Diner / Restaurant / Shopping Mall
    tile = phil.pick_building(s, set(available_tiles(s)))
    assert TILES[tile].name == "Diner" and tile == s["up"]["S"][1]


def test_phil_plan_falls_back_to_largest():
    """RB 2 players: with no match (or a General card naming no building) he proposes the largest
    available building, the higher placed among equals."""
    s = clone(game(2, 1))
    s["phil_card"] = "community-spirit"
    tile = phil.pick_building(s, set(available_tiles(s)))
    assert TILES[tile].shape == "M" and tile == s["stacks"]["M"][0]


def test_phil_vote_never_own_plan():
    """RB 2 players: Phil votes by the same criteria, but never for his own plan."""
    s = clone(game(2, 1))
    _area_with(s, ["Diner", "Firm"])
    s["phil_card"] = "b01"
    s["order"] = [0, 1, PHIL]
    diner = s["up"]["S"][0]
    firm = s["up"]["S"][1]
    s["plans"] = [
        {"kind": "build", "target": firm},
        {"kind": "relocate", "target": "b1"},
        {"kind": "build", "target": diner},
    ]
    assert phil.choose_vote(s, PHIL) == 0  # the Diner is his own: the Firm plan is the construction


def test_phil_never_in_to_act_and_uses_powers():
    """RB 2 players: Phil is played by the rules (never a seat to act); as Treasury chairman he
    always embezzles; his private funds always go on his own construction plan, never others'."""
    embezzled = funded = 0
    for seed in range(6):
        s = game(2, seed)
        rng = Rng(seed)
        for _ in range(300):
            if not R.to_act(s):
                break
            assert set(R.to_act(s)) <= {0, 1}
            seat = rng.choice(R.to_act(s))
            before = s
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
            if (
                before["phase"] == "committees"
                and s["committee"][PHIL] == "treasury"
                and before["budget"] >= 1
                and money_tokens_out(before) < 7
            ):
                assert s["funds"][PHIL] == before["funds"][PHIL] + 1
                embezzled += 1
            if s["phase"] in ("vote2", "approve", "execute"):
                mine = s["plans"][PHIL]
                if mine and mine["kind"] == "build" and s["funds"][PHIL] == 0 and before["funds"][PHIL]:
                    funded += 1
                assert all(s["plan_funds"][o][PHIL] == 0 for o in range(3) if o != PHIL)
    assert embezzled and funded


def test_phil_blind_discard_and_union():
    """RB 2 players: on the Union's turn Phil is dealt 2 cards and one is discarded unseen; as
    Union chairman he keeps both."""
    s = game(2, 3)
    d = s["decider"]
    other = 1 - d
    for phil_c, other_c in (("union", "transport"), ("treasury", "union")):
        seats = [None, None, None]
        seats[d], seats[other], seats[PHIL] = "election", other_c, phil_c
        s2 = R.apply(s, d, {"type": "committees", "seats": seats})
        if s2["phase"] == "treasury":
            s2 = R.apply(s2, R.to_act(s2)[0], {"type": "decline"})
        gain = len(s2["hands"][PHIL]) - 2
        assert gain == (2 if phil_c == "union" else 1)
        if phil_c != "union":
            assert s2["fdiscard"][-1][1] == 0  # nobody knows the discarded card


def test_phil_activation_turn_played_by_election_chairman():
    """RB 2 players ("the rest of the rules apply as normal") with no criteria for Phil's
    activations: on his activation turn the Election chairman activates for him (NOTES 15); as
    Transport he activates two."""
    from tests.rulesets.city_council.helpers import play_until

    for seed in range(30):
        s = play_until(game(2, seed), "activate", seed=seed)
        while s["phase"] == "activate" and s["order"][s["cursor"]] != PHIL:
            m = R.to_act(s)[0]
            s = R.apply(s, m, {"type": "pass"})
        if s["phase"] != "activate":
            continue
        election = s["committee"].index("election")
        assert R.to_act(s) == [election]
        assert s["acts_left"] == (2 if s["committee"][PHIL] == "transport" else 1)
        mv = next((m for m in R.legal_moves(s, election) if m["type"] == "activate"), None)
        if mv is None:
            continue
        text = R.log_text(s, election, mv, None)
        after = R.apply(s, election, mv)
        assert after["activated"][-1]["by"] == PHIL and text.endswith("for Prof. Phil.")
        return
    raise AssertionError("no Phil activation turn found")


def test_phil_as_transport_must_activate_when_he_can():
    """RB Special Rules for 2 Players: Prof. Phil 'must always use the benefits of his committee'.
    As Transport chairman (activate two buildings/zones) his activations cannot be passed while
    something can be activated; on any other committee passing stays allowed (NOTES 15)."""
    from tests.rulesets.city_council.helpers import clone, play_until

    for seed in range(40):
        s = play_until(game(2, seed), "activate", seed=seed)
        while s["phase"] == "activate" and s["order"][s["cursor"]] != PHIL:
            s = R.apply(s, R.to_act(s)[0], {"type": "pass"})
        if s["phase"] != "activate":
            continue
        election = s["committee"].index("election")
        moves = R.legal_moves(s, election)
        if not any(m["type"] in ("activate", "zone") for m in moves):
            continue
        t = clone(s)
        t["committee"][PHIL] = "transport"
        t["committee"][1 - election] = (
            "executive" if s["committee"][PHIL] == "transport" else s["committee"][PHIL]
        )
        assert {"type": "pass"} not in R.legal_moves(t, election)
        u = clone(s)
        u["committee"][PHIL] = "union" if s["committee"][PHIL] != "union" else "executive"
        u["committee"][1 - election] = "transport"
        assert {"type": "pass"} in R.legal_moves(u, election)
        return
    raise AssertionError("no Phil activation turn found")


def test_phil_proposes_first():
    """RB Special Rules for 2 Players: 'At the beginning of the planning phase, the players
    randomly reveal one of Prof. Phil's Favor cards and he will propose a plan based on the
    card.' He proposes before anyone else, whatever his committee: a human earlier in the turn
    order cannot take the tile his card points at ('The same building tile cannot be chosen
    twice in the same turn')."""
    s = clone(game(2, 1))
    _area_with(s, ["Firm", "Diner", "Clinic"])
    diner = s["up"]["S"][1]
    s["budget"] = 7
    s["committee"] = ["transport", "election", "executive"]  # Phil plans last in turn order
    s["order"] = [0, 1, PHIL]
    s["phase"], s["drawn"] = "draw", [None, None, None]
    s["hands"][PHIL] = ["b01"]  # Diner / Restaurant / Shopping Mall: his only card is revealed
    s["last"] = {}
    advance(s)
    assert s["phase"] == "plan" and s["phil_card"] == "b01"
    assert s["plans"][PHIL] == {"kind": "build", "target": diner}
    assert R.to_act(s) == [0]
    targets = {mv["target"] for mv in R.legal_moves(s, 0) if mv["kind"] == "build"}
    assert diner not in targets and targets
