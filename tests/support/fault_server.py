"""`python -m tests.support.fault_server`: the server of `python -m app.main`, with a fault that
only tests inject: the process exits (status 70) right after a move commits, before anything is
told of it (the first move listener runs before the broadcast, the bots and the clocks)."""

from __future__ import annotations

import os

from app import main
from app import platform

EXIT_STATUS = 70


def install() -> None:
    """Make every Platform built from now on die after its first committed move."""
    built = platform.Platform.__init__

    def with_fault(self, settings):  # type: ignore[no-untyped-def]  # replaces __init__ as it is
        built(self, settings)

        async def die(_game_id: str, _version: int) -> None:
            os._exit(EXIT_STATUS)

        self.games.listeners.insert(0, die)

    platform.Platform.__init__ = with_fault  # type: ignore[method-assign]  # the fault, on purpose


if __name__ == "__main__":
    install()
    main.main()
