"""Browser fixtures: a live server process and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import shutil

import pytest

from tests.support.canonical_js import CANON
from tests.support.server import ServerProcess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """A server on SQLite with a short bot delay."""
    db = tmp_path_factory.mktemp("browser") / "civitas.db"
    with ServerProcess(
        {"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}", "CIVITAS_BOT_DELAY_MS": "50"}
    ) as server:
        yield server


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """A server whose bots move at once (games played to the end: rematch, replay)."""
    db = tmp_path_factory.mktemp("quick") / "civitas.db"
    with ServerProcess(
        {"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}", "CIVITAS_BOT_DELAY_MS": "0"}
    ) as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium from Debian's package (Playwright never downloads a browser here)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (own localStorage) and page. Playwright's wait_for_function
    evaluates strings, which the app's CSP forbids, so these contexts bypass CSP; the app under
    its CSP is checked in test_security_browser.py."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    try:
        staged = getattr(page, "civitas_staged", False)  # a test that rewrote the server's frames
        mismatch = None if staged or page.is_closed() else page.evaluate(SAME_AS_SERVER)
    except Exception:  # noqa: BLE001 - the test left the page unusable (closed, offline): nothing to compare
        mismatch = None
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert not mismatch, f"the page's game document differs from the server's: {mismatch}"


# Every browser test that ends on a game page checks that the document the page built from
# patches equals `GET /api/games/{id}` at the same version (issue 26 item 8). The page and the
# server may be a bot move apart: compare at a moment both are at one version.
SAME_AS_SERVER = (
    """async () => {
  const CANON = """
    + CANON
    + """;
  const c = window.civitas;
  const match = location.pathname.match(/^\\/games\\/([^/]+)$/);
  if (!c || !c.doc || !match) return null;
  const canon = CANON;
  const player = JSON.parse(localStorage.getItem("civitas.player") || "null");
  const headers = player ? { Authorization: `Bearer ${player.token}` } : {};
  let last = null;
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`/api/games/${match[1]}`, { headers });
    if (!response.ok) return null;  // signed out or gone: the test's own business
    const server = await response.json();
    if (server.version === c.doc.version) {
      const [a, b] = [canon(server), canon(c.doc)];
      if (a === b) return null;
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      last = `version ${server.version}: server …${a.slice(Math.max(0, at - 80), at + 120)}… ` +
             `page …${b.slice(Math.max(0, at - 80), at + 120)}…`;
    }
    await new Promise(r => setTimeout(r, 100));
  }
  return last;
}"""
)
