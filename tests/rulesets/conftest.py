"""Shared fixtures of the ruleset tests: a headless Chromium per renderer test module."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless (Playwright never downloads a browser here)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        yield instance
        instance.close()
