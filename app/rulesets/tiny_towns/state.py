"""State helpers: copy-on-write editing of the plain-JSON game state, grid geometry and coins.

`Edit` copies only the containers a move touches, so unchanged subtrees stay the same objects
(cheap diffs) and the input state is never mutated.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.tiny_towns import data

State = dict[str, Any]
SIZE = data.SIZE
CELLS = range(SIZE * SIZE)
CENTRE = (5, 6, 9, 10)
CORNERS = (0, 3, 12, 15)
BASE_CHEST = 4  # RB-F Storing: 4 coin spaces on the Chest board


def _orth(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            out.append((r + dr) * SIZE + c + dc)
    return tuple(out)


def _ring(i: int) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    return tuple(
        (r + dr) * SIZE + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


ADJ = [_orth(i) for i in CELLS]  # orthogonal neighbours ("adjacent")
RING = [_ring(i) for i in CELLS]  # the 8 surrounding squares
ROW = [tuple(range(i // SIZE * SIZE, i // SIZE * SIZE + SIZE)) for i in CELLS]
COL = [tuple(range(i % SIZE, SIZE * SIZE, SIZE)) for i in CELLS]


class Edit:
    """A copy-on-write editor over a state; `s` is the new state."""

    def __init__(self, state: State, in_place: bool = False) -> None:
        self.before = state  # the state the move is judged against
        # in_place: `state` is a playout's private copy (see private_copy), changed in place;
        # its moves were drawn from the legal moves, so they are not checked again (`trusted`).
        self.in_place = self.trusted = in_place
        self.s: State = state if in_place else dict(state)
        self._players: dict[int, dict[str, Any]] = {}
        self._fields: set[tuple[int, str]] = set()

    def p(self, seat: int) -> dict[str, Any]:
        """Player `seat`'s dict, copied once for this edit."""
        if self.in_place:
            pl: dict[str, Any] = self.s["p"][seat]
            return pl
        if seat not in self._players:
            if not self._players:
                self.s["p"] = list(self.s["p"])
            self._players[seat] = dict(self.s["p"][seat])
            self.s["p"][seat] = self._players[seat]
        return self._players[seat]

    def f(self, seat: int, key: str) -> Any:
        """A shallow copy of player `seat`'s container field `key`, copied once for this edit."""
        pl = self.p(seat)
        if (seat, key) not in self._fields and not self.in_place:
            self._fields.add((seat, key))
            value = pl[key]
            pl[key] = dict(value) if isinstance(value, dict) else list(value)
        return pl[key]


def private_copy(state: State) -> State:
    """A copy of `state` an in-place Edit may change: the rules change in place only the
    state's top level, the players list and dicts and the players' container fields (what
    `Edit.p` and `Edit.f` hand out); anything deeper is replaced, never changed."""
    s = dict(state)
    s["p"] = [
        {k: (dict(v) if type(v) is dict else list(v) if type(v) is list else v) for k, v in pl.items()}
        for pl in state["p"]
    ]
    return s


def is_building(value: Any) -> bool:
    """Whether a grid square holds a building (not a resource and not empty)."""
    return value is not None and value in data.CARDS


def empties(grid: list[Any]) -> list[int]:
    """The empty squares of a town."""
    return [i for i, v in enumerate(grid) if v is None]


def has_empty(grid: list[Any]) -> bool:
    """Whether a town has an empty square (`bool(empties(grid))`, without listing them)."""
    return None in grid


def building_cells(grid: list[Any]) -> list[int]:
    """Squares holding a building."""
    return [i for i in CELLS if is_building(grid[i])]


def built(pl: dict[str, Any], name: str) -> bool:
    """Whether the player has constructed a monument or building with the passive `name`."""
    mon = pl["monument"]
    return bool(pl["built_monument"] and mon and data.has_passive(mon, name))


def chest_size(pl: dict[str, Any]) -> int:
    """4 coin spaces, 5 once a monument with a coin slot is built (RB-F Storing)."""
    mon = pl["monument"]
    extra = 1 if pl["built_monument"] and mon and data.card(mon).get("coin_slot") else 0
    return BASE_CHEST + extra


def gain(e: Edit, seat: int, n: int) -> None:
    """Add coins up to the chest size (excess is lost); Okaver triggers when the chest fills to 4."""
    if n <= 0:
        return
    pl = e.p(seat)
    before = pl["coins"]
    pl["coins"] = min(chest_size(pl), before + n)
    if before < BASE_CHEST <= pl["coins"] and built(pl, "okaver") and has_empty(pl["grid"]):
        push(e, seat, {"kind": "okaver"})


def push(e: Edit, seat: int, item: dict[str, Any]) -> None:
    """Queue a decision the player must take before anything else."""
    e.f(seat, "pending").append(item)


def set_cell(e: Edit, seat: int, cell: int, value: Any) -> None:
    """Write one square of a player's town."""
    e.f(seat, "grid")[cell] = value


def incomplete(state: State) -> list[int]:
    """Seats whose towns are not complete."""
    return [i for i, pl in enumerate(state["p"]) if not pl["complete"]]


def neighbours(state: State, seat: int) -> list[int]:
    """The players on the left and right (one player in a 2-player game, none solo)."""
    n = state["n"]
    return sorted({(seat + 1) % n, (seat - 1) % n} - {seat})


def right_of(state: State, seat: int) -> int:
    """The player on your right (the Master Builder token passes left, to seat + 1)."""
    n: int = state["n"]
    return (seat - 1) % n
