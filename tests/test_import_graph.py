"""No import cycle between the top-level parts of `app` (its packages and modules): every import is
counted, at module level, inside functions and under TYPE_CHECKING alike."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"

Edges = dict[tuple[str, str], list[str]]


def _module_name(path: Path, root: Path) -> list[str]:
    """The dotted name of a file under app/, as a list of parts ('app', 'services', 'games')."""
    parts = ["app", *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imported(path: Path, root: Path) -> list[tuple[str, int]]:
    """Every module name this file imports (relative imports resolved), with its line."""
    tree = ast.parse(path.read_text(), str(path))
    own = _module_name(path, root)
    package = own if path.name == "__init__.py" else own[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            # `from app import platform` imports the part `platform`, not just the package.
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def _part(module: str) -> str | None:
    """The top-level part of `app` a module name belongs to (None outside app, or app itself)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 1 else None


def import_edges(root: Path = APP) -> Edges:
    """(from part, to part) -> where: 'app/x.py:12 app.y.z' for every import between parts."""
    edges: Edges = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        source = _part(".".join(_module_name(path, root)))
        if source is None:
            continue
        seen: set[tuple[int, str]] = set()  # one entry per import statement and part
        for module, line in _imported(path, root):
            target = _part(module)
            if target is None or target == source or (line, target) in seen:
                continue
            if (root / target).is_dir() or (root / f"{target}.py").exists():
                seen.add((line, target))
                edges[(source, target)].append(f"{path.relative_to(root.parent)}:{line} imports {module}")
    return dict(edges)


def find_cycle(edges: Edges) -> list[str] | None:
    """One cycle of parts (first part repeated at the end), or None if the graph has none."""
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_top_level_parts_of_app_import_each_other_without_a_cycle() -> None:
    """Walk the graph of parts; a cycle fails with every import along it named."""
    edges = import_edges()
    assert ("platform", "services") in edges  # the graph is read at all (the root wires services)
    cycle = find_cycle(edges)
    if cycle:
        named = [f"{a} -> {b}: {edges[(a, b)][0]}" for a, b in zip(cycle, cycle[1:])]
        raise AssertionError("import cycle between parts of app:\n" + "\n".join(named))


def test_the_cycle_check_sees_a_cycle_through_function_level_and_relative_imports(tmp_path: Path) -> None:
    """A planted cycle (one side imported inside a function, relatively) is found and named."""
    (tmp_path / "app" / "alpha").mkdir(parents=True)
    (tmp_path / "app" / "beta").mkdir()
    for name in ("app", "app/alpha", "app/beta"):
        (tmp_path / name / "__init__.py").write_text("")
    (tmp_path / "app" / "alpha" / "one.py").write_text("from app.beta.two import x\n")
    (tmp_path / "app" / "beta" / "two.py").write_text("def f():\n    from ..alpha import one\n")
    (tmp_path / "app" / "gamma.py").write_text("from app import alpha\n")
    edges = import_edges(tmp_path / "app")
    assert edges[("beta", "alpha")] == ["app/beta/two.py:2 imports app.alpha"]
    assert ("gamma", "alpha") in edges
    assert find_cycle(edges) == ["alpha", "beta", "alpha"]
    del edges[("beta", "alpha")]
    assert find_cycle(edges) is None
