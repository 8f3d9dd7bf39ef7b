"""City Council's turn as a table of phases (RB Turn Sequence: committees, council meeting,
production, monitoring, turn end): what runs on entering each, the moves each waits for and what
they do. The phases that wait are stored in the state; Prof. Phil and every automatic step run in
the `auto`s, so `to_act` only ever lists seats owing a real decision."""

from __future__ import annotations

from app.engine.phases import Phase
from app.rulesets.city_council import legal, moves, turns
from app.rulesets.city_council.council import plan_options
from app.rulesets.city_council.legal import to_act
from app.rulesets.city_council.state import Move, State
from app.rulesets.city_council.windows import window_moves

_SCORING = {"score": moves.score, "done": moves.done}

PHASES: dict[str, Phase[State]] = {
    "committees": Phase(
        auto=turns.committees, legal=legal.committees, apply={"committees": moves.committees}
    ),
    "treasury": Phase(
        auto=turns.treasury,
        legal=legal.treasury,
        apply={"embezzle": moves.embezzle, "decline": moves.decline},
    ),
    "draw": Phase(auto=turns.draw, legal=legal.draw, apply={"keep": moves.keep}),
    "plan": Phase(auto=turns.plan, legal=plan_options, apply={"plan": moves.plan}),
    "vote": Phase(auto=turns.vote, legal=legal.vote, apply={"vote": moves.vote}),
    "fund": Phase(
        auto=turns.fund, legal=legal.fund, apply={"fund": moves.fund, "fund_done": moves.fund_done}
    ),
    "vote2": Phase(
        auto=turns.vote2, legal=legal.vote2, apply={"vote2": moves.vote2, "vote2_pass": moves.vote2_pass}
    ),
    "approve": Phase(legal=legal.approve, apply={"approve": moves.approve}),
    "execute": Phase(auto=turns.execute, legal=legal.execute, apply={"execute": moves.execute}),
    "activate": Phase(
        auto=turns.activate,
        legal=legal.activate,
        apply={"activate": moves.activate, "police": moves.police, "zone": moves.zone, "pass": moves.pass_},
    ),
    "window_activation": Phase(auto=turns.window_activation, legal=window_moves, apply=_SCORING),
    "unemployment": Phase(auto=turns.unemployment),
    "resolution": Phase(auto=turns.resolution),
    "window_resolution": Phase(auto=turns.window_resolution, legal=window_moves, apply=_SCORING),
    "monitoring": Phase(auto=turns.monitoring),
    "window_monitoring": Phase(auto=turns.window_monitoring, legal=window_moves, apply=_SCORING),
    "replenish": Phase(auto=turns.refill),
    "turn_end": Phase(auto=turns.turn_end, legal=window_moves, apply={**_SCORING, "discard": moves.discard}),
    "finish": Phase(auto=turns.finish),
    "over": Phase(),
}


def advance(s: State, name: str | None = None) -> None:
    """Enter phase `name` (the state's own by default) and each phase an `auto` hands on to,
    until one waits for a seat or the game is over."""
    # Not engine.phases.advance: the phase is recorded in the state at each step, because a rule
    # may end the game in the middle of one (a defeat, production.check_defeat, sets "over") and
    # the helpers shared with the moves (count_votes, the windows) read the phase they are in.
    if name is None:
        name = s["phase"]
    while s["phase"] != "over":
        s["phase"] = name
        auto = PHASES[name].auto
        following = None if auto is None else auto(s)
        if following is None:
            return
        name = following


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    if seat not in to_act(s):
        return []
    return due_moves(s, seat)


def due_moves(s: State, seat: int) -> list[Move]:
    """`legal_moves` of a seat known to be in `to_act` (apply and playout have just asked)."""
    phase = PHASES[s["phase"]]
    return [] if phase.legal is None else phase.legal(s, seat)


def run(s: State, seat: int, move: Move) -> None:
    """Carry out one legal move on `s` (changed in place), recorded as `last`, then every step
    that needs no decision."""
    s["last"] = {"seat": seat, "type": move["type"]}
    advance(s, PHASES[s["phase"]].apply[move["type"]](s, seat, move))
