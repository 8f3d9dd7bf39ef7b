"""Setup 1-6: the starting market, the goods stack and the bag reduced for the player count, the
player boards, and a random start player."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import PARK_KEYS
from app.rulesets.fortune_city.state import Card, Options, Player, Slot, State

SUPPLY = D.SUPPLY


def new_player(options: Options) -> Player:
    """A player board: truck on City Hall, markers in the centres, 7 silver (Setup 4-5)."""
    silver: int = SUPPLY["silver_start"]
    card: Card | None = None
    if options["starting_credit_card"]:
        # Chinese edition: the card is there from the start with 3 of the 7 silver on it.
        card = {"silver": SUPPLY["card_silver_slots"], "gold": 0}
        silver -= SUPPLY["card_silver_slots"]
    return {
        "silver": silver,
        "card": card,
        "zone": [None, None],
        "park": {c: 0 for c in PARK_KEYS},
        "city": {"0,0": {"tile": D.CITY_HALL, "token": None, "worker": None}},
        "tracks": {t: 0 for t in D.TYPES},
        "truck": {"at": "0,0", "previous": None, "steps_left": 0},
        "done": False,
        "passed": False,
        "banks": 0,
        "banks_this_round": 0,
        "diamonds": 0,
        "garbage_cleared": 0,
        "coins_collected": 0,
    }


def _stack_groups() -> dict[tuple[str, int], list[str]]:
    """The stack tiles of each type and price, in table order."""
    groups: dict[tuple[str, int], list[str]] = {}
    for tile in D.STACK_TILES:
        groups.setdefault((D.TILES[tile]["type"], D.TILES[tile]["price"]), []).append(tile)
    return groups


# Worked out once at import (setup was 5-15 % of a random game's time), never changed.
_STACK_GROUP = _stack_groups()
# the citizens of each colour the starting goods bring to the market
_STARTING_CITIZENS = {
    c: len([x for x in D.STARTING if D.CITIZEN_OF[D.TILES[x]["type"]] == c]) for c in D.CITIZENS_IN_BOX
}


def setup_state(players: int, options: Options, seed: int) -> State:
    """Setup 1-6: starting market, reduced goods stack and bag, boards, random start player."""
    if players not in D.REMOVAL:
        raise ValueError("Fortune City is for 2 to 4 players")
    rng = Rng.from_seed(seed, "fortune-city")
    removal = D.REMOVAL[players]
    box = [rng.choice(_STACK_GROUP[t, price]) for t in D.TYPES for price in removal["prices"]]
    removed = set(box)
    stack = rng.shuffled([x for x in D.STACK_TILES if x not in removed])
    bag: list[str] = []
    for colour, count in D.CITIZENS_IN_BOX.items():
        bag += [colour] * (count - _STARTING_CITIZENS[colour] - removal["citizens"])
    bag = rng.shuffled(bag)
    if len(bag) != len(stack):
        raise ValueError("citizen bag and goods stack differ in size; check data/game.toml")
    market: list[Slot] = [{"tile": x, "citizen": D.CITIZEN_OF[D.TILES[x]["type"]]} for x in D.STARTING]
    start = rng.below(players)
    return {
        "player_count": players,
        "options": options,
        "phase": "actions",
        "round": 1,
        "final": False,
        "start": start,
        "turn": start,
        "market": market,
        "stack": stack,
        "bag": bag,
        "box": sorted(box),
        "returned": [],
        "banks": SUPPLY["bank_count"],
        "vips": SUPPLY["vip_count"],
        "players": [new_player(options) for _ in range(players)],
        "last": None,
        "round_end": None,
        "rng": rng.state,
    }
