"""What a game leaves: a seat's log while it runs, the full record and a replay of
any step once it has ended (the record holds the seed, so not before)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from euphrates.match.records import record_of
from euphrates.match.stats import game_stats
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import OpenedDep, RoomDep, ServicesDep
from euphrates.server.features.play.requests import MAX_INT
from euphrates.server.features.play.schemas import GAME, LogOut, ReplayOut, refusals
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import seat_label

router = APIRouter(tags=["records"])
ENDED_STATUS = ("over", "abandoned")


@router.get(
    "/api/games/{game_id}/record",
    response_model=dict[str, Any],
    responses=refusals(*GAME, "record_unavailable"),
)
async def record(room: RoomDep) -> dict[str, Any]:
    """The full record (replayable with `euphrates replay`) once the game is over."""
    if room.status not in ENDED_STATUS:
        raise Refusal(
            "record_unavailable",
            "the full record is available when the game is over; a seat can read its "
            "own log at /log",
        )
    return room_record(room)


@router.get(
    "/api/games/{game_id}/log",
    response_model=LogOut,
    responses=refusals(*GAME, "bad_token", "account_required", "not_your_seat"),
)
async def seat_log(opened: OpenedDep) -> dict[str, Any]:
    """What your seats have seen so far: every event they may see, by version."""
    if not opened.seats:
        raise Refusal("not_your_seat", "a seat's log needs that seat's token")
    return opened.room.audience.snapshot(opened.seats, views=False, history=True)


@router.get(
    "/api/games/{game_id}/replay/{step}",
    response_model=ReplayOut,
    responses=refusals(*GAME, "record_unavailable"),
)
async def replay_step(
    room: RoomDep, step: Annotated[int, PathParam(ge=0, le=MAX_INT)]
) -> dict[str, Any]:
    """A finished game after its first `step` actions: every seat's view and the
    public one, and the events of that step. Once a game has ended its record is
    public, so a replay shows every hand."""
    if room.status not in ENDED_STATUS:
        raise Refusal("record_unavailable", "a replay is available when the game is over")
    actions = room.actions()
    if not 0 <= step <= len(actions):
        raise Refusal("bad_request", f"step must be 0 … {len(actions)}")
    state, events = room.replay_to(step)
    views = {str(s): state.view(s) for s in range(room.row.players)}
    views["spectator"] = state.view(None)
    return {
        "game": room.audience.meta(),
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "events": [e.to_json() for e in events],
        "views": views,
    }


@router.get(
    "/api/games/{game_id}/stats",
    response_model=dict[str, Any],
    responses=refusals(*GAME, "record_unavailable"),
)
async def stats(room: RoomDep) -> dict[str, Any]:
    """The game's statistics (match/stats.py) once it has ended, from its record: the
    figures `euphrates replay --stats` prints for the downloaded record."""
    if room.status not in ENDED_STATUS:
        raise Refusal("record_unavailable", "the statistics are available when the game is over")
    return game_stats(
        record_of(room.row.game, room.actions(), room.row.players, room.row.seed, room.row.options)
    )


@router.get(
    "/api/games/{game_id}/review",
    response_model=dict[str, Any],
    responses={
        202: {"description": 'the review is being computed: `{"status": "pending"}`'},
        **refusals(*GAME, "not_over"),
    },
)
async def review(room: RoomDep, services: ServicesDep) -> Any:
    """The game's review once it has ended (server/reviews.py): each move's mover's
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
    if services.hub.pool is None:
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


def room_record(room: Room) -> dict[str, Any]:
    record = record_of(
        room.row.game,
        room.actions(),
        room.row.players,
        room.row.seed,
        room.row.options,
        seats=[seat_label(s) for s in room.row.seats],
        final=room.state,
        bot_moves=room.bot_moves(),
        notes=room.record_notes(),
    )
    return record.to_json()
