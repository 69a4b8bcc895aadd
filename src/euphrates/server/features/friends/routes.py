"""Friends over HTTP: following a player by name, the players followed with their
presence and games, and invitations to a seat by name — made by a table's host,
accepted or declined by its guest, withdrawn by its host. Every change is signed in
and carries the session's CSRF token (deps.signed_in). The lobby's WebSocket tells the
same live (`{"type": "friends", ...}`, live.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.schemas import DoneOut
from euphrates.server.features.api import ENDED, GAME, refusals
from euphrates.server.features.deps import OpenedDep, ServicesDep, UserDep
from euphrates.server.features.friends.schemas import (
    AcceptedOut,
    FollowsOut,
    InvitationsOut,
    InviteIn,
    SentInvitationOut,
    TableInvitationsOut,
)

router = APIRouter(tags=["friends"])

Name = Annotated[str, Path(max_length=64, description="the player's name")]
InvitationId = Annotated[
    str, Path(max_length=32, pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the invitation's id")
]
SIGNED = ("not_signed_in", "storage_unavailable")
OPENED = (*GAME, "bad_token", "account_required", "not_signed_in")
TAKEN = ("unknown_invitation", "invitation_ended", "invite_refused")


@router.get("/api/follows", response_model=FollowsOut, responses=refusals(*SIGNED))
async def follows(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """The players you follow, online first: whether each is online now and the games
    they play that anyone may watch. Nothing shows across a block."""
    panel = await services.friends.panel(signed.user)
    return {"players": panel["players"]}


@router.put(
    "/api/follows/{name}",
    response_model=FollowsOut,
    responses=refusals(*SIGNED, "unknown_user", "follow_refused", "too_many_follows"),
)
async def follow(name: Name, signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Follow a player (again: nothing changes). They are not asked nor told: a follow
    sends nobody anything. Refused: yourself, a player you block (`follow_refused`),
    more than 500 (`too_many_follows`)."""
    await services.friends.follow(signed.user, name)
    return await follows(signed, services)


@router.delete(
    "/api/follows/{name}", response_model=FollowsOut, responses=refusals(*SIGNED, "unknown_user")
)
async def unfollow(name: Name, signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """No longer follow a player (one you do not follow: nothing changes)."""
    await services.friends.unfollow(signed.user, name)
    return await follows(signed, services)


@router.get("/api/invitations", response_model=InvitationsOut, responses=refusals(*SIGNED))
async def invitations(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """The invitations to a seat you received and those you made, that still stand."""
    panel = await services.friends.panel(signed.user)
    return {"received": panel["received"], "sent": panel["sent"]}


@router.post(
    "/api/games/{game_id}/invitations",
    status_code=201,
    response_model=SentInvitationOut,
    responses=refusals(
        *OPENED,
        "not_host",
        "unknown_user",
        "invite_refused",
        "seat_taken",
        "already_seated",
        "already_started",
        "not_started",
        *ENDED,
    ),
)
async def invite(body: InviteIn, opened: OpenedDep, services: ServicesDep) -> dict[str, Any]:
    """Host only (an open table's creator signed in, or the host's link with a
    session): invite the account `name` to the free `seat` of a game waiting for its
    players. The guest sees it in the lobby, live, and is sent a message on the
    channels they turned on. No token changes hands. Refused: yourself, a player on
    either side of a block with you (one message for every such reason), one invited
    to this table already; at most 30 an hour (`rate_limited`)."""
    if opened.user is None:
        raise Refusal("not_signed_in", "sign in to invite a player: the invitation is from you")
    return await services.friends.invite(
        opened.room, opened.host, opened.user, body.name, body.seat
    )


@router.get(
    "/api/games/{game_id}/invitations",
    response_model=TableInvitationsOut,
    responses=refusals(*OPENED, "not_host"),
)
async def table_invitations(opened: OpenedDep, services: ServicesDep) -> dict[str, Any]:
    """Host only: the table's invitations that still stand."""
    return {"invitations": await services.friends.of_game(opened.room, opened.host)}


@router.post(
    "/api/invitations/{invitation_id}/accept",
    response_model=AcceptedOut,
    responses=refusals(
        *SIGNED,
        *TAKEN,
        "unknown_game",
        "expired",
        "seat_taken",
        "already_seated",
        "already_started",
        "account_required",
        "too_many_aborts",
        "seat_not_human",
        *ENDED,
    ),
)
async def accept(
    invitation_id: InvitationId, signed: UserDep, services: ServicesDep
) -> dict[str, Any]:
    """Take the seat you were invited to, for your account (no token): the table's seat
    rules apply as to anyone sitting down. Refused once it was taken, declined or
    withdrawn (`invitation_ended`), its seat taken or its game started."""
    return await services.friends.accept(signed.user, invitation_id)


@router.post(
    "/api/invitations/{invitation_id}/decline",
    response_model=DoneOut,
    responses=refusals(*SIGNED, "unknown_invitation", "invitation_ended"),
)
async def decline(
    invitation_id: InvitationId, signed: UserDep, services: ServicesDep
) -> dict[str, Any]:
    """Say no to an invitation to you. The host sees it gone from their list."""
    await services.friends.decline(signed.user, invitation_id)
    return {"done": True}


@router.delete(
    "/api/invitations/{invitation_id}",
    response_model=DoneOut,
    responses=refusals(*SIGNED, "unknown_invitation", "invitation_ended"),
)
async def withdraw(
    invitation_id: InvitationId, signed: UserDep, services: ServicesDep
) -> dict[str, Any]:
    """Withdraw an invitation you made."""
    await services.friends.withdraw(signed.user, invitation_id)
    return {"done": True}
