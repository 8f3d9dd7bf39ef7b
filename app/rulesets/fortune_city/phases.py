"""Fortune City's round as a table of phases (RB: Player Actions, Hire Citizens, Move Delivery
Truck, Income; NOTES decision 1): what runs on entering each, the moves each waits for and what
they do. The phases that wait are stored in the state: actions, hire, truck, over."""

from __future__ import annotations

from app.engine import phases as engine
from app.engine.phases import Phase
from app.rulesets.fortune_city import legal, moves, turns
from app.rulesets.fortune_city.legal import Group
from app.rulesets.fortune_city.state import LastMove, Move
from app.rulesets.fortune_city.table import Table

PHASES: dict[str, Phase[Table]] = {
    "actions": Phase(
        auto=turns.seek_turn,
        legal=legal.action_groups,
        apply={
            "buy": moves.buy,
            "bank": moves.bank,
            "construct": moves.construct,
            "vip": moves.vip,
            "pass": moves.pass_,
        },
    ),
    "hire_start": Phase(auto=turns.start_hire),
    "hire": Phase(
        auto=turns.hire_over, legal=legal.hire_groups, apply={"hire": moves.hire, "done": moves.done}
    ),
    "truck_start": Phase(auto=turns.start_truck),
    "truck": Phase(auto=turns.forced_drives, legal=legal.truck_groups, apply={"drive": moves.drive}),
    "round_end": Phase(auto=turns.end_round),
    "over": Phase(),
}

#: The phase each move type belongs to.
PHASE_OF = {kind: name for name, phase in PHASES.items() for kind in phase.apply}


def move_groups(t: Table, seat: int) -> list[Group]:
    """The legal moves of `seat` in `legal_moves` order, as groups (none when it owes no move)."""
    if seat not in legal.to_act(t.state):
        return []
    return due_groups(t, seat)


def due_groups(t: Table, seat: int) -> list[Group]:
    """`move_groups` of a seat known to be due to act (the playout's: it drew the seat)."""
    phase = PHASES[t.state["phase"]]
    return [] if phase.legal is None else phase.legal(t, seat)


def run(t: Table, seat: int, move: Move) -> None:
    """Carry out one checked move on the table's state (a private copy), recorded as `last`,
    then every step that needs no decision."""
    s = t.state
    last: LastMove = {"seat": seat, "move": move, "round": s["round"]}
    s["last"] = last
    following = PHASES[s["phase"]].apply[move["type"]](t, seat, move)
    s["phase"] = engine.advance(PHASES, t, following)
