"""The compiled rules: loaded only where the build matches the source, switched off on demand, and
playing exactly the games the Python source plays."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import compiled
from tests.support.services import IN_CI

ROOT = Path(__file__).resolve().parents[2]
MODULE = "app.rulesets.suburbia.geo"


def _finder(tmp_path: Path, source_hash: str) -> compiled.CompiledRulesFinder:
    binary = tmp_path / "geo.so"
    binary.write_bytes(b"not really a library: find_spec never opens it")
    return compiled.CompiledRulesFinder(tmp_path, {MODULE: {"sha256": source_hash, "file": "geo.so"}})


def test_a_build_of_the_current_source_is_found(tmp_path):
    """The manifest's hash equals the source's: the spec loads the binary as an extension."""
    source = compiled.module_source(MODULE).read_bytes()
    finder = _finder(tmp_path, hashlib.sha256(source).hexdigest())
    spec = finder.find_spec(MODULE)
    assert spec is not None and spec.origin == str(tmp_path / "geo.so")
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert finder.loaded == [MODULE] and finder.stale == []


def test_a_build_of_an_older_source_is_ignored(tmp_path):
    """One changed byte in the source: the finder declines (the .py loads) and says it was stale."""
    finder = _finder(tmp_path, hashlib.sha256(b"an older geo.py").hexdigest())
    assert finder.find_spec(MODULE) is None
    assert finder.stale == [MODULE] and finder.loaded == []


def test_modules_outside_the_manifest_are_left_to_python(tmp_path):
    finder = _finder(tmp_path, "")
    assert finder.find_spec("app.rulesets.suburbia.view") is None
    assert finder.find_spec("json") is None
    assert finder.stale == []


def test_a_missing_binary_is_ignored(tmp_path):
    source = compiled.module_source(MODULE).read_bytes()
    finder = _finder(tmp_path, hashlib.sha256(source).hexdigest())
    (tmp_path / "geo.so").unlink()
    assert finder.find_spec(MODULE) is None


def test_the_environment_switch_and_a_missing_manifest_keep_the_python_rules(monkeypatch, tmp_path):
    monkeypatch.setattr(
        sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, compiled.CompiledRulesFinder)]
    )
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.install() is None
    monkeypatch.setenv(compiled.PURE_ENV, "0")
    monkeypatch.setattr(compiled, "build_dir", lambda: tmp_path)
    assert compiled.install() is None  # no manifest there
    (tmp_path / compiled.MANIFEST).write_text(json.dumps({"modules": {}}))
    finder = compiled.install()
    assert finder is not None and sys.meta_path[0] is finder
    assert compiled.install() is finder  # installed once


def test_every_ruleset_module_is_compiled():
    """Each ruleset's modules (not the package `__init__`) and the engine's per-move modules."""
    names = compiled.COMPILED_MODULES
    assert {
        "app.engine.diff",
        "app.engine.rng",
        "app.rulesets.suburbia.dale",
        "app.rulesets.city_council.phil",
        "app.rulesets.fortuna.moves",
    } <= set(names)
    assert not [n for n in names if n.endswith("__init__")]
    for name in names:
        assert compiled.module_source(name).exists(), name


def _fingerprint(pure: bool, without_cython: bool = False) -> tuple[str, dict[str, list[str]]]:
    env = {**os.environ, compiled.PURE_ENV: "1" if pure else "0"}
    command = ["-m", "tests.engine.game_fingerprint"]
    if without_cython:  # as in the Docker runtime: `import cython` fails
        command = [
            "-c",
            "import runpy, sys; sys.modules['cython'] = None; "
            "runpy.run_module('tests.engine.game_fingerprint', run_name='__main__')",
        ]
    out = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=True
    )
    digest, status = out.stdout.splitlines()
    return digest, json.loads(status)


def _build_present() -> bool:
    try:
        modules = json.loads((compiled.build_dir() / compiled.MANIFEST).read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return False
    return set(modules) == set(compiled.COMPILED_MODULES)


# In CI `make test` has just built them; elsewhere the build is optional (no C compiler needed).
@pytest.mark.skipif(
    not IN_CI and not _build_present(),
    reason="no compiled rules here: run scripts/compile_rules.py (make does)",
)
def test_compiled_rules_play_the_same_games_as_the_python_source():
    """Every ruleset, player count and variant, two seeds each: states, view patches, legal moves,
    bot moves, log lines, outcomes and fast playouts hash the same, compiled or not."""
    pure_digest, pure_status = _fingerprint(pure=True)
    compiled_digest, compiled_status = _fingerprint(pure=False)
    assert pure_status == {"compiled": [], "stale": []}
    assert compiled_status["stale"] == []
    assert set(compiled_status["compiled"]) == set(compiled.COMPILED_MODULES)
    assert compiled_digest == pure_digest


def test_the_python_source_plays_the_same_games_without_cython_installed():
    """The compiled modules' type hints (rng, Suburbia's World and Borough) come from Cython's
    pure-Python mode; without Cython (the Docker runtime, if its build were ever stale) they
    are read from app.engine.cython_hints and change nothing: the same digest."""
    with_cython, _ = _fingerprint(pure=True)
    without, status = _fingerprint(pure=True, without_cython=True)
    assert status == {"compiled": [], "stale": []}
    assert without == with_cython
