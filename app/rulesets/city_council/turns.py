"""The steps of a turn that need no decision, each the `auto` of a phase (phases.py): a decision
with a single possible answer taken at once, Prof. Phil's decisions, the end of each phase, the
production steps and the turn end. Each names the phase that comes next, or None to wait there
for a seat."""

from __future__ import annotations

from app.rulesets.city_council import execution, phil, production as prod
from app.rulesets.city_council.activation import activated
from app.rulesets.city_council.committees import can_embezzle, committee_options, embezzle, set_committees
from app.rulesets.city_council.council import (
    count_votes,
    fund_targets,
    phil_funds,
    phil_plans,
    plan_options,
    proposed,
    vote_targets,
)
from app.rulesets.city_council.deck import deal_draw
from app.rulesets.city_council.execute import do_execute, end_council
from app.rulesets.city_council.state import Move, State, chair, is_phil
from app.rulesets.city_council.turn_end import finish_turn, replenish
from app.rulesets.city_council.windows import enter_window


def record_auto(s: State, seat: int | None, move: Move) -> None:
    """Record a decision taken at once because it had a single possible answer (shown with the
    move that led to it, `last.auto`)."""
    s["last"].setdefault("auto", []).append({"seat": seat, "move": move})


def committees(s: State) -> str | None:
    """The Election chairman's assignment, when only one is possible."""
    opts = committee_options(s)
    if len(opts) != 1:
        return None
    record_auto(s, s["decider"], {"type": "committees", "seats": opts[0]})  # the only choice
    return set_committees(s, opts[0])


def treasury(s: State) -> str | None:
    """The Treasury chairman decides whether to embezzle (Prof. Phil always does: RB 2 players,
    he always uses his committee's benefit); then the favour draw."""
    t = chair(s, "treasury")
    if t is not None and can_embezzle(s) and not s.get("treasury_done"):
        if not is_phil(s, t):
            return None
        embezzle(s, t)
    s.pop("treasury_done", None)
    return deal_draw(s)


def draw(s: State) -> str | None:
    """Waits while a drawn pair is not chosen from; then planning, Prof. Phil proposing first."""
    if any([d is not None for d in s["drawn"]]):
        return None
    s["cursor"] = 0
    if s["phil"]:
        phil_plans(s)
    return "plan"


def plan(s: State) -> str | None:
    """Each member in turn order proposes a plan (none when nothing is possible)."""
    if s["cursor"] >= len(s["order"]):
        s["cursor"] = 0
        return "vote"
    m = s["order"][s["cursor"]]
    if is_phil(s, m):  # he proposed at the beginning of the phase
        s["cursor"] += 1
        return "plan"
    if not plan_options(s, m):
        s["plans"][m] = {"kind": "none"}
        s["cursor"] += 1
        return "plan"
    return None


def vote(s: State) -> str | None:
    """Each member in turn order places a Delegate (Prof. Phil by his card; a single target at
    once)."""
    if s["cursor"] >= len(s["order"]):
        s["cursor"] = 0
        return "fund"
    m = s["order"][s["cursor"]]
    targets = vote_targets(s, m)
    if not targets:
        s["cursor"] += 1
        return "vote"
    if is_phil(s, m):
        s["delegates"][m] = phil.choose_vote(s, m)
        s["cursor"] += 1
        return "vote"
    if len(targets) == 1:  # a single plan to vote for: the Delegate goes there at once
        record_auto(s, m, {"type": "vote", "plan": targets[0]})
        s["delegates"][m] = targets[0]
        s["cursor"] += 1
        return "vote"
    return None


def fund(s: State) -> str | None:
    """Each member in turn order may put private funds on construction plans, until done."""
    if s["cursor"] >= len(s["order"]):
        return "vote2"
    m = s["order"][s["cursor"]]
    if not fund_targets(s, m) or s.get("fund_done"):
        s.pop("fund_done", None)
        s["cursor"] += 1
        return "fund"
    if is_phil(s, m):
        phil_funds(s, m)
        s["cursor"] += 1
        return "fund"
    return None


def vote2(s: State) -> str | None:
    """The Executive chairman's second Delegate (Prof. Phil's by his card), then the count."""
    e = chair(s, "executive")
    if e is None or not proposed(s):
        return count_votes(s)
    if is_phil(s, e):
        s["exec_vote"] = phil.choose_vote(s, e)
        return count_votes(s)
    return None


def execute(s: State) -> str | None:
    """The Election chairman executes the approved plans one by one."""
    # RB: some plans cannot be executed (budget, space). A plan impossible now may become
    # possible after another (a sale pays for it, a relocation frees room: the chairman
    # picks the order, Example 6), so plans fail only when none of them can be executed.
    ways = execution.allowed(s)
    if not ways:
        s["failed"] += execution.pending(s)
        return end_council(s)
    if len(ways) == 1:  # a single possible execution: taken at once (NOTES 20)
        move = execution.move(*ways[0])
        record_auto(s, chair(s, "election"), move)
        do_execute(s, move)
        return "execute"
    return None


def activate(s: State) -> str | None:
    """Activation turns until every member passed in a row or nothing can be activated; the
    Election chairman's Police Station choice taken at once when single."""
    if s.get("pending"):
        choices = prod.box_choices(s, s["pending"]["b"])
        if len(choices) != 1:
            return None
        pending = s.pop("pending")
        record_auto(s, chair(s, "election"), {"type": "police", "boxes": choices[0]})
        prod.activate_building(s, pending["by"], pending["b"], choices[0])
        activated(s)
        return "activate"
    if s["passes"] >= s["members"] or not prod.can_activate(s):
        s["report"] = {"unemployment": None, "resolution": [], "lifestyle": None}
        return enter_window(s, "window_activation") if s["turn"] > 1 else "unemployment"
    m = s["order"][s["cursor"]]
    # Prof. Phil's activation turn is played for him by the Election chairman (NOTES 15)
    if s["acts_left"] == 0:
        s["acts_left"] = 2 if s["committee"][m] == "transport" else 1
    return None


def _window_closed(s: State) -> bool:
    """Every player has answered the scoring window."""
    return all(s["done"])


def window_activation(s: State) -> str | None:
    """The scoring window after activation; unemployment follows."""
    return "unemployment" if _window_closed(s) else None


def window_resolution(s: State) -> str | None:
    """The scoring window after resolution; monitoring follows."""
    return "monitoring" if _window_closed(s) else None


def window_monitoring(s: State) -> str | None:
    """The scoring window after monitoring; the turn end's replenishing follows."""
    return "replenish" if _window_closed(s) else None


def turn_end(s: State) -> str | None:
    """The scoring and discarding window of the turn end; the turn then finishes."""
    return "finish" if _window_closed(s) else None


def unemployment(s: State) -> str:
    """RB Production B."""
    s["report"]["unemployment"] = prod.unemployment(s)
    return "resolution"


def resolution(s: State) -> str:
    """RB Production C, then a scoring window (none in turn 1)."""
    s["report"]["resolution"] = prod.resolve(s)
    if s["phase"] == "over":  # a defeat (production.check_defeat): no window opens
        return "over"
    return enter_window(s, "window_resolution") if s["turn"] > 1 else "monitoring"


def monitoring(s: State) -> str:
    """RB Monitoring (lifestyle), then a scoring window (none in turn 1)."""
    s["report"]["lifestyle"] = prod.lifestyle(s)
    if s["phase"] == "over":  # a defeat (production.check_defeat): no window opens
        return "over"
    return enter_window(s, "window_monitoring") if s["turn"] > 1 else "replenish"


def refill(s: State) -> str:
    """RB Turn End: the planning area replenished, then the turn end's window."""
    replenish(s)
    return enter_window(s, "turn_end")


def finish(s: State) -> str:
    """The turn ends: the game, or the next turn's committees."""
    return finish_turn(s)
