"""A vacation from turn-based clocks (docs/fair-play.md): its state, its start, its end
— the signed-in account's own."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euphrates.server.features.api import refusals
from euphrates.server.features.deps import ServicesDep, UserDep
from euphrates.server.features.fairplay.fairplay import VACATION_DAYS, FairPlay
from euphrates.server.features.fairplay.schemas import VacationIn, VacationOut
from euphrates.server.store.accounts import User

router = APIRouter(tags=["accounts"])


async def _state(fairplay: FairPlay, user: User) -> dict[str, Any]:
    current, left = await fairplay.vacation_state(user.id)
    return {
        "on_vacation": current is not None,
        "starts": current.starts.isoformat() if current else None,
        "ends": current.ends.isoformat() if current else None,
        "days_left": round(left, 1),
        "days_a_year": VACATION_DAYS,
    }


@router.get(
    "/api/account/vacation",
    response_model=VacationOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def vacation(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Whether your turn-based clocks stand still now, and the days left this year."""
    return await _state(services.fairplay, signed.user)


@router.post(
    "/api/account/vacation",
    response_model=VacationOut,
    responses=refusals("not_signed_in", "vacation_refused", "storage_unavailable"),
)
async def start_vacation(
    body: VacationIn, signed: UserDep, services: ServicesDep
) -> dict[str, Any]:
    """Go on vacation for `days` from now: in your turn-based games no clock runs for
    you until it ends (your turn then starts afresh), and the others are told."""
    await services.fairplay.start_vacation(signed.user, body.days)
    return await _state(services.fairplay, signed.user)


@router.delete(
    "/api/account/vacation",
    response_model=VacationOut,
    responses=refusals("not_signed_in", "vacation_refused", "storage_unavailable"),
)
async def end_vacation(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Back early: your clocks run again."""
    await services.fairplay.end_vacation(signed.user)
    return await _state(services.fairplay, signed.user)
