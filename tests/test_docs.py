"""The docs match the tree (issue 31): every setting is in the README's table, the test files the
testing guide names exist, and no document points at a path of one machine outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from app.config import Settings

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    ROOT / "bench" / "README.md",
    *sorted((ROOT / "docs").glob("**/*.md")),
    *sorted((ROOT / "app" / "rulesets").glob("*/NOTES.md")),
]


def test_every_setting_is_in_the_readme_table():
    """A setting missing from the table is one an operator cannot find."""
    rows = "\n".join(
        line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| `CIVITAS_")
    )
    missing = [
        f"CIVITAS_{name.upper()}" for name in Settings.model_fields if f"`CIVITAS_{name.upper()}`" not in rows
    ]
    assert missing == []
    names = [line.split("|")[1] for line in rows.splitlines()]  # each row's first cell
    twice = [
        f"CIVITAS_{name.upper()}"
        for name in Settings.model_fields
        if sum(f"`CIVITAS_{name.upper()}`" in cell for cell in names) > 1
    ]
    assert twice == [], "a setting in two rows of the table"


def test_test_files_named_in_the_docs_exist():
    """docs name test files as they are (docs/TESTING.md listed four renderer tests of five)."""
    named = {m for doc in DOCS for m in re.findall(r"\btests/[\w/]+\.py\b", doc.read_text())}
    assert named, "the docs name no test file: the pattern is wrong"
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_no_document_points_outside_the_repository():
    """A path of one machine (`/work/...`, `../shared/...`) means nothing to a reader of the repo."""
    outside = re.compile(r"(?<![\w.])(/work/|\.\./shared/)")
    found = [
        f"{doc.relative_to(ROOT)}:{n}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text().splitlines(), 1)
        if outside.search(line)
    ]
    assert found == []
