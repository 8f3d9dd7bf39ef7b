"""Small helpers for driving the REST API in tests."""

from __future__ import annotations

from typing import Any


def new_player(client, name: str = "Ann") -> dict[str, Any]:
    """Create a player; returns its body plus ready-made auth headers."""
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


def new_room(
    client,
    host: dict[str, Any],
    *,
    seats: int = 2,
    private: bool = False,
    ruleset: str = "testgame",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Open a room as `host`."""
    r = client.post(
        "/api/rooms",
        headers=host["headers"],
        json={"ruleset": ruleset, "seats": seats, "private": private, "options": options or {}},
    )
    assert r.status_code == 201, r.text
    return r.json()


def started_game(
    client, *, seats: int = 2, options: dict[str, Any] | None = None, bots: int = 0, ruleset: str = "testgame"
) -> tuple[str, list[dict[str, Any]]]:
    """A started test game: humans in the first seats, bots in the last `bots`; returns (game, humans)."""
    humans = [new_player(client, f"P{i}") for i in range(seats - bots)]
    room = new_room(client, humans[0], seats=seats, options=options, ruleset=ruleset)
    for player in humans[1:]:
        assert (
            client.post(f"/api/rooms/{room['id']}/join", headers=player["headers"], json={}).status_code
            == 200
        )
    for _ in range(bots):
        assert (
            client.post(f"/api/rooms/{room['id']}/bots", headers=humans[0]["headers"], json={}).status_code
            == 200
        )
    r = client.post(f"/api/rooms/{room['id']}/start", headers=humans[0]["headers"])
    assert r.status_code == 200, r.text
    return r.json()["game_id"], humans


def paced_game(client, pace: dict[str, Any] | None = None) -> tuple[str, str, dict, dict]:
    """Ann hosts a two-seat test game with `pace`, Bob joins, it starts: (game, room, Ann, Bob)."""
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    body: dict[str, Any] = {"ruleset": "testgame", "seats": 2, "options": {}}
    if pace:
        body["pace"] = pace
    room = client.post("/api/rooms", headers=a["headers"], json=body).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    return game_id, room["id"], a, b


def doc(client, game_id: str, player: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game document as `player` (or a spectator) sees it."""
    r = client.get(f"/api/games/{game_id}", headers=player["headers"] if player else {})
    assert r.status_code == 200, r.text
    return r.json()


def legal(client, game_id: str, player: dict[str, Any]) -> dict[str, Any]:
    """The player's legal moves."""
    r = client.get(f"/api/games/{game_id}/legal-moves", headers=player["headers"])
    assert r.status_code == 200, r.text
    return r.json()


def play_first_legal(client, game_id: str, player: dict[str, Any]) -> int:
    """Play the first legal move; returns the new version."""
    moves = legal(client, game_id, player)
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=player["headers"],
        json={"version": moves["version"], "move": moves["moves"][0]},
    )
    assert r.status_code == 200, r.text
    return r.json()["version"]


def play_to_end(client, game_id: str, humans: list[dict[str, Any]], timeout: float = 30.0) -> dict:
    """Play the humans' first legal moves (bots play themselves) until the game is over."""
    import time

    deadline = time.monotonic() + timeout
    while doc(client, game_id)["status"] == "active":
        moved = False
        for player in humans:
            if legal(client, game_id, player)["moves"]:
                play_first_legal(client, game_id, player)
                moved = True
        if not moved:
            time.sleep(0.01)
        assert time.monotonic() < deadline, "the game did not end in time"
    return doc(client, game_id)


def in_db(client, fn):
    """Run `fn(session)` on the app's loop in a session of its own, commit, and return its result."""
    platform = client.app.state.platform

    async def run():
        async with platform.sessions() as session:
            result = await fn(session)
            await session.commit()
            return result

    return client.portal.call(run)
