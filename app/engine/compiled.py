"""Loads the rules compiled by `scripts/compile_rules.py` in place of their Python source, but
only a module whose source is byte-for-byte the one it was compiled from.

The compiled modules are the same source built with Cython (one copy of every rule); they live in
`.compiled/<ABI>/` beside the package, not in it, so that a stale build can never shadow an edited
module: each import compares the source's SHA-256 with the manifest's and falls back to the
source on any difference. `CIVITAS_PURE_RULES=1` switches them off (mutation testing, debugging).
A few modules carry Cython's pure-Python-mode type hints where the rules spend their time:
`app.engine.rng` (64-bit arithmetic in C, `Rng` an extension type) and Suburbia's hottest
functions (`World` and `Borough` extension types, typed dict and list locals). The hints are
no-ops in Python, read from `app.engine.cython_hints` where Cython is not installed; the games
are the same either way (tests/engine/test_compiled.py).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = "manifest.json"
PURE_ENV = "CIVITAS_PURE_RULES"
# The engine's modules that every move runs through (views' parts and diffs, draws, the phases).
ENGINE_MODULES = ("app.engine.diff", "app.engine.rng", "app.engine.phases", "app.engine.memo")


def build_dir() -> Path:
    """Where this interpreter's compiled modules live (one directory per extension ABI)."""
    abi = str(sysconfig.get_config_var("EXT_SUFFIX")).strip(".").rsplit(".", 1)[0]
    return ROOT / ".compiled" / abi


def module_source(name: str) -> Path:
    """The Python source file of module `name` (a dotted name under `app`)."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def compiled_module_names() -> tuple[str, ...]:
    """Every module worth compiling: each ruleset's modules (not its package `__init__`, which
    only assembles the contract) and the engine's per-move modules."""
    rulesets = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "app" / "rulesets").glob("*/*.py")
        if path.name != "__init__.py"
    )
    return (*ENGINE_MODULES, *rulesets)


COMPILED_MODULES = compiled_module_names()


class CompiledRulesFinder(importlib.abc.MetaPathFinder):
    """Finds a compiled module for each name in the manifest whose source is unchanged."""

    def __init__(self, directory: Path, modules: dict[str, dict[str, str]]) -> None:
        self.directory = directory
        self.modules = modules
        self.loaded: list[str] = []
        self.stale: list[str] = []

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The compiled module's spec, or None to let the ordinary finders load the source."""
        entry = self.modules.get(fullname)
        if entry is None:
            return None
        binary = self.directory / entry["file"]
        try:
            current = hashlib.sha256(module_source(fullname).read_bytes()).hexdigest()
        except OSError:
            return None
        if current != entry["sha256"] or not binary.exists():
            self.stale.append(fullname)
            return None
        spec = importlib.util.spec_from_file_location(fullname, binary)
        self.loaded.append(fullname)
        return spec


def install() -> CompiledRulesFinder | None:
    """Puts the finder first on `sys.meta_path` (once) when a build exists and is not switched
    off; returns it, or None when the pure-Python rules will run."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledRulesFinder):
            return finder
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    directory = build_dir()
    try:
        modules = json.loads((directory / MANIFEST).read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return None
    finder = CompiledRulesFinder(directory, modules)
    sys.meta_path.insert(0, finder)
    return finder


def status() -> dict[str, list[str]]:
    """Which modules were loaded compiled, and which had a build that no longer matched."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledRulesFinder):
            return {"compiled": list(finder.loaded), "stale": list(finder.stale)}
    return {"compiled": [], "stale": []}
