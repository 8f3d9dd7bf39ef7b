"""The table's extras on a socket (presence in and out, heartbeats) never stop the socket: a
failing presence update is logged and the socket goes on (or finishes) as if it had worked."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.realtime import table_socket
from app.realtime.hub import Connection


class _FailingClocks:
    async def presence(self, *args, **kwargs):
        raise RuntimeError("the database refused a connection")

    async def seen(self, seats):
        raise RuntimeError("the database refused a connection")


class _Platform:
    clocks = _FailingClocks()


class _Socket:
    async def send_text(self, text: str) -> None:
        pass


@pytest.mark.parametrize("step", ["joined", "left", "moved", "beat"])
def test_a_failing_presence_update_is_logged_and_the_socket_goes_on(step, caplog):
    """Each extra swallows its failure and logs it with its traceback (the logger's name must
    not be shadowed by the module's `log` frame handler: it was, and the failure escaped)."""
    conn = Connection(_Socket(), "g1", 0, "p1")
    calls = {
        "joined": lambda: table_socket.joined(_Platform(), conn, "r1"),
        "left": lambda: table_socket.left(_Platform(), conn),
        "moved": lambda: table_socket.moved(_Platform(), conn, 0, 1),
        "beat": lambda: table_socket.beat(_Platform(), [conn]),
    }
    with caplog.at_level(logging.ERROR, logger="app.realtime.table_socket"):
        asyncio.run(calls[step]())
    failures = [r for r in caplog.records if r.name == "app.realtime.table_socket"]
    assert len(failures) == 1 and failures[0].exc_info is not None
    assert "refused" in str(failures[0].exc_info[1])
