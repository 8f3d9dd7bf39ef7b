"""Fortuna's turn as a table of phases (RB-F phases 1-5, the 2-player rule, Caesar's palace):
what runs on entering each, the moves each waits for and what they do."""

from __future__ import annotations

from app.engine import phases as engine
from app.engine.phases import Phase
from app.rulesets.fortuna import legal, moves, turns
from app.rulesets.fortuna.privileges import usable_privileges
from app.rulesets.fortuna.state import Move, Spec, State

PHASES: dict[str, Phase[State]] = {
    "turn_start": Phase(auto=turns.start_turn),
    "play": Phase(legal=legal.play_specs, apply={"play": moves.play, "privilege": moves.privilege}),
    "exchange": Phase(
        legal=legal.exchange_specs, apply={"exchange": moves.exchange, "privilege": moves.privilege}
    ),
    "military": Phase(
        auto=turns.military,
        legal=legal.military_specs,
        apply={"military": moves.military, "skip": moves.skip, "privilege": moves.privilege},
    ),
    "roll": Phase(auto=turns.roll),
    "favour": Phase(
        legal=legal.favour_specs,
        apply={"favour": moves.favour, "pass": moves.decline, "privilege": moves.privilege},
    ),
    "flip2": Phase(auto=turns.two_player_flip),
    "flip": Phase(legal=legal.flip_specs, apply={"flip": moves.flip, "privilege": moves.privilege}),
    "privilege": Phase(auto=turns.draw_privileges),
    "keep": Phase(legal=legal.keep_specs, apply={"keep": moves.keep}),
    "palace": Phase(legal=legal.palace_specs, apply={"palace": moves.palace}),
    "wrap": Phase(
        auto=turns.wrap, legal=legal.wrap_specs, apply={"end": moves.end, "privilege": moves.privilege}
    ),
    "next_turn": Phase(auto=turns.end_turn),
    "round_end": Phase(auto=turns.end_round),
    "over": Phase(),
}


def advance(s: State, name: str) -> None:
    """Go on to phase `name` and through every phase that needs no decision; a palace arrival
    is settled first (its choice waits, then play resumes at `name`)."""
    if s["palace_choice"] is not None:
        s["resume"] = name
        s["phase"] = "palace"
        return
    s["phase"] = engine.advance(PHASES, s, name)


def move_specs(s: State, seat: int) -> list[Spec]:
    """The legal moves of `seat` in `legal_moves` order, as `Spec` tuples (only the active
    player ever has moves)."""
    name = s["phase"]
    if name == "over" or s["order"][s["turn"]] != seat:
        return []
    phase = PHASES[name]
    specs = [] if phase.legal is None else phase.legal(s, seat)
    # a privilege card A or B may be used in every phase that accepts it (RB-F: any time in
    # your turn, B once per turn), after the phase's own moves
    if "privilege" in phase.apply and s["players"][seat]["hand"]:
        for card in usable_privileges(s, seat):
            specs.append(("privilege", card))
    return specs


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    return [legal.make_move(spec) for spec in move_specs(s, seat)]


def run(s: State, seat: int, move: Move) -> None:
    """Carry out one legal move on the copy `s`, then every step that needs no decision."""
    advance(s, PHASES[s["phase"]].apply[move["type"]](s, seat, move))
