"""City Council's state as typed plain JSON, and who holds which seat: the chairs and Prof. Phil.

The keys are stored as they always were (rules version 3, the wire's view keys are read from
them); each is named in full in the comment beside it. What each member holds is kept in
parallel lists indexed by member (Prof. Phil, with 2 players, is member 2), not in a record per
member: the view sends those lists as they are.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from app.engine.rng import Rng

Move = dict[str, Any]
#: A card on the favour discard pile: [card id, bit mask of the seats that know it lies there].
FavourDiscard = list[Any]


class Building(TypedDict):
    """A building on the city board (a printed Starting-Zone building has no tile)."""

    id: str
    name: str
    tile: str | None
    fixed: bool  # printed on the Starting Zone
    cells: list[list[int]]  # its blocks, [row, column], sorted
    token: bool  # a permanent Community token lies on it
    prison: list[int]  # the Prison's two boxes (1: a Crime token incarcerated there)


class Plan(TypedDict):
    """A member's plan this turn: build a tile, relocate or sell a building, or none."""

    kind: str  # "build", "relocate", "sell" or "none"
    target: NotRequired[str]  # the tile (build) or building id


class Tie(TypedDict):
    """Plans tied at the cut of Vote Counting: the Election chairman approves `need` of them."""

    pool: list[int]
    need: int


class Pending(TypedDict):
    """An activation whose either/or box the Election chairman picks (the Police Station)."""

    b: str  # building id
    by: int  # the member whose activation it is


class Scored(TypedDict):
    """A favour card a seat scored."""

    card: str
    vp: int
    turn: int


class Report(TypedDict):
    """This turn's production report (unemployment, resolution and lifestyle, as they happen)."""

    unemployment: dict[str, Any] | None
    resolution: list[dict[str, Any]]
    lifestyle: dict[str, Any] | None


class State(TypedDict):
    """The whole game."""

    players: int  # seats; members = players + 1 with Prof. Phil
    members: int  # council members (Prof. Phil included)
    phil: bool  # Prof. Phil plays (2 players)
    mode: str  # "standard", "sandbox" or "hard"
    goal: int  # VP that end the game
    card_end: bool  # the game ends when the favour deck runs out
    turn: int
    phase: str  # the phase waiting for a decision (phases.PHASES), "over" at the end
    window: None  # unused since rules version 2 (kept: stored states carry it)
    cursor: int  # index in `order` of the member due in planning, voting and activation
    committee: list[str | None]  # by member
    streak: list[int]  # by member: turns in a row on the same committee
    decider: int | None  # the Election chairman who assigns the committees this turn
    order: list[int]  # turn order: members by committee
    budget: int  # the City Budget
    power: int
    community: int  # Community tokens on their section
    crime: int  # Crime tokens on the Criminal Activity section
    pollution: int  # Pollution tokens on the Pollution Level section
    goods: int
    house: dict[str, int]  # workers in housing: "B" blue, "W" white
    advanced: bool  # the advanced planning area is in play
    buildings: dict[str, Building]  # by building id
    next_bid: int  # the next building id's number
    covered: list[str]  # always empty since rules version 3 (wire contract)
    tokens: dict[str, int]  # Sale and Relocation tokens: "sale", "relocate"
    stacks: dict[str, list[str]]  # building stacks by shape, top first
    up: dict[str, list[str]]  # face-up tiles of the planning area by shape, below each stack
    bdiscard: dict[str, list[str]]  # building discard piles by shape
    reserve_adv: list[str]  # advanced tiles waiting for the Starting Zone to fill
    deck: list[str]  # the favour deck, top last
    fdiscard: list[FavourDiscard]  # the favour discard pile
    removed: list[str]  # Building favour cards scored (out of play)
    hands: list[list[str]]  # favour cards by member
    drawn: list[list[str] | None]  # favour cards drawn and not yet chosen from, by member
    vp: list[int]  # by seat
    scored: list[list[Scored]]  # by seat
    funds: list[int]  # private funds by member
    phil_card: str | None  # the card Prof. Phil revealed this turn
    plans: list[Plan | None]  # by member
    delegates: list[int | None]  # by member: the plan (its member) his Delegate is on
    exec_vote: int | None  # the Executive chairman's second Delegate
    plan_funds: list[list[int]]  # [plan's member][giving member]: private funds on plans
    approved: list[int]  # plans approved, in approval order
    executed: list[int]
    failed: list[int]
    acts_left: int  # activations left in the current member's activation turn
    passes: int  # members who passed in a row
    zones_on: dict[str, str]  # activated zones: the Community token's source ("section" or a building id)
    activated: list[dict[str, Any]]  # this turn's building activations
    active_names: dict[str, int]  # activated buildings by name (favour conditions read it)
    prison_freed: int
    done: list[bool]  # by seat: answered the current scoring window
    end_flag: bool  # the favour deck ran out: the game ends with this turn
    defeat: str | None  # "crime" or "pollution" (RB Defeat)
    last: dict[str, Any]  # the last move: seat, type, and what was taken at once (`auto`)
    rng: int  # the random stream's state
    tie: NotRequired[Tie]
    pending: NotRequired[Pending]
    report: NotRequired[Report]
    last_exec: NotRequired[dict[str, Any]]  # the last plan executed, for the table
    treasury_done: NotRequired[bool]  # the Treasury chairman has decided (between two steps)
    fund_done: NotRequired[bool]  # the funding member is done (between two steps)


def plan_of(s: State, o: int) -> Plan:
    """Member o's plan, known to be made (approved, or listed as proposed)."""
    p = s["plans"][o]
    assert p is not None  # plans are made before anything names them
    return p


def proposes(p: Plan | None) -> bool:
    """A plan that builds, relocates or sells (not the empty plan of a member who could not)."""
    return p is not None and p["kind"] != "none"


def is_phil(s: State, m: int) -> bool:
    """Member m is Prof. Phil (2-player game only)."""
    return s["phil"] and m == s["players"]


def chair(s: State, committee: str) -> int | None:
    """The member chairing a committee, or None when it is empty."""
    for m, c in enumerate(s["committee"]):
        if c == committee:
            return m
    return None


def rng_of(s: State) -> Rng:
    """The game's random stream, where the state left it (`save_rng` puts it back)."""
    return Rng(s["rng"])


def save_rng(s: State, rng: Rng) -> None:
    """Record where the game's random stream stands."""
    s["rng"] = rng.state
