"""A game's review once it has ended (reviewer.py), for whoever may read its replay."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import GAME, refusals
from euphrates.server.features.deps import RoomDep, ServicesDep

router = APIRouter(tags=["records"])
ENDED_STATUS = ("over", "abandoned", "aborted")


@router.get(
    "/api/games/{game_id}/review",
    response_model=dict[str, Any],
    responses={
        202: {"description": 'the review is being computed: `{"status": "pending"}`'},
        **refusals(*GAME, "not_over"),
    },
)
async def review(room: RoomDep, services: ServicesDep) -> Any:
    """The game's review once it has ended (reviewer.py): each move's mover's
    chance of winning before and after, judged from that seat's view then, and the
    best alternative where a move lost much. `202 {"status": "pending"}` while the bot
    workers compute it. Readable by whoever may read the replay, as it tells no more.

    An ended game that has no review and will get none (abandoned before its end, a
    server without bots, a review that failed) answers `200 {"status": "none",
    "reason", "message"}`: asking is not a mistake, and a replay page asks for every
    game it shows."""
    if room.status not in ENDED_STATUS:
        raise Refusal("not_over", "a game is reviewed once it has been played to its end")
    if room.status != "over":
        return _no_review("not_played_out", "the game was abandoned before its end")
    if services.rooms.pool is None:
        return _no_review("no_bots", "this server runs no bots, so it reviews no games")
    try:
        doc = await services.reviewer.read(room)
    except Refusal as e:
        return _no_review("failed", e.message)
    except Exception as e:
        raise Refusal("storage_unavailable", f"the review could not be read: {e}") from None
    if doc is None:
        return JSONResponse({"status": "pending"}, status_code=202)
    return {"status": "done", **doc}


def _no_review(reason: str, message: str) -> dict[str, Any]:
    return {"status": "none", "reason": reason, "message": message}
