"""Accounts: claim a guest's name, verify the address, sign in (password or device code), reset
the password, list and end sessions, rename, delete (app/services/accounts.py does the work)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import CurrentPlayer, PlatformDep
from app.api.schemas import (
    Accepted,
    AccountClaim,
    AccountDelete,
    AccountPublic,
    CodeSignIn,
    DeviceCode,
    LinkCode,
    PasswordChange,
    PasswordReset,
    PlayerCreated,
    PlayerPublic,
    Rename,
    ResetRequest,
    SessionPublic,
    SignIn,
    error_responses,
)
from app.services.accounts import SignedIn, device_label
from app.services.tokens import Identity

router = APIRouter(tags=["accounts"], responses=error_responses(400, 401, 404, 409, 422, 429))
_bearer = HTTPBearer(auto_error=False)
RESET_SENT = (
    "If an account has that address, a link to choose a new password is on its way; "
    "it works once, within the hour."
)


async def _device(
    platform: PlatformDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Identity | None:
    """The session this device holds, if its token still works (a stale one is no obstacle to
    signing in; whichever it is ends when the new session starts)."""
    return await platform.tokens.authenticate(credentials.credentials if credentials else None)


Device = Annotated[Identity | None, Depends(_device)]


def _client(request: Request) -> tuple[str, str]:
    """The caller's address (for the limits) and its browser's label (for the sessions)."""
    return (request.client.host if request.client else "?", device_label(request.headers.get("user-agent")))


def _signed_in(done: SignedIn) -> dict[str, Any]:
    return {
        "id": done.identity.id,
        "name": done.identity.name,
        "token": done.token,
        "expires_at": done.identity.valid_until.isoformat(),
    }


@router.get("/api/players/me/account", response_model=AccountPublic)
async def account(player: CurrentPlayer, platform: PlatformDep) -> dict:
    """The caller's account: name, address (and whether it is verified), claimed or a guest."""
    return await platform.accounts.document(player.id)


@router.post("/api/players/me/account", status_code=202, response_model=AccountPublic)
async def claim(body: AccountClaim, player: CurrentPlayer, platform: PlatformDep) -> dict:
    """Claim the caller's name with an address and a password; a link to verify the address is
    mailed to it (the same answer whether or not another account has the address)."""
    return await platform.accounts.claim(player, body.email, body.password)


@router.post("/api/accounts/verify", response_model=AccountPublic)
async def verify(body: LinkCode, platform: PlatformDep) -> dict:
    """Follow the verification link (its code): the address is the account's from now on."""
    document = await platform.accounts.verify(body.code)
    platform.notifier.forget(document["id"])  # e-mail is a channel now
    return document


@router.post("/api/accounts/sign-in", response_model=PlayerCreated)
async def sign_in(body: SignIn, request: Request, device: Device, platform: PlatformDep) -> dict:
    """Sign in with a verified address and password: a new session (token) of that player; the
    session this device held, if any, ends."""
    address, label = _client(request)
    return _signed_in(await platform.accounts.sign_in(body.email, body.password, address, device, label))


@router.post("/api/players/me/device-code", status_code=201, response_model=DeviceCode)
async def device_code(player: CurrentPlayer, platform: PlatformDep) -> dict:
    """A short one-time code that signs another device in as the caller, for a few minutes."""
    return await platform.accounts.device_code(player)


@router.post("/api/accounts/code-sign-in", response_model=PlayerCreated)
async def code_sign_in(body: CodeSignIn, request: Request, device: Device, platform: PlatformDep) -> dict:
    """Sign in with a code shown on a signed-in device."""
    address, label = _client(request)
    return _signed_in(await platform.accounts.code_sign_in(body.code, address, device, label))


@router.post("/api/accounts/reset-request", status_code=202, response_model=Accepted)
async def reset_request(body: ResetRequest, request: Request, platform: PlatformDep) -> dict:
    """Ask for a password-reset link by mail (the same answer for any address)."""
    await platform.accounts.request_reset(body.email, _client(request)[0])
    return {"detail": RESET_SENT}


@router.post("/api/accounts/reset", response_model=PlayerCreated)
async def reset(body: PasswordReset, request: Request, device: Device, platform: PlatformDep) -> dict:
    """Follow a reset link with a new password: every session ends and this device signs in."""
    return _signed_in(await platform.accounts.reset(body.code, body.password, device, _client(request)[1]))


@router.post("/api/players/me/password", status_code=204)
async def change_password(body: PasswordChange, player: CurrentPlayer, platform: PlatformDep) -> Response:
    """A new password, given the current one; every other device is signed out."""
    await platform.accounts.change_password(player, body.current_password, body.password)
    return Response(status_code=204)


@router.get("/api/players/me/sessions", response_model=list[SessionPublic])
async def sessions(player: CurrentPlayer, platform: PlatformDep) -> list[dict]:
    """The caller's signed-in devices, newest first."""
    return await platform.accounts.list_sessions(player)


@router.delete("/api/players/me/sessions/{session_id}", status_code=204)
async def end_session(session_id: str, player: CurrentPlayer, platform: PlatformDep) -> Response:
    """Sign one device out (its sockets close at once, on every instance)."""
    await platform.accounts.end_sessions(player, session_id)
    return Response(status_code=204)


@router.post("/api/players/me/logout-all", status_code=204)
async def logout_all(player: CurrentPlayer, platform: PlatformDep) -> Response:
    """Sign every device out, this one included."""
    await platform.accounts.end_sessions(player, None)
    return Response(status_code=204)


@router.patch("/api/players/me", response_model=PlayerPublic)
async def rename(body: Rename, player: CurrentPlayer, platform: PlatformDep) -> dict:
    """Change the caller's name: rooms, games, chat and the log show the new one."""
    return await platform.accounts.rename(player, body.name)


@router.post("/api/players/me/delete", status_code=204)
async def delete(body: AccountDelete, player: CurrentPlayer, platform: PlatformDep) -> Response:
    """Delete the caller (with its password once claimed): its games keep a neutral name."""
    await platform.accounts.delete(player, body.password)
    return Response(status_code=204)
