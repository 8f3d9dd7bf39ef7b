"""A socket frame handled in the protocol's callback (app/realtime/eager.py, no task) that needs
the database while the pool is busy: it waits for a connection in a task instead of failing
("Timeout should be used inside a task", which closed the socket 1011 under load)."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient

from app.main import create_app
from app.realtime import eager
from tests.support.api import started_game


def test_a_callback_started_read_waits_for_a_busy_pool_in_a_task(settings):
    settings = settings.model_copy(update={"db_pool_size": 1, "db_max_overflow": 0, "db_pool_timeout": 10})
    with TestClient(create_app(settings)) as client:
        game_id, _humans = started_game(client)
        platform = client.app.state.platform

        async def scenario() -> tuple[bool, int]:
            loop = asyncio.get_running_loop()
            held = await platform.engine.connect()  # the pool's only connection
            started: asyncio.Future = loop.create_future()
            coro = platform.games.live(game_id, fresh=True)

            def callback() -> None:  # as the protocol's data_received runs: outside any task
                try:
                    started.set_result(eager.start(coro))
                except BaseException as exc:  # noqa: BLE001 - the test reports it
                    started.set_exception(exc)

            loop.call_soon(callback)
            result, pending = await started
            suspended = eager.running(result)
            task = asyncio.ensure_future(eager.finish(coro, pending))
            await asyncio.sleep(0.1)
            waited = not task.done()  # still waiting for the connection held above
            await held.close()
            live = await asyncio.wait_for(task, 10)
            return suspended and waited, live.version

        assert client.portal.call(scenario) == (True, 0)
