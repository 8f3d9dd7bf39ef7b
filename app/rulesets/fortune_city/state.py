"""Fortune City's state as typed plain JSON: the table, each player's board and city, and a copy
of it that a move may change in place.

Every key has its full name (version 5; upgrade.py carries older states). Cells are "x,y" keys
(City Hall at "0,0"; y grows upwards, away from the park row). The view shows the players in
their wire shape (view.py), which keeps the short names the browser reads.
"""

from __future__ import annotations

from typing import Any, TypedDict

Move = dict[str, Any]
#: What the last move did (`seat`, `move`, `round`, what it paid, produced, picked up, and the
#: steps the rules then took by themselves in `auto`): shown to clients as it is.
LastMove = dict[str, Any]
#: A step the rules took by themselves (`seat`, `kind` "pass" or "drive", ...), in `last.auto`.
Event = dict[str, Any]


class Cell(TypedDict):
    """A square of a city: City Hall, a bank or a building, its production spot and employee."""

    tile: str  # a tile id, "bank" or "city_hall"
    token: str | None  # coin, coin2, diamond, garbage, or None (an empty production spot)
    worker: str | None  # a citizen colour or "vip", or None


class Card(TypedDict):
    """The credit card (it comes with the first bank)."""

    silver: int  # 0-3
    gold: int  # 0-2


class Truck(TypedDict):
    """The delivery truck: where it is, the square it just left this round, steps still owed."""

    at: str
    previous: str | None
    steps_left: int


class Slot(TypedDict):
    """A market slot: a goods tile and the citizen below it."""

    tile: str
    citizen: str


class Options(TypedDict):
    """The game's variants (FortuneCityOptions)."""

    starting_credit_card: bool
    gold_after_hand_silver: bool


class Player(TypedDict):
    """A player board: hand, credit card, construction zones, park, city, tracks and truck."""

    silver: int  # in hand
    card: Card | None
    zone: list[str | None]  # the two construction zones
    park: dict[str, int]  # citizens by colour, and VIPs
    city: dict[str, Cell]
    tracks: dict[str, int]  # expense track -> sector 0-6
    truck: Truck
    done: bool  # finished the simultaneous phase (hire, truck)
    passed: bool  # passed in the Player Actions phase
    banks: int  # built
    banks_this_round: int
    diamonds: int  # collected
    garbage_cleared: int
    coins_collected: int


class IncomeRow(TypedDict):
    """What one seat received at the end of a round."""

    income: int
    card_silver: int
    gold: int


class RoundEnd(TypedDict):
    """The last round's income and credit-card rewards, per seat."""

    round: int
    players: list[IncomeRow]


class State(TypedDict):
    """The whole table."""

    player_count: int
    options: Options
    phase: str  # the phase that waits for moves (a name in phases.PHASES), "over" at the end
    round: int
    final: bool  # this round is the last
    start: int  # the start player's seat
    turn: int | None  # the seat in turn in the Player Actions phase, else None
    market: list[Slot]
    stack: list[str]  # goods tiles face down, top = last
    bag: list[str]  # citizens
    box: list[str]  # tiles removed face down at setup (sorted)
    returned: list[str]  # tiles returned from a construction zone (public)
    banks: int  # left in the supply
    vips: int  # left on the board
    players: list[Player]
    last: LastMove | None
    round_end: RoundEnd | None
    rng: int


def clone_player(p: Player) -> Player:
    """A copy of a player that a move may change in any part, but for its city's squares, which
    the rules replace rather than change (board.produce, moves.hire, moves.drive_step): a city of
    25 squares is then one dict copied, not 26."""
    q = p.copy()
    q["zone"] = list(p["zone"])
    q["park"] = dict(p["park"])
    q["city"] = dict(p["city"])
    q["tracks"] = dict(p["tracks"])
    q["truck"] = p["truck"].copy()
    card = p["card"]
    q["card"] = None if card is None else card.copy()
    return q


def clone_state(s: State) -> State:
    """A copy of a game state that a move may edit in place (every mutable part copied, by
    shape). `options`, `returned`, `last`, `round_end`, the market's slots and the cities'
    squares are never edited, only replaced."""
    t = s.copy()
    t["market"] = list(s["market"])
    t["stack"] = list(s["stack"])
    t["bag"] = list(s["bag"])
    t["players"] = [clone_player(p) for p in s["players"]]
    return t
