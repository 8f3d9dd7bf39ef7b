"""Mutation testing (mutmut) over the platform's packages, one package at a time, niced.

    make mutation                                        # every package below, in full
    make mutation PACKAGES="engine"                      # some of them
    make mutation PACKAGES="services" SAMPLE=60          # a seeded random sample of 60 mutants
    .venv/bin/python scripts/mutation.py --sample 60 --seed 14 services

Each package runs in its own copy of the repository under var/mutation/<package>/ (mutmut
rewrites the code it mutates), with only that package's tests, so a run never touches the
working tree. mutmut 3 records which tests reach each mutated function and runs only those for a
mutant (`-x`, no random order, hypothesis with a fixed seed and fewer examples), each under a CPU
limit of a few times their clean duration. With --sample N only N mutants, drawn with a seeded
random generator from the package's full list, are run: the score printed is then a sample's, with
its 95% (Wilson) interval, never the package's full score. Scores are appended to
var/mutation/scores.txt, survivors to var/mutation/<package>-survivors.txt; the recorded scores and
the survivors' verdicts live in docs/TESTING.md. Slow: not part of make test.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "var" / "mutation"
# Test files that judge nothing in the mutated rules but cost minutes: browser renderers, bot duels.
_RULESET_SKIP = ["test_renderer.py", "test_bot.py"]


def _ruleset_tests(name: str) -> list[str]:
    folder = f"tests/rulesets/{name}"
    return [folder, *(f"--ignore={folder}/{skip}" for skip in _RULESET_SKIP)]


# package -> (code to mutate, pytest arguments that select the tests judging it)
PACKAGES: dict[str, tuple[list[str], list[str]]] = {
    "engine": (
        ["app/engine/runner.py", "app/engine/rng.py", "app/engine/ruleset.py"],
        [
            "tests/engine/test_runner.py",
            "tests/engine/test_diff.py",
            "tests/engine/test_rng.py",
            "tests/engine/test_rng_known_answers.py",
            "tests/engine/test_outcome_and_hooks.py",
        ],
    ),
    "services": (
        ["app/services"],
        [
            "tests/api",
            "tests/db/test_persistence.py",
            "tests/db/test_two_apps.py",
            "tests/db/test_cleanup.py",
            "tests/ops/test_observability.py",
        ],
    ),
    "realtime": (
        ["app/realtime"],
        [
            "tests/realtime/test_ws.py",
            "tests/realtime/test_hub_units.py",
            "tests/realtime/test_broker_reconnect.py",
            "tests/realtime/test_ws_leaks.py",
            "tests/realtime/test_lobby.py",
            "tests/realtime/test_frames.py",
            "tests/db/test_two_apps.py",
            "tests/api/test_table.py",
            "tests/api/test_tokens.py",
        ],
    ),
    # diff.py alone: its property tests are the slow part of the engine's run.
    "diff": (["app/engine/diff.py"], ["tests/engine/test_diff.py"]),
    "suburbia": (
        [
            "app/rulesets/suburbia/legal.py",
            "app/rulesets/suburbia/turn.py",
            "app/rulesets/suburbia/scoring.py",
        ],
        _ruleset_tests("suburbia"),
    ),
    "tiny_towns": (
        ["app/rulesets/tiny_towns/legal.py", "app/rulesets/tiny_towns/scoring.py"],
        _ruleset_tests("tiny_towns"),
    ),
    "fortune_city": (
        [
            f"app/rulesets/fortune_city/{m}.py"
            for m in ("board", "legal", "checks", "moves", "turns", "scoring")
        ],
        _ruleset_tests("fortune_city"),
    ),
    "fortuna": (
        [
            f"app/rulesets/fortuna/{m}.py"
            for m in ("cards", "legal", "moves", "turns", "privileges", "scoring")
        ],
        _ruleset_tests("fortuna"),
    ),
    # legal/moves/turns/council/windows hold the legality, the automatic steps and the scoring
    # window; favours.py what a favour card scores.
    "city_council": (
        [
            f"app/rulesets/city_council/{m}.py"
            for m in ("legal", "moves", "turns", "council", "windows", "production", "favours")
        ],
        _ruleset_tests("city_council"),
    ),
}

# Under mutation: property tests draw 50 examples from a fixed seed (the normal run draws 400).
# The pure-Python rules: a compiled build of the unmutated source must never stand in for a mutant.
MUTATION_ENV = {
    "CIVITAS_CONFORMANCE_SEEDS": "1",
    "CIVITAS_HYPOTHESIS_EXAMPLES": "50",
    "CIVITAS_PURE_RULES": "1",
}
PYTEST_ARGS = [
    "-p",
    "no:randomly",
    "-p",
    "no:cacheprovider",
    "-q",
    "-x",
    "--hypothesis-seed=14",
    "--timeout=60",
]


def _copy(dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _configure(dest: Path, paths: list[str], tests: list[str], multiplier: float) -> None:
    # mutmut reads [tool.mutmut] from pyproject.toml first: this copy's config lives there.
    pyproject = (dest / "pyproject.toml").read_text()
    pyproject += (
        "\n[tool.mutmut]\n"
        f"source_paths = {paths!r}\n"
        f"pytest_add_cli_args_test_selection = {tests!r}\n"
        'also_copy = ["tests", "app", "migrations", "alembic.ini", "static", "templates"]\n'
        f"pytest_add_cli_args = {PYTEST_ARGS!r}\n"
        # CPU limit per mutant: (clean time of its tests + 1 s) x multiplier x 2.
        f"timeout_multiplier = {multiplier}\n"
    )
    (dest / "pyproject.toml").write_text(pyproject.replace("'", '"'))


def _env(dest: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(dest), **MUTATION_ENV}
    env.pop("CIVITAS_TEST_POSTGRES_URL", None)  # SQLite only: one backend judges a mutant
    return env


_GENERATE = """
from mutmut.__main__ import (copy_src_dir, copy_also_copy_files, setup_source_paths,
                             create_mutants, collect_source_file_mutation_data)
from mutmut.mutation.trampoline import set_mutant_under_test
import os
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths(); create_mutants(1)
mutants, _ = collect_source_file_mutation_data(mutant_names=())
print("\\n".join("MUTANT " + name for _, name, _ in mutants))
"""


def _all_mutants(dest: Path, env: dict[str, str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", _GENERATE], cwd=dest, env=env, capture_output=True, text=True, check=True
    ).stdout
    return sorted(line[7:] for line in out.splitlines() if line.startswith("MUTANT "))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _results(dest: Path, env: dict[str, str]) -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=dest,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        match = re.match(r"\s*(\S+): (\w[\w ]*)$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def _mutmut_run(dest: Path, env: dict[str, str], names: list[str]) -> None:
    subprocess.run(
        ["nice", "-n", "15", sys.executable, "-m", "mutmut", "run", "--max-children", "1", *names],
        cwd=dest,
        env=env,
    )


def score_line(package: str, statuses: dict[str, str], total: int, sampled: bool) -> str:
    """One line: killed (timeouts counted, as mutmut does), the other outcomes, and for a
    sample its 95% interval."""
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    n = len(statuses)
    line = f"{package}: "
    if sampled:
        low, high = wilson(killed, n)
        line += (
            f"sampled: {killed} of {n} killed ({100 * killed / max(n, 1):.0f}%, 95% interval "
            f"{100 * low:.0f}-{100 * high:.0f}%) from {total} mutants"
        )
    else:
        line += f"{killed}/{n} killed ({100 * killed / max(n, 1):.0f}%)"
    return f"{line} {counts}"


def run(package: str, sample: int | None, seed: int, multiplier: float) -> str:
    """Run mutmut over one package (or a seeded sample of its mutants) in its own copy."""
    paths, tests = PACKAGES[package]
    dest = WORK / package
    _copy(dest)
    _configure(dest, paths, tests, multiplier)
    env = _env(dest)
    everything = _all_mutants(dest, env)
    names = everything
    if sample is not None and sample < len(everything):
        names = sorted(random.Random(seed).sample(everything, sample))
    (WORK / f"{package}-mutants.txt").write_text("\n".join(names) + "\n")
    _mutmut_run(dest, env, names if names is not everything else [])
    statuses = {k: v for k, v in _results(dest, env).items() if k in set(names)}
    score = score_line(package, statuses, len(everything), names is not everything)
    if names is not everything:
        score += f" [seed {seed}]"
    survivors = sorted(k for k, v in statuses.items() if v not in ("killed", "timeout"))
    (WORK / f"{package}-survivors.txt").write_text("".join(f"{k}: {statuses[k]}\n" for k in survivors))
    with open(WORK / "scores.txt", "a") as out:
        out.write(score + "\n")
    print(score)
    return score


def main() -> None:
    """Run the packages named on the command line (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help=f"default: all of {', '.join(PACKAGES)}")
    parser.add_argument("--sample", type=int, help="run only a seeded random sample of N mutants")
    parser.add_argument("--seed", type=int, default=14, help="the sample's seed (default 14)")
    parser.add_argument(
        "--timeout-multiplier",
        type=float,
        default=3.0,
        help="CPU limit per mutant = (clean seconds + 1) x this x 2",
    )
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    for package in args.packages or list(PACKAGES):
        run(package, args.sample, args.seed, args.timeout_multiplier)


if __name__ == "__main__":
    main()
