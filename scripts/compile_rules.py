"""Compiles the rules (every ruleset module and the engine's hot modules) to C extensions with
Cython, from the same Python source, into `.compiled/<ABI>/`; `app.engine.compiled` loads them.

Usage: .venv/bin/python scripts/compile_rules.py [--jobs N] [--force] [--clean]

The build is incremental: a module is compiled again only when its source's SHA-256 differs from
the one in the manifest. Nothing here is required: without Cython or a C compiler the script says
why and exits 0, and the pure-Python modules run (slower, same games).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine.compiled import (  # noqa: E402
    COMPILED_MODULES,
    MANIFEST,
    build_dir,
    module_source,
)

# -O1 without debug information: 5× faster to build than Python's own -O3 -g (7 s against 37 s for
# the largest module), and the generated code is mostly calls into the interpreter, which -O3
# does not speed up further (measured: bench/RESULTS.md, "Compiled rules").
CFLAGS = "-O1 -g0"
# Annotations are documentation here, not C types: with annotation typing on, Cython would reject
# a None passed where a hint says `dict` — a behaviour the source does not have.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def digest(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_manifest(out: Path) -> dict[str, dict[str, str]]:
    """The manifest of a previous build, or an empty one."""
    try:
        return json.loads((out / MANIFEST).read_text())["modules"]
    except (OSError, ValueError, KeyError):
        return {}


def compile_modules(names: list[str], out: Path, jobs: int) -> None:
    """Cythonize and compile `names` into `out` (one extension per module, at its package path)."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    with tempfile.TemporaryDirectory(prefix="civitas-compile-") as tmp:
        extensions = [Extension(name, [str(module_source(name).relative_to(ROOT))]) for name in names]
        modules = cythonize(
            extensions, build_dir=tmp, nthreads=jobs, quiet=True, compiler_directives=DIRECTIVES
        )
        command = Distribution({"ext_modules": modules}).get_command_obj("build_ext")
        command.build_lib = str(out)
        command.build_temp = tmp
        command.parallel = jobs
        command.ensure_finalized()
        command.run()


def build(jobs: int, force: bool) -> int:
    """Brings `.compiled/<ABI>/` up to date with the sources; returns a process exit code."""
    out = build_dir()
    out.mkdir(parents=True, exist_ok=True)  # even when nothing compiles: an image copies it as is
    previous = {} if force else load_manifest(out)
    wanted = {name: digest(module_source(name)) for name in COMPILED_MODULES}
    built = {
        name: previous[name]
        for name in wanted
        if name in previous
        and previous[name]["sha256"] == wanted[name]
        and (out / previous[name]["file"]).exists()
    }
    stale = [name for name in wanted if name not in built]
    if not stale:
        print(f"compiled rules: {len(built)} modules up to date in {out.relative_to(ROOT)}")
        return 0
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("compiled rules: Cython is not installed; the pure-Python rules will run")
        return 0
    os.environ["CFLAGS"] = f"{os.environ.get('CFLAGS', '')} {CFLAGS}".strip()
    started = time.monotonic()
    print(f"compiled rules: compiling {len(stale)} modules with {jobs} jobs...", flush=True)
    try:
        compile_modules(stale, out, jobs)
    except Exception as error:  # a missing compiler or Python.h: the pure modules still run
        print(
            f"compiled rules: build failed ({type(error).__name__}: {error}); the pure-Python rules will run"
        )
        return 0
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in stale:
        built[name] = {"sha256": wanted[name], "file": name.replace(".", "/") + suffix}
    # Written last and atomically: a build stopped half-way leaves the old manifest, whose
    # hashes no longer match the rebuilt files' sources only where the source changed.
    tmp = out / f"{MANIFEST}.tmp"
    tmp.write_text(json.dumps({"modules": dict(sorted(built.items()))}, indent=1))
    tmp.replace(out / MANIFEST)
    print(f"compiled rules: {len(stale)} modules compiled in {time.monotonic() - started:.0f} s")
    return 0


def main() -> int:
    """Parses the command line and builds, or cleans."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--force", action="store_true", help="compile every module again")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    if args.clean:
        shutil.rmtree(ROOT / ".compiled", ignore_errors=True)
        return 0
    return build(args.jobs, args.force)


if __name__ == "__main__":
    sys.exit(main())
