"""The turn sequence's entry points and rules under the names the tests and tools have always
used (`flow.advance`, `flow.do_execute`, ...): each lives in its own module (NOTES, "Code
layout"); this module only gathers them."""

from __future__ import annotations

from app.rulesets.city_council import phil
from app.rulesets.city_council.activation import activation_moves
from app.rulesets.city_council.apply import apply, apply_in_place, playout
from app.rulesets.city_council.committees import can_embezzle, committee_options, embezzle, set_committees
from app.rulesets.city_council.council import (
    available_tiles,
    count_votes,
    enter_execute,
    fund_targets,
    money_tokens_out,
    plan_options,
    plan_votes,
    plans_to_execute,
    vote_targets,
)
from app.rulesets.city_council.deck import deal_draw, discard_card, draw_cards, keep_options
from app.rulesets.city_council.execute import do_execute, end_council, execute_options
from app.rulesets.city_council.legal import to_act
from app.rulesets.city_council.phases import PHASES, advance, legal_moves
from app.rulesets.city_council.reasons import RULES as _RULE
from app.rulesets.city_council.state import Move, State, chair, is_phil
from app.rulesets.city_council.turn_end import finish_turn, replenish
from app.rulesets.city_council.windows import HAND_LIMIT, WINDOWS, score_card, scorable, window_moves

__all__ = [
    "HAND_LIMIT",
    "PHASES",
    "WINDOWS",
    "_RULE",
    "Move",
    "State",
    "activation_moves",
    "advance",
    "apply",
    "apply_in_place",
    "available_tiles",
    "can_embezzle",
    "chair",
    "committee_options",
    "count_votes",
    "deal_draw",
    "discard_card",
    "do_execute",
    "draw_cards",
    "embezzle",
    "end_council",
    "enter_execute",
    "execute_options",
    "finish_turn",
    "fund_targets",
    "is_phil",
    "keep_options",
    "legal_moves",
    "money_tokens_out",
    "phil",
    "plan_options",
    "plan_votes",
    "plans_to_execute",
    "playout",
    "replenish",
    "score_card",
    "scorable",
    "set_committees",
    "to_act",
    "vote_targets",
    "window_moves",
]
