"""Prints one SHA-256 over many games of every ruleset: each state, the patches of each seat's and
a spectator's view, the legal moves, bot moves, log lines and outcomes, plus each variant's fast playout.

Run as `python -m tests.engine.game_fingerprint` with and without `CIVITAS_PURE_RULES=1`: the
compiled rules must print the digest the Python source prints (tests/engine/test_compiled.py).
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

import orjson

from app import rulesets as _product_rulesets  # noqa: F401  (registers the rulesets)
from app.engine import compiled, registry
from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import playout, random_move

SEEDS = (1, 2)
# Long games stop here: enough moves to pass every phase of every game's early rounds.
MAX_MOVES = 400


def _feed(digest: Any, value: Any) -> None:
    digest.update(orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=repr))


def _cases(ruleset: Any) -> list[tuple[int, dict[str, Any]]]:
    out = [(n, {}) for n in range(ruleset.min_players, ruleset.max_players + 1)]
    return out + [(ruleset.min_players, o) for o in getattr(ruleset, "conformance_options", [])]


def play(ruleset: Any, players: int, options: dict[str, Any], seed: int, digest: Any) -> None:
    """One game to its end (or MAX_MOVES): random moves and, every third move, the bot's."""
    state = ruleset.setup(players, ruleset.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "fingerprint")
    bot = getattr(ruleset, "bot_move", None)
    log_text = getattr(ruleset, "log_text", None)
    before: list[Any] = [{} for _ in range(players + 1)]
    for step in range(MAX_MOVES):
        to_act = ruleset.to_act(state)
        if not to_act:
            break
        seat = rng.choice(to_act)
        views = [ruleset.view(state, viewer) for viewer in (*range(players), None)]
        _feed(digest, [diff(old, new) for old, new in zip(before, views)])
        before = views
        _feed(digest, ruleset.legal_moves(state, seat))
        move = bot(state, seat, rng) if bot is not None and step % 3 == 0 else None
        if move is None:
            move = random_move(ruleset, state, seat, rng)
        _feed(digest, [seat, move])
        if log_text is not None:
            _feed(digest, log_text(state, seat, move, None))
        state = ruleset.apply(state, seat, move)
        _feed(digest, state)
    outcome = ruleset.outcome(state)
    _feed(digest, outcome.to_json() if outcome is not None else None)
    fast = playout(
        ruleset,
        ruleset.setup(players, ruleset.Options.model_validate(options), seed),
        Rng.from_seed(seed, "fingerprint-playout"),
    )
    _feed(digest, fast)


def main() -> None:
    """Play every case of every ruleset and print the digest, then the compiled modules used."""
    digest = hashlib.sha256()
    for ruleset in sorted(registry.all_rulesets(), key=lambda r: r.id):
        for players, options in _cases(ruleset):
            for seed in SEEDS:
                play(ruleset, players, options, seed, digest)
    print(digest.hexdigest())
    print(orjson.dumps(compiled.status()).decode())


if __name__ == "__main__":
    main()
    sys.exit(0)
