"""The seeds of games that test servers in other processes started (see ServerProcess): each
server appends `<game> <ruleset> <seed>` to its own seed file, and a failing test's report lists
the lines its servers wrote while it ran."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

_DIR: Path | None = None
FILES: list[Path] = []  # every seed file of this test session, in order of creation


def new_seed_file() -> Path:
    """A fresh, empty seed file for one server process (removed when the session ends)."""
    global _DIR
    if _DIR is None:
        _DIR = Path(tempfile.mkdtemp(prefix="civitas-seeds-"))
        atexit.register(shutil.rmtree, _DIR, True)
    path = _DIR / f"server-{len(FILES)}.txt"
    path.touch()
    FILES.append(path)
    return path


def marks() -> dict[Path, int]:
    """Where each seed file ends now (taken when a test starts)."""
    return {path: _size(path) for path in FILES}


def started_since(since: dict[Path, int]) -> list[tuple[str, str, str]]:
    """(game, ruleset, seed) of every game the servers started after `since` was taken; a server
    started later is read from its beginning."""
    games = []
    for path in FILES:
        try:
            with open(path, "rb") as seeds:
                seeds.seek(since.get(path, 0))
                text = seeds.read().decode("utf-8", "replace")
        except OSError:
            continue
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3:
                games.append((parts[0], parts[1], parts[2]))
    return games


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
