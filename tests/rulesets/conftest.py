"""Shared fixtures of the ruleset tests: one headless Chromium for every renderer test."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless (Playwright never downloads a browser here)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        yield instance
        instance.close()
