"""Plays seeded Fortuna games under the rules found in a source tree and prints one digest per
game, so that two versions of the rules can be shown to play the same games: every view, legal
move list, bot and random move, log sentence, refusal reason, determinized state, playout and
outcome. States of older versions are carried to the current key names with `upgrade.py` (loaded
by path from this tree), so a rename alone does not change a digest.

Run: python tests/rulesets/fortuna/same_games.py --tree DIR --games 60 --out FILE
(DIR: the repository whose rules are played, such as `git archive main` unpacked; default: this
one). Compare the two files' lines; tests do not run it (it takes minutes).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parents[3]

# Moves tried at every step besides the one played: their refusal sentences must match too.
PROBES: list[Any] = [
    {"type": "play", "slot": 5, "args": None},
    {"type": "play", "slot": 0, "args": {"n": 9}},
    {"type": "exchange", "side": 0, "slot": 0},
    {"type": "exchange", "side": 3, "slot": 2},
    {"type": "military", "slot": 1, "args": {}},
    {"type": "favour", "card": 7, "n": 1},
    {"type": "favour", "card": 6, "n": 1},
    {"type": "favour", "card": 1, "n": 3},
    {"type": "pass", "die": 9},
    {"type": "flip", "card": 2},
    {"type": "keep", "cards": []},
    {"type": "palace", "card": "nope"},
    {"type": "privilege", "card": "A1"},
    {"type": "privilege", "card": "B1"},
    {"type": "privilege", "card": "C1"},
    {"type": "end"},
    {"type": "skip"},
    {"type": "nonsense"},
    ["not", "a", "dict"],
]


def _load_upgrade() -> Any:
    spec = importlib.util.spec_from_file_location(
        "fortuna_upgrade", HERE / "app" / "rulesets" / "fortuna" / "upgrade.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UPGRADE = _load_upgrade()


def current(state: dict[str, Any]) -> dict[str, Any]:
    """The state with the current key names, whichever version of the rules wrote it."""
    return UPGRADE.v5_to_v6(state) if "p" in state else state


def _feed(digest: Any, value: Any) -> None:
    digest.update(orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))


def play(
    R: Any, Rng: Any, IllegalMove: Any, players: int, options: dict[str, Any], seed: int
) -> tuple[str, int]:
    """One seeded game to its end: its digest and its number of moves."""
    digest = hashlib.sha256()
    state = R.setup(players, R.Options(**options), seed)
    rng = Rng.from_seed(seed, "same-games")
    viewers = [*range(players), None]
    moves = 0
    while R.to_act(state):
        seat = rng.choice(R.to_act(state))
        _feed(digest, [R.view(state, v) for v in viewers])
        _feed(digest, R.legal_moves(state, seat))
        for probe in PROBES:
            for who in (seat, (seat + 1) % players):
                try:
                    R.apply(state, who, probe)
                    _feed(digest, "accepted")
                except IllegalMove as exc:
                    _feed(digest, exc.reason)
        if moves % 7 == 0:
            _feed(digest, current(R.determinize(state, seat, Rng.from_seed(moves, "d"))))
            _feed(digest, current(R.playout(state, Rng.from_seed(moves, "p"))))
        move = R.bot_move(state, seat, rng) if moves % 2 == 0 else R.random_move(state, seat, rng)
        _feed(digest, [seat, move, R.describe_move(move)])
        for v in viewers:
            _feed(digest, [R.public_move(state, seat, move, v), R.log_text(state, seat, move, v)])
        state = R.apply(state, seat, move)
        _feed(digest, current(state))
        moves += 1
    _feed(digest, R.outcome(state).to_json())
    return digest.hexdigest(), moves


def main() -> None:
    """Print (or write) one line per game: players, options, seed, moves, digest."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", default=str(HERE))
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from app.engine.rng import Rng
    from app.engine.ruleset import IllegalMove
    from app.rulesets.fortuna import RULESET as R

    cases = [(n, {}) for n in (2, 3, 4)] + [(2, {"two_player_flip": False}), (2, {"peek_own_card": True})]
    lines = []
    for seed in range(args.games):
        players, options = cases[seed % len(cases)]
        digest, moves = play(R, Rng, IllegalMove, players, options, seed)
        lines.append(f"{players} {orjson.dumps(options).decode()} {seed} {moves} {digest}")
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
