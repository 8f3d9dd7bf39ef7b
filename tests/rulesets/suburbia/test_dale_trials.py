"""Dale's placement search tries each cell on one private borough and takes the placement back
(World.try_place, geo.unplace), and simulates once per set of neighbouring tiles: the gains, the
cell chosen and the borough's derived data must be exactly those of a fresh trial per cell."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.suburbia import RULESET as R
from app.rulesets.suburbia import dale, geo
from app.rulesets.suburbia.effects import World, trial_world
from app.rulesets.suburbia.hexes import distance, frontier, neighbours
from app.rulesets.suburbia.tables import KINDS


def _positions(seeds: range, moves: int) -> list[dict]:
    """Dale games after `moves` random moves (or fewer if the game ends first)."""
    out = []
    for seed in seeds:
        s = R.setup(1, R.Options.model_validate({"solo_mode": "dale"}), seed)
        rng = Rng.from_seed(seed, "trials")
        for _ in range(moves):
            if not R.to_act(s):
                break
            s = R.apply(s, 0, R.random_move(s, 0, rng))
        out.append(s)
    return out


def _fresh_gain(state: dict, i: int, kind: str, cell: tuple[int, int]) -> tuple[int, int]:
    """The gain of one placement on a fresh copy-on-write trial World (the reference)."""
    w = World(state)
    w.trial = True
    before = state["p"][i]
    w.place(i, kind, cell, lake=False)
    after = w.players[i]
    return after["income"] - before["income"], after["rep"] - before["rep"]


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
                assert {k: mine[k] for k in ("money", "income", "rep", "pop")} == \
                    {k: me[k] for k in ("money", "income", "rep", "pop")}
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
    """Memoised by neighbouring tiles, the chosen cell is the one a trial per cell chooses."""
    for s in _positions(range(10), 31):
        for kind in [k for k in KINDS if KINDS[k].stack in ("A", "B", "C")][::3]:
            assert dale.best_cell(World(s), s["seats"], kind) == _reference_cell(s, kind)


def test_a_playout_and_dales_search_leave_no_private_borough_filed():
    """The private tiles lists of a finished playout and of Dale's trials are dropped from the
    borough cache (it would keep them alive); asked again, a final borough is derived afresh,
    equal to the one computed from its tiles."""
    for options in ({"solo_mode": "dale"}, {}):
        players = 1 if options else 3
        s = R.setup(players, R.Options.model_validate(options), 5)
        geo._BOROUGHS.clear()
        end = R.playout(s, Rng.from_seed(5, "trials"))
        assert not any(entry[0] is p["tiles"] for p in end["p"] for entry in geo._BOROUGHS.values())
        assert len(geo._BOROUGHS) <= players  # at most the setup's own lists
        for p in end["p"]:
            b = geo.borough(p["tiles"])
            assert b.front == geo.Borough(list(p["tiles"])).front and b.occ == geo.Borough(p["tiles"]).occ
