"""Committees phase (RB 1. Committees Phase): assignment, A/B limit, each committee's power."""

from __future__ import annotations

from app.rulesets.city_council.committees import committee_options
from tests.rulesets.city_council.helpers import R, clone, game

PURPLE, ORANGE, GRAY, YELLOW = 0, 1, 2, 3


def _seated(s, committees, streak, turn=3):
    s = clone(s)
    s["committee"] = list(committees)
    s["streak"] = list(streak)
    s["turn"] = turn
    return s


def test_first_turn_election_chairman_seats_everyone():
    """RB Committees: in the first turn the Election chairman chooses everyone else's committee."""
    s = game(4, 3)
    moves = R.legal_moves(s, s["decider"])
    assert len(moves) == 24  # 3 others on 4 free committees
    for m in moves:
        seats = m["type"] == "committees" and m["seats"]
        assert seats[s["decider"]] == "election"
        assert len({c for c in seats if c}) == 4
    assert R.legal_moves(s, (s["decider"] + 1) % 4) == []


def test_example_1_least_disruptive_change():
    """RB Example 1 (first part): orange has chaired Treasury for two turns (spot B) and must
    move; the least disruptive change moves only him, to the empty Transport Committee."""
    s = _seated(game(4), ["election", "treasury", "executive", "union"], [1, 2, 1, 1])
    opts = committee_options(s)
    assert opts == [["election", "transport", "executive", "union"]]


def test_example_1_three_must_move():
    """RB Example 1 (second part): purple, gray and yellow are on spot B; gray goes to Treasury
    and purple swaps with yellow on Union; orange is not moved (fewest changes)."""
    s = _seated(game(4), ["election", "transport", "executive", "union"], [2, 1, 2, 2], turn=4)
    opts = committee_options(s)
    assert ["union", "transport", "treasury", "election"] in opts
    for a in opts:
        assert a[ORANGE] == "transport"
        assert sum(1 for m in range(4) if a[m] != s["committee"][m]) == 3
        assert "election" in a


def test_at_least_one_change_and_five_players_swap():
    """RB Committees: at least one change every turn; with 5 players there is no empty spot, so
    the least change is one swap (two players move)."""
    s = _seated(game(5), ["transport", "treasury", "election", "union", "executive"], [1] * 5)
    opts = committee_options(s)
    assert opts and all(sum(1 for m in range(5) if a[m] != s["committee"][m]) == 2 for a in opts)


def test_phil_never_chairs_election():
    """RB 2 players: Prof. Phil is assigned a committee like a player but never the Election."""
    s = _seated(game(2), ["election", "union", "treasury"], [2, 1, 1])
    opts = committee_options(s)
    assert opts and all(a[2] != "election" for a in opts)
    assert all(a[0] != "election" for a in opts)  # purple was on B


def test_counters_a_then_b():
    """RB Committees: the token goes to A after a first turn in a committee and to B after a
    second; a moved member starts again."""
    s = game(3, 1)
    d = s["decider"]
    s = R.apply(s, d, R.legal_moves(s, d)[0])
    assert s["streak"] == [0, 0, 0]
    assert s["turn"] == 1


def test_turn_order_follows_committees():
    """RB Committees: Transport plays first, then Treasury, Election, Union, Executive."""
    s = game(3, 2)
    d = s["decider"]
    others = [m for m in range(3) if m != d]
    seats = [None] * 3
    seats[d] = "election"
    seats[others[0]] = "executive"
    seats[others[1]] = "transport"
    s = R.apply(s, d, {"type": "committees", "seats": seats})
    assert s["order"] == [others[1], d, others[0]]


def test_treasury_embezzles_one_dollar():
    """RB Treasury Committee: embezzle $1 from the City Budget into private funds, or decline."""
    s = game(3, 2)
    d = s["decider"]
    others = [m for m in range(3) if m != d]
    seats = [None] * 3
    seats[d], seats[others[0]], seats[others[1]] = "election", "treasury", "union"
    s = R.apply(s, d, {"type": "committees", "seats": seats})
    assert s["phase"] == "treasury" and R.to_act(s) == [others[0]]
    after = R.apply(s, others[0], {"type": "embezzle"})
    assert after["budget"] == s["budget"] - 1 and after["funds"][others[0]] == 1
    declined = R.apply(s, others[0], {"type": "decline"})
    assert declined["budget"] == s["budget"] and declined["phase"] == "draw"


def test_union_keeps_both_cards():
    """RB Union Committee: everyone draws 2 and keeps one; the Union chairman may keep both."""
    s = game(3, 2)
    d = s["decider"]
    others = [m for m in range(3) if m != d]
    seats = [None] * 3
    seats[d], seats[others[0]], seats[others[1]] = "election", "union", "transport"
    s = R.apply(s, d, {"type": "committees", "seats": seats})
    assert s["phase"] == "draw" and sorted(R.to_act(s)) == [0, 1, 2]
    union_moves = R.legal_moves(s, others[0])
    assert any(len(m["cards"]) == 2 for m in union_moves)
    assert all(len(m["cards"]) == 1 for m in R.legal_moves(s, d))
    both = next(m for m in union_moves if len(m["cards"]) == 2)
    s2 = R.apply(s, others[0], both)
    assert len(s2["hands"][others[0]]) == 4
    one = R.legal_moves(s2, d)[0]
    s3 = R.apply(s2, d, one)
    assert len(s3["hands"][d]) == 3 and len(s3["fdiscard"]) == 1


def test_single_answer_taken_at_once():
    """Table rule (docs/UX.md, no busywork) on RB Example 1: when the committee rules leave the
    Election chairman a single possible change, it is made at once and reported in `last.auto`."""
    from app.rulesets.city_council.phases import advance

    s = _seated(game(4), ["election", "treasury", "executive", "union"], [1, 2, 1, 1])
    s["decider"], s["phase"], s["last"] = PURPLE, "committees", {}
    advance(s)
    assert s["committee"] == ["election", "transport", "executive", "union"]
    assert s["phase"] != "committees"
    assert s["last"]["auto"][0] == {"seat": PURPLE, "move": {"type": "committees", "seats": s["committee"]}}


def test_single_vote_target_taken_at_once():
    """RB Voting with one other plan on the table: the Delegate can only go there, so it does."""
    from app.rulesets.city_council.council import available_tiles
    from app.rulesets.city_council.phases import advance

    s = clone(game(3))
    s["committee"] = ["transport", "treasury", "election"]
    s["order"], s["phase"], s["cursor"], s["last"] = [0, 1, 2], "vote", 0, {}
    t1, t2 = available_tiles(s)[:2]
    s["plans"] = [{"kind": "build", "target": t1}, {"kind": "build", "target": t2}, {"kind": "none"}]
    advance(s)
    assert s["delegates"][0] == 1 and s["delegates"][1] == 0
    assert [a["move"]["plan"] for a in s["last"]["auto"]] == [1, 0]


def _every_permutation(s):
    """The Committees-phase rule written out plainly (every permutation of the committees, kept
    when it has the fewest changes, at least one, every B member moving, Election filled and
    never chaired by Prof. Phil): the reference `committee_options` must match, order included."""
    from itertools import permutations

    from app.rulesets.city_council.tables import COMMITTEES

    members, best, low = s["members"], [], None
    for combo in permutations(COMMITTEES, members):
        if "election" not in combo or (s["phil"] and combo[s["players"]] == "election"):
            continue
        changes = sum(1 for m in range(members) if combo[m] != s["committee"][m])
        if changes == 0 or any(s["streak"][m] >= 2 and combo[m] == s["committee"][m] for m in range(members)):
            continue
        if low is None or changes < low:
            low, best = changes, []
        if changes == low:
            best.append(list(combo))
    return best


def test_committee_options_match_the_rule_for_every_seating():
    """RB Committees phase: for every seating of 3 (Prof. Phil included), 3, 4 and 5 members and
    every pattern of members on spot B, the options listed (searched by number of changes) are
    exactly the rule's, in the same order."""
    from itertools import permutations

    from app.rulesets.city_council.tables import COMMITTEES

    for players in (2, 3, 4, 5):
        base = game(players, 1)
        members = base["members"]
        for seating in permutations(COMMITTEES, members):
            if "election" not in seating or (base["phil"] and seating[players] == "election"):
                continue
            for pattern in range(1 << members):
                streak = [2 if pattern >> m & 1 else 1 for m in range(members)]
                s = _seated(base, list(seating), streak)
                assert committee_options(s) == _every_permutation(s), (seating, streak)
