"""The rulebook's worked example, "Example of a Single Round" (John's round), with its numbers."""

from __future__ import annotations

from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import BAKERY, BOOKS, build, cell, game

TEA = "tea"


def _johns_table():
    st = game(2)
    john = st["players"][0]
    # John has already built 1 bank: 5 coins in cash, 3 silver + 1 gold on his credit card.
    john.update(silver=5, card={"silver": 3, "gold": 1}, banks=1)
    build(
        st,
        0,
        {(-1, 0): BAKERY, (0, 1): TEA, (1, 0): BOOKS, (1, 1): D.BANK},
        workers={(-1, 0): "red", (0, 1): "red", (1, 0): "yellow"},
    )
    cell(st, 0, -1, 0)["token"] = "coin"  # the coin his truck will pick up
    cell(st, 0, 0, 1)["token"] = "diamond"
    john["tracks"].update(meals=2, merchandise=1)  # Meals in sector 2 before his hire
    return st


def test_johns_round():
    """Example of a Single Round: stationery for 3 cash, lollipops for 2 from the card, the candy
    store built for 2 cash with a garbage token, a bank bought and built for 1 gold with a coin on
    it; the truck moves 1 space and picks up a coin; a pink citizen moves Meals from sector 2 to
    3; income 4 + 3; the second bank refills 2 card silver and adds a gold: 8 silver in cash,
    3 silver on the card and 1 gold. The rulebook runs the truck before hiring; we follow the
    flow chart (hire first, decision 1), which gives the same numbers here."""
    st = _johns_table()
    market = [m["tile"] for m in st["market"]]
    # Turn 1: stationery (orange / Merchandise), 3 coins from his cash.
    st = R.apply(st, 0, {"type": "buy", "slot": market.index("stationery"), "card": 0})
    assert st["players"][0]["silver"] == 2
    st = R.apply(st, 1, {"type": "pass"})
    # Turn 2: lollipops (pink / Meals), 2 coins from his credit card.
    slot = [m["tile"] for m in st["market"]].index("lollipops")
    st = R.apply(st, 0, {"type": "buy", "slot": slot, "card": 2})
    assert st["players"][0]["card"] == {"silver": 1, "gold": 1} and st["players"][0]["zone"] == [
        "stationery",
        "lollipops",
    ]
    # Turn 3: construct the candy store, 2 silver from cash; garbage on it.
    st = R.apply(st, 0, {"type": "construct", "zone": 1, "at": [2, 0], "card": 0})
    assert st["players"][0]["silver"] == 0 and cell(st, 0, 2, 0) == {
        "tile": "lollipops",
        "token": "garbage",
        "worker": None,
    }
    # Turn 4: 1 gold buys and constructs a bank, 1 silver coin on it.
    st = R.apply(st, 0, {"type": "bank", "at": [3, 0], "gold": True})
    assert cell(st, 0, 3, 0)["token"] == "coin" and st["players"][0]["card"]["gold"] == 0
    # John passes on the following turn: with 1 card silver he can pay for nothing, so the
    # pass is taken at once (its only move).
    assert st["players"][0]["passed"] and {"seat": 0, "kind": "pass"} in st["last"]["auto"]
    # Hire Citizens: a pink (red) citizen into the candy store; Meals sector 2 -> 3.
    assert st["phase"] == "hire" and R.to_act(st) == [0]
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [2, 0]})
    assert st["players"][0]["tracks"]["meals"] == 3
    # Move Delivery Truck: Transportation not advanced, so 1 space, onto a tile with a coin.
    assert st["phase"] == "truck" and st["players"][0]["truck"]["steps_left"] == 1
    st = R.apply(st, 0, {"type": "drive", "to": [-1, 0]})
    # Obtain Income and Credit Card Rewards.
    assert st["round_end"]["players"][0] == {"income": 7, "card_silver": 2, "gold": 1}
    john = st["players"][0]
    assert john["silver"] == 8 and john["card"] == {"silver": 3, "gold": 1}
