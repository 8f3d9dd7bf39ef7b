"""Production (RB 3. Production Phase) and Monitoring (RB 4.): Examples 7-11 and the rules for
zones, buildings, specialised and educated workers, pollution, the Playground and the Prison."""

from __future__ import annotations

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.favours import community_count
from tests.rulesets.city_council.helpers import R, build, clear_board, clone, find, game, play_until


def _city():
    """The city of Examples 7, 8 and 10 (layout reconstructed; the examples give no grid)."""
    s = clear_board(game(4))
    s["advanced"] = True
    build(s, "School", [(2, 4), (3, 4)])  # overlaps the Starting Zone (Example 7 A)
    build(s, "Manufacturing Plant", [(3, 5), (3, 6), (4, 5), (4, 6)])
    build(s, "Bank", [(4, 3), (4, 4)])
    build(s, "Diner", [(5, 3)])
    build(s, "Clinic", [(5, 4)])
    build(s, "Firm", [(5, 5)])
    build(s, "Shop", [(3, 2), (3, 3)])
    build(s, "Courthouse", [(1, 3), (1, 4)])  # residential zone 1 only (Example 7 B)
    s.update(budget=7, power=3, community=2, goods=1, crime=0, pollution=0)
    s["house"] = {"B": 8, "W": 3}
    return s


def test_example_7_zone_activation_enables_courthouse():
    """RB Example 7: the School overlapping the Starting Zone can be activated without a zone;
    the Courthouse on an un-activated residential zone cannot, until a player activates that zone
    with a Power token (Power Supply -1) and a Community token."""
    s = _city()
    can = prod.activatable_buildings(s)
    assert find(s, "School") in can and find(s, "Courthouse") not in can
    opts = prod.zone_options(s)
    assert {"type": "zone", "zone": "res1", "token": "section"} in opts
    prod.activate_zone(s, "res1", "section")
    assert s["power"] == 2 and s["community"] == 1
    assert find(s, "Courthouse") in prod.activatable_buildings(s)
    assert all(o["zone"] != "res1" for o in prod.zone_options(s))  # once per turn


def test_example_8_eight_activations():
    """RB Example 8: Bank (Blue + $1), Firm (White), zone, School (3 Blue + $1), Manufacturing
    Plant (2 Blue + the last Goods), Courthouse (judge White + Blue + Community on box 2), Diner,
    Clinic: then no worker is left and the Shop has no Goods, so activation is over."""
    s = _city()
    prod.activate_building(s, 0, find(s, "Bank"), [0])
    prod.activate_building(s, 0, find(s, "Firm"), [0])
    assert s["budget"] == 6 and s["house"] == {"B": 7, "W": 2}
    prod.activate_zone(s, "res1", "section")
    prod.activate_building(s, 2, find(s, "School"), [0])
    assert s["budget"] == 5 and s["house"]["B"] == 4
    prod.activate_building(s, 3, find(s, "Manufacturing Plant"), [0])
    assert s["goods"] == 0 and s["house"]["B"] == 2
    assert prod.box_choices(s, find(s, "Courthouse")) == [[1]]  # no Crime for the prison bars
    prod.activate_building(s, 0, find(s, "Courthouse"), [1])
    prod.activate_building(s, 0, find(s, "Diner"), [0])
    prod.activate_building(s, 1, find(s, "Clinic"), [0])
    assert s["house"] == {"B": 0, "W": 0} and s["community"] == 0
    assert prod.activatable_buildings(s) == {}  # the Shop lacks Goods and a worker


def test_example_10_resolution_to_the_cap():
    """RB Example 10: Diner $1, Firm and Bank $2 each, Courthouse $3 push the budget to the $11
    maximum; the Clinic makes 1 Community; the Manufacturing Plant 3 Goods and 1 Pollution; the
    School turns 2 Blue into a White; workers come home."""
    s = _city()
    for name, boxes in (
        ("Bank", [0]),
        ("Firm", [0]),
        ("School", [0]),
        ("Manufacturing Plant", [0]),
        ("Diner", [0]),
        ("Clinic", [0]),
    ):
        prod.activate_building(s, 0, find(s, name), boxes)
    prod.activate_zone(s, "res1", "section")
    prod.activate_building(s, 0, find(s, "Courthouse"), [1])
    assert s["budget"] == 5
    prod.resolve(s)
    assert s["budget"] == 11  # 5 + 1 + 2 + 2 + 3 = 13, capped at $11
    assert s["community"] == 1 and s["goods"] == 3 and s["pollution"] == 1
    assert s["house"] == {"B": 6, "W": 4}  # 2 Blue educated away, 1 White arrived
    assert prod.reserve(s, "B") == 9 and prod.reserve(s, "W") == 3


def test_example_9_unemployment():
    """RB Example 9: two Blue Collar workers left unemployed add 1 Crime; no unemployed White
    Collar workers brings a new White Collar worker from the reserve."""
    s = game(3)
    s["house"] = {"B": 2, "W": 0}
    prod.unemployment(s)
    assert s["crime"] == 1 and s["house"] == {"B": 2, "W": 1}


def test_example_11_lifestyle():
    """RB Example 11: 1 Community against 1 Crime + 1 Pollution is +1 on the red/black side: the
    city loses 1 Community token."""
    s = clear_board(game(3))
    s.update(community=1, crime=1, pollution=1)
    report = prod.lifestyle(s)
    assert report["index"] == 1 and s["community"] == 0


def test_idle_blue_workers_leave_the_city():
    """RB Production B ('how many workers will arrive to or leave the city, and how unemployment
    affects crime'), with the reconstructed Blue side as adjusted after simulation (NOTES Change
    2, rules review item 8): 4 idle Blue workers add 1 Crime and one of them leaves the city; 5
    or more add 2 Crime and one leaves, and no Community token is lost."""
    for idle, crime in ((4, 1), (6, 2)):
        s = clear_board(game(3))
        s["house"] = {"B": idle, "W": 1}
        s["community"] = 2
        prod.unemployment(s)
        assert s["crime"] == crime and s["house"]["B"] == idle - 1 and s["community"] == 2


def test_power_plants_need_no_zone():
    """RB Activating a Building: power plants produce without an activated zone; Solar makes 2
    Power from a Blue and a White."""
    s = clear_board(game(3))
    s["advanced"] = True
    solar = build(s, "Solar Power Plant", [(0, 6), (0, 7)])
    diner = build(s, "Diner", [(3, 0)])
    can = prod.activatable_buildings(s)
    assert solar in can and diner not in can
    power = s["power"]
    prod.activate_building(s, 0, solar, [0])
    prod.resolve(s)
    assert s["power"] == power + 2


def test_either_or_and_once_per_turn():
    """RB '/' boxes: only one of the two; a building activated once cannot be activated again by
    anyone this turn (RB Activating a Building)."""
    s = clear_board(game(3))
    police = build(s, "Police Station", [(4, 4)])
    s["crime"] = 2
    assert sorted(prod.box_choices(s, police)) == [[0], [1]]
    prod.activate_building(s, 0, police, [1])
    assert police not in prod.activatable_buildings(s)
    prod.resolve(s)
    assert s["crime"] == 1  # the X removes a Crime token


def test_specialised_worker_once():
    """RB Specialized Workers: one pilot enables both Airport boxes; each box still needs its
    White and Blue; the Airport adds Pollution when activated."""
    s = clear_board(game(3))
    airport = build(s, "Airport", [(3, 3), (4, 3), (5, 3), (5, 4)])
    s["house"] = {"B": 2, "W": 3}
    assert [0, 1] in prod.box_choices(s, airport)
    s["house"] = {"B": 2, "W": 2}
    assert [0, 1] not in prod.box_choices(s, airport) and [0] in prod.box_choices(s, airport)
    prod.activate_building(s, 0, airport, [0])
    assert s["house"] == {"B": 1, "W": 0}
    prod.resolve(s)
    assert s["pollution"] == 1 and s["house"] == {"B": 2, "W": 2}


def test_incarceration_without_prison():
    """RB prison bars: a correctional building takes a Crime token from the section; without a
    Prison it goes back to the reserve when resolved."""
    s = clear_board(game(3))
    court = build(s, "Courthouse", [(4, 4), (4, 5)])
    s["crime"] = 2
    s["house"]["W"] = 1
    prod.activate_building(s, 0, court, [0])
    assert s["crime"] == 1
    prod.resolve(s)
    assert s["crime"] == 1 and prod.reserve(s, "crime") == 6


def test_prison_and_overcrowding():
    """RB Prison: incarcerated Crime goes to the Prison's first box; activating box 1 moves it to
    box 2, box 2 returns it to the reserve; an arriving token pushes earlier ones right and out
    (overcrowding); the Prison cannot run without a token; prison Crime is not on the section."""
    s = clear_board(game(3))
    s["advanced"] = True
    prison = build(s, "Prison", [(3, 3), (3, 4), (4, 3), (4, 4)])
    fbi = build(s, "FBI Branch", [(5, 3), (5, 4)])
    assert prison not in prod.activatable_buildings(s)
    s["crime"] = 4
    s["house"] = {"B": 3, "W": 3}
    prod.activate_building(s, 0, fbi, [0])
    prod.resolve(s)
    assert s["buildings"][prison]["prison"] == [1, 0] and s["crime"] == 2
    s["activated"] = []
    assert prod.box_choices(s, prison) == [[0]]
    prod.activate_building(s, 0, prison, [0])
    prod.activate_building(s, 0, fbi, [0])
    prod.resolve(s)
    assert s["buildings"][prison]["prison"] == [1, 1]
    s["activated"] = []
    police = build(s, "Police Station", [(5, 5)])
    prod.activate_building(s, 0, police, [0])
    prod.resolve(s)  # pushes: box 1 -> box 2, box 2 -> out
    assert s["buildings"][prison]["prison"] == [1, 1]
    s["activated"] = []
    prod.activate_building(s, 0, prison, [1])
    prod.resolve(s)
    assert s["buildings"][prison]["prison"] == [1, 0] and s["prison_freed"] == 1


def test_playground_token():
    """RB Playground: a Community token from the reserve lies on it while built, counts in the
    monitoring and can activate its zone, then is not counted that turn."""
    s = clear_board(game(3))
    s["advanced"] = True
    pg = build(s, "Playground", [(1, 4)], token=True)
    assert community_count(s) == s["community"] + 1
    s["community"] = 0
    assert {"type": "zone", "zone": "res1", "token": pg} in prod.zone_options(s)
    prod.activate_zone(s, "res1", pg)
    assert community_count(s) == 0


def test_educating_workers_to_reserve():
    """RB Educating Workers: Blue workers marked X become the White worker on the right and go to
    the reserve instead of home."""
    s = clear_board(game(3))
    school = build(s, "School", [(4, 4), (4, 5)])
    s["house"] = {"B": 3, "W": 0}
    prod.activate_building(s, 0, school, [0])
    prod.resolve(s)
    assert s["house"] == {"B": 1, "W": 1}


def test_defeat_all_crime_on_section():
    """RB Defeat: when all Crime tokens are on the section the game ends at once: all lose."""
    s = clear_board(game(3))
    s["crime"] = 6
    prod.add_crime(s, 1)
    assert s["phase"] == "over" and s["defeat"] == "crime"
    out = R.outcome(s)
    assert out.to_json()["winners"] == [] and out.extra["defeat"] == "crime"


def test_defeat_all_pollution():
    """RB Defeat: all Pollution tokens on their section ends the game, everyone loses."""
    s = clear_board(game(3))
    s["pollution"] = 6
    prod.add_pollution(s, 2)
    assert s["pollution"] == 7 and s["defeat"] == "pollution"


def test_transport_activates_two():
    """RB Transport Committee: plays first and activates two buildings/zones on his turn."""
    s = play_until(game(5, 4), "activate", seed=3)
    t = s["order"][0]
    assert s["committee"][t] == "transport" and R.to_act(s) == [t] and s["acts_left"] == 2
    mv = next(m for m in R.legal_moves(s, t) if m["type"] != "pass")
    s2 = R.apply(clone(s), t, mv)
    assert s2["phase"] == "activate"
    assert R.to_act(s2) == [t] and s2["acts_left"] == 1
    s3 = R.apply(s2, t, {"type": "pass"})
    assert s3["phase"] != "activate" or R.to_act(s3) != [t]


def test_police_station_box_chosen_by_election_chairman():
    """RB Specialized Workers: the Police Station does either the prison-bars action or the X
    action, and the Election Committee chairman decides which one."""
    s = clone(play_until(game(3, 4), "activate", seed=3))
    actor = s["order"][s["cursor"]]
    election = s["committee"].index("election")
    if actor == election:  # seat someone else on the Election Committee
        other = next(m for m in range(3) if m != actor)
        s["committee"][actor], s["committee"][other] = s["committee"][other], s["committee"][actor]
        election = other
    free = next(
        (r, c)
        for r in range(3, 6)
        for c in range(3, 6)
        if (r, c) not in {tuple(x) for b in s["buildings"].values() for x in b["cells"]}
    )
    police = build(s, "Police Station", [free])
    s["crime"], s["house"]["B"] = 2, max(s["house"]["B"], 1)
    moves = [m for m in R.legal_moves(s, actor) if m.get("building") == police]
    assert moves == [{"type": "activate", "building": police, "chair": True}]
    s2 = R.apply(s, actor, moves[0])
    assert R.to_act(s2) == [election]
    assert sorted(m["boxes"] for m in R.legal_moves(s2, election)) == [[0], [1]]
    s3 = R.apply(s2, election, {"type": "police", "boxes": [1]})
    assert s3["activated"][-1]["b"] == police and s3["activated"][-1]["boxes"] == [1]
    assert s3["activated"][-1]["by"] == actor
    own = clone(s)
    own["committee"][actor], own["committee"][election] = own["committee"][election], own["committee"][actor]
    assert sorted(m["boxes"] for m in R.legal_moves(own, actor) if m.get("building") == police) == [[0], [1]]


def test_money_box_needs_a_money_token():
    """RB Example 8 / Components: a box costing $1 takes one of the 7 Money tokens from the
    reserve; with every token held as private funds the Bank cannot run."""
    s = clear_board(game(3))
    bank = build(s, "Bank", [(4, 4), (4, 5)])
    s["budget"] = 5
    assert prod.box_choices(s, bank) == [[0]]
    s["funds"] = [4, 3, 0]
    assert prod.box_choices(s, bank) == []


def test_one_money_token_marks_the_city_budget():
    """RB Setup: the City Budget is set 'by placing a Money token' on its track, so only 6 of the
    7 Money tokens (RB Components) can be private funds or go on action boxes: with 6 held as
    funds the Bank's $1 box cannot run and the Treasury chairman cannot embezzle."""
    from app.rulesets.city_council.committees import can_embezzle

    s = clear_board(game(3))
    bank = build(s, "Bank", [(4, 4), (4, 5)])
    s["budget"] = 5
    s["funds"] = [3, 2, 0]
    assert prod.box_choices(s, bank) == [[0]]
    assert can_embezzle(s)
    s["funds"] = [4, 2, 0]
    assert prod.box_choices(s, bank) == []
    assert not can_embezzle(s)


def test_zone_once_per_turn_and_no_power_no_zone():
    """RB Activating a Zone / Buildings, Zones & Electricity: a zone takes a Power token (Power
    Supply -1) and a Community token, can be activated only once per turn, and with the Power
    Supply at 0 no more zones may be activated."""
    s = clear_board(game(3))
    s["advanced"] = True
    build(s, "Diner", [(3, 0)])
    zone = next(
        z
        for z in prod.ZONES
        if z not in ("start", "lake") and any(z in prod.zones_of(b) for b in s["buildings"].values())
    )
    s.update(power=1, community=2)
    opts = prod.zone_options(s)
    assert {"type": "zone", "zone": zone, "token": "section"} in opts
    prod.activate_zone(s, zone, "section")
    assert s["power"] == 0 and s["community"] == 1
    assert not [o for o in prod.zone_options(s) if o["zone"] == zone]
    s["zones_on"] = {}
    assert prod.zone_options(s) == []  # Power Supply empty


def test_prison_crime_not_counted_by_lifestyle():
    """RB Prison: 'Crime tokens that are placed on the Prison tile are not counted in the
    monitoring phase' — the Lifestyle index counts only the Criminal Activity section."""
    s = clear_board(game(3))
    s["advanced"] = True
    prison = build(s, "Prison", [(0, 6), (0, 7), (0, 8), (1, 8)])
    s.update(crime=1, pollution=0, community=1)
    s["buildings"][prison]["prison"] = [1, 1]
    assert prod.lifestyle(s)["index"] == 0


def _activations(players, seed, key):
    """(before, after, put) for each move of a random game that puts `key` on a building's boxes."""
    from tests.rulesets.city_council.helpers import random_states

    states = random_states(players, seed, 600)
    for (_, _, before), (_, _, after) in zip(states, states[1:]):
        old = len(before["activated"]) if before["activated"] is not after["activated"] else None
        new = [r for r in after["activated"][old or 0 :] if not r.get("resolved") and r["put"].get(key)]
        if old is not None and len(after["activated"]) == old + 1 and new:
            yield before, after, new[0]["put"]


def test_a_criminal_put_on_a_jail_box_moves_off_the_track_but_not_into_the_reserve():
    """RB Production: a jail box takes a Crime token off the crime track onto the building; the
    token is not back in the reserve until the box is resolved, so the reserve stays the same."""
    checked = 0
    for seed in range(8, 20):  # random games until one puts a Crime token on a jail box
        for before, after, put in _activations(3, seed, "jail"):
            if after["prison_freed"] == before["prison_freed"]:
                assert after["crime"] == before["crime"] - put["jail"]
                assert prod.reserve(after, "crime") == prod.reserve(before, "crime")
                checked += 1
        if checked:
            break
    assert checked


def test_blue_workers_sent_to_any_box_still_count_as_the_citys():
    """Favour metrics: Blue workers put to work, on a plain or an 'X' box, leave the houses but
    stay in the city's count (city_B), which equals every Blue worker not in the reserve."""
    from app.rulesets.city_council.favours import metrics
    from app.rulesets.city_council.tables import TOKENS

    checked = 0
    for seed in range(1, 9):  # random games until one puts a worker on an 'X' box
        for before, after, _put in _activations(2, seed, "BX"):
            assert metrics(after)["city_B"] == metrics(before)["city_B"]
            assert metrics(after)["city_B"] == TOKENS["B"] - prod.reserve(after, "B")
            checked += 1
        if checked:
            break
    assert checked


def test_the_production_report_keeps_the_unemployment_step_for_the_table():
    """RB Production B: once a production has run, its report (shown on the table as
    'Unemployment: n Blue and m White left in housing') carries the unemployment step: the
    workers left in housing and the monitor effects they chose."""
    from tests.rulesets.city_council.helpers import random_states

    checked = 0
    for _, _, s in random_states(3, 8, 600):
        report = s.get("report")
        if report and report.get("lifestyle") is not None:
            step = report["unemployment"]
            assert set(step) == {"W", "B", "white", "blue"}
            assert step["W"] >= 0 and step["B"] >= 0
            checked += 1
    assert checked


def test_a_prison_box_is_offered_only_with_its_cell_occupied():
    """RB Prison: a box whose input is a prisoner in cell n can be chosen only while cell n holds
    a criminal: with every pattern of occupied cells, every offered box choice respects that."""
    from app.rulesets.city_council.tables import kind_of
    from tests.rulesets.city_council.helpers import build, clone, game

    checked = 0
    base = clone(game(3, 5))
    base["advanced"] = True
    bid = build(base, "Prison", [(3, 4), (3, 5), (4, 4), (4, 5)])
    base["house"]["B"] = 4
    boxes = kind_of(base["buildings"][bid]).boxes
    for cells in ([0, 0], [1, 0], [0, 1], [1, 1]):
        s = clone(base)
        s["buildings"][bid]["prison"] = list(cells)
        offered = prod.box_choices(s, bid)
        for choice in offered:
            for i in choice:
                cell = boxes[i].inputs.get("prison")
                if cell:
                    assert cells[cell - 1], (choice, cells)
                    checked += 1
        assert bool(offered) == any(cells)
    assert checked
