"""A bot worker process: `python -m app.bot_worker [EXTRA_RULESETS]`, run by app/services/bot_pool.py.

It reads one JSON request per line on stdin and answers one JSON line on stdout, in order:
{"id": n, "move": {...}, "seconds": s} or {"id": n, "error": "what went wrong"}. The first line
it writes is {"ready": pid}, once the rulesets are imported. It ends when stdin closes (the
server stopped or died). Anything else that writes to stdout (a print in a ruleset) goes to
stderr, so it can never corrupt the answers.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time

import orjson

from app import rulesets as _product_rulesets  # noqa: F401  (registers the product's rulesets)
from app.engine import choosers, registry


def parse(line: bytes) -> dict[str, object]:
    """One request line as app.services.bot_pool.encode wrote it: orjson's JSON, or the
    stdlib's after an "S" (a state with an integer orjson would read back as a float)."""
    if line.startswith(b"S"):
        return json.loads(line[1:])
    return orjson.loads(line)


def _answer(line: bytes) -> dict[str, object]:
    """The answer to one request line (errors become an answer, never an exit)."""
    start = time.perf_counter()
    request_id = None
    try:
        request = parse(line)
        request_id = request.get("id")
        move = choosers.decide(request)
    except Exception as exc:  # noqa: BLE001 - the server falls back and logs it
        return {"id": request_id, "error": f"{type(exc).__name__}: {exc}"[:500]}
    return {"id": request_id, "move": move, "seconds": time.perf_counter() - start}


def _dumps(value: object) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:  # an integer beyond 64 bits in a move
        return json.dumps(value, separators=(",", ":")).encode()


def main(argv: list[str]) -> None:
    """Serve requests until stdin closes."""
    # Ctrl-C in a terminal reaches the whole process group: the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    logging.basicConfig(level=logging.WARNING, format="bot worker %(process)d: %(message)s")
    if argv:
        registry.load(argv[0])
    answers.write(orjson.dumps({"ready": os.getpid()}) + b"\n")
    requests = sys.stdin.buffer
    while line := requests.readline():
        answers.write(_dumps(_answer(line)) + b"\n")


if __name__ == "__main__":
    main(sys.argv[1:])
