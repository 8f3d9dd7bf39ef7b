"""HTML pages: the lobby, a room, a game, the account. Everything after the first paint is ES
modules + the API."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from app.config import ROOT

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


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    """A game's replay: the live renderers read-only, stepped through its versions."""
    return templates.TemplateResponse(request, "replay.html", {"page": "replay", "game_id": game_id})


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: str) -> HTMLResponse:
    """A player's page: ratings, record, last games."""
    return templates.TemplateResponse(request, "player.html", {"page": "player", "player_id": player_id})


@router.get("/leaderboard/{ruleset}", response_class=HTMLResponse)
async def leaderboard_page(request: Request, ruleset: str) -> HTMLResponse:
    """A game's leaderboard."""
    return templates.TemplateResponse(request, "leaderboard.html", {"page": "leaderboard", "ruleset": ruleset})


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    """The site icon, for browsers that ask for /favicon.ico whatever the page says."""
    return FileResponse(ROOT / "static" / "favicon.svg", media_type="image/svg+xml")
