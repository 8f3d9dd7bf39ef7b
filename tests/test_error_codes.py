"""Every domain error code has exactly one status (app/refusals.py), which both its HTTP answer
(app/api/errors.py) and its socket error frame (app/realtime/ws.py) carry."""

from __future__ import annotations

import ast
from pathlib import Path

from app.engine.errors import ErrorCode, GameError
from app.realtime.ws import error_frame
from app.refusals import STATUS
from app.services.errors import Refusal, ServiceError

APP = Path(__file__).resolve().parents[1] / "app"
CODES = [*ErrorCode, *Refusal]


def test_every_code_has_one_status() -> None:
    """No code is missing from the map, none is left over, and each status is a 4xx."""
    assert set(STATUS) == set(CODES)
    assert all(400 <= status < 500 for status in STATUS.values())
    assert len({code.value for code in CODES}) == len(CODES)  # no wire code used by two errors


def test_the_error_frames_keep_the_wire_contract() -> None:
    """A game check's frame carries its code (and version); a service's frame is as before."""
    game = GameError(ErrorCode.STALE_VERSION, "Stale.", version=7)
    assert error_frame(game, "m1") == {
        "type": "error",
        "id": "m1",
        "status": 409,
        "detail": "Stale.",
        "code": "move/stale_version",
        "version": 7,
    }
    seat = ServiceError(Refusal.SEAT_NOT_YOURS, "Not yours.")
    assert error_frame(seat, None) == {"type": "error", "id": None, "status": 403, "detail": "Not yours."}


def test_no_domain_error_is_built_with_an_http_status() -> None:
    """Every ServiceError(...) under app/ names a Refusal, never a number."""
    numbered = []
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) in ("ServiceError", "GameError")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                numbered.append(f"{path.relative_to(APP.parent)}:{node.lineno}")
    assert not numbered
