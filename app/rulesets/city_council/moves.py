"""What each move does to the state (a private copy, the move already checked legal), one handler
per move type; each names the phase that comes next (phases.PHASES)."""

from __future__ import annotations

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.activation import activated, next_activator
from app.rulesets.city_council.committees import embezzle as take_money, set_committees
from app.rulesets.city_council.council import count_votes, enter_execute
from app.rulesets.city_council.deck import discard_card, keep as keep_cards
from app.rulesets.city_council.execute import do_execute
from app.rulesets.city_council.state import Move, State
from app.rulesets.city_council.windows import score_card


def committees(s: State, seat: int, move: Move) -> str:
    """The Election chairman seats the members."""
    return set_committees(s, move["seats"])


def embezzle(s: State, seat: int, move: Move) -> str:
    """The Treasury chairman takes $1 of the City Budget."""
    take_money(s, seat)
    s["treasury_done"] = True
    return "treasury"


def decline(s: State, seat: int, move: Move) -> str:
    """The Treasury chairman takes nothing."""
    s["treasury_done"] = True
    return "treasury"


def keep(s: State, seat: int, move: Move) -> str:
    """A member keeps drawn favour cards and discards the rest."""
    keep_cards(s, seat, move["cards"])
    return "draw"


def plan(s: State, seat: int, move: Move) -> str:
    """A member proposes a plan."""
    s["plans"][seat] = {"kind": move["kind"], "target": move["target"]}
    s["cursor"] += 1
    return "plan"


def vote(s: State, seat: int, move: Move) -> str:
    """A member's Delegate goes on a plan."""
    s["delegates"][seat] = move["plan"]
    s["cursor"] += 1
    return "vote"


def fund(s: State, seat: int, move: Move) -> str:
    """$1 of private funds on a construction plan."""
    s["funds"][seat] -= 1
    s["plan_funds"][move["plan"]][seat] += 1
    return "fund"


def fund_done(s: State, seat: int, move: Move) -> str:
    """The member puts no more funds on plans."""
    s["fund_done"] = True
    return "fund"


def vote2(s: State, seat: int, move: Move) -> str:
    """The Executive chairman's second Delegate, then the count."""
    s["exec_vote"] = move["plan"]
    return count_votes(s)


def vote2_pass(s: State, seat: int, move: Move) -> str:
    """The Executive chairman keeps his second Delegate; the count."""
    return count_votes(s)


def approve(s: State, seat: int, move: Move) -> str:
    """The Election chairman approves one of the plans still tied."""
    s["approved"].append(move["plan"])
    s["tie"]["need"] -= 1
    if s["tie"]["need"] == 0:
        return enter_execute(s)
    return "approve"


def execute(s: State, seat: int, move: Move) -> str:
    """The Election chairman executes an approved plan (its blocks in their sorted form)."""
    move = dict(move)
    move["cells"] = sorted([[int(r), int(c)] for r, c in move.get("cells", [])])
    do_execute(s, move)
    return "execute"


def activate(s: State, seat: int, move: Move) -> str:
    """A building activated by the member whose turn it is (maybe for Prof. Phil), or left to the
    Election chairman to pick its boxes."""
    if move.get("chair"):
        s["pending"] = {"b": move["building"], "by": seat}  # the Election chairman picks the box
        return "activate"
    by = s["order"][s["cursor"]]  # the member whose activation turn it is (maybe Phil)
    prod.activate_building(s, by, move["building"], move["boxes"])
    activated(s)
    return "activate"


def police(s: State, seat: int, move: Move) -> str:
    """The Election chairman picks the Police Station's box for the activation left to him."""
    pending = s.pop("pending")
    prod.activate_building(s, pending["by"], pending["b"], move["boxes"])
    activated(s)
    return "activate"


def zone(s: State, seat: int, move: Move) -> str:
    """A zone activated with a Power and a Community token."""
    prod.activate_zone(s, move["zone"], move["token"])
    activated(s)
    return "activate"


def pass_(s: State, seat: int, move: Move) -> str:
    """The member activates nothing more this turn."""
    s["passes"] += 1
    next_activator(s)
    return "activate"


def score(s: State, seat: int, move: Move) -> str:
    """A favour card scored (its VP shown with the move)."""
    s["last"]["vp"] = score_card(s, seat, move["card"])
    s["last"]["card"] = move["card"]
    return str(s["phase"])


def discard(s: State, seat: int, move: Move) -> str:
    """A favour card discarded at turn end."""
    s["hands"][seat].remove(move["card"])
    discard_card(s, move["card"], seat)
    return str(s["phase"])


def done(s: State, seat: int, move: Move) -> str:
    """The player has nothing more to score or discard in this window."""
    s["done"][seat] = True
    return str(s["phase"])
