"""Browser fixtures: a live server process and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import shutil

import pytest

from tests.support.server import ServerProcess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """A server on SQLite with a short bot delay."""
    db = tmp_path_factory.mktemp("browser") / "civitas.db"
    with ServerProcess({"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
                        "CIVITAS_BOT_DELAY_MS": "50"}) as server:
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
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
