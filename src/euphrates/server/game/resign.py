"""Resigning a rated game: the player leaves for good, a bot plays their seat to the
end so the others can finish, and the rating places them last (server/ratings.py).

The seat becomes a bot's of the game's level, still tied to the account (so the rating
knows whose it was), with a `resigned` note written in the same transaction: the note
exists exactly when the resignation does, and the rating, read in the transaction of
the game's final version, finds every resignation in the order they were made.
"""

from __future__ import annotations

from euphrates.bots.levels import LEVELS
from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Hub
from euphrates.server.store.games import SeatRow, now
from euphrates.server.store.notes import Note, writing

DEFAULT_LEVEL = "intermediate"


def game_level(room: Room) -> str:
    """The level of bot that plays a resigned seat: the turn-based clock's level if the
    game has one, else that of the game's first bot, else intermediate."""
    clock = room.row.clock
    if clock is not None and clock.spec.mode == "turn" and clock.spec.level in LEVELS:
        return clock.spec.level
    for s in room.row.seats:
        if s.kind == "bot" and s.level in LEVELS and s.user_id is None:
            return s.level
    return DEFAULT_LEVEL


async def resign(hub: Hub, room: Room, seat: int, holder: frozenset[int]) -> str:
    """`seat` resigns (the caller holds it); returns the level of the bot that plays on."""
    if not room.row.rated:
        raise Refusal("not_rated", "only a rated game is resigned; leave an unrated one")
    room.check_playing()
    if seat not in holder:
        raise Refusal("not_your_seat", f"you do not hold seat {seat}")
    entry = room.row.seats[seat]
    if entry.kind != "human":
        raise Refusal("seat_not_human", f"seat {seat} is played by a bot already")
    level = game_level(room)
    bot = SeatRow(seat, "bot", level, entry.name, None, True, entry.user_id)
    # Under the room's lock: a bot's move being stored meanwhile would decide, from the
    # seats before this one, that no bot is to move next and stop driving the game.
    async with room.lock:
        room.check_playing()
        note = Note(room.version, "resigned", seat, level)
        to_move = room.state.to_move()
        due = to_move is not None and (to_move == seat or room.is_bot(to_move))
        try:
            stored = await hub.store.update_seat(
                room.id, bot, only_if_human=True, bot_to_move=due, after=(writing(room.id, note),)
            )
        except Exception as e:
            raise Refusal("storage_unavailable", f"the seat could not be saved: {e}") from None
        if stored is None:
            raise Refusal("seat_not_human", f"seat {seat} is played by a bot already")
        room.row.seats, _status, drive = stored
        room.row.updated_at = now()
        room.noted(note)
        if drive:
            room.driven = True
    if room.row.clock is not None:
        await hub.clocks.start(room)  # a bot's seat has no clock running
    # The page reconnects and finds it holds no seat now: it watches the game to its end.
    room.audience.evict("seats_changed", f"seat {seat} resigned: a bot plays it to the end", seat)
    hub.seats_changed(room, local=True)
    return level
