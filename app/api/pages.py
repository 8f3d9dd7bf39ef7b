"""HTML pages: the lobby, a room, a game, the account. Everything after the first paint is ES
modules + the API."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from app import guides
from app.config import ROOT
from app.engine import registry
from app.services.errors import not_found

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(ROOT / "templates"))


@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request) -> HTMLResponse:
    """The lobby: public rooms, create a room, join by code."""
    return templates.TemplateResponse(request, "lobby.html", {"page": "lobby"})


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(request: Request, room_id: str) -> HTMLResponse:
    """A room: seats, bots, options, start."""
    return templates.TemplateResponse(request, "room.html", {"page": "room", "room_id": room_id})


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> HTMLResponse:
    """The account: claim the name, sign in (password or code), sessions, rename, delete; the
    verification and reset links from e-mails land here."""
    return templates.TemplateResponse(request, "account.html", {"page": "account"})


@router.get("/r/{invite_code}")
async def invite_link(invite_code: str) -> RedirectResponse:
    """An invite link: the lobby page resolves the code and opens the room."""
    return RedirectResponse(f"/?code={invite_code}", status_code=303)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    """A game: the board drawn by the ruleset's renderer, the log, the legal moves."""
    return templates.TemplateResponse(request, "game.html", {"page": "game", "game_id": game_id})


@router.get("/rules/{ruleset_id}", response_class=HTMLResponse)
async def rules_page(request: Request, ruleset_id: str) -> HTMLResponse:
    """A game's rules: our how-to-play summary, then the full rulebook text."""
    ruleset = registry.get(ruleset_id)
    text = guides.rulebook(ruleset_id) if ruleset is not None else None
    if ruleset is None or text is None:
        raise not_found("rulebook")
    blocks = _rulebook_blocks(text)
    return templates.TemplateResponse(
        request,
        "rules.html",
        {
            "page": "rules",
            "name": ruleset.name,
            "ruleset": ruleset_id,
            "guide": guides.guide(ruleset_id),
            "blocks": blocks,
        },
    )


def _rulebook_blocks(text: str) -> list[tuple[str, str]]:
    """The rulebook's lines as (kind, text): a short line without a full stop reads as a
    heading, a bulleted line as a list item, the rest as paragraphs."""
    blocks: list[tuple[str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line[:2] in ("• ", "- "):
            blocks.append(("item", line[2:]))
        elif len(line) < 60 and not line.endswith((".", ":", "!", "?", ",")):
            blocks.append(("heading", line))
        else:
            blocks.append(("text", line))
    return blocks


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """A game's replay: the live renderers read-only, stepped through its versions."""
    return templates.TemplateResponse(request, "replay.html", {"page": "replay", "game_id": game_id})


@router.get("/me/games", response_class=HTMLResponse)
async def my_games_page(request: Request) -> HTMLResponse:
    """My games: your turn first, with notification settings, push on this device, vacation."""
    return templates.TemplateResponse(request, "my_games.html", {"page": "my-games"})


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The push service worker, served from the root so its scope is the whole site."""
    return FileResponse(
        ROOT / "static" / "js" / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: str) -> HTMLResponse:
    """A player's page: ratings, record, last games."""
    return templates.TemplateResponse(request, "player.html", {"page": "player", "player_id": player_id})


@router.get("/leaderboard/{ruleset}", response_class=HTMLResponse)
async def leaderboard_page(request: Request, ruleset: str) -> HTMLResponse:
    """A game's leaderboard."""
    return templates.TemplateResponse(
        request, "leaderboard.html", {"page": "leaderboard", "ruleset": ruleset}
    )


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    """The site icon, for browsers that ask for /favicon.ico whatever the page says."""
    return FileResponse(ROOT / "static" / "favicon.svg", media_type="image/svg+xml")
