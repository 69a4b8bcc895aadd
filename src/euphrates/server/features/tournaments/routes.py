"""Tournaments: the list, one tournament's page, creating one, entering and
withdrawing, and its creator starting it early (tournaments.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import refusals
from euphrates.server.features.deps import ServicesDep, Signed, SignedDep
from euphrates.server.features.play.routes import clock_spec
from euphrates.server.features.tournaments.schemas import (
    TournamentIn,
    TournamentOut,
    TournamentsOut,
)

router = APIRouter(tags=["tournaments"])

TournamentId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,16}$")]


def _signed(signed: Signed | None) -> Signed:
    if signed is None:
        raise Refusal("not_signed_in", "sign in to take part in a tournament")
    return signed


@router.get(
    "/api/tournaments", response_model=TournamentsOut, responses=refusals("storage_unavailable")
)
async def tournaments_list(services: ServicesDep) -> dict[str, Any]:
    """The tournaments in sign-up or running, and the latest ended."""
    return {"tournaments": await services.tournaments.listing()}


@router.post(
    "/api/tournaments",
    status_code=201,
    response_model=TournamentOut,
    responses=refusals(
        "not_signed_in",
        "admins_only",
        "too_many_tournaments",
        "too_many_aborts",
        "storage_unavailable",
    ),
)
async def tournament_create(
    body: TournamentIn, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """Create a tournament (any signed-in member, or admins only: `--tournaments-by`);
    its creator is its first entrant. It starts `starts_in` minutes from now, or when
    its creator starts it."""
    user = _signed(signed).user
    spec = body.model_dump()
    spec["clock"] = clock_spec(
        body.clock, services.settings.clock_day, services.settings.forfeit_grace
    )
    return await services.tournaments.create(user, spec)


@router.get(
    "/api/tournaments/{tournament_id}",
    response_model=TournamentOut,
    responses=refusals("unknown_tournament", "storage_unavailable"),
)
async def tournament_show(
    tournament_id: TournamentId, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """A tournament: its entrants, each round's tables (live ones to watch), the
    standings with their tiebreaks, and its winner once over."""
    return await services.tournaments.show(tournament_id, signed.user if signed else None)


@router.post(
    "/api/tournaments/{tournament_id}/join",
    response_model=TournamentOut,
    responses=refusals(
        "not_signed_in",
        "unknown_tournament",
        "entries_closed",
        "tournament_full",
        "too_many_aborts",
        "second_account",
        "storage_unavailable",
    ),
)
async def tournament_join(
    tournament_id: TournamentId, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """Enter (again: nothing changes). While the sign-up is open; a Swiss with late
    entries also in its first half."""
    return await services.tournaments.join(_signed(signed).user, tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/leave",
    response_model=TournamentOut,
    responses=refusals(
        "not_signed_in",
        "unknown_tournament",
        "tournament_ended",
        "creator_stays",
        "storage_unavailable",
    ),
)
async def tournament_leave(
    tournament_id: TournamentId, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """Withdraw: before the start the entry goes; after it you are paired in no later
    round (a game being played is yours to finish or resign)."""
    return await services.tournaments.leave(_signed(signed).user, tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/start",
    response_model=TournamentOut,
    responses=refusals(
        "not_signed_in",
        "unknown_tournament",
        "not_creator",
        "already_started",
        "too_few_entrants",
        "storage_unavailable",
    ),
)
async def tournament_start(
    tournament_id: TournamentId, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """The creator starts the tournament now (its first round's games begin)."""
    return await services.tournaments.start(_signed(signed).user, tournament_id)
