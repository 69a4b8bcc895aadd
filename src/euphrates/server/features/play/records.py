"""What a game leaves: a seat's log while it runs, the full record and a replay of
any step once it has ended (the record holds the seed, so not before)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from euphrates.match.records import record_of
from euphrates.match.stats import game_stats
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import GAME, MAX_INT, refusals
from euphrates.server.features.deps import OpenedDep, RoomDep
from euphrates.server.features.play.schemas import LogOut, ReplayOut
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import seat_label

router = APIRouter(tags=["records"])
ENDED_STATUS = ("over", "abandoned", "aborted")
"""The statuses after which a game's record is public."""


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
