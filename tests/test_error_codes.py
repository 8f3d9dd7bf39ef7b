"""Every domain error code has exactly one HTTP status (app/api/errors.py) and one socket error
frame (app/realtime/ws.py), and the two agree: a refusal reads the same over REST and a socket."""

from __future__ import annotations

import ast
from pathlib import Path

from app.api.errors import HTTP_STATUS
from app.engine.errors import ErrorCode, GameError
from app.realtime.ws import FRAME_STATUS, error_frame
from app.services.errors import Refusal, ServiceError

APP = Path(__file__).resolve().parents[1] / "app"
CODES = [*ErrorCode, *Refusal]


def test_every_code_has_an_http_status_and_a_frame_and_they_agree() -> None:
    """No code is missing from either map, none is left over, and each status is a 4xx."""
    assert set(HTTP_STATUS) == set(CODES) == set(FRAME_STATUS)
    assert {code: FRAME_STATUS[code] for code in CODES} == {code: HTTP_STATUS[code] for code in CODES}
    assert all(400 <= status < 500 for status in HTTP_STATUS.values())
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
