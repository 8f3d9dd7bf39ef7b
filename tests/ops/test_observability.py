"""Operations: health and readiness checks, Prometheus metrics, structured logs."""

from __future__ import annotations

import json
import logging
import re

from app.observability.logs import JsonFormatter
from app.observability.metrics import Counter, Histogram, Registry
from tests.support.api import started_game


def _metric(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert match, f"{name} missing from /metrics"
    return float(match.group(1))


def test_health_and_readiness(client):
    """/healthz says the process lives; /readyz that the database and the broker answer."""
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json()["status"] == "ready"


def test_readiness_fails_naming_the_database_when_it_is_gone(client):
    """With the database unreachable /readyz answers 503 and says which dependency is missing."""
    platform = client.app.state.platform
    real = platform.engine

    class Broken:
        def connect(self):
            raise OSError("no database")

    platform.engine = Broken()
    try:
        r = client.get("/readyz")
    finally:
        platform.engine = real
    assert r.status_code == 503 and "database" in r.json()["detail"]


def test_metrics_count_moves_patches_and_sockets(client):
    """A move over the socket shows in /metrics: the move counter, the latency histogram, one
    patch frame encoded per audience, patch bytes, and the open game sockets gauge."""
    game_id, (ann, bob) = started_game(client)
    before = client.get("/metrics").text
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={ann['token']}") as wa,
        client.websocket_connect(f"/ws/games/{game_id}?token={bob['token']}") as wb,
        client.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        doc = wa.receive_json()["game"]
        wb.receive_json()
        spectator.receive_json()
        during = client.get("/metrics").text
        wa.send_json(
            {
                "type": "move",
                "version": doc["version"],
                "id": "m1",
                "move": {"type": "bid", "card": doc["view"]["hand"][0]},
            }
        )
        assert wa.receive_json()["type"] == "ack"
        for ws in (wa, wb, spectator):
            while ws.receive_json()["type"] != "patch":
                pass
        after = client.get("/metrics").text
    assert _metric(after, "civitas_moves_total") == _metric(before, "civitas_moves_total") + 1
    assert _metric(after, "civitas_move_seconds_count") == _metric(before, "civitas_move_seconds_count") + 1
    # three audiences (seat 0, seat 1, spectators): three encodes for three sockets
    assert (
        _metric(after, "civitas_patch_frames_encoded_total")
        == _metric(before, "civitas_patch_frames_encoded_total") + 3
    )
    assert _metric(after, "civitas_patch_bytes_total") > _metric(before, "civitas_patch_bytes_total")
    assert _metric(during, 'civitas_open_sockets{kind="game"}') == 3
    assert _metric(during, "civitas_live_games") >= 1
    for name in (
        "civitas_resyncs_total",
        "civitas_lobby_sockets",
        "civitas_broker_lag_seconds_count",
        "civitas_db_pool_wait_seconds_count",
        "civitas_db_pool_waits_total",
    ):
        _metric(after, name)


def test_an_event_stamped_ahead_of_this_clock_counts_as_no_broker_lag(client):
    """Broker lag: an event stamped later than this process's clock (another instance's clock
    runs ahead) is one observation of 0 s, never a negative or made-up lag."""
    import time

    from app.observability.metrics import BROKER_LAG

    platform = client.app.state.platform
    before = _metric(client.get("/metrics").text, 'civitas_broker_lag_seconds_bucket{le="0.00025"}')
    count, total = BROKER_LAG.count, BROKER_LAG.sum
    client.portal.call(platform._on_event, {"type": "none", "t": time.time() + 5})
    assert BROKER_LAG.count == count + 1 and BROKER_LAG.sum == total
    after = _metric(client.get("/metrics").text, 'civitas_broker_lag_seconds_bucket{le="0.00025"}')
    assert after == before + 1


def test_a_patch_is_encoded_once_for_many_spectators(client):
    """Five spectators of one game cost one encoded spectator patch per move, not five."""
    game_id, (ann, bob) = started_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={ann['token']}") as wa:
        doc = wa.receive_json()["game"]
        specs = [client.websocket_connect(f"/ws/games/{game_id}") for _ in range(5)]
        sockets = [s.__enter__() for s in specs]
        try:
            for s in sockets:
                s.receive_json()
            before = _metric(client.get("/metrics").text, "civitas_patch_frames_encoded_total")
            wa.send_json(
                {
                    "type": "move",
                    "version": doc["version"],
                    "id": "m1",
                    "move": {"type": "bid", "card": doc["view"]["hand"][0]},
                }
            )
            frames = [None] * 5
            for i, s in enumerate(sockets):
                frame = s.receive_json()
                while frame["type"] != "patch":
                    frame = s.receive_json()
                frames[i] = frame
            after = _metric(client.get("/metrics").text, "civitas_patch_frames_encoded_total")
        finally:
            for s in specs:
                s.__exit__(None, None, None)
    assert after - before == 2  # seat 0's audience and the spectators'; seat 1 has no socket
    assert all(f == frames[0] for f in frames)


def test_exposition_format():
    """Counters with labels, and histograms with cumulative buckets, +Inf, sum and count."""
    reg = Registry()
    c = reg.add(Counter("x_total", "Things."))
    c.inc(code="a")
    c.inc(2, code="a")
    h = reg.add(Histogram("y_seconds", "Times.", [0.1, 1]))
    for v in (0.05, 0.5, 5):
        h.observe(v)
    text = reg.render()
    assert 'x_total{code="a"} 3' in text
    assert 'y_seconds_bucket{le="0.1"} 1' in text and 'y_seconds_bucket{le="1"} 2' in text
    assert 'y_seconds_bucket{le="+Inf"} 3' in text and "y_seconds_count 3" in text
    assert "# TYPE y_seconds histogram" in text


def test_log_lines_are_json_with_game_and_version():
    """A record logged with a game id and version becomes one JSON line carrying both."""
    record = logging.LogRecord("civitas", logging.INFO, __file__, 1, "move stored", None, None)
    record.game_id, record.version = "g1", 7
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "move stored" and line["game_id"] == "g1" and line["version"] == 7
    assert line["level"] == "info"


def test_tokens_in_logged_urls_are_redacted():
    """uvicorn logs websocket URLs; a bearer token in the query string never reaches the log."""
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", "/ws/games/g1?token=SECRET123&x=1"),
        None,
    )
    line = JsonFormatter().format(record)
    assert "SECRET123" not in line and "token=[redacted]&x=1" in line
