"""Applying moves: the four steps of a turn (take/place or invest, income, reputation, market),
the discard that follows a basic tile or an investment, goal choice, and the end of the game."""

from __future__ import annotations

from typing import Any, Callable

from app.rulesets.suburbia import dale, scoring
from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.geo import forget, private_tiles, tile_cost
from app.rulesets.suburbia.legal import (
    _families,
    check,
    discard_pick,
    pick,
    public_fields,
    to_act,
    turn_pick,
)
from app.rulesets.suburbia.market import discard, discard_slots, refill, surcharges, take
from app.rulesets.suburbia.tables import KINDS

State = dict[str, Any]
Move = dict[str, Any]


def apply(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move` (input untouched; unchanged parts shared)."""
    check(state, seat, move)
    s = dict(state)
    w = World(s)
    s["p"] = w.players
    return play(s, w, seat, move)


def play(s: State, w: World, seat: int, move: Move) -> State:
    """Play a legal `move` of `seat` on `s` through `w` (a copy-on-write World for `apply`, an
    in-place one for a playout) and return the resulting state."""
    # The tracks before the move, for 'last' changes: a playout records them only for its final
    # move, and a move can end the game only in Dale's game or once the final countdown runs
    # (end_turn; the countdown it starts is at least 2, so never ends the move that starts it).
    before = (
        [(p["money"], p["income"], p["rep"], p["pop"]) for p in w.players]
        if not w.in_place or s["mode"] == "dale" or s["final_turns"] is not None
        else None
    )
    # the public 'last' summary records only the move's rule fields (a kept goal stays secret);
    # a playout's moves are drawn afresh with exactly their rule fields, so only a kept goal is
    # hidden there, and the move itself is kept (nothing else holds it)
    shown = public_fields(move) if not w.in_place or move["type"] == "keep_goal" else move
    s["last"] = {"seat": seat, "move": shown, "dale": None}
    _HANDLERS[move["type"]](s, w, seat, move)
    if w.in_place and s["phase"] != "over":
        return s  # a playout's next move replaces 'last' (its final state keeps the last one)
    assert before is not None  # see above: the game ended, so its tracks were recorded
    s["last"]["changes"] = [
        {
            "money": p["money"] - b[0],
            "income": p["income"] - b[1],
            "rep": p["rep"] - b[2],
            "pop": p["pop"] - b[3],
        }
        for b, p in zip(before, w.players)
    ]
    if s["phase"] == "over":
        s = scoring.finalize(s)
    return s


def playout(state: State, rng: Any) -> State:
    """The final state of the random game `play_random` plays from `state` with `rng` (same
    seat and move draws, same state), played on one private copy changed in place: the moves
    are drawn from the same families `legal_moves` expands and played by the same `play`."""
    s = _copy(state)
    w = World(s, in_place=True)
    while acting := to_act(s):
        seat = rng.choice(acting)
        phase = s["phase"]
        if phase == "play":
            move = turn_pick(s, seat, rng)
        elif phase == "discard" or phase == "extra_discard":
            move = discard_pick(s, seat, rng)
        else:
            move = pick(_families(s, seat), rng)
        s = play(s, w, seat, move)
    for p in s["p"]:
        forget(p["tiles"])  # the final state's boroughs are derived afresh if ever asked
    return s


def _copy(state: State) -> State:
    """A copy of `state` that an in-place World may change: the rules change only the state's
    top level, the players' dicts and their tiles lists, and the stacks' lists in place (every
    other container, tiles included, is replaced, never changed: see market.py,
    effects.World.invest)."""
    s = dict(state)
    s["p"] = [dict(p, tiles=private_tiles(p["tiles"])) for p in state["p"]]
    s["stacks"] = {letter: list(stack) for letter, stack in state["stacks"].items()}  # market.draw
    return s


def _keep_goal(s: State, w: World, seat: int, move: Move) -> None:
    secret = list(s["secret"])
    secret[seat] = dict(secret[seat], kept=move["goal"])
    s["secret"] = secret
    if all(g["kept"] is not None for g in secret):
        s["phase"] = "play"


def _buy(s: State, w: World, seat: int, move: Move) -> None:
    price = KINDS[s["market"][move["slot"]]].cost + surcharges(s)[move["slot"]]
    kind = take(s, move["slot"])
    w.pay(seat, price)
    w.place(seat, kind, (move["at"][0], move["at"][1]), lake=False)
    s["last"]["tile"] = kind
    finish_action(s, w, seat)


def _lake(s: State, w: World, seat: int, move: Move) -> None:
    w.pay(seat, surcharges(s)[move["slot"]])
    kind = take(s, move["slot"])
    w.place(seat, kind, (move["at"][0], move["at"][1]), lake=True)
    s["last"]["tile"] = kind
    finish_action(s, w, seat)


def _basic(s: State, w: World, seat: int, move: Move) -> None:
    b = move["tile"]
    s["basic"] = dict(s["basic"], **{b: s["basic"][b] - 1})
    w.pay(seat, KINDS[b].cost)
    w.place(seat, b, (move["at"][0], move["at"][1]), lake=False)
    _then_discard(s, w, seat)


def _invest(s: State, w: World, seat: int, move: Move) -> None:
    tiles = w.players[seat]["tiles"]
    at = move["at"]
    index = 0
    while tiles[index]["at"] != at:  # `check` made sure the tile is there
        index += 1
    w.pay(seat, tile_cost(tiles[index]))
    w.invest(seat, index)
    _then_discard(s, w, seat)


def _then_discard(s: State, w: World, seat: int) -> None:
    """After a basic tile or an investment the player must discard a market tile (RB-S); with
    nothing discardable the step is skipped."""
    if discard_slots(s, seat):
        s["phase"] = "discard"
    else:
        finish_action(s, w, seat)


def _discard(s: State, w: World, seat: int, move: Move) -> None:
    w.pay(seat, surcharges(s)[move["slot"]])
    kind = take(s, move["slot"])
    discard(s, kind)
    s["last"]["tile"] = kind
    if s["phase"] == "extra_discard":
        # the Lone Architect's extra removal slides and refills the market too
        refill(s, seat, w.in_place)
        end_turn(s, seat)
    else:
        finish_action(s, w, seat)


def _pass(s: State, w: World, seat: int, move: Move) -> None:
    finish_action(s, w, seat)


def finish_action(s: State, w: World, seat: int) -> None:
    """Steps 2-4 of a turn: income, reputation, then the market (or Dale's turn)."""
    w.income_step(seat)
    w.reputation_step(seat)
    if s["mode"] == "dale":
        dale.dale_turn(s, w)
        return
    refill(s, seat, w.in_place)
    if s["mode"] == "lone_architect" and discard_slots(s, seat):
        s["phase"] = "extra_discard"  # RB-S Solo 1: remove an additional tile after the turn
        return
    end_turn(s, seat)


def end_turn(s: State, seat: int) -> None:
    """Pass the turn on, counting down the final round(s) once 1 More Round has appeared."""
    if s["final_turns"] is not None:
        s["final_turns"] -= 1
        if s["final_turns"] <= 0:
            s["phase"] = "over"
            return
    nxt = (seat + 1) % s["seats"]
    if nxt == s["start"]:
        s["round"] += 1
    s["turn"] = nxt
    s["phase"] = "play"


_HANDLERS: dict[str, Callable[[State, World, int, Move], None]] = {
    "keep_goal": _keep_goal,
    "buy": _buy,
    "lake": _lake,
    "basic": _basic,
    "invest": _invest,
    "discard": _discard,
    "pass": _pass,
}
