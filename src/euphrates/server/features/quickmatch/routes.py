"""Quick match: join the pool for a table now, leave it, and see where you are. Making
tables and telling are quickmatch.py's; the lobby's WebSocket tells a table made at
once (`{"type": "quickmatch", ...}`), these routes tell it on asking."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import refusals
from euphrates.server.features.deps import ServicesDep, Signed, SignedDep
from euphrates.server.features.quickmatch.schemas import QuickMatchIn, QuickMatchOut

router = APIRouter(tags=["quick match"])


def _signed(signed: Signed | None) -> Signed:
    if signed is None:
        raise Refusal("not_signed_in", "sign in to play a quick match: your seat is your account's")
    return signed


@router.get(
    "/api/quickmatch",
    response_model=QuickMatchOut,
    response_model_exclude_none=True,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def quickmatch_state(services: ServicesDep, signed: SignedDep) -> dict[str, Any]:
    """Where you are: not looking (`idle`), `waiting` (what you asked for, your rating,
    your wait, the window now and how it widens, how many wait for the same), or
    `matched` (the game made for you, for a while)."""
    return await services.quickmatch.state(_signed(signed).user)


@router.post(
    "/api/quickmatch",
    response_model=QuickMatchOut,
    response_model_exclude_none=True,
    responses=refusals(
        "not_signed_in", "csrf_failed", "already_waiting", "too_many_aborts", "storage_unavailable"
    ),
)
async def quickmatch_join(
    body: QuickMatchIn, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """Look for a table of `game` now: `players` (2–4, as the game allows), `clock` (a
    real-time preset or `turn:<days>`) and the game's `options`. Asking again while
    waiting for the same changes nothing; while waiting for anything else it is refused
    (`already_waiting`): one wait at a time."""
    user = _signed(signed).user
    return await services.quickmatch.join(
        user, body.game, body.players, body.clock, dict(body.options)
    )


@router.delete(
    "/api/quickmatch",
    response_model=QuickMatchOut,
    response_model_exclude_none=True,
    responses=refusals("not_signed_in", "csrf_failed", "storage_unavailable"),
)
async def quickmatch_leave(services: ServicesDep, signed: SignedDep) -> dict[str, Any]:
    """Stop looking. A game already made for you stays (the answer says `matched`)."""
    return await services.quickmatch.leave(_signed(signed).user)
