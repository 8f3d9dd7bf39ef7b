"""Every `# type: ignore` in the tree says why on its own line (issue 31): an ignore without a
reason hides whatever else goes wrong on that line, and the next reader cannot tell if it is stale."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")


def unexplained(text: str) -> list[int]:
    """The lines whose type: ignore has no comment after it."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        match = IGNORE.search(line)
        if match and not re.match(r"\s*#\s*\S", match.group("rest")):
            found.append(n)
    return found


def test_every_type_ignore_gives_its_reason() -> None:
    """app/, tests/, bench/ and scripts/: each ignore is followed by '# why'."""
    files = [p for part in ("app", "tests", "bench", "scripts") for p in (ROOT / part).rglob("*.py")]
    bad = [
        f"{p.relative_to(ROOT)}:{n}" for p in files if p != Path(__file__) for n in unexplained(p.read_text())
    ]
    assert bad == []


def test_the_check_tells_a_reason_from_none() -> None:
    """A bare ignore and a coded one without a comment are found; ones with a reason are not."""
    text = "a = 1  # type: ignore\nb = 2  # type: ignore[misc]\nc = 3  # type: ignore[misc]  # why\n"
    assert unexplained(text) == [1, 2]
