"""The steps the rules take by themselves between moves: the turn going round (a player who can
pay for nothing passes), the start of hiring and of the trucks' run, truck steps with one
possible square, and the end of a round (income, credit-card rewards, the market refilled).
Each names the phase that comes next, or None to wait for moves where it is."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import at, drive_targets, hire_spots, income, truck_steps
from app.rulesets.fortune_city.legal import can_act
from app.rulesets.fortune_city.moves import drive_step
from app.rulesets.fortune_city.state import Event, IncomeRow, State
from app.rulesets.fortune_city.table import Table

SUPPLY = D.SUPPLY


def _auto(s: State, event: Event) -> None:
    """Record a step the rules took by themselves (one possible answer) in `last`."""
    last = s["last"]
    assert last is not None  # steps are taken only while a move is played
    last.setdefault("auto", []).append(event)


def _all_done(s: State) -> bool:
    """Whether every seat is done with the phase."""
    for p in s["players"]:
        if not p["done"]:
            return False
    return True


def seek_turn(t: Table) -> str | None:
    """The next seat clockwise from `turn` that has not passed takes the turn; one that can pay
    for nothing passes at once (its only move); when all have passed, hiring starts."""
    s = t.state
    n = s["player_count"]
    first = s["turn"]
    assert first is not None  # the Player Actions phase always has a seat in turn
    for step in range(n):
        seat = (first + step) % n
        p = s["players"][seat]
        if p["passed"]:
            continue
        if not can_act(t, seat):
            p["passed"] = True
            _auto(s, {"seat": seat, "kind": "pass"})
            continue
        s["turn"] = seat
        return None
    return "hire_start"


def start_hire(t: Table) -> str | None:
    """Hire Citizens, all seats at once; a seat with nobody to place is done at once."""
    s = t.state
    s["turn"] = None
    for seat, p in enumerate(s["players"]):
        spots = hire_spots(p)
        t.hires_now(seat, spots)
        p["done"] = not spots
    return "hire"


def hire_over(t: Table) -> str | None:
    """The trucks start once every seat is done hiring."""
    return "truck_start" if _all_done(t.state) else None


def start_truck(t: Table) -> str | None:
    """Move Delivery Truck, all seats at once: 1 + Transportation bonus steps from where it stopped."""
    for seat, p in enumerate(t.state["players"]):
        truck = p["truck"]
        truck["steps_left"] = truck_steps(p)
        truck["previous"] = None
        targets = drive_targets(p)
        t.targets_now(seat, targets)
        p["done"] = not targets
    return "truck"


def forced_drives(t: Table) -> str | None:
    """A truck step with exactly one legal square is taken at once (nothing to decide); the
    round ends once every truck has stopped."""
    s = t.state
    for seat, p in enumerate(s["players"]):
        while not p["done"]:
            targets = t.targets(seat)
            if len(targets) != 1:
                break
            got = drive_step(t, seat, targets[0])
            _auto(s, {"seat": seat, "kind": "drive", "to": at(targets[0]), **got})
    return "round_end" if _all_done(s) else None


def _rewards(t: Table, seat: int) -> IncomeRow:
    """Income, and the credit-card rewards of a round with a new bank: vacant silver locations
    refilled, 1 gold per bank built this round up to the 2 gold locations (NOTES decision 6)."""
    p = t.player(seat)
    got = income(p)
    p["silver"] += got
    row: IncomeRow = {"income": got, "card_silver": 0, "gold": 0}
    card = p["card"]
    if p["banks_this_round"] and card is not None:
        row["card_silver"] = SUPPLY["card_silver_slots"] - card["silver"]
        card["silver"] = SUPPLY["card_silver_slots"]
        gold = min(
            SUPPLY["card_gold_slots"], card["gold"] + SUPPLY["card_refill_gold"] * p["banks_this_round"]
        )
        row["gold"] = gold - card["gold"]
        card["gold"] = gold
    p["banks_this_round"] = 0
    p["passed"] = False
    p["done"] = False
    return row


def end_round(t: Table) -> str | None:
    """After the trucks: the game ends in the last round; else income, credit-card rewards,
    market refill and the start marker passing left."""
    s = t.state
    if s["final"]:
        s["turn"] = None
        return "over"
    summary = [_rewards(t, seat) for seat in range(s["player_count"])]
    refill(s)
    s["round_end"] = {"round": s["round"], "players": summary}
    s["round"] += 1
    s["start"] = (s["start"] + 1) % s["player_count"]
    s["turn"] = s["start"]
    return "actions"


def refill(s: State) -> None:
    """Refill the market to players + 3, each new tile with a citizen drawn from the bag. If the
    stack cannot fill it (or is empty), the rest goes out and the next round is the last; round
    `max_rounds` is always the last (a safeguard against a table where nobody buys)."""
    need = s["player_count"] + SUPPLY["market_extra"] - len(s["market"])
    stack, bag, market = s["stack"], s["bag"], s["market"]
    if len(stack) < need or not stack or s["round"] + 1 >= SUPPLY["max_rounds"]:
        s["final"] = True
    rng = Rng(s["rng"])
    for _ in range(min(need, len(stack))):
        tile = stack.pop()
        citizen = bag.pop(rng.below(len(bag)))  # drawn at random from the bag
        market.append({"tile": tile, "citizen": citizen})
    s["rng"] = rng.state
