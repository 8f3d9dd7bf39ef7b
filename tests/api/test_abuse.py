"""Bad input found by the outside abuse test (issue 12 findings 5-7): each is a 4xx naming what
is wrong, and nothing changes."""

from __future__ import annotations

import pytest

from tests.support.api import new_player, new_room


def test_an_outsiders_leave_on_a_private_room_is_a_404(client):
    """Finding 7: leaving a private room one is not in answers 404, as for a missing room, so a
    leave cannot probe which private rooms exist; on a public room it stays 403."""
    host, outsider = new_player(client, "Host"), new_player(client, "Eve")
    private = new_room(client, host, private=True)
    public = new_room(client, host)
    hidden = client.post(f"/api/rooms/{private['id']}/leave", headers=outsider["headers"])
    missing = client.post("/api/rooms/doesnotexist/leave", headers=outsider["headers"])
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["detail"] == missing.json()["detail"]
    assert client.post(f"/api/rooms/{public['id']}/leave", headers=outsider["headers"]).status_code == 403


@pytest.mark.parametrize("seat", ["1", 1.0, True])
def test_seat_must_be_a_strict_integer(client, seat):
    """Finding 7: `seat` in join and bot bodies refuses "1", 1.0 and true with a 422."""
    host, bob = new_player(client, "Host"), new_player(client, "Bob")
    room = new_room(client, host, seats=3)
    join = client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={"seat": seat})
    bot = client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={"seat": seat})
    assert join.status_code == bot.status_code == 422
    assert "seat" in str(join.json()["detail"])
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert [s["player"] is None and s["bot"] is None for s in seats] == [False, True, True]
