"""Feeding is chosen for the player (NOTES decision 33), and the choice is the best one for them:
checked against an independent brute force of every legal feeding (RB-F Root Cellar, Little Barn,
Feeding: coins must be spent while any unfed building can be fed), plus scenarios where the old
greedy allocation was worse for the player."""

from __future__ import annotations

import random
from itertools import combinations

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.scoring import SCORE, Ctx, score_all
from app.rulesets.tiny_towns.state import ADJ, CELLS, COL, RING, ROW, is_building
from tests.rulesets.tiny_towns.helpers import new_game, score, town, with_player

E = ". . . ."
CARDS = [
    "cottage",
    "farm",
    "granary",
    "greenhouse",
    "orchard",
    "root_cellar",
    "little_barn",
    "chapel",
    "temple",
    "parsonage",
    "schoolhouse",
    "tavern",
]


def _state(grid, coins, other_coins=0, monument="starloom", built=False):
    st = new_game(
        2,
        buildings=["cottage", "farm", "tavern", "chapel", "theater", "well", "factory"],
        monuments=[monument, "starloom"],
    )
    st = with_player(st, 0, grid, coins=coins, built_monument=built)
    return with_player(st, 1, [None] * 16, coins=other_coins)


# ------------------------------------------------------------ independent brute force


def _groups(cells):
    left, out = set(cells), []
    while left:
        todo = [left.pop()]
        g = set(todo)
        while todo:
            for j in ADJ[todo.pop()]:
                if j in left:
                    left.discard(j)
                    g.add(j)
                    todo.append(j)
        out.append(frozenset(g))
    return out


def _outcomes(grid, coins):
    """Every (fed set, coins left) a player may legally end with."""
    targets = frozenset(i for i in CELLS if data.is_feedable(grid[i]))
    fed = set()
    greenhouses = slots = 0
    lines = pairs = False
    for i in CELLS:
        cid = grid[i]
        if cid == "granary":
            fed |= set(RING[i])
        elif cid == "orchard":
            fed |= set(ROW[i]) | set(COL[i])
        elif cid == "little_barn":
            fed |= set(ADJ[i])
            pairs = True
        elif cid == "greenhouse":
            greenhouses += 1
        elif cid == "farm":
            slots += 4
        elif cid == "root_cellar":
            lines = True
    starts = {frozenset(fed) & targets}
    for _ in range(greenhouses):  # each Greenhouse feeds one group (or nothing)
        starts = {s | g for s in starts for g in [frozenset(), *_groups(targets)]}
    after_farms = set()
    for s in starts:
        unfed = sorted(targets - s)
        for k in range(min(slots, len(unfed)) + 1):
            after_farms |= {s | frozenset(c) for c in combinations(unfed, k)}
    out = set()
    line_sets = [frozenset(ROW[i]) for i in (0, 4, 8, 12)] + [frozenset(COL[i]) for i in range(4)]
    seen = set()

    def spend(f, c):
        if (f, c) in seen:
            return
        seen.add((f, c))
        unfed = targets - f
        actions = []
        if c > 0 and unfed:
            if lines:
                actions += [f | (ln & unfed) for ln in line_sets if ln & unfed]
            if pairs:
                actions += [f | {a} for a in unfed] + [f | set(p) for p in combinations(unfed, 2)]
        if not actions:  # nothing more can be fed (or no coins): the player may stop
            out.add((f, c))
            return
        for nf in actions:  # spending is forced while something can be fed
            spend(frozenset(nf), c - 1)

    for s in after_farms:
        spend(s, coins)
    return out


def _total(st, fed, left):
    pl = st["p"][0]
    grid = pl["grid"]
    coins = [left, st["p"][1]["coins"]]
    ctx = Ctx(st, 0, grid, set(fed), coins, [], pl, coins[0] >= coins[1])
    total = 0
    for cid in {g for g in grid if is_building(g)}:
        cells = [i for i in CELLS if grid[i] == cid]
        sc = data.card(cid)["score"]
        total += SCORE[sc["kind"]](ctx, cells, sc)
    return total + left - sum(1 for g in grid if not is_building(g))


def _random_town(rng):
    grid = [None] * 16
    cells = rng.sample(range(16), rng.randint(5, 12))
    cottages = rng.randint(2, 7)
    for n, c in enumerate(cells):
        grid[c] = "cottage" if n < cottages else rng.choice(CARDS[1:])
    return grid


def test_automatic_feeding_is_the_players_best_legal_feeding():
    """Feeding (RB-F, NOTES 33): on 300 random towns with every feeder, coin feeder and
    fed-dependent scorer, the automatic feeding scores exactly the best total any legal feeding
    (Greenhouse groups, Farm picks, Root Cellar lines, Little Barn pairs, forced spending) gives."""
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        grid = _random_town(rng)
        coins, other = rng.randint(0, 5), rng.randint(0, 3)
        st = _state(grid, coins, other)
        best = max(_total(st, f, c) for f, c in _outcomes(grid, coins))
        ours = score_all(st)[0]
        assert ours["total"] == best, (grid, coins, other)
        assert (frozenset(ours["fed"]), ours["coins"]) in _outcomes(grid, coins), (grid, coins)
        checked += any(g in ("root_cellar", "little_barn") for g in grid) and coins > 0
    assert checked > 50


def test_root_cellar_line_choice_favours_the_temple():
    """Root Cellar (RB-F: you choose which rows or columns to feed): with 1 coin, the column whose
    single Cottage completes a Temple (3 + 4 VP) beats the row with 2 Cottages (6 VP)."""
    grid = town("cottage cottage . .", ". . . .", "cottage temple cottage .", "granary . . root_cellar")
    b = score(_state(grid, 1))
    assert b["coins_spent_feeding"] == 1 and b["coins"] == 0
    assert b["fed"] == [8, 10] and b["cards"]["temple"] == 4 and b["cards"]["cottage"] == 6


def test_little_barn_short_of_coins_feeds_the_cottages_worth_most():
    """Little Barn (RB-F: if you do not have enough coin to feed all your buildings, you can choose
    which ones remain unfed): 1 coin feeds the 2 Cottages next to the Temple (3 + 3 + 4 VP)."""
    grid = town("little_barn . . .", ". . . cottage", "cottage . cottage temple", ". cottage . cottage")
    b = score(_state(grid, 1))
    assert b["coins"] == 0 and b["cards"]["temple"] == 4 and b["cards"]["cottage"] == 6
    assert len({7, 10, 15} & set(b["fed"])) == 2


def test_forced_spend_feeds_everything_at_the_lowest_cost():
    """Root Cellar + Little Barn (RB-F: you must spend coins while you can feed): everything that
    can be fed is fed, and by the cheapest mix of lines and pairs, so the player keeps the most
    coins (here row 1 for 3 Cottages + 1 pair for the last one: 2 of 4 coins; the Cottage next
    to the Little Barn is fed for free)."""
    grid = town("cottage cottage cottage root_cellar", ". . . .", "cottage . . little_barn", ". . . cottage")
    b = score(_state(grid, 4))
    assert b["cards"]["cottage"] == 15 and b["coins_spent_feeding"] == 2 and b["coins"] == 2


def test_no_coin_feeder_keeps_coins():
    """Feeding (RB-F): without a Root Cellar or Little Barn coins cannot feed, so none are spent."""
    b = score(_state(town("cottage . . .", E, E, E), 3))
    assert b["coins_spent_feeding"] == 0 and b["coins"] == 3 and b["cards"]["cottage"] == 0
