"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
Whitehouse 2012): the search bot behind the Hard and Expert levels.

Fair by construction: the search reads the true state exactly once, through
`determinize(state, seat, rng)` for its own seat, which depends only on what that seat may see;
every iteration then re-deals that determinization again (so hidden things vary between
iterations) and plays in the copy. Everything else goes through `legal_moves`, `apply`,
`to_act`, `playout` and `outcome`, plus two optional ruleset hooks:

- `evaluate(state) -> list[float]`: each seat's chance of winning, in [0, 1], for a leaf cut off
  before the end (then no playout is run: playouts are slow in some games and random ones say
  little);
- `candidates(state, seat, k) -> list[move]`: at most `k` moves worth searching, best first (a
  prior, and the pruning of wide decisions such as Suburbia's). Without it every legal move is
  a candidate, in the rules' order.

The tree holds the observer's information sets; its edges are every seat's moves, keyed by the
move's JSON text, with availability counts (a move legal in only some determinizations). Anytime:
it stops at the deadline or the iteration cap, whichever comes first, and answers the root move
visited most. Seeded: the same seed and iteration cap (with no deadline reached) give the same
move.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove, Move, State, playout, random_move

EXPLORATION = 0.7  # UCB's exploration constant for rewards in [0, 1]
# How apply refuses a move: IllegalMove, or a shape error for a move listed in another
# determinization whose parts do not exist in this one (a card id, say).
REFUSALS = (IllegalMove, KeyError, TypeError, ValueError, IndexError, AttributeError)


@dataclass(frozen=True)
class Budget:
    """How long a search may run: seconds (None: no deadline) and an iteration cap (None: none),
    how many candidates per decision it searches, how many moves it plays from a new leaf
    before `evaluate` judges it (None: play to the end and read `outcome`), and how much it
    trusts the first candidate (the heuristic's choice)."""

    seconds: float | None = 0.5
    iterations: int | None = None
    width: int = 8
    rollout: int | None = 0
    use_hooks: bool = True
    prior: float = 0.0  # progressive bias toward the candidates' first move (its weight)
    greedy: bool = False  # rollout moves by the ruleset's own bot instead of random ones
    cpu: bool = False  # `seconds` of this process's CPU time, not of the wall clock (benches)


@dataclass(eq=False)
class Node:
    """One information set of the observer after a sequence of moves; its children by move."""

    mover: int = -1  # the seat whose move led here (-1 at the root)
    move: Move | None = None
    first: bool = False  # the first candidate listed (the heuristic's choice)
    visits: int = 0
    available: int = 0
    reward: float = 0.0  # summed rewards of `mover`
    children: dict[str, Node] = field(default_factory=dict)
    actor: int = -1  # the seat moving from here, when `moves` was listed
    moves: list[tuple[str, Move]] | None = None  # candidates from here, by key, best first


def move_key(move: Move) -> str:
    """A move's identity in the tree: its JSON text with sorted keys."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def rewards(ruleset: Any, state: State) -> list[float]:
    """Per-seat rewards of a finished game: 1 shared among the winners, 0 for everyone else (a
    game nobody wins gives every seat 0)."""
    result = ruleset.outcome(state)
    if result is None:
        return []
    players = len(result.ranks)
    winners = result.extra.get("winners", result.winners)
    if not winners:
        return [0.0] * players
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(players)]


def win_chances(estimates: list[float], scale: float) -> list[float]:
    """Each seat's chance of winning from projected final scores: a logistic of its margin over
    the best other seat, `scale` points making odds of e to 1. Rulesets' `evaluate` hooks use it."""
    out = []
    for seat, mine in enumerate(estimates):
        best_other = max([v for s, v in enumerate(estimates) if s != seat], default=mine)
        margin = max(-40.0, min(40.0, (mine - best_other) / scale))
        out.append(1.0 / (1.0 + math.exp(-margin)))
    return out


def best_first(best: Move | None, moves: list[Move], k: int) -> list[Move]:
    """At most `k` of `moves` with `best` (a heuristic's choice) first, the others in order:
    the `candidates` hook of a ruleset whose bot ranks nothing but its own choice."""
    if best is None or best not in moves:
        return moves[:k]
    return [best, *[m for m in moves if m != best][: k - 1]]


class Search:
    """One decision's search for `seat`; `run` returns the chosen move."""

    def __init__(self, ruleset: Any, seat: int, rng: Rng, budget: Budget) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.rng = rng
        self.budget = budget
        self.evaluate = getattr(ruleset, "evaluate", None) if budget.use_hooks else None
        self.candidates = getattr(ruleset, "candidates", None) if budget.use_hooks else None
        self.bot = getattr(ruleset, "bot_move", None)
        self.iterations = 0

    def moves(self, state: State, actor: int) -> list[Move]:
        """The moves searched for `actor` here: the candidates hook's, else every legal move."""
        if self.candidates is not None:
            return list(self.candidates(state, actor, self.budget.width))
        return list(self.ruleset.legal_moves(state, actor))

    def actor(self, state: State) -> int | None:
        """Who moves next in the tree: the observer first when several seats owe a move (so it
        never chooses after seeing a simultaneous choice), else the first seat due."""
        due = self.ruleset.to_act(state)
        if not due:
            return None
        return self.seat if self.seat in due else due[0]

    def run(self, state: State) -> Move:
        """The move to play: `state` is read once, through determinize for the observer."""
        base = self.ruleset.determinize(state, self.seat, self.rng)
        root_moves = self.moves(base, self.seat)
        if not root_moves:
            raise ValueError(f"seat {self.seat} has no move to search")
        if len(root_moves) == 1:
            return root_moves[0]
        root = self.root = Node(actor=self.seat, moves=[(move_key(m), m) for m in root_moves])
        clock = time.process_time if self.budget.cpu else time.perf_counter
        stop = None if self.budget.seconds is None else clock() + self.budget.seconds
        cap = self.budget.iterations
        while cap is None or self.iterations < cap:
            if stop is not None and self.iterations and clock() >= stop:
                break
            det = self.ruleset.determinize(base, self.seat, self.rng)
            self._iterate(root, det)
            self.iterations += 1
        return self._best(root, root_moves)

    def _iterate(self, root: Node, state: State) -> None:
        """Select and expand down one path in the determinization `state`, judge the leaf, and
        add its rewards along the path."""
        path = [root]
        node = root
        while (actor := self.actor(state)) is not None:
            if node.moves is None or node.actor != actor:
                # Candidates are listed once per node (the hook can be dear: Suburbia values
                # every placement); a listed move another determinization refuses is skipped.
                node.actor, node.moves = actor, [(move_key(m), m) for m in self.moves(state, actor)]
            step = self._step(node, state, actor)
            if step is None:
                break
            child, state, fresh = step
            path.append(child)
            if fresh:
                break
            node = child
        values = self._judge(state)
        for n in path[1:]:
            n.visits += 1
            n.reward += values[n.mover] if n.mover < len(values) else 0.0

    def _step(self, node: Node, state: State, actor: int) -> tuple[Node, State, bool] | None:
        """The child taken from `node` in `state` and the state after its move, and whether it
        is new: the best-ranked untried move, else the best by UCB among the moves this
        determinization accepts; candidates listed afresh when it accepts none of them."""
        assert node.moves is not None
        for _ in range(2):
            for index, (key, move) in enumerate(node.moves):
                if key not in node.children and (after := self._apply(state, actor, move)) is not None:
                    child = node.children[key] = Node(actor, move, first=index == 0, available=1)
                    return child, after, True
            tried = [node.children[k] for k, _ in node.moves if k in node.children]
            for child in tried:
                child.available += 1
            for child in sorted(tried, key=self._ucb, reverse=True):
                if (after := self._apply(state, actor, child.move)) is not None:
                    return child, after, False
                child.available -= 1  # not available in this determinization
            known = {k for k, _ in node.moves}
            node.moves += [(k, m) for m in self.moves(state, actor) if (k := move_key(m)) not in known]
        return None

    def _apply(self, state: State, actor: int, move: Move | None) -> State | None:
        """The state after `move`, or None when this determinization refuses it."""
        try:
            return self.ruleset.apply(state, actor, move)  # type: ignore[no-any-return]  # ruleset: Any
        except REFUSALS:
            return None

    def _ucb(self, child: Node) -> float:
        """UCB1 with availability counts standing in for the parent's visits, plus a
        progressive bias toward the heuristic's choice that fades as visits come in."""
        bias = self.budget.prior / (child.visits + 1) if child.first else 0.0
        return (
            child.reward / child.visits
            + bias
            + EXPLORATION * math.sqrt(math.log(max(child.available, 1)) / child.visits)
        )

    def _judge(self, state: State) -> list[float]:
        """Per-seat rewards for the leaf: play `rollout` moves (the bot's when `greedy`, else
        random ones; None: to the end), then `evaluate` the state, or read the outcome once the
        game is over; without `evaluate`, a random playout to the end."""
        if self.evaluate is None and not self.budget.greedy:
            return rewards(self.ruleset, playout(self.ruleset, state, self.rng))
        steps = 0
        while (due := self.ruleset.to_act(state)) and (
            self.budget.rollout is None or steps < self.budget.rollout
        ):
            actor = self.rng.choice(due)
            state = self.ruleset.apply(state, actor, self._rollout_move(state, actor))
            steps += 1
        if not self.ruleset.to_act(state):
            return rewards(self.ruleset, state)
        if self.evaluate is not None:
            return [float(v) for v in self.evaluate(state)]
        return rewards(self.ruleset, playout(self.ruleset, state, self.rng))

    def _rollout_move(self, state: State, actor: int) -> Move:
        """A rollout's move: the ruleset's bot's when `greedy`, else a random legal one."""
        if self.budget.greedy and self.bot is not None:
            move = self.bot(state, actor, self.rng)
            if move is not None:
                return move  # type: ignore[no-any-return]  # an optional hook, found by getattr
        return random_move(self.ruleset, state, actor, self.rng)

    def _best(self, root: Node, root_moves: list[Move]) -> Move:
        """The root move visited most (ties: the better mean, then the candidates' order)."""
        best, best_key = root_moves[0], (-1, -1.0, 0)
        for rank, move in enumerate(root_moves):
            child = root.children.get(move_key(move))
            if child is None or child.mover != self.seat:
                continue
            key = (child.visits, child.reward / max(child.visits, 1), -rank)
            if key > best_key:
                best, best_key = child.move or move, key
        return best


def search(ruleset: Any, state: State, seat: int, seed: int, budget: Budget) -> Move:
    """The search bot's move for `seat`: SO-ISMCTS with `budget`, seeded by `seed`."""
    return Search(ruleset, seat, Rng(seed), budget).run(state)
