"""A ruleset renderer (static/rulesets/<id>.js) alone in headless Chromium: a real view, its legal
moves and a stand-in page context, served through Playwright routing with no server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RULESETS_JS = Path(__file__).resolve().parents[2] / "static" / "rulesets"
KIT_JS = RULESETS_JS.parent / "js" / "kit.js"
ORIGIN = "http://renderer.test"
# Plays and hints are recorded instead of sent; the shell's optional hooks run when exported
# (outcomeDetails only once there is an outcome, as the game page does).
HARNESS = """<!doctype html><html><head><meta name=viewport content="width=device-width"></head>
<body style="margin:0"><div id=root></div><script type=module>
import * as R from "./renderer.js";
window.played = [];
window.explained = window.hints = [];
const ctx = { ...window.CTX, play: (m) => window.played.push(m), describe: (m) => JSON.stringify(m),
              explain: (t) => window.explained.push(t) };
R.render(document.getElementById("root"), ctx);
const details = R.outcomeDetails && ctx.doc.outcome ? R.outcomeDetails(ctx) : null;
if (details) document.body.append(details);
window.hooks = {
  order: R.turnOrder ? R.turnOrder(ctx.doc.view, ctx) : null,
  score: R.publicScore ? R.publicScore(ctx.doc.view, 0, ctx) : null,
  changed: (entry) => (R.changed ? R.changed(entry, ctx) : null),
};
</script></body></html>"""


def open_renderer(
    browser: Any,
    ruleset: Any,
    state: dict,
    seat: int | None,
    *,
    ready: str,
    width: int = 1280,
    height: int = 900,
    names: dict | None = None,
    version: int = 1,
) -> tuple[Any, list, list[str]]:
    """Open `ruleset`'s renderer on `state` as `seat` sees it; wait for the `ready` selector.

    Returns (page, the legal moves given to it, page errors seen so far)."""
    out = ruleset.outcome(state)
    to_act = ruleset.to_act(state)
    legal = ruleset.legal_moves(state, seat) if seat is not None and seat in to_act else []
    doc = {
        "id": "g",
        "ruleset": ruleset.id,
        "version": version,
        "status": "finished" if out else "active",
        "to_act": to_act,
        "seat": seat,
        "view": ruleset.view(state, seat),
        "outcome": out.to_json() if out else None,
    }
    ctx = {"doc": doc, "legalMoves": legal, "seat": seat, "catalogue": ruleset.catalogue()}
    if names is not None:
        ctx["names"] = names
    source = (RULESETS_JS / f"{ruleset.id}.js").read_text()
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route(f"{ORIGIN}/index.html", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
    page.route(
        f"{ORIGIN}/renderer.js", lambda route: route.fulfill(body=source, content_type="text/javascript")
    )
    # The renderer imports the client kit as "../js/kit.js", which resolves to /js/kit.js here.
    page.route(
        f"{ORIGIN}/js/kit.js",
        lambda route: route.fulfill(body=KIT_JS.read_text(), content_type="text/javascript"),
    )
    page.add_init_script(f"window.CTX = {json.dumps(ctx)};")
    page.goto(f"{ORIGIN}/index.html")
    page.wait_for_selector(ready)
    return page, legal, errors
