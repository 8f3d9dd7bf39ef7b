"""End-of-game scoring: feeding, each card's points (a registry of score kinds), coins, empty
squares, and the tie-break keys."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, TypedDict

from app.engine.memo import part
from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.feeding import best_feeding, coins_spent
from app.rulesets.tiny_towns.state import ADJ, CELLS, CENTRE, COL, CORNERS, ROW, built, is_building, right_of


class ScoreParams(TypedDict, total=False):
    """A card's `score` table row (data/*.toml): its kind and the numbers that kind reads."""

    kind: str
    vp: int
    table: list[int]
    better: int
    need: int
    colours: list[str]
    bonus: int
    penalty: int


@dataclass
class Ctx:
    """What a score handler may look at."""

    state: dict[str, Any]
    seat: int
    grid: list[Any]
    fed: set[int]
    coins: list[int]  # every seat's coins after feeding
    counts: list[Counter[str]]  # every seat's building counts
    pl: dict[str, Any]
    rich: bool = False  # Schoolhouse: at least the coins of the player on your right


def _types(grid: list[Any], cells: Any, exclude: int) -> set[str]:
    return {grid[i] for i in cells if i != exclude and is_building(grid[i])}


# No generator expressions in these functions (they score every town the bot weighs): compiled,
# a function holding one allocates a closure on every call. List comprehensions are inlined.


def _fed_cottages(ctx: Ctx, cells: Any) -> int:
    return sum([data.cottage_weight(ctx.grid[i]) for i in cells if i in ctx.fed])


def _flat(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return p["vp"] * len(cells)


def _fed_flat(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    total = 0
    for i in cells:
        unfed_ok = built(ctx.pl, "unfed_cottages_score") and data.cottage_weight(ctx.grid[i]) == 1
        total += p["vp"] if (i in ctx.fed or unfed_ok) else 0
    return total


def _count_table(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    table = p["table"]
    return table[min(len(cells), len(table) - 1)]


def _alone(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum(
        [p["vp"] for i in cells if not any([j != i and ctx.grid[j] == ctx.grid[i] for j in ROW[i] + COL[i]])]
    )


def _more_than_right(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    if not cells:
        return 0
    mine = len(cells)
    theirs = ctx.counts[right_of(ctx.state, ctx.seat)][ctx.grid[cells[0]]]
    better = ctx.state["n"] > 1 and mine > theirs
    return (p["better"] if better else p["vp"]) * mine


def _per_fed_cottage(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return p["vp"] * _fed_cottages(ctx, CELLS) * len(cells)


def _adjacent_fed(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] for i in cells if _fed_cottages(ctx, ADJ[i]) >= p["need"]])


def _not_adjacent_colours(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum(
        [
            p["vp"]
            for i in cells
            if not any(
                [
                    is_building(ctx.grid[j]) and data.card(ctx.grid[j])["colour"] in p["colours"]
                    for j in ADJ[i]
                ]
            )
        ]
    )


def _adjacent_colours(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum(
        [
            p["vp"]
            for i in cells
            if any(
                [
                    is_building(ctx.grid[j]) and data.card(ctx.grid[j])["colour"] in p["colours"]
                    for j in ADJ[i]
                ]
            )
        ]
    )


def _corners(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return p["vp"] * len([i for i in cells if i in CORNERS]) * len(cells)


def _types_in_lines(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] * len(_types(ctx.grid, ROW[i] + COL[i], i) - {ctx.grid[i]}) for i in cells])


def _row_or_col(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    total = 0
    for i in cells:
        in_row = len([j for j in ROW[i] if ctx.grid[j] == ctx.grid[i]])
        in_col = len([j for j in COL[i] if ctx.grid[j] == ctx.grid[i]])
        total += p["vp"] * max(in_row, in_col)
    return total


def _centre(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return (p["vp"] + len([i for i in cells if i in CENTRE])) * len(cells)


def _per_adjacent_cottage(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] * sum([data.cottage_weight(ctx.grid[j]) for j in ADJ[i]]) for i in cells])


def _adjacent_same(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] for i in cells if any([ctx.grid[j] == ctx.grid[i] for j in ADJ[i]])])


def _not_adjacent_same(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] for i in cells if not any([ctx.grid[j] == ctx.grid[i] for j in ADJ[i]])])


def _per_stored(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return p["vp"] * sum([len(ctx.pl["store"].get(str(i), ())) for i in cells])


def _schoolhouse(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] + (p["bonus"] if ctx.rich else 0) for i in cells if _fed_cottages(ctx, ADJ[i]) >= 1])


def _unique_types(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    kinds = {ctx.grid[i] for i in CELLS if is_building(ctx.grid[i]) and not data.is_monument(ctx.grid[i])}
    return p["vp"] * len(kinds) * len(cells)


def _adjacent_types(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum([p["vp"] * len(_types(ctx.grid, ADJ[i], i)) for i in cells])


def _recorded(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    n: int = ctx.pl["flags"].get("shrine", 0)
    return p["table"][min(n, len(p["table"]) - 1)] * len(cells)


def _largest_group(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    best = 0
    seen: set[int] = set()
    for start in CELLS:
        if start in seen or not is_building(ctx.grid[start]):
            continue
        todo, size = [start], 0
        seen.add(start)
        while todo:
            i = todo.pop()
            size += 1
            for j in ADJ[i]:
                if j not in seen and ctx.grid[j] == ctx.grid[start]:
                    seen.add(j)
                    todo.append(j)
        best = max(best, size)
    return (p["vp"] + best) * len(cells)


def _missing(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    have = set(ctx.grid)
    return p["vp"] * len([b for b in ctx.state["buildings"] if b not in have]) * len(cells)


def _completion(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    finish = ctx.state["finish"]
    mine = finish[ctx.seat]
    if mine is None:
        return 0
    place = len([f for f in finish if f is not None and f < mine])
    return (p["table"][place] if place < len(p["table"]) else 0) * len(cells)


def _vineyard(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    return sum(
        [
            (p["vp"] if i in ctx.fed else 0) + p["penalty"] * len(_types(ctx.grid, ROW[i] + COL[i], i))
            for i in cells
        ]
    )


def _hollow(ctx: Ctx, cells: list[int], p: ScoreParams) -> int:
    paid: int = ctx.pl["flags"].get("hollow", 0)  # resources placed for a coin (apply.py)
    return (p["vp"] + p["penalty"] * paid) * len(cells)


SCORE: dict[str, Callable[[Ctx, list[int], ScoreParams], int]] = {
    "flat": _flat,
    "fed_flat": _fed_flat,
    "count_table": _count_table,
    "alone_in_lines": _alone,
    "more_than_right": _more_than_right,
    "per_fed_cottage": _per_fed_cottage,
    "adjacent_fed_cottages": _adjacent_fed,
    "not_adjacent_colours": _not_adjacent_colours,
    "adjacent_colours": _adjacent_colours,
    "per_copy_in_corners": _corners,
    "types_in_lines": _types_in_lines,
    "copies_in_row_or_column": _row_or_col,
    "centre_bonus": _centre,
    "per_adjacent_cottage": _per_adjacent_cottage,
    "adjacent_same": _adjacent_same,
    "not_adjacent_same": _not_adjacent_same,
    "per_stored": _per_stored,
    "schoolhouse": _schoolhouse,
    "unique_types": _unique_types,
    "adjacent_types": _adjacent_types,
    "recorded_at_build": _recorded,
    "largest_group": _largest_group,
    "missing_types": _missing,
    "completion_order": _completion,
    "vineyard": _vineyard,
    "hollow_hill": _hollow,
}


# Score kinds whose points depend on which buildings are fed (what feeding choices can change).
FED_KINDS = frozenset({"fed_flat", "per_fed_cottage", "adjacent_fed_cottages", "schoolhouse", "vineyard"})


def _feeding(state: dict[str, Any], seat: int, coins: list[int], rich: bool) -> tuple[frozenset[int], int]:
    """The player's best legal feeding (feeding.py), kept in the game's memo under what it
    depends on (every viewer's scores ask for it)."""
    pl = state["p"][seat]
    grid = pl["grid"]
    mausoleum = built(pl, "unfed_cottages_score")
    key = ("tiny-towns feeding", tuple(grid), pl["coins"], mausoleum, rich)
    return part(key, _best_feeding, state, seat, coins, rich)


def _best_feeding(
    state: dict[str, Any], seat: int, coins: list[int], rich: bool
) -> tuple[frozenset[int], int]:
    """The search `_feeding` caches (apart from it: its scorer is a closure, which a cache hit
    need not allocate)."""
    pl = state["p"][seat]
    grid = pl["grid"]
    kinds = [
        (cid, [i for i in CELLS if grid[i] == cid])
        for cid in sorted({g for g in grid if is_building(g)})
        if data.card(cid)["score"]["kind"] in FED_KINDS
    ]

    def value(fed: frozenset[int]) -> float:
        ctx = Ctx(state, seat, grid, set(fed), coins, [], pl, rich)
        return sum(
            [
                SCORE[data.card(cid)["score"]["kind"]](ctx, cells, data.card(cid)["score"])
                for cid, cells in kinds
            ]
        )

    return best_feeding(grid, pl["coins"], value)


def score_all(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Per seat: total, each card's points, coins, empty squares, and fed buildings.

    Coins spent on feeding are fixed by the forced-spend rule before any feeding choice
    (feeding.coins_spent), so the Schoolhouse comparison is known when each player's best feeding
    is chosen."""
    spent = [coins_spent(pl["grid"], pl["coins"]) for pl in state["p"]]
    coins = [pl["coins"] - k for pl, k in zip(state["p"], spent)]
    counts = [Counter([g for g in pl["grid"] if is_building(g)]) for pl in state["p"]]
    out = []
    for seat, pl in enumerate(state["p"]):
        grid = pl["grid"]
        rich = coins[seat] >= coins[right_of(state, seat)]
        fed, _ = _feeding(state, seat, coins, rich)
        ctx = Ctx(state, seat, grid, set(fed), coins, counts, pl, rich)
        cards: dict[str, int] = {}
        for cid in counts[seat]:
            cells = [i for i in CELLS if grid[i] == cid]
            sc = data.card(cid)["score"]
            cards[cid] = SCORE[sc["kind"]](ctx, cells, sc)
        empty = len([g for g in grid if not is_building(g)])
        empty_vp = 0 if built(pl, "empty_squares_zero") else -empty
        coin_vp = coins[seat] * (2 if built(pl, "coins_double") else 1)
        total = sum(cards.values()) + empty_vp + coin_vp
        out.append(
            {
                "total": total,
                "cards": cards,
                "coins": coins[seat],
                "coin_vp": coin_vp,
                "coins_spent_feeding": spent[seat],
                "empty_squares": empty,
                "empty_vp": empty_vp,
                "fed": sorted(fed),
            }
        )
    return out


def tie_key(entry: dict[str, Any]) -> tuple[int, ...]:
    """Ranking key (larger is better): score, then fewer empty squares, then more coins left."""
    return (entry["total"], -entry["empty_squares"], entry["coins"])


def solo_rank(score: int) -> str:
    """The solo rank name for a score (rules-data §2.2, CW)."""
    names: list[str] = [r["name"] for r in data.SOLO_RANKS if score >= r["min"]]
    return names[0]
