"""The signed-in player's own things: my games, notification settings and push subscriptions,
vacation."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, select

from app.api.deps import CurrentPlayer, PlatformDep, SessionDep, writing
from app.api.schemas import Strict, error_responses
from app.db.models import NotificationSettings, Player, PushSubscription
from app.services import notify, vacation
from app.services.errors import Refusal, ServiceError
from app.services.my_games import my_games

router = APIRouter(
    prefix="/api/players/me", tags=["players"], responses=error_responses(400, 401, 409, 413, 422)
)

_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class PushKeys(Strict):
    p256dh: str = Field(min_length=20, max_length=200)
    auth: str = Field(min_length=8, max_length=100)


class PushSubscribe(Strict):
    endpoint: str = Field(min_length=8, max_length=800)
    keys: PushKeys
    expirationTime: float | None = None  # what PushSubscription.toJSON() includes; unused


class PushUnsubscribe(Strict):
    endpoint: str = Field(min_length=8, max_length=800)


class VacationStart(Strict):
    days: float = Field(strict=True)  # "3" is refused, not read as 3


class MyGame(BaseModel):
    game_id: str
    room_id: str
    ruleset: str
    ruleset_name: str
    state: Literal["your_turn", "waiting", "finished"]
    status: str
    seat: int
    version: int
    players: list[str]
    to_act: list[str]
    pace: dict[str, Any]
    deadline: str | None
    held: bool
    created_at: str | None


@router.get("/games", response_model=list[MyGame])
async def games(
    player: CurrentPlayer,
    session: SessionDep,
    state: Annotated[Literal["your_turn", "waiting", "finished"] | None, Query()] = None,
) -> list[dict[str, Any]]:
    """The caller's games: your turn first (soonest deadline first), then waiting, then
    finished; `state` keeps one of them."""
    return await my_games(session, player.id, state)


@router.get("/notifications")
async def notification_settings(
    player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """The caller's notification settings, which channels can reach them now, and the VAPID
    public key a browser subscribes to push with (null: push is not configured here)."""
    row = await session.get(NotificationSettings, player.id)
    subs = (
        await session.execute(
            select(PushSubscription.endpoint).where(PushSubscription.player_id == player.id).limit(1)
        )
    ).first()
    email = getattr(Player, "email", None)
    verified = getattr(Player, "email_verified", None)
    mail_ok = False
    if email is not None:
        found = (
            await session.execute(
                select(email, verified if verified is not None else email).where(Player.id == player.id)
            )
        ).first()
        mail_ok = bool(found and found[0] and (verified is None or found[1]))
    return {
        **notify.settings_json(row),
        "ready": {"push": subs is not None, "email": mail_ok, "webhook": bool(row and row.webhook_url)},
        "vapid_public_key": platform.settings.vapid_public_key or None,
    }


@router.put("/notifications")
async def save_notification_settings(
    body: dict[str, Any], player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """Choose, per event, the channels (push, email, webhook); a webhook URL; and whether to be
    told even while a page of that game is open (`always`)."""
    checked = notify.check_settings(body)
    async with writing(platform, session):
        row = await session.get(NotificationSettings, player.id)
        if row is None:
            row = NotificationSettings(player_id=player.id, **checked)
            session.add(row)
        else:
            row.events, row.webhook_url, row.always = (
                checked["events"],
                checked["webhook_url"],
                checked["always"],
            )
    platform.notifier.forget(player.id)
    return notify.settings_json(row)


@router.post("/push-subscriptions", status_code=201)
async def subscribe(
    body: PushSubscribe, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """Remember this browser's push subscription (PushSubscription.toJSON()) for the caller."""
    notify.check_url(body.endpoint, "A push endpoint")
    if not (_B64URL.match(body.keys.p256dh) and _B64URL.match(body.keys.auth)):
        raise ServiceError(Refusal.INVALID, "The subscription's keys must be base64url text.")
    async with writing(platform, session):
        row = await session.get(PushSubscription, body.endpoint)
        if row is None:
            session.add(
                PushSubscription(
                    endpoint=body.endpoint, player_id=player.id, p256dh=body.keys.p256dh, auth=body.keys.auth
                )
            )
        else:  # a browser that signed in as someone else: the endpoint follows it
            row.player_id, row.p256dh, row.auth = player.id, body.keys.p256dh, body.keys.auth
    platform.notifier.forget(player.id)
    return {"endpoint": body.endpoint}


@router.post("/push-subscriptions/delete", status_code=204)
async def unsubscribe(
    body: PushUnsubscribe, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> Response:
    """Forget one of the caller's push subscriptions (the endpoint goes in the body)."""
    async with writing(platform, session):
        await session.execute(
            delete(PushSubscription).where(
                PushSubscription.endpoint == body.endpoint, PushSubscription.player_id == player.id
            )
        )
    return Response(status_code=204)


@router.get("/vacation")
async def get_vacation(player: CurrentPlayer, session: SessionDep, platform: PlatformDep) -> dict[str, Any]:
    """Whether the caller is on vacation, until when, and the days left this year."""
    return await vacation.read(session, player.id, platform.settings.vacation_days_per_year)


@router.post("/vacation")
async def start_vacation(
    body: VacationStart, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """Pause the caller's turn clocks for `days` days from now (a few days a year)."""
    async with writing(platform, session):
        return await vacation.start(session, player.id, body.days, platform.settings.vacation_days_per_year)


@router.delete("/vacation")
async def end_vacation(player: CurrentPlayer, session: SessionDep, platform: PlatformDep) -> dict[str, Any]:
    """End the caller's vacation now; the days not used come back."""
    async with writing(platform, session):
        return await vacation.end(session, player.id, platform.settings.vacation_days_per_year)
