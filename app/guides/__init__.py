"""How-to-play guides: each game's turn, end and scoring, glossary and move hints, in our own
words (app/guides/<ruleset id>.toml), and the full rulebook text the site serves at /rules/<id>."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@functools.cache
def guide(ruleset_id: str) -> dict[str, Any] | None:
    """The guide of a ruleset (summary, sections, glossary, hints by move type and their order),
    or None."""
    path = HERE / f"{ruleset_id}.toml"
    if "/" in ruleset_id or not path.is_file():
        return None
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sections = [
        {"title": s["title"], "text": s.get("text", ""), "items": s.get("items", [])}
        for s in data.get("sections", [])
    ]
    return {
        "summary": data.get("summary", ""),
        "sections": sections,
        "glossary": data.get("glossary", []),
        "hints": data.get("hints", {}),
        # The kinds most likely wanted first (Done before Discard): the table shows the first line.
        "hint_order": data.get("hint_order", list(data.get("hints", {}))),
        "rulebook": f"/rules/{ruleset_id}" if rulebook(ruleset_id) else None,
    }


@functools.cache
def rulebook(ruleset_id: str) -> str | None:
    """The full rulebook text of a ruleset, or None when the site has none."""
    path = HERE / "rulebooks" / f"{ruleset_id}.txt"
    if "/" in ruleset_id or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")
