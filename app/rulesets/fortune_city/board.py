"""A player's board as the rules read it: city squares and their neighbours, where a tile may be
built, who may be hired where, where the truck may drive, production on construction, and the
expense tracks' round bonuses."""

from __future__ import annotations

from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.state import Cell, Player

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
PARK_KEYS = [*D.COLOURS, D.VIP]
VIP = D.VIP
BANK = D.BANK
LOWEST_ROW = D.LOWEST_ROW
TYPE_OF_TILE = D.TYPE_OF_TILE
# the citizen colour a building employs; None for City Hall and banks, which employ nobody
CITIZEN_OF_TILE: dict[str, str | None] = {
    **{t: D.CITIZEN_OF[r["type"]] for t, r in D.TILES.items()},
    D.BANK: None,
    D.CITY_HALL: None,
}
PRICE: dict[str, int] = {t: r["price"] for t, r in D.TILES.items()}
PRODUCTION = {t: D.production_of(t) for t in D.TYPE_OF_TILE}  # every tile, banks, City Hall
COINS = D.PRODUCTIONS  # coins a token is worth
TRACK_MAX: int = D.SUPPLY["track_max"]
BONUS: dict[str, list[int]] = {t: D.TRACKS[t]["bonus"] for t in D.TRACKS}
BASE_STEPS: int = D.SUPPLY["base_steps"]
BASE_INCOME: int = D.SUPPLY["base_income"]


def key(x: int, y: int) -> str:
    """The city-dict key of a cell."""
    return f"{x},{y}"


def _squares() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[str, ...]]]:
    """Every square a city can reach (a city is connected and holds at most every tile and its
    banks, so no square lies further from City Hall), with its coordinates and neighbours."""
    reach = len(D.TILES) + D.SUPPLY["bank_limit"] + 1
    coordinates: dict[str, tuple[int, int]] = {}
    for x in range(-reach - 1, reach + 2):
        for y in range(LOWEST_ROW - 2, reach + 2):
            coordinates[key(x, y)] = (x, y)
    around = {k: tuple([key(x + dx, y + dy) for dx, dy in STEPS]) for k, (x, y) in coordinates.items()}
    return coordinates, around


# Looked up, not worked out, on every move (squares recur all game long); a constant table built
# at import, never changed. A square outside it (only a junk move names one) is worked out.
_XY, _NEIGHBOURS = _squares()


def xy(k: str) -> tuple[int, int]:
    """The coordinates of a city-dict key."""
    got = _XY.get(k)
    if got is not None:
        return got
    a, b = k.split(",")
    return int(a), int(b)


def neighbours(k: str) -> tuple[str, ...]:
    """The four orthogonal neighbour keys of a cell."""
    got = _NEIGHBOURS.get(k)
    if got is not None:
        return got
    x, y = xy(k)
    return tuple([key(x + dx, y + dy) for dx, dy in STEPS])


def at(k: str) -> list[int]:
    """A cell key as a move's square, [x, y]."""
    x, y = xy(k)
    return [x, y]


def bonus(p: Player, track: str) -> int:
    """The bonus of the sector a player's marker is in now (rulebook: current sector only)."""
    return BONUS[track][p["tracks"][track]]


def truck_steps(p: Player) -> int:
    """Steps the truck must drive this round: 1 + the Transportation bonus."""
    return BASE_STEPS + bonus(p, "transportation")


def income(p: Player) -> int:
    """Income this round: 4 + the Meals and Merchandise bonuses."""
    return BASE_INCOME + bonus(p, "meals") + bonus(p, "merchandise")


def frontier(city: dict[str, Cell]) -> list[tuple[str, frozenset[str]]]:
    """The empty cells next to the city above the park row, row by row from the bottom, each
    with the border colours of its built neighbours."""
    near: dict[str, frozenset[str]] = {}
    for k in city:
        for n in neighbours(k):
            if n not in near:
                colours = frontier_colours(city, n)
                if colours is not None:
                    near[n] = colours
    return sorted(near.items(), key=_row_major)


def frontier_colours(city: dict[str, Cell], n: str) -> frozenset[str] | None:
    """The border colours around cell `n` if it is on the city's frontier (empty, above the park
    row, next to a building), else None."""
    if n in city or xy(n)[1] < LOWEST_ROW:
        return None
    types = TYPE_OF_TILE
    colours = frozenset([types[city[m]["tile"]] for m in neighbours(n) if m in city])
    return colours or None


def _row_major(cell: tuple[str, frozenset[str]]) -> tuple[int, int]:
    x, y = xy(cell[0])
    return y, x


def placements(p: Player, tile: str) -> list[str]:
    """Cells where `tile` may be built: above the park row, next to the city, and no orthogonal
    neighbour of the same border colour (banks therefore never touch City Hall or a bank)."""
    colour = TYPE_OF_TILE[tile]
    return [n for n, near in frontier(p["city"]) if colour not in near]


def hire_spots(p: Player) -> list[tuple[str, str]]:
    """(citizen, cell) pairs: a park citizen into an empty building of its colour, a VIP into any."""
    out = []
    park = p["park"]
    vip = park[VIP] > 0
    for k, cell in p["city"].items():
        if cell["worker"] is not None:
            continue
        colour = CITIZEN_OF_TILE[cell["tile"]]
        if colour is None:
            continue  # City Hall or a bank: they employ nobody
        if park[colour] > 0:
            out.append((colour, k))
        if vip:
            out.append((VIP, k))
    return out


def drive_targets(p: Player) -> list[str]:
    """Squares the truck may enter next: orthogonal city squares, never the one it just left."""
    truck = p["truck"]
    if truck["steps_left"] <= 0:
        return []
    city, previous = p["city"], truck["previous"]
    return [n for n in neighbours(truck["at"]) if n in city and n != previous]


def produce(city: dict[str, Cell], k: str) -> list[str]:
    """Production on construction: the new building's token, and a token on every orthogonal
    neighbour whose production spot is empty (City Hall has none). Returns the cells filled.
    Squares are replaced, never changed: states share them (`state.clone_player`)."""
    filled = []
    for c in [k, *neighbours(k)]:
        if c not in city:
            continue
        cell = city[c]
        if cell["token"] is not None:
            continue
        token = PRODUCTION[cell["tile"]]
        if token is not None:
            city[c] = {"tile": cell["tile"], "token": token, "worker": cell["worker"]}  # replaced
            filled.append(c)
    return filled
