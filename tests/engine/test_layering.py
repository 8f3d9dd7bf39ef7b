"""engine/ and rulesets/ stay pure: they import nothing from web, database or socket frameworks."""

import ast
from pathlib import Path

FORBIDDEN = (
    "fastapi",
    "starlette",
    "sqlalchemy",
    "alembic",
    "websockets",
    "uvicorn",
    "redis",
    "httpx",
    "app.api",
    "app.db",
    "app.services",
    "app.realtime",
)
ROOT = Path(__file__).resolve().parents[2] / "app"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_engine_and_rulesets_import_no_framework():
    """Every module under app/engine and app/rulesets avoids the forbidden packages."""
    files = list((ROOT / "engine").rglob("*.py")) + list((ROOT / "rulesets").rglob("*.py"))
    assert files
    bad = {
        str(f.relative_to(ROOT)): sorted(
            n for n in _imports(f) if n.split(".")[0] in FORBIDDEN or n.startswith(FORBIDDEN)
        )
        for f in files
    }
    assert not {k: v for k, v in bad.items() if v}
