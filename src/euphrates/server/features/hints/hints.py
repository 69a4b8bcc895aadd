"""Hints: in an unrated game against bots, the strong bot's move for a person's seat.

The bot thinks in a worker process like any bot at the table (game/workers.py), on the
seat's view and nothing more, so a hint can tell no more than the seat's player could
know. A rated game gives none (its rating must measure the player, not the bot), a
game of people only gives none (a hint there would be a bot playing against people),
and a scripted game (the guided tour) gives none: it says each move itself.

A hint costs a worker for a second: one game asks for one at a time (the room's hint
slot), the search runs at the strong level's short budget, never the expert's, each
account — or, signed out, each client address — has a budget of hints (`HintBudget`),
and the workers take a hint only after every table's move (game/workers.py: `HINT`,
on workers of its own by default), so that hints asked without end in many games cost
other games' bots nothing. Each hint taken is a note (kind `hint`) written with it,
so the move log and the record say so.
"""

from __future__ import annotations

from euphrates.bots.levels import reads_history
from euphrates.core.history import replayed, with_history
from euphrates.server.common.buckets import Buckets
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle
from euphrates.server.game.room import Room
from euphrates.server.game.workers import HINT, BotFailure, BotPool
from euphrates.server.store.notes import Note
from euphrates.words.advice import in_every_language

HINT_LEVEL = "strong"
HINT_SPEC = "hint:1s:read"
"""The strong level's search (bots/levels.py: the game's own) at a second at most,
whatever budget the level gets later (a server's workers are shared by every game's
bots), its move checked by the review (bots/hinting.py): a hint is never a move the
game's review would flag. In the card game both read the table from the seat's public
history, as the game's review does (match/reviewdoc.py)."""


class HintBudget:
    """Hints a caller may take: `per_minute` a minute, as many at once, counted per
    account or, signed out, per client address (a person asks for one a move; a client
    asking without end is refused) by each server process, as its other limits are."""

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self.buckets = Buckets(per_minute / 60, per_minute)

    def take(self, who: str) -> None:
        """Count a hint for `who`, or refuse it (`rate_limited`)."""
        if not self.buckets.take(who):
            raise Refusal(
                "rate_limited",
                f"at most {self.per_minute:g} hints a minute for one account (signed out, "
                "one address): ask again in a little while",
            )


def hint_refusal(room: Room, seat: int, holder: frozenset[int]) -> Refusal | None:
    """Why `seat` (held by the caller as `holder`) may not have a hint now, if not."""
    if room.row.rated:
        return Refusal(
            "hint_refused", "a rated game gives no hints: its rating measures the player alone"
        )
    if not any(s.kind == "bot" for s in room.row.seats):
        return Refusal("hint_refused", "hints are given only in a game against bots")
    if room.scripted:
        return Refusal("hint_refused", "the guided tour says each move itself: no hints")
    if seat not in holder:
        return Refusal("not_your_seat", f"you do not hold seat {seat}")
    if room.is_bot(seat):
        return Refusal("seat_not_human", f"a bot plays seat {seat} now")
    room.check(lifecycle.HINT)
    if room.state.to_move() != seat:
        return Refusal("wrong_seat", f"the decision pending is not seat {seat}'s")
    return None


async def hint(
    pool: BotPool | None,
    room: Room,
    seat: int,
    holder: frozenset[int],
    budget: HintBudget,
    who: str,
) -> dict[str, object]:
    """The strong bot's action for `seat`'s pending decision, from that seat's view, at
    the version it was asked for; the hint is noted in the game's log. Only a hint the
    workers will think of is counted in `who`'s budget."""
    refusal = hint_refusal(room, seat, holder)
    if refusal is not None:
        raise refusal
    if pool is None:
        raise Refusal("bot_unavailable", "this server runs no bots, so it gives no hints")
    with room.hint_slot():
        budget.take(who)
        version = room.version
        view = room.state.view(seat)  # the seat's view only, as the table's bots see it
        if reads_history(HINT_SPEC, room.row.game):  # and what the seat saw happen (G-3)
            view = with_history(view, replayed(room.dealt(), room.actions()))
        try:
            action = await pool.choose(
                room.row.game, HINT_SPEC, view, priority=HINT, game_id=room.id
            )
        except BotFailure as e:
            raise Refusal("bot_unavailable", f"the bot could not think of a hint: {e}") from None
        if room.version != version:
            raise Refusal("stale_version", "the game moved on while the hint was worked out")
        await room.note(Note(version, "hint", seat, HINT_LEVEL))
    context = (view.get("decision") or {}).get("context") or {}
    words = in_every_language(room.row.game, action, context)
    return {"action": action, "version": version, "level": HINT_LEVEL, "words": words}
