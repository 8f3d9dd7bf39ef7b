"""Who owes a decision now and the moves each waiting phase offers (phases.PHASES names them)."""

from __future__ import annotations

from app.rulesets.city_council import execution, production as prod
from app.rulesets.city_council.activation import activation_moves
from app.rulesets.city_council.committees import committee_options
from app.rulesets.city_council.council import fund_targets, proposed, vote_targets
from app.rulesets.city_council.deck import keep_options
from app.rulesets.city_council.state import Move, State, chair, is_phil
from app.rulesets.city_council.windows import WINDOWS


def to_act(s: State) -> list[int]:
    """Seats owing a decision now (several while drawing favours and in scoring windows)."""
    ph = s["phase"]
    if ph in ("plan", "vote", "fund"):
        return [s["order"][s["cursor"]]]
    if ph in WINDOWS:
        return [i for i in range(s["players"]) if not s["done"][i]]
    if ph == "draw":
        return [m for m in range(s["players"]) if s["drawn"][m] is not None]
    if ph == "activate":
        m = s["order"][s["cursor"]]
        if s.get("pending") or is_phil(s, m):
            return _chairman(s, "election")
        return [m]
    if ph == "committees":
        decider = s["decider"]
        return [] if decider is None else [decider]
    committee = _CHAIRS.get(ph)
    return [] if committee is None else _chairman(s, committee)


#: The phases in which one committee's chairman decides.
_CHAIRS = {"treasury": "treasury", "vote2": "executive", "approve": "election", "execute": "election"}


def _chairman(s: State, committee: str) -> list[int]:
    """The committee's chairman as `to_act` lists him (a phase whose committee is empty is passed
    over: nobody to wait for)."""
    m = chair(s, committee)
    return [] if m is None else [m]


def committees(s: State, seat: int) -> list[Move]:
    """RB Committees phase: the Election chairman's possible assignments."""
    return [{"type": "committees", "seats": a} for a in committee_options(s)]


def treasury(s: State, seat: int) -> list[Move]:
    """RB Treasury Committee: embezzle $1, or decline."""
    return [{"type": "embezzle"}, {"type": "decline"}]


def draw(s: State, seat: int) -> list[Move]:
    """The drawn favour cards a member may keep."""
    return [{"type": "keep", "cards": k} for k in keep_options(s, seat)]


def vote(s: State, seat: int) -> list[Move]:
    """RB Voting: a Delegate on another member's plan."""
    return [{"type": "vote", "plan": o} for o in vote_targets(s, seat)]


def fund(s: State, seat: int) -> list[Move]:
    """RB Voting, second round: $1 of private funds on a construction plan, or done."""
    return [{"type": "fund", "plan": o} for o in fund_targets(s, seat)] + [{"type": "fund_done"}]


def vote2(s: State, seat: int) -> list[Move]:
    """The Executive chairman's second Delegate, or a pass."""
    return [{"type": "vote2", "plan": o} for o in proposed(s)] + [{"type": "vote2_pass"}]


def approve(s: State, seat: int) -> list[Move]:
    """The Election chairman picks among the plans still tied."""
    return [{"type": "approve", "plan": o} for o in s["tie"]["pool"] if o not in s["approved"]]


def execute(s: State, seat: int) -> list[Move]:
    """Every way to execute an approved plan now (execution.allowed)."""
    return execution.moves(s)


def activate(s: State, seat: int) -> list[Move]:
    """An activation or a pass; the Police Station's box when the Election chairman decides it."""
    if s.get("pending"):
        return [{"type": "police", "boxes": b} for b in prod.box_choices(s, s["pending"]["b"])]
    moves = activation_moves(s, seat)
    m = s["order"][s["cursor"]]
    if moves and is_phil(s, m) and s["committee"][m] == "transport":
        return moves  # RB: Phil "must always use the benefits of his committee" (two activations)
    moves.append({"type": "pass"})  # a fresh list: no copy needed
    return moves
