"""Why a move is refused: a sentence naming the rule that forbids it (nothing hidden is quoted)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rulesets.fortuna import data
from app.rulesets.fortuna.phases import PHASES
from app.rulesets.fortuna.state import SIDES, State, active

ACTIONS = data.ACTIONS
FAVOURS = data.FAVOURS

STEP_WORDS = {
    "play": "choose one of the three action cards in front of you and execute it or not (phase 2)",
    "exchange": "exchange the card you chose for a face-up action card on another side of the board (phase 2)",
    "military": "give up your top Centurion to play another face-up card of yours, or skip (phase 3, military power)",
    "favour": "use one face-up favour card up to your highest die, or decline (phase 4, the Emperor's favour)",
    "flip": "flip over one more favour card without tokens (2-player rule)",
    "keep": "choose which of the privilege cards you drew to keep (phase 5)",
    "palace": "choose your privilege card at Caesar's palace",
    "wrap": "use a privilege card or end your turn",
}


def reason(s: State, seat: int, move: Any) -> str:
    """A sentence naming the rule that forbids `move`."""
    if s["phase"] == "over":
        return "The game is over: a pawn reached Caesar's palace and the round was finished."
    if seat != active(s):
        return "It is not your turn: players take their turns in the order of the start-player track."
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return "A move is an object with a 'type'."
    phase, t = s["phase"], move["type"]
    accepted = PHASES[phase].apply
    if t == "privilege":
        return _privilege(s, seat, move, "privilege" in accepted)
    if t not in accepted:
        return f"Turn phases come in strict order: now you must {STEP_WORDS[phase]}."
    return _BY_TYPE[t](s, seat, move)


def _privilege(s: State, seat: int, move: dict[str, Any], allowed: bool) -> str:
    if not allowed:
        return "Privilege cards cannot be used while you are choosing privilege cards."
    card = move.get("card")
    if card not in s["players"][seat]["hand"]:
        return "You can only use a privilege card you hold."
    if data.PRIVILEGES[card]["cls"] == "C":
        return "Privilege cards C are not played: they score at the end of the game."
    if s["privilege_b_used"]:
        return "A privilege card B may be used only once per turn."
    return "Your pawn is already at Caesar's palace: a privilege card B cannot move it further."


def _card(s: State, seat: int, move: dict[str, Any]) -> str:
    """play and military: a slot in front of you, and a choice its card allows."""
    slot = move.get("slot")
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < 3:
        return "You may only play one of the three action cards in front of you."
    if move["type"] == "military":
        if s["players"][seat]["centurions"] < 1:
            return "Military power needs a Centurion to give up."
        if not s["sides"][seat][slot]["face_up"]:
            return (
                "Military power plays an extra face-up card in front of you; "
                "the card you just took lies face down."
            )
    return args_reason(s["sides"][seat][slot]["card"])


def _exchange(s: State, seat: int, move: dict[str, Any]) -> str:
    side, slot = move.get("side"), move.get("slot")
    if side == seat:
        return "The chosen card must be exchanged with a card on one of the other three sides."
    if side not in range(SIDES) or slot not in range(3):
        return "Name a side (0-3) and a place (0-2) of the board."
    return "A face-down action card is protected: it cannot be exchanged this round."


def _favour(s: State, seat: int, move: dict[str, Any]) -> str:
    k = move.get("card")
    if not isinstance(k, int) or k not in range(1, 7):
        return "There are six favour cards, numbered 1 to 6."
    if s["favours"][k - 1]["used"]:
        return "That favour card has been flipped over: it cannot be used again this round."
    if k > max(s["rolled"] or [0]):
        return "You may only use a favour card numbered up to your highest die."
    return favour_reason(k)


def _pass(s: State, seat: int, move: dict[str, Any]) -> str:
    return "Choose one of the dice you rolled: its number decides whether you pay the tax."


def _flip(s: State, seat: int, move: dict[str, Any]) -> str:
    k = move.get("card")
    if isinstance(k, int) and k in range(1, 7) and s["favours"][k - 1]["tokens"]:
        return "A player may not flip over a favour card with tokens on it (2-player rule)."
    return "Flip one face-up favour card (2-player rule)."


def _keep(s: State, seat: int, move: dict[str, Any]) -> str:
    choice = s["choice"]
    assert choice is not None  # the phase waits only with a choice
    return (
        f"Keep exactly {choice['keep']} of the privilege cards you drew "
        "(two only with a Basilica and at least 2 tokens)."
    )


def _palace(s: State, seat: int, move: dict[str, Any]) -> str:
    return "Choose one of the privilege cards offered at Caesar's palace."


def _none(s: State, seat: int, move: dict[str, Any]) -> str:
    """skip and end are refused only outside their phase (caught above)."""
    return f"Turn phases come in strict order: now you must {STEP_WORDS[s['phase']]}."


_BY_TYPE: dict[str, Callable[[State, int, dict[str, Any]], str]] = {
    "play": _card,
    "military": _card,
    "exchange": _exchange,
    "favour": _favour,
    "pass": _pass,
    "flip": _flip,
    "keep": _keep,
    "palace": _palace,
    "skip": _none,
    "end": _none,
}


def args_reason(card: str) -> str:
    """Why the chosen arguments cannot execute `card`."""
    row = ACTIONS[card]
    name = row["name"]
    eff = row["effect"]
    if eff == "step":
        return (
            f"{name} moves only a player who is not the start player this round, and not "
            "beyond Caesar's palace."
            if row.get("not_start_player")
            else "Your pawn is already at Caesar's palace."
        )
    words = {
        "harvest": f"{name} spends at most {row.get('max_water')} water, and only water you have.",
        "water": f"{name} takes no choices.",
        "trade": f"{name}: you can only sell {row.get('resource')} you have (at least 1).",
        "recruit": (
            f"{name}: at most {row.get('max_per_action')} per action and 3 in all, paying each "
            "slot's price in full (no debts)."
        ),
        "clerus": "Clerus needs a Vestal Virgin to give up and fewer than 3 dice.",
        "build": (
            "Building: at most 3 buildings, one of each type, while the pile lasts, paid in full; "
            "the Palace only after marriage."
        ),
        "marry": f"Marriage: once per game, paying {row.get('cost')} money.",
        "bribe": (
            f"Bribe: pay {row.get('cost')} money to play a face-up action card (not a Bribe) in "
            "front of another player, with a choice that card allows."
        ),
    }
    return words[eff]


def favour_reason(k: int) -> str:
    """Why favour card k cannot be used this way."""
    row = FAVOURS[k]
    gives = row["gives"]
    if gives == "married":
        return "Favour card 5 moves you only if you are married: 1 step, 2 with a Palace."
    if gives == "vestals":
        return "Favour card 6 moves you 1 step per Vestal Virgin you have (you need at least one)."
    return (
        f"Favour card {k} ({row['name']}) takes 1 to {row['max_steps']} {gives}, "
        "1 step each, and only what you have."
    )
