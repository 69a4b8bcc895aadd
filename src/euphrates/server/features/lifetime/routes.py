"""Lifetime statistics: a player's figures summed over their ended games, public as
the profile is."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import refusals
from euphrates.server.features.deps import ServicesDep
from euphrates.server.features.lifetime.schemas import LifetimeOut
from euphrates.server.store import lifetime as lifetime_reads

router = APIRouter(tags=["accounts"])


@router.get(
    "/api/users/{name}/lifetime",
    response_model=LifetimeOut,
    responses=refusals("unknown_user", "storage_unavailable"),
)
async def lifetime(
    name: Annotated[str, Path(max_length=64, description="the player's name")],
    services: ServicesDep,
) -> dict[str, Any]:
    """A player's lifetime figures, per game and number of players and over all: games,
    wins (a shared first place is one), win rate, average place and final score, the
    end-of-game statistics summed, and the opponents met most often, head to head.
    Every game ended `over` counts, rated or not; aborted ones apart."""
    found = await services.accounts.store.find(name)
    if found is None:
        raise Refusal("unknown_user", "no such player")
    user = found[0]
    try:
        figures = await lifetime_reads.of_user(services.accounts.database, user.id)
    except Exception as e:
        raise Refusal("storage_unavailable", f"the figures could not be read: {e}") from None
    return {"name": user.name, **figures}
