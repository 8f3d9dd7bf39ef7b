"""Mutation testing (mutmut) over the platform's packages, one package at a time, niced.

    make mutation                      # every package below, in turn
    make mutation PACKAGES="engine"    # some of them

Each package runs in its own copy of the repository under var/mutation/<package>/ (mutmut
rewrites the code it mutates), with only that package's tests, so a run never touches the
working tree. The per-package score is printed and appended to var/mutation/scores.txt; the
recorded scores and the survivors' verdicts live in docs/TESTING.md. Slow: not part of make test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "var" / "mutation"

# package -> (code to mutate, tests that judge it)
PACKAGES: dict[str, tuple[list[str], list[str]]] = {
    "engine": (["app/engine/runner.py", "app/engine/rng.py", "app/engine/ruleset.py"],
               ["tests/engine/test_runner.py", "tests/engine/test_diff.py",
                "tests/engine/test_rng.py", "tests/engine/test_rng_known_answers.py",
                "tests/engine/test_outcome_and_hooks.py"]),
    "services": (["app/services/games.py", "app/services/live.py", "app/services/bots.py",
                  "app/services/move_store.py", "app/services/rooms.py"],
                 ["tests/api", "tests/db/test_persistence.py", "tests/db/test_two_apps.py"]),
    "realtime": (["app/realtime/hub.py", "app/realtime/broker.py", "app/realtime/ws.py"],
                 ["tests/realtime/test_ws.py", "tests/realtime/test_hub_units.py",
                  "tests/realtime/test_broker_reconnect.py", "tests/realtime/test_ws_leaks.py",
                  "tests/db/test_two_apps.py"]),
    # diff.py alone: its property tests run until mutmut's timeout for many mutants (slow).
    "diff": (["app/engine/diff.py"], ["tests/engine/test_diff.py"]),
    "suburbia": (["app/rulesets/suburbia/legal.py", "app/rulesets/suburbia/turn.py"],
                 ["tests/rulesets/suburbia"]),
    "tiny_towns": (["app/rulesets/tiny_towns/legal.py", "app/rulesets/tiny_towns/scoring.py"],
                   ["tests/rulesets/tiny_towns"]),
}


def _copy(dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def run(package: str) -> str:
    """Run mutmut over one package in its own copy; return its score line."""
    paths, tests = PACKAGES[package]
    dest = WORK / package
    _copy(dest)
    # mutmut reads [tool.mutmut] from pyproject.toml first: this copy's config lives there.
    pyproject = (dest / "pyproject.toml").read_text()
    pyproject += ("\n[tool.mutmut]\n"
                  f"paths_to_mutate = {paths!r}\n"
                  f"tests_dir = {tests!r}\n"
                  'also_copy = ["tests", "app", "migrations", "alembic.ini", "static", "templates"]\n'
                  'pytest_add_cli_args = ["-p", "no:randomly", "-q", "-x"]\n')
    (dest / "pyproject.toml").write_text(pyproject.replace("'", '"'))
    env = {**os.environ, "PYTHONPATH": str(dest), "CIVITAS_CONFORMANCE_SEEDS": "1"}
    mutmut = [sys.executable, "-m", "mutmut"]
    subprocess.run(["nice", "-n", "10", *mutmut, "run", "--max-children", "1"], cwd=dest, env=env)
    results = subprocess.run([*mutmut, "results", "--all", "true"], cwd=dest, env=env,
                             capture_output=True, text=True).stdout
    counts: dict[str, int] = {}
    for line in results.splitlines():
        match = re.match(r"\s*(\S+): (\w[\w ]*)$", line)
        if match:
            counts[match.group(2)] = counts.get(match.group(2), 0) + 1
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    total = sum(counts.values())
    score = f"{package}: {killed}/{total} killed ({100 * killed / max(total, 1):.0f}%) {counts}"
    survivors = [line.split(":")[0].strip() for line in results.splitlines()
                 if line.strip().endswith(": survived")]
    (WORK / f"{package}-survivors.txt").write_text("\n".join(survivors) + "\n")
    with open(WORK / "scores.txt", "a") as out:
        out.write(score + "\n")
    print(score)
    return score


def main() -> None:
    """Run the packages named on the command line (default: all)."""
    WORK.mkdir(parents=True, exist_ok=True)
    for package in sys.argv[1:] or list(PACKAGES):
        run(package)


if __name__ == "__main__":
    main()
