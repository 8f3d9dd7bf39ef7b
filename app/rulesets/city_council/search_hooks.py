"""The search bot's hooks for City Council (app/engine/search.py), from the heuristic bot's
knowledge: its choice searched first, leaves judged by each councillor's VP plus what the
cards in hand could still score."""

from __future__ import annotations


from app.engine.rng import Rng
from app.engine.search import best_first, win_chances
from app.rulesets.city_council import bot
from app.rulesets.city_council.phases import legal_moves
from app.rulesets.city_council.state import Move, State


SCALE = 3.0  # VP that make a win e times likelier than a loss
HAND = 0.5  # a card in hand scores later only if the city gets there


def candidates(state: State, seat: int, k: int) -> list[Move]:
    """At most `k` moves, the bot's choice first."""
    moves = legal_moves(state, seat)
    return best_first(bot.choose(state, seat, Rng(len(moves))), moves, k)


def evaluate(state: State) -> list[float]:
    """Each seat's chance of winning from its VP and its hand."""
    # hands has one more entry than seats when Prof. Phil plays: he never wins
    estimates = [
        state["vp"][seat] + HAND * sum([bot.card_value(state, seat, c) for c in state["hands"][seat]])
        for seat in range(state["players"])
    ]
    return win_chances(estimates, SCALE)
