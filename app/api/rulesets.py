"""The rulesets this server offers, with their options' JSON schema and public component data."""

from __future__ import annotations

from typing import Any

from typing import Literal

from fastapi import APIRouter

from app import guides
from app.api.deps import SessionDep
from app.api.schemas import Leaderboard, RulesetInfo, error_responses
from app.engine import registry
from app.engine.choosers import PLAYABLE
from app.ratings import bot_rating
from app.services import profiles
from app.services.errors import not_found

router = APIRouter(prefix="/api/rulesets", tags=["rulesets"], responses=error_responses(404))


@router.get("", response_model=list[RulesetInfo])
async def list_rulesets() -> list[dict[str, Any]]:
    """Every ruleset with its seat range and options schema."""
    return [
        {
            "id": r.id,
            "name": r.name,
            "min_players": r.min_players,
            "max_players": r.max_players,
            "options": r.Options.model_json_schema(),
        }
        for r in registry.all_rulesets()
    ]


@router.get("/{ruleset_id}/catalogue")
async def catalogue(ruleset_id: str) -> dict[str, Any]:
    """Public component data (names, costs, effect texts) that renderers need to draw views."""
    ruleset = registry.get(ruleset_id)
    if ruleset is None:
        raise not_found("ruleset")
    return ruleset.catalogue() if hasattr(ruleset, "catalogue") else {}


@router.get("/{ruleset_id}/guide")
async def guide(ruleset_id: str) -> dict[str, Any]:
    """How to play, in our words: summary, sections, glossary, hints by move type, rulebook link."""
    ruleset = registry.get(ruleset_id)
    found = guides.guide(ruleset_id) if ruleset is not None else None
    if ruleset is None or found is None:
        raise not_found("ruleset guide")
    return {"ruleset": ruleset_id, "name": ruleset.name, **found}


@router.get("/{ruleset_id}/leaderboard", response_model=Leaderboard)
async def leaderboard(
    ruleset_id: str, session: SessionDep, pool: Literal["rated", "bots"] = "rated"
) -> dict[str, Any]:
    """The game's players by rating (settled ratings first, then provisional ones), and the bot
    levels' fixed ratings; `pool=bots` for the ratings from games against bots."""
    if registry.get(ruleset_id) is None:
        raise not_found("ruleset")
    return {
        "ruleset": ruleset_id,
        "pool": pool,
        "players": await profiles.leaderboard(session, ruleset_id, pool),
        "bots": {level: bot_rating(level) for level in PLAYABLE},
    }
