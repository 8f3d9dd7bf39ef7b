"""Dale's placement search tries each cell on one private borough and takes the placement back
(World.try_place, geo.unplace), and simulates once per set of neighbouring tiles: the gains, the
cell chosen and the borough's derived data must be exactly those of a fresh trial per cell."""

from __future__ import annotations

from app.engine.memo import GENERATION, Memo
from app.engine.rng import Rng
from app.rulesets.suburbia import RULESET as R
from app.rulesets.suburbia import dale, geo
from app.rulesets.suburbia.effects import World, trial_world
from app.rulesets.suburbia.hexes import distance, frontier, neighbours
from app.rulesets.suburbia.tables import KINDS


def _positions(seeds: range, moves: int, players: int = 1, options: dict | None = None) -> list[dict]:
    """Games (default: Dale's) after `moves` random moves (or fewer if the game ends first)."""
    options = {"solo_mode": "dale"} if options is None else options
    out = []
    for seed in seeds:
        s = R.setup(players, R.Options.model_validate(options), seed)
        rng = Rng.from_seed(seed, "trials")
        for _ in range(moves):
            if not (acting := R.to_act(s)):
                break
            seat = rng.choice(acting)
            s = R.apply(s, seat, R.random_move(s, seat, rng))
        out.append(s)
    return out


FACE_UP = [k for k in KINDS if k != "lake"]


def _fresh_gain(state: dict, i: int, kind: str, cell: tuple[int, int]) -> tuple[int, int]:
    """The gain of one placement on a fresh copy-on-write trial World (the reference)."""
    _, income, rep, _ = _fresh_tracks(state, i, kind, cell)
    return income - state["p"][i]["income"], rep - state["p"][i]["rep"]


def _fresh_tracks(state: dict, i: int, kind: str, cell: tuple[int, int]) -> tuple[int, ...]:
    """Money, income, reputation and population after a fresh trial placement."""
    w = World(state)
    w.trial = True
    w.place(i, kind, cell, lake=False)
    after = w.players[i]
    return after["money"], after["income"], after["rep"], after["pop"]


def _derived(b: geo.Borough) -> tuple:
    """A Borough's data (the counts as far as asked), for comparison."""
    return (b.occ, b.kinds, b.invest, b.tags, b.counts)


def test_try_place_equals_a_fresh_trial_and_leaves_the_borough_as_it_was():
    """Every cell and several kinds: same gain as a fresh trial; afterwards the private
    borough's tracks, tiles and derived data equal the original's and a recomputed Borough."""
    kinds = [k for k in KINDS if KINDS[k].stack in ("A", "B", "C")][::5]
    for s in _positions(range(6), 25):
        d = s["seats"]
        me = s["p"][d]
        trial = trial_world(World(s), d)
        mine = trial.players[d]
        for kind in kinds:
            for cell in frontier(me["tiles"]):
                assert trial.try_place(d, kind, cell) == _fresh_gain(s, d, kind, cell)
                assert {k: mine[k] for k in ("money", "income", "rep", "pop")} == {
                    k: me[k] for k in ("money", "income", "rep", "pop")
                }
                assert mine["tiles"] == me["tiles"]
                b = geo.borough(mine["tiles"])
                fresh = geo.Borough(mine["tiles"])
                for match in b.counts:
                    fresh.count(match)
                assert _derived(b) == _derived(fresh)
        assert geo.borough(me["tiles"]).front == geo.Borough(me["tiles"]).front


def _reference_cell(state: dict, kind: str) -> tuple[int, int]:
    """Dale's choice with a fresh trial for every cell (the search before the memo)."""
    d = state["seats"]
    taken = geo.occupied(state["p"][d]["tiles"])
    best, choice = None, None
    for cell in frontier(state["p"][d]["tiles"]):
        d_income, d_rep = _fresh_gain(state, d, kind, cell)
        touching = sum(1 for n in neighbours(cell) if n in taken)
        key = (d_income + d_rep, d_rep, touching, -distance(cell))
        if best is None or key > best:
            best, choice = key, cell
    return choice


def test_best_cell_equals_a_fresh_trial_per_cell():
    """Memoised by the neighbouring tiles that matter, the chosen cell is the one a trial per
    cell chooses, for every kind."""
    for s in _positions(range(10), 31):
        for kind in FACE_UP:
            assert dale.best_cell(World(s), s["seats"], kind) == _reference_cell(s, kind)


def test_cells_with_the_same_neighbours_that_matter_place_alike():
    """World.touch_matters: two cells whose neighbours differ only in tiles it says do not
    matter give the same money, income, reputation and population after a face-up placement,
    for every kind, in boroughs with lakes, investments and every player count."""
    games = [(2, {}), (3, {}), (1, {"solo_mode": "lone_architect"}), (1, {"solo_mode": "dale"})]
    shared = 0
    for players, options in games:
        for s in _positions(range(3), 45, players, options):
            for i, p in enumerate(s["p"]):
                taken = geo.occupied(p["tiles"])
                for kind in FACE_UP:
                    matters = World(s).touch_matters(i, kind)
                    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
                    for cell in frontier(p["tiles"]):
                        near = tuple(
                            sorted(
                                k for n in neighbours(cell) if (k := taken.get(n)) is not None and matters[k]
                            )
                        )
                        tracks = _fresh_tracks(s, i, kind, cell)
                        if near in seen:
                            shared += 1
                            assert seen[near] == tracks, (kind, cell, near)
                        seen[near] = tracks
    assert shared > 1000  # the claim was put to the test many times


def test_the_rest_stage_fires_only_what_the_adjacent_stage_fires():
    """touch_matters relies on it: a kind a placement sets off in the rest of the borough is
    also set off when adjacent."""
    for key in geo.FIRES:
        adjacent, rest, _ = geo.FIRES[key]
        assert set(rest) <= set(adjacent)


def test_a_playout_and_dales_search_leave_no_private_borough_filed():
    """The private tiles lists of a finished playout and of Dale's trials are dropped from the
    game's memo (it would keep them alive); asked again, a final borough is derived afresh,
    equal to the one computed from its tiles."""
    for options in ({"solo_mode": "dale"}, {}):
        players = 1 if options else 3
        s = R.setup(players, R.Options.model_validate(options), 5)
        with Memo() as memo:
            end = R.playout(s, Rng.from_seed(5, "trials"))
            assert not any(memo.holds(p["tiles"], "borough") for p in end["p"])
            assert len(memo) <= players  # at most the setup's own lists
            for p in end["p"]:
                b = geo.borough(p["tiles"])
                assert b.front == geo.Borough(list(p["tiles"])).front
                assert b.occ == geo.Borough(p["tiles"]).occ


def _overflow_the_memo() -> list[list[dict]]:
    """File boroughs until the memo's generations have turned twice, as a long game does (the
    lists are returned so that their ids stay taken)."""
    lists: list[list[dict]] = [[] for _ in range(2 * GENERATION + 1)]
    for tiles in lists:
        geo.borough(tiles)
    return lists


def test_a_trial_taken_back_after_the_memo_let_its_borough_go_leaves_the_borough_right():
    """The memo may let a trial's borough go in the middle of the trial (it is bounded): the
    placement is still taken back exactly, from a borough derived afresh."""
    s = _positions(range(1), 25)[0]
    d = s["seats"]
    with Memo() as memo:
        trial = trial_world(World(s), d)
        tiles = trial.players[d]["tiles"]
        for cell in frontier(s["p"][d]["tiles"])[:3]:
            saved = dict(trial.players[d])
            trial.place(d, "farm", cell, lake=False)
            assert memo.holds(tiles, "borough")
            others = _overflow_the_memo()
            assert not memo.holds(tiles, "borough")
            geo.unplace(tiles, cell)
            del others
            trial.players[d].update({k: saved[k] for k in ("money", "income", "rep", "pop")})
            assert tiles == s["p"][d]["tiles"]
            assert _derived(geo.borough(tiles)) == _derived(geo.Borough(tiles))


def test_the_frontier_is_every_empty_off_board_neighbour_in_order():
    """Where a tile may go (RB-S: next to a tile of the borough, not on the Borough Board),
    kept up to date placement by placement and remembered for the starting boroughs: over
    random games at every stage, `Borough.front` is the sorted set worked out from scratch."""
    from app.rulesets.suburbia.tables import BOARD_CELLS

    def from_scratch(tiles):
        taken = {(t["at"][0], t["at"][1]) for t in tiles}
        cells = {(q + dq, r + dr) for q, r in taken for dq, dr in geo.DIRS}
        return sorted([q, r] for q, r in cells - taken - BOARD_CELLS)

    checked = 0
    for players, seed in ((1, 3), (2, 4), (4, 5)):
        s = R.setup(players, R.Options(), seed)
        assert all(geo.borough(p["tiles"]).front == from_scratch(p["tiles"]) for p in s["p"])
        for label in ("a", "b", "c"):  # three random games to the end, fresh boroughs
            end = R.playout(s, Rng.from_seed(seed, "frontier", label))
            for p in end["p"]:
                assert geo.Borough(p["tiles"]).front == from_scratch(p["tiles"])
                checked += 1
        rng = Rng.from_seed(seed, "steps")
        while R.to_act(s):  # the frontier kept up to date move by move (copy-on-write path)
            seat = rng.choice(R.to_act(s))
            s = R.apply(s, seat, R.random_move(s, seat, rng))
            assert all(geo.borough(p["tiles"]).front == from_scratch(p["tiles"]) for p in s["p"])
    assert checked >= 21


def test_a_playout_keeps_every_borough_as_derived_from_scratch():
    """A playout changes its tiles lists and their Boroughs in place, asking for several
    boroughs in turn (found in its memo by identity): played move by move as
    turn.playout plays them, every borough's data equal the ones derived from its tiles afresh,
    the frontier's integer keys and set included, and the playout ends where turn.playout does."""
    from app.rulesets.suburbia import legal, turn

    for players, options in ((4, {}), (3, {}), (1, {"solo_mode": "dale"})):
        for seed in range(2):
            start = R.setup(players, R.Options.model_validate(options), seed)
            # the playout's own memo, as R.playout has: it keeps the boroughs played on
            with Memo() as memo:
                s = turn._copy(start)
                w = World(s, in_place=True)
                rng = Rng.from_seed(seed, "in place")
                while acting := legal.to_act(s):
                    seat = rng.choice(acting)
                    if s["phase"] == "play":
                        move = legal.turn_pick(s, seat, rng)
                    elif s["phase"] in ("discard", "extra_discard"):
                        move = legal.discard_pick(s, seat, rng)
                    else:
                        move = legal.pick(legal._families(s, seat), rng)
                    s = turn.play(s, w, seat, move)
                    for p in s["p"]:
                        kept, fresh = geo.borough(p["tiles"]), geo.Borough(list(p["tiles"]))
                        for match in kept.counts:
                            fresh.count(match)
                        if kept.invest is not None:
                            fresh.investable(p["tiles"])
                        assert kept.front == fresh.front and _derived(kept) == _derived(fresh)
                        assert kept.fkeys == fresh.fkeys and kept.fset == fresh.fset
                        assert kept.fkeys == sorted(kept.fkeys)
                        for match, n in kept.counts.items():  # counted by kind: as tile by tile
                            assert n == len([t for t in kept.tags if not t.isdisjoint(match)])
                assert all(memo.holds(p["tiles"], "borough") for p in s["p"])  # not derived afresh
            assert s == R.playout(start, Rng.from_seed(seed, "in place"))
            for p in s["p"]:
                geo.forget(p["tiles"])
