"""The rules and the engine stay readable (issue 31): a function over 60 lines or of cyclomatic
complexity over 15 says why in a comment right above it (`# Long: ...`, `# Complex: ...`)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app/engine", "app/rulesets")
MAX_LINES, MAX_COMPLEXITY = 60, 15


def _explained(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the line above the function (above its decorators) is a comment."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first >= 2 and lines[first - 2].strip().startswith("#")


def long_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, line, length) of each function over MAX_LINES lines in `path`."""
    tree = ast.parse(path.read_text())
    return [
        (n.name, n.lineno, n.end_lineno - n.lineno + 1)
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        and n.end_lineno is not None
        and n.end_lineno - n.lineno + 1 > MAX_LINES
    ]


def complex_functions() -> list[tuple[Path, int, str]]:
    """(file, line, message) of each function ruff's McCabe check finds over MAX_COMPLEXITY."""
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "json",
         "--config", f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", *PACKAGES],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return [(Path(f["filename"]), f["location"]["row"], f["message"]) for f in json.loads(out.stdout)]


def _unexplained_at(path: Path, row: int) -> bool:
    lines = path.read_text().splitlines()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == row:
            return not _explained(lines, node)
    return True


def test_long_functions_say_why() -> None:
    """Every function over 60 lines in the engine and the rulesets has a comment above it."""
    bad = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name, row, length in long_functions(path):
                if _unexplained_at(path, row):
                    bad.append(f"{path.relative_to(ROOT)}:{row} {name} ({length} lines)")
    assert bad == [], "say why above each (a '# Long: ...' comment), or split it"


def test_complex_functions_say_why() -> None:
    """Every function of complexity over 15 in the engine and the rulesets has a comment above it."""
    found = complex_functions()
    bad = [f"{p.relative_to(ROOT)}:{row} {msg}" for p, row, msg in found if _unexplained_at(p, row)]
    assert bad == [], "say why above each (a '# Complex: ...' comment), or split it"


def test_the_checks_see_an_unexplained_long_function(tmp_path: Path) -> None:
    """A 61-line function without a comment is found; the same with one above it is not."""
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    bare = tmp_path / "bare.py"
    bare.write_text("def f():\n" + body)
    said = tmp_path / "said.py"
    said.write_text("# Long: a table of sixty values.\ndef f():\n" + body)
    assert [(name, length) for name, _, length in long_functions(bare)] == [("f", 61)]
    assert _unexplained_at(bare, 1) and not _unexplained_at(said, 2)
