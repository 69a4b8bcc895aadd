"""Quick match: join the pool for a 2-player game now, leave it, and see where you
are. The pairing and the telling are quickmatch.py's; the lobby's WebSocket tells a
pair made at once (`{"type": "quickmatch", ...}`), these routes tell it on asking."""

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
    """Where you are: not looking (`idle`), `waiting` (your rating, your wait, the
    window now and how it widens), or `matched` (the game made for you, for a while)."""
    return await services.quickmatch.state(_signed(signed).user)


@router.post(
    "/api/quickmatch",
    response_model=QuickMatchOut,
    response_model_exclude_none=True,
    responses=refusals("not_signed_in", "csrf_failed", "already_waiting", "storage_unavailable"),
)
async def quickmatch_join(
    body: QuickMatchIn, services: ServicesDep, signed: SignedDep
) -> dict[str, Any]:
    """Look for an opponent for a 2-player game of `game` now. Asking again while
    waiting for the same game changes nothing; while waiting for the other game it is
    refused (`already_waiting`)."""
    user = _signed(signed).user
    if body.players != 2:
        raise Refusal("bad_request", "quick match makes 2-player games only: open a table instead")
    return await services.quickmatch.join(user, body.game)


@router.delete(
    "/api/quickmatch",
    response_model=QuickMatchOut,
    response_model_exclude_none=True,
    responses=refusals("not_signed_in", "csrf_failed", "storage_unavailable"),
)
async def quickmatch_leave(services: ServicesDep, signed: SignedDep) -> dict[str, Any]:
    """Stop looking. A game already made for you stays (the answer says `matched`)."""
    return await services.quickmatch.leave(_signed(signed).user)
