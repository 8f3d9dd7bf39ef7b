"""Fortuna's state as typed plain JSON: the table, each player's province, and copies of both.

Every key has its full name (version 6; `upgrade.py` carries older states). Events keep their
wire shape (`{"k": kind, ...}`): they are shown to clients as they are, in the view's `last`.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Move = dict[str, Any]
Event = dict[str, Any]
#: A move as a tuple (type, value, value): what `legal` lists and `make_move` turns into a Move.
Spec = tuple[Any, ...]

SIDES = 4  # the board's four sides, one per seat; sides beyond the players' are unoccupied

#: Province keys that hold a count a card, favour or privilege may change by name.
Resource = Literal["grain", "wine", "water", "centurions", "vestals"]


class Slot(TypedDict):
    """An action card on a side of the board."""

    card: str
    face_up: bool
    public: bool  # everyone knows which card it is (face up, or laid face down by an exchange)


class FavourCard(TypedDict):
    """One of the six favour cards (card k is at index k - 1)."""

    used: bool  # flipped over this round
    tokens: int


class Discarded(TypedDict):
    """A privilege card on the discard pile."""

    card: str
    face_up: bool  # used A/B cards lie face up; cards not kept lie face down
    by: int  # the seat that discarded it


class KeepChoice(TypedDict):
    """Privilege cards drawn and not yet chosen (phase 5)."""

    seat: int
    cards: list[str]
    keep: int  # how many to keep


class PalaceChoice(TypedDict):
    """The privilege cards offered to a player arriving at Caesar's palace."""

    seat: int
    cards: list[str]


class PalaceTaken(TypedDict):
    """A table card a later arrival took, and the seats that had seen the table's cards."""

    seat: int
    card: str
    seen: list[int]


class Palace(TypedDict):
    """The cards the palace's first arrival left face down for the later ones."""

    cards: list[str]
    seen: list[int]  # seats that saw them
    taken: list[PalaceTaken]


class LastMove(TypedDict):
    """The last move in its public form, with the events it caused (shown in every view)."""

    seat: int
    move: Move
    events: list[Event]


class Options(TypedDict):
    """The game's variants (FortunaOptions)."""

    two_player_flip: bool
    peek_own_card: bool


class Player(TypedDict):
    """A province: the pawn's step (0 = village, 15 = Caesar's palace), goods and cards."""

    position: int
    money: int
    grain: int
    wine: int
    water: int  # in the reservoir
    aqueduct: int | None  # water on the Aqueduct; None: no Aqueduct built
    aqueduct_round: int  # the round the Aqueduct was built (it fills from the next one)
    dice: int
    vestals: int
    centurions: int
    buildings: list[str]
    married: bool
    hand: list[str]  # privilege cards, sorted


class State(TypedDict):
    """The whole table."""

    player_count: int
    options: Options
    round: int
    order: list[int]  # the start-player track
    turn: int  # index in `order` of the seat whose turn it is
    phase: str  # the decision owed now (a name in phases.PHASES), "over" at the end
    sides: list[list[Slot]]
    chosen_slot: int | None  # the card chosen in phase 2
    rolled: list[int] | None  # the dice rolled in phase 4
    tokens_taken: int  # tokens taken with a favour card this turn: privilege cards to draw
    privilege_b_used: bool  # a privilege card B was used this turn
    favours: list[FavourCard]
    supply: int  # favour tokens in the general supply
    palace_tokens: int
    piles: dict[str, int]  # building id -> cards left
    deck: list[str]  # privilege cards, top = last
    discard: list[Discarded]
    removed: list[str]  # privilege cards out of the game (the 4-pawn cards with 2-3 players)
    # cards each seat saw go into the deck at the last reshuffle and has not seen since
    known_in_deck: list[list[str]]
    # how many cards of each hand, and whether the palace cards, may have come from the deck
    # since the last reshuffle (public)
    drawn_since_shuffle: list[int]
    palace_drawn_since_shuffle: bool
    choice: KeepChoice | None
    palace: Palace
    palace_choice: PalaceChoice | None
    resume: str | None  # the phase to go on with after a palace choice
    arrivals: list[int]  # seats in the order they reached the palace
    last_round: bool  # someone reached the palace: the game ends with this round
    players: list[Player]
    last: LastMove | None
    rng: int
    events: list[Event]  # the current move's events (empty between moves)


def active(s: State) -> int | None:
    """The seat whose turn it is (None once the game is over)."""
    return None if s["phase"] == "over" else s["order"][s["turn"]]


def clone_state(s: State) -> State:
    """A copy of a game state that a move may edit freely (every mutable part copied, by shape:
    several times faster than a generic deep copy). `options`, `removed` and `last` are never
    edited."""
    t = s.copy()
    t["sides"] = [[slot.copy() for slot in row] for row in s["sides"]]
    t["favours"] = [f.copy() for f in s["favours"]]
    t["piles"] = dict(s["piles"])
    t["order"] = list(s["order"])
    t["rolled"] = None if s["rolled"] is None else list(s["rolled"])
    t["deck"] = list(s["deck"])
    t["discard"] = [d.copy() for d in s["discard"]]
    t["known_in_deck"] = [list(k) for k in s["known_in_deck"]]
    t["drawn_since_shuffle"] = list(s["drawn_since_shuffle"])
    choice = s["choice"]
    t["choice"] = None if choice is None else {**choice, "cards": list(choice["cards"])}
    offer = s["palace_choice"]
    t["palace_choice"] = None if offer is None else {**offer, "cards": list(offer["cards"])}
    palace = s["palace"]
    t["palace"] = {
        "cards": list(palace["cards"]),
        "seen": list(palace["seen"]),
        "taken": [x.copy() for x in palace["taken"]],
    }
    t["arrivals"] = list(s["arrivals"])
    t["events"] = list(s["events"])
    t["players"] = [
        {**pl, "buildings": list(pl["buildings"]), "hand": list(pl["hand"])} for pl in s["players"]
    ]
    return t


def water_total(pl: Player) -> int:
    """Water in the reservoir and on the Aqueduct."""
    return pl["water"] + (pl["aqueduct"] or 0)
