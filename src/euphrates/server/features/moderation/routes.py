"""Moderation over HTTP: a player reported or blocked from their profile (signed in),
and the admin page's API under /api/admin/, which answers the server's admins alone
(`not_admin` to anyone else, signed in or not). Every change carries the session's
CSRF token, as every other (deps.signed_in)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.schemas import DoneOut
from euphrates.server.features.api import MAX_INT, refusals
from euphrates.server.features.chat.schemas import ReportIn
from euphrates.server.features.deps import ServicesDep, SignedDep, UserDep
from euphrates.server.features.moderation.schemas import (
    BlockOut,
    CasesOut,
    SettleIn,
    StandingIn,
    StandingOut,
)
from euphrates.server.store.accounts import User

router = APIRouter(tags=["moderation"])

Name = Annotated[str, Path(max_length=64, description="the player's name")]


def admin_of(signed: SignedDep) -> User:
    if signed is None or not signed.user.admin:
        raise Refusal("not_admin", "only the server's admins may do this")
    return signed.user


AdminDep = Annotated[User, Depends(admin_of)]
PLAYER = ("not_signed_in", "unknown_user", "storage_unavailable")
ADMIN = ("not_admin", "storage_unavailable")


@router.post("/api/users/{name}/report", response_model=DoneOut, responses=refusals(*PLAYER))
async def report_player(
    name: Name, body: ReportIn, signed: UserDep, services: ServicesDep
) -> dict[str, Any]:
    """Report a player to the server's admins (not yourself). Reporting the same
    player again while your report is open counts once."""
    await services.moderation.report(signed.user, name, body.reason)
    return {"done": True}


@router.post("/api/users/{name}/block", response_model=BlockOut, responses=refusals(*PLAYER))
async def block(name: Name, signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Block a player: neither of you is sent the other's chat lines, quick match
    never pairs you, and neither sees the other's presence or games through a follow
    nor invites the other to a seat. They are not told."""
    return {"blocked": await services.moderation.block(signed.user, name, True)}


@router.delete("/api/users/{name}/block", response_model=BlockOut, responses=refusals(*PLAYER))
async def unblock(name: Name, signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """No longer block a player."""
    return {"blocked": await services.moderation.block(signed.user, name, False)}


@router.get("/api/admin/reports", response_model=CasesOut, responses=refusals(*ADMIN))
async def open_reports(_admin: AdminDep, services: ServicesDep) -> dict[str, Any]:
    """The open reports, oldest first, one per line or player reported, with the lines
    around a line and the account's standing and earlier reports."""
    return {"reports": await services.moderation.store.open_reports()}


@router.post(
    "/api/admin/reports/{report_id}",
    response_model=DoneOut,
    responses=refusals(*ADMIN, "not_found", "unknown_user"),
)
async def settle(
    report_id: Annotated[int, Path(ge=1, le=MAX_INT)],
    body: SettleIn,
    admin: AdminDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Settle a report, and every open report of the same line or player: dismiss it,
    or mute or disable the account (at once, on every server)."""
    await services.moderation.settle(admin, report_id, body.resolution)
    return {"done": True}


@router.get(
    "/api/admin/users/{name}",
    response_model=StandingOut,
    responses=refusals(*ADMIN, "unknown_user"),
)
async def standing(name: Name, _admin: AdminDep, services: ServicesDep) -> dict[str, Any]:
    """An account's standing and its latest reports."""
    return await services.moderation.account(name)


@router.post(
    "/api/admin/users/{name}",
    response_model=StandingOut,
    responses=refusals(*ADMIN, "unknown_user"),
)
async def change_standing(
    name: Name, body: StandingIn, admin: AdminDep, services: ServicesDep
) -> dict[str, Any]:
    """Mute or unmute, disable or enable an account (at once, on every server; a
    disabled account's sessions end)."""
    return await services.moderation.standing(admin, name, muted=body.muted, disabled=body.disabled)
