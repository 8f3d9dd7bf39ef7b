"""Every game a test starts prints its seed when the test fails, games started by a server in
another process (tests/support/server.py) included; CIVITAS_TEST_GAME_SEED fixes those too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from tests.support import seeds
from tests.support.server import ROOT

INNER = """
import httpx
import pytest
from tests.support.server import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("seeds") / "civitas.db"
    with ServerProcess({"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}"}) as running:
        yield running


def _game(server):
    p = httpx.post(server.url + "/api/players", json={"name": "A"}, timeout=120).json()
    h = {"Authorization": "Bearer " + p["token"]}
    room = httpx.post(server.url + "/api/rooms", headers=h, json={"ruleset": "testgame", "seats": 2},
                      timeout=120).json()
    httpx.post(f"{server.url}/api/rooms/{room['id']}/bots", headers=h, json={}, timeout=120)
    return httpx.post(f"{server.url}/api/rooms/{room['id']}/start", headers=h, timeout=120).json()["game_id"]


def test_passes(server):
    print("EARLIER " + _game(server))


def test_fails(server):
    assert False, "GAME " + _game(server)
"""


@pytest.mark.timeout(600)  # two pytest processes and a server on a loaded machine
def test_a_failing_test_reports_the_seeds_of_games_its_server_process_started(tmp_path):
    """A test that plays in a server process and fails: its report has the "games started
    (seeds)" section naming its game, with the seed CIVITAS_TEST_GAME_SEED fixed, and not the
    game an earlier test started on the same server; the passing test prints no such section."""
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CIVITAS_TEST_GAME_SEED": "424242"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.conftest",
            "test_inner.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=580,
    )
    out = run.stdout + run.stderr
    assert "1 failed, 1 passed" in out, out[-3000:]
    game = re.search(r"GAME ([0-9a-f]+)", out).group(1)
    assert out.count("games started (seeds)") == 1, out[-3000:]
    section = out.split("games started (seeds)", 1)[1]
    assert f"game {game} (testgame) seed 424242, in a server process" in section, out[-3000:]
    assert "replay with CIVITAS_TEST_GAME_SEED=424242" in section
    assert section.count(" seed 424242") == 1  # the passing test's game is not listed


def test_only_the_games_started_since_the_mark_are_listed(monkeypatch, tmp_path):
    """The collecting function: lines a server wrote before the test began belong to earlier
    tests; a server started during the test is read from its start."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    monkeypatch.setattr(seeds, "FILES", [old])
    old.write_text("g1 testgame 1\n")
    mark = seeds.marks()
    with open(old, "a") as f:
        f.write("g2 suburbia 22\n")
    seeds.FILES.append(new)
    new.write_text("g3 tiny-towns 333\n")
    assert seeds.started_since(mark) == [("g2", "suburbia", "22"), ("g3", "tiny-towns", "333")]
