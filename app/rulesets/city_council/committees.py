"""RB Committees phase: the Election chairman's assignments, the turn order they fix, and the
Treasury chairman's embezzlement."""

from __future__ import annotations

from itertools import combinations, permutations

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import COMMITTEES


def committee_options(s: State) -> list[list[str | None]]:
    """Every committee assignment the Election chairman may make (RB Committees phase).

    Turn 1: he is on the Election Committee and places everyone else on distinct committees.
    Later: at least one change, the least number of changes, every member on spot B moves, the
    Election Committee stays filled, and Prof. Phil never chairs it."""
    if s["turn"] == 1:
        return _first_turn_options(s)
    # Search by the number of members who change (fewest first), instead of trying every
    # permutation of the committees: the movers (every member on spot B among them) take
    # committees no staying member holds, each a different one from his own.
    members = s["members"]
    must = {m for m in range(members) if s["streak"][m] >= 2}
    for k in range(max(1, len(must)), members + 1):
        found: list[list[str | None]] = []
        for movers in combinations(range(members), k):
            if must.issubset(movers):
                _moves_of(s, movers, found)
        if found:
            # the order of permutations(COMMITTEES, members), as the rules' listing always was
            found.sort(key=_committee_ranks)
            return found
    return []


def _first_turn_options(s: State) -> list[list[str | None]]:
    """Turn 1: the Election chairman seats everyone else on distinct committees."""
    members = s["members"]
    out: list[list[str | None]] = []
    others = [c for c in COMMITTEES if c != "election"]
    decider = s["decider"]
    assert decider is not None  # drawn at setup (turn 1)
    rest = [m for m in range(members) if m != decider]
    for combo in permutations(others, len(rest)):
        a: list[str | None] = [None] * members
        a[decider] = "election"
        for m, c in zip(rest, combo):
            a[m] = c
        out.append(a)
    return out


def _moves_of(s: State, movers: tuple[int, ...], found: list[list[str | None]]) -> None:
    """Add to `found` each assignment in which exactly `movers` change committee."""
    members = s["members"]
    cur = s["committee"]
    phil = s["players"] if s["phil"] else None
    k = len(movers)
    held = {cur[m] for m in range(members) if m not in movers}
    free = [c for c in COMMITTEES if c not in held]
    was = [cur[m] for m in movers]
    for combo in permutations(free, k):
        a = list(cur)
        for i in range(k):
            if combo[i] == was[i]:
                break  # every mover changes committee
            a[movers[i]] = combo[i]
        else:
            if "election" in a and (phil is None or a[phil] != "election"):
                found.append(a)


_RANK: dict[str | None, int] = {c: i for i, c in enumerate(COMMITTEES)}


def _committee_ranks(a: list[str | None]) -> list[int]:
    """An assignment's committees by their place in COMMITTEES (a sort key)."""
    return [_RANK[c] for c in a]


def set_committees(s: State, assignment: list[str | None]) -> str:
    """Seat the members; those who moved restart their A/B count; fix the turn order. The
    Treasury Committee acts next."""
    for m in range(s["members"]):
        if s["committee"][m] != assignment[m]:
            s["streak"][m] = 0
    s["committee"] = list(assignment)
    # No lambdas or generator expressions capturing locals in the functions that run during
    # play: compiled, each call would allocate a closure.
    rank = [COMMITTEES.index(assignment[m]) for m in range(s["members"])]
    s["order"] = sorted(range(s["members"]), key=rank.__getitem__)
    return "treasury"


def can_embezzle(s: State) -> bool:
    """RB Treasury Committee: embezzle $1 from the City Budget, if possible (a Money token left)."""
    return s["budget"] >= 1 and prod.money_tokens_free(s) > 0


def embezzle(s: State, m: int) -> None:
    """Take a Money token as private funds and lower the City Budget by $1."""
    s["budget"] -= 1
    s["funds"][m] += 1
