"""Tests only: note each new game's seed in a file that the test which started the server reads
(Settings.seed_log), so a failing test can print the seeds of games played in another process.

It is no log: nothing else writes there or reads it, and it is off unless the setting is given.
"""

from __future__ import annotations


def record_seed(path: str, game_id: str, ruleset: str, seed: int) -> None:
    """Append one line, `<game id> <ruleset> <seed>`, to the seed file at `path`."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(f"{game_id} {ruleset} {seed}\n")
