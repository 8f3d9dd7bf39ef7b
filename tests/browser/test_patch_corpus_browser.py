"""static/js/patch.js against the server's differ (issue 26 item 8): a corpus of (old, new,
diff(old, new)) triples from real games of every ruleset and from hand-made edge cases is applied
in Chromium, and every result must equal `new`. A planted bug (overwriting on an array `add`)
survived every other browser test; this one fails on it."""

from __future__ import annotations

import hashlib
import json
from itertools import pairwise
from typing import Any

from app.engine import registry
from app.engine.conformance import sampled_states
from app.engine.diff import apply_patch, diff
from app.engine.rng import Rng
from app.engine.ruleset import random_move
from tests.support.canonical_js import CANON

STEPS = 40  # consecutive versions per ruleset and seat: every kind of change a game makes


def _plain(value: Any) -> Any:
    """JSON as both languages print it alike: integral floats as ints (JavaScript prints 1.0 as 1)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _game_sequences() -> list[dict[str, Any]]:
    """Per ruleset and viewpoint (seat 0, spectator): the first view, then each move's patch and
    the digest of the view it must produce."""
    sequences = []
    for ruleset in registry.all_rulesets():
        players = max(2, ruleset.min_players)
        state = sampled_states(ruleset, players, {}, 7, 1)[0]
        walker = Rng.from_seed(7, "patch-corpus", ruleset.id)
        for seat in (0, None):
            views = [_plain(ruleset.view(state, seat))]
            s = state
            for _ in range(STEPS):
                to_act = ruleset.to_act(s)
                if not to_act:
                    break
                mover = walker.choice(to_act)
                s = ruleset.apply(s, mover, random_move(ruleset, s, mover, walker))
                views.append(_plain(ruleset.view(s, seat)))
            steps = [diff(old, new) for old, new in pairwise(views)]
            for old, new, ops in zip(views, views[1:], steps):
                assert apply_patch(json.loads(json.dumps(old)), ops) == new  # the corpus is right
            sequences.append(
                {
                    "label": f"{ruleset.id} seat {seat}",
                    "first": views[0],
                    "steps": [{"ops": ops, "digest": _digest(new)} for ops, new in zip(steps, views[1:])],
                }
            )
    return sequences


EDGE_CASES: list[tuple[Any, Any]] = [
    ([1, 2, 3], [1, 9, 2, 3]),  # an insertion inside an array (the planted bug overwrote it)
    ([1, 2, 3], [0, 1, 2, 3]),  # at the front
    ([1, 2, 3], [1, 2, 3, 4]),  # at the end
    ([1, 2, 3, 4], [1, 3, 4]),  # a removal inside
    ({"log": [{"a": 1}, {"b": 2}]}, {"log": [{"a": 1}, {"x": [1]}, {"b": 2}]}),
    ({"a/b": 1, "c~d": [1]}, {"a/b": 2, "c~d": [1, 2], "e~1f": {}}),  # escaped keys
    ({"grid": [[0, 0], [0, 0]]}, {"grid": [[0, 1], [0, 0, 5]]}),
    ({"gone": 1, "kept": {"x": [1, 2]}}, {"kept": {"x": [2]}, "new": None}),
    ({"n": None}, {"n": {"deep": [{"deeper": "é ✓"}]}}),
    ([[1], [2], [3]], [[1], [4], [2], [3]]),
]


def _edge_sequences() -> list[dict[str, Any]]:
    out = []
    for i, (old, new) in enumerate(EDGE_CASES):
        ops = diff(old, new)
        assert apply_patch(json.loads(json.dumps(old)), ops) == new
        out.append({"label": f"edge case {i}", "first": old, "steps": [{"ops": ops, "digest": _digest(new)}]})
    return out


# In the page: apply each sequence's patches in turn with patch.js, and digest each result as
# Python does (keys sorted, no spaces); answer the label and step of every mismatch.
RUN_IN_PAGE = (
    """async (sequences) => {
  const CANON = """
    + CANON
    + """;
  const { applyPatch } = await import("/static/js/patch.js");
  const canon = CANON;
  const hex = async (text) => Array.from(new Uint8Array(await crypto.subtle.digest(
    "SHA-256", new TextEncoder().encode(text)))).map(b => b.toString(16).padStart(2, "0")).join("");
  const wrong = [];
  let checked = 0;
  for (const seq of sequences) {
    let doc = seq.first;
    for (const [i, step] of seq.steps.entries()) {
      try { doc = applyPatch(doc, step.ops); } catch (e) { wrong.push(`${seq.label} step ${i}: ${e}`); break; }
      checked += 1;
      if (await hex(canon(doc)) !== step.digest) { wrong.push(`${seq.label} step ${i}`); break; }
    }
  }
  return { wrong, checked };
}"""
)


def _corpus() -> list[dict[str, Any]]:
    sequences = _game_sequences() + _edge_sequences()
    inserts = [
        op
        for seq in sequences
        for step in seq["steps"]
        for op in step["ops"]
        if op["op"] == "add" and op["path"].rsplit("/", 1)[-1].isdigit()
    ]
    assert inserts, "the corpus must insert into arrays by index, or it cannot catch an overwrite"
    return sequences


def test_patch_js_reproduces_every_diff_of_the_corpus(live_server, page):
    """Every patch the server's differ makes, applied by the page's patch.js, gives the new view."""
    corpus = _corpus()
    page.goto(live_server.url + "/")
    result = page.evaluate(RUN_IN_PAGE, corpus)
    steps = sum(len(seq["steps"]) for seq in corpus)
    assert result["wrong"] == [], result["wrong"][:10]
    assert result["checked"] == steps
