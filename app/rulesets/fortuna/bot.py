"""A heuristic Fortuna bot: each decision is judged by simulating it on a light copy of the
table and scoring the bot's province (steps first, then what its resources are worth toward
future steps). It never looks at hidden cards or future dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.cards import card_args, execute
from app.rulesets.fortuna.legal import taxed
from app.rulesets.fortuna.phases import legal_moves
from app.rulesets.fortuna.scoring import card_points
from app.rulesets.fortuna.state import Move, Player, State, water_total

# Worth of one unit in steps-equivalents x4 (a step is worth 4): tuned by bench/fortuna_bot.py.
WORTH = {
    "money": 0.45,
    "grain": 1.1,
    "wine": 1.3,
    "water": 0.7,
    "centurions": 1.7,
    "vestals": 2.6,
    "die": 3.2,
    "married": 6.0,
    "fortuna_keep": 1.5,
    "fortuna_take": 6.0,
    "fuel": 0.5,
    "fuel_broke": 3.0,
}
BUILDING_WORTH = {"aqueduct": 5.0, "market": 4.0, "basilica": 4.0, "palace": 8.0}


def province_value(pl: Player, round_no: int = 1) -> float:
    """How good a province is for its owner (higher is better)."""
    v = 4.0 * pl["position"]
    if pl["position"] < data.GATE_STEP:
        v -= 0.5 * (data.GATE_STEP - pl["position"])  # getting inside Rome matters most
    v += WORTH["money"] * min(pl["money"], 14) + 0.1 * max(0, pl["money"] - 14)
    for key in ("grain", "wine", "centurions", "vestals"):
        v += WORTH[key] * min(pl[key], 4) + 0.3 * max(0, pl[key] - 4)
    v += WORTH["water"] * min(water_total(pl), 3)
    # something to offer the Emperor next turn: without it the favour phase costs a tax, and
    # without money the tax is a step back (bots stalled on Fortuna-then-tax without this)
    fuel = water_total(pl) + pl["wine"] + pl["grain"] + pl["centurions"]  # favour cards 1-4
    if fuel:
        v += WORTH["fuel"] if pl["money"] else WORTH["fuel_broke"]
    v += WORTH["die"] * (pl["dice"] - 1)
    v += WORTH["married"] * pl["married"]
    v += sum([BUILDING_WORTH[b] for b in pl["buildings"]])
    for card in pl["hand"]:
        v += _card_worth(pl, card)
    return v


def _light(s: State) -> State:
    """A copy of the parts an action card may change, without the hidden deck."""
    t = s.copy()
    t["players"] = [
        {**pl, "buildings": list(pl["buildings"]), "hand": list(pl["hand"])} for pl in s["players"]
    ]
    t["piles"] = dict(s["piles"])
    t["arrivals"] = list(s["arrivals"])
    t["events"] = []
    t["deck"], t["discard"], t["known_in_deck"] = [], [], [[] for _ in s["players"]]
    t["drawn_since_shuffle"] = list(s["drawn_since_shuffle"])
    t["palace"] = {"cards": [], "seen": [], "taken": []}
    return t


def action_gain(s: State, seat: int, card: str, args: dict[str, Any] | None) -> float:
    """Value change of executing `card` with `args` now."""
    if args is None:
        return 0.0
    before = province_value(s["players"][seat])
    t = _light(s)
    execute(t, seat, card, args)
    gain = province_value(t["players"][seat]) - before
    if data.ACTIONS[card]["effect"] == "bribe":
        gain -= 0.3 * data.ACTIONS["bribe"]["cost"]  # money handed to a rival
    return gain


def best_use(s: State, seat: int, card: str) -> float:
    """The most a card could give the seat if played now."""
    return max([0.0] + [action_gain(s, seat, card, a) for a in card_args(s, seat, card)])


def choose(state: State, seat: int, rng: Any) -> Move:
    """The bot's move for `seat` (always one of legal_moves)."""
    moves = legal_moves(state, seat)
    phase = state["phase"]
    priv = [m for m in moves if m["type"] == "privilege"]
    for m in priv:  # resources and steps are best taken at once (B: once per turn)
        if data.PRIVILEGES[m["card"]]["cls"] == "B":
            return m
    if priv and phase in ("wrap", "favour", "play"):
        return priv[0]
    chooser = _CHOOSERS.get(phase)
    if chooser is not None:
        return chooser(state, seat, moves, rng)
    return next((m for m in moves if m["type"] == "end"), moves[0])


def _play(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    mine = state["sides"][seat]
    best, score = moves[0], -1e9
    for m in moves:
        if m["type"] != "play":
            continue
        card = mine[m["slot"]]["card"]
        v = action_gain(state, seat, card, m["args"])
        # keep the Fortuna card in front of you to become start player (it goes away when played)
        if card == "fortuna":
            v -= WORTH["fortuna_keep"]
        v += 0.01 * rng.below(10)
        if v > score:
            best, score = m, v
    return best


def _exchange(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    best, score = moves[0], -1e9
    for m in moves:
        if m["type"] != "exchange":
            continue
        card = state["sides"][m["side"]][m["slot"]]["card"]
        v = best_use(state, seat, card) + (WORTH["fortuna_take"] if card == "fortuna" else 0.0)
        v += 0.01 * rng.below(10)
        if v > score:
            best, score = m, v
    return best


def _military(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    best: Move = {"type": "skip"}
    score = 0.0
    mine = state["sides"][seat]
    paid = _light(state)  # the Centurion is given up before the card is executed (rules)
    paid["players"][seat]["centurions"] -= 1
    for m in moves:
        if m["type"] == "military":
            v = action_gain(paid, seat, mine[m["slot"]]["card"], m["args"]) - WORTH["centurions"] - 0.5
            if v > score:
                best, score = m, v
    return best


def _favour(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    pl = state["players"][seat]
    fav = [m for m in moves if m["type"] == "favour"]
    if fav:

        def worth(m: Move) -> float:
            gives = data.FAVOURS[m["card"]]["gives"]
            cost = 0.0 if gives in ("married", "vestals") else WORTH[gives]
            steps = min(m["n"], data.PALACE_STEP - pl["position"])
            return float(4.0 * steps - 0.8 * cost * m["n"] + 2.2 * state["favours"][m["card"] - 1]["tokens"])

        return max(fav, key=worth)
    passes = [m for m in moves if m["type"] == "pass"]
    free = [m for m in passes if not taxed(state, m["die"])]
    return (free or passes)[0]


def _flip(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    rival = next(i for i in range(state["player_count"]) if i != seat)
    other = state["players"][rival]
    useful = {
        1: water_total(other),
        2: min(2, other["wine"]),
        3: min(2, other["grain"]),
        4: other["centurions"],
        5: (1 + ("palace" in other["buildings"])) if other["married"] else 0,
        6: other["vestals"],
    }
    flips = [m for m in moves if m["type"] == "flip"]
    return max(flips, key=lambda m: (useful[m["card"]], m["card"]))


def _card_worth(pl: Player, card: str) -> float:
    cls = data.PRIVILEGES[card]["cls"]
    return 1.5 if cls == "A" else 3.6 if cls == "B" else 1.0 + card_points(pl, card)


def _keep(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    pl = state["players"][seat]
    return max(moves, key=lambda m: sum([_card_worth(pl, c) for c in m["cards"]]))


def _palace(state: State, seat: int, moves: list[Move], rng: Any) -> Move:
    pl = state["players"][seat]
    return max(moves, key=lambda m: _card_worth(pl, m["card"]))


_CHOOSERS: dict[str, Callable[[State, int, list[Move], Any], Move]] = {
    "play": _play,
    "exchange": _exchange,
    "military": _military,
    "favour": _favour,
    "flip": _flip,
    "keep": _keep,
    "palace": _palace,
}
