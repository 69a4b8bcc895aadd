"""Playing over HTTP: creating a game, reading it as the caller may see it, taking its
seats, acting and taking an action back; and the WebSocket (transport/ws.py) that does
all of it live."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from euphrates.server.common.clients import client_address
from euphrates.server.common.clock import GRACE, ClockSpec, realtime, turn_based
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import ENDED, GAME, PLAY, refusals
from euphrates.server.features.deps import BaseUrl, OpenedDep, ServicesDep, SignedDep
from euphrates.server.features.play.schemas import (
    ActionIn,
    ClockIn,
    CreateIn,
    CreateOut,
    GameOut,
    JoinIn,
    JoinOut,
    RealTimeIn,
    TurnBasedIn,
    UndoIn,
    VersionOut,
    create_example,
)
from euphrates.server.features.ratings.ratings import check_create
from euphrates.server.game.audience import meta_of
from euphrates.server.game.rooms import Created

router = APIRouter()


@router.post(
    "/api/games",
    status_code=201,
    tags=["games"],
    openapi_extra=create_example(),
    response_model=CreateOut,
    responses=refusals("storage_unavailable", "not_signed_in", "too_many_aborts"),
)
async def create_game(
    body: CreateIn,
    request: Request,
    services: ServicesDep,
    base: BaseUrl,
    signed: SignedDep,
) -> dict[str, Any]:
    """Create a game. The answer holds each human seat's secret link and the host's
    link: they are shown once (the server keeps only hashes). An open table (`open`)
    needs a signed-in creator, who sits at its first person's seat, and at least one
    more person's seat: the free seat others take from the lobby. A rated game
    (`rated`) needs a signed-in creator; each of its people's seats is taken by an
    account, its bots' levels have a measured rating, and nothing is taken back."""
    if body.open:
        if signed is None:
            raise Refusal("not_signed_in", "sign in to open a table: its creator sits at it")
        if sum(1 for s in body.seats if s.kind == "human") < 2:
            raise Refusal("bad_request", "an open table needs a free seat besides its creator's")
    if not services.created.take(client_address(request.scope)):
        per_hour = services.settings.games_per_hour
        raise Refusal("rate_limited", f"at most {per_hour:g} new games an hour from one address")
    seats = [s.model_dump() for s in body.seats]
    if body.rated:
        check_create(body.game, body.players, seats, signed is not None)
        if signed is not None:
            await services.fairplay.check_aborts(signed.user.id)
    created = await services.rooms.create(
        body.game,
        body.players,
        seats,
        dict(body.options),
        clock=clock_spec(body.clock, services.settings.clock_day, services.settings.forfeit_grace),
        rated=body.rated,
        opener=signed.user if body.open and signed is not None else None,
    )
    return created_answer(created, base)


def created_answer(created: Created, base: str) -> dict[str, Any]:
    """A new game's answer: its id, each human seat's secret link, the host's link."""
    gid = created.row.id
    tokens = created.seat_tokens
    return {
        "id": gid,
        "game": meta_of(created.row),
        "host": {"token": created.host_token, "link": f"{base}/g/{gid}#h={created.host_token}"},
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "token": tokens.get(s.seat),
                "link": f"{base}/g/{gid}#s={tokens[s.seat]}" if s.seat in tokens else None,
            }
            for s in created.row.seats
        ],
        "spectate": f"{base}/g/{gid}",
    }


@router.get(
    "/api/games/{game_id}",
    tags=["games"],
    response_model=GameOut,
    responses=refusals(*GAME, "bad_token", "account_required"),
)
async def read_game(opened: OpenedDep) -> dict[str, Any]:
    """The game as the caller may see it: a view per seat its tokens hold, or the
    public view for a spectator or a host."""
    return opened.room.audience.snapshot(opened.seats, opened.host)


@router.post(
    "/api/games/{game_id}/join",
    tags=["seats"],
    response_model=JoinOut,
    responses=refusals(*GAME, "bad_token", "not_your_seat", "account_required", *ENDED),
)
async def join(body: JoinIn, opened: OpenedDep) -> dict[str, Any]:
    """Take the seats your link opens (the game starts when all human seats are taken)."""
    if not opened.seats:
        raise Refusal("not_your_seat", "send a seat's token to take that seat")
    await opened.room.take_seats(opened.seats, body.name, body.names, opened.user)
    you = {"seats": sorted(opened.seats), "host": opened.host}
    return {"game": opened.room.audience.meta(), "you": you}


def clock_spec(clock: ClockIn | None, day: float, grace: float = GRACE) -> ClockSpec | None:
    """The clock asked for: none, real-time (a preset or a bank and an increment, and the
    server's forfeit grace), or days per move."""
    if isinstance(clock, RealTimeIn):
        return realtime(clock.preset, clock.bank, clock.increment, grace=grace)
    if isinstance(clock, TurnBasedIn):
        return turn_based(clock.days, day, clock.level)
    return None


@router.post(
    "/api/games/{game_id}/actions",
    tags=["play"],
    response_model=VersionOut,
    responses=refusals(*GAME, *PLAY, "invalid_action", "illegal_action"),
)
async def act(body: ActionIn, opened: OpenedDep) -> dict[str, Any]:
    """Submit an action for a seat you hold, at the version you saw."""
    step = await opened.room.submit(opened.seats, body.seat, body.version, body.action)
    return {"version": step.version}


@router.post(
    "/api/games/{game_id}/undo",
    tags=["play"],
    response_model=VersionOut,
    responses=refusals(*GAME, *PLAY, "undo_refused"),
)
async def undo(body: UndoIn, opened: OpenedDep) -> dict[str, Any]:
    """Take back your last action, while no one else has decided since and nothing
    hidden was revealed since (G-3)."""
    step = await opened.room.undo(opened.seats, body.seat, body.version)
    return {"version": step.version}
