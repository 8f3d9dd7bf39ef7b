"""A small test-only game that exercises what the platform must support for every real ruleset.

Hidden hands, a shuffled deck, a simultaneous phase (sealed bids), a sequential phase, a die, a
secret choice hidden from the log, options, 1 to 6 seats. Registered only by the tests.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove, Move, Outcome, RulesetHooks, State, ranks_from_keys

NO_CARD = "K000"  # the bid of a seat whose hand is empty; cards sort by their zero-padded number


class TestGameOptions(BaseModel):
    """Variants: how many rounds, and whether the round winner's die counts double."""

    __test__ = False  # not a pytest test class despite its name

    model_config = {"extra": "forbid"}
    rounds: int = Field(3, ge=1, le=8, description="Rounds to play")
    double_points: bool = Field(False, description="Round winners score double")


class TestGame(RulesetHooks):
    """Sealed bids: everyone bids a hidden card at once; the highest unique bid rolls for points."""

    __test__ = False

    id = "testgame"
    version = "1"
    name = "Test Game"
    min_players = 1
    max_players = 6
    Options = TestGameOptions
    conformance_options = [{"rounds": 1}, {"rounds": 2, "double_points": True}]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Deal three cards to each seat from a shuffled deck."""
        opts = TestGameOptions.model_validate(options.model_dump())
        rng = Rng.from_seed(seed, "setup")
        deck = rng.shuffled([f"K{n:03d}" for n in range(1, 12 * players + 1)])
        hands = [sorted(deck.pop() for _ in range(3)) for _ in range(players)]
        return {
            "players": players,
            "rounds": opts.rounds,
            "double": opts.double_points,
            "round": 1,
            "phase": "bid",
            "turn": 0,
            "deck": deck,
            "hands": hands,
            "bids": [None] * players,
            "scores": [0] * players,
            "last": None,
            "rng": rng.state,
        }

    def to_act(self, state: State) -> list[int]:
        """Every seat without a bid in the bid phase; the seat whose turn it is to draw."""
        if state["phase"] == "over":
            return []
        if state["phase"] == "bid":
            return [s for s, b in enumerate(state["bids"]) if b is None]
        return [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Bid any card in hand (or nothing when empty); draw or pass in the draw phase."""
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "bid":
            hand = state["hands"][seat]
            return [{"type": "bid", "card": c} for c in hand] or [{"type": "bid", "card": NO_CARD}]
        return [{"type": "draw"}, {"type": "pass"}]

    def apply(self, state: State, seat: int, move: Move) -> State:
        """Record a bid (resolving the round when all are in) or a draw/pass."""
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("Bids must be a card from your hand, and only in the bid phase.")
        s = dict(state)
        if move["type"] == "bid":
            return self._bid(s, seat, move["card"])
        if move["type"] == "draw" and s["deck"]:
            s["deck"] = s["deck"][:-1]
            s["hands"] = list(s["hands"])
            s["hands"][seat] = sorted(s["hands"][seat] + [state["deck"][-1]])
        s["turn"] = seat + 1
        if s["turn"] == s["players"]:
            s["round"] += 1
            s["phase"] = "bid" if s["round"] <= s["rounds"] else "over"
            s["turn"] = 0
        return s

    def _bid(self, s: State, seat: int, card: str) -> State:
        s["bids"] = list(s["bids"])
        s["bids"][seat] = card
        if card != NO_CARD:
            s["hands"] = list(s["hands"])
            hand = list(s["hands"][seat])
            hand.remove(card)
            s["hands"][seat] = hand
        if any(b is None for b in s["bids"]):
            return s
        bids = s["bids"]
        top = max(bids)
        winners = [i for i, b in enumerate(bids) if b == top and top != NO_CARD]
        rng = Rng(s["rng"])
        roll = rng.randint(1, 6)
        s["rng"] = rng.state
        if len(winners) == 1:
            s["scores"] = list(s["scores"])
            s["scores"][winners[0]] += roll * (2 if s["double"] else 1)
        s["last"] = {"bids": bids, "winner": winners[0] if len(winners) == 1 else None, "roll": roll}
        s["bids"] = [None] * s["players"]
        s["phase"] = "draw"
        return s

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Own hand and bid; others' hand sizes and whether they have bid; no deck order, no rng."""
        return {
            "round": state["round"],
            "rounds": state["rounds"],
            "phase": state["phase"],
            "turn": state["turn"],
            "deck_size": len(state["deck"]),
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "bids": [b if i == seat else (b is not None) for i, b in enumerate(state["bids"])],
            "scores": list(state["scores"]),
            "last": state["last"],
        }

    def outcome(self, state: State) -> Outcome | None:
        """Scores; ties share a rank."""
        if state["phase"] != "over":
            return None
        keys = [(score,) for score in state["scores"]]
        return Outcome(
            list(state["scores"]), ranks_from_keys(keys), [{"points": score} for score in state["scores"]]
        )

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal the deck, other hands and other sealed bids; keep the generator secret too."""
        pool = list(state["deck"])
        hidden_bids = [i for i, b in enumerate(state["bids"]) if i != seat and b not in (None, NO_CARD)]
        for i, hand in enumerate(state["hands"]):
            if i != seat:
                pool += hand
        pool += [state["bids"][i] for i in hidden_bids]
        pool.sort()  # canonical before the shuffle: equal views re-deal the same (fair bots)
        rng.shuffle(pool)
        s = dict(state)
        s["hands"] = [
            list(h) if i == seat else sorted(pool.pop() for _ in h) for i, h in enumerate(state["hands"])
        ]
        bids = list(state["bids"])
        for i in hidden_bids:
            bids[i] = pool.pop()
        s["bids"] = bids
        s["deck"] = pool
        s["rng"] = rng.next64()
        return s

    def public_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
        """A sealed bid shows only that a bid was made, except to its bidder."""
        if move.get("type") == "bid" and viewer != seat:
            return {"type": "bid"}
        return move


TEST_GAME = TestGame()
