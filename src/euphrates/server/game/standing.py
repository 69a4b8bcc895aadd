"""Where a game stands for its players: whether each person's seat made enough of its
own decisions for a rated game to count, and an ended game's places as they count, with
who left and each rating change (docs/fair-play.md). Read from a room's row, state,
notes and standing actions; nothing here changes them."""

from __future__ import annotations

from typing import Any, NamedTuple

from euphrates.core.protocol import GameState
from euphrates.match.ratings import places_with_abandons
from euphrates.server.game import lifecycle
from euphrates.server.store.notes import Note
from euphrates.server.store.rows import GameRow


class Played(NamedTuple):
    """An action that still stands (not undone); plain values, as `Step`."""

    version: int
    seat: int | None
    text: str
    reveals: bool
    bot: str | None = None


LEFT_FOR_GOOD = ("resigned", "replaced", "left", "forfeited")
"""Notes of a person's seat handed to a bot for good."""


def result(row: GameRow, state: GameState[Any], notes: list[Note]) -> dict[str, Any] | None:
    """An ended game's places as they count — the engine's result for the seats
    that stayed, below them those who left for good, the earliest last (a duel
    ended by leaving has no result of the engine's: the one who stayed is first) —
    who left and how, and each account's rating change. None before the end."""
    if row.status != lifecycle.Status.OVER:
        return None
    outcome = state.outcome()
    base = list(outcome.places) if outcome is not None else [1] * row.players
    left = [(n.seat, n.kind) for n in notes if n.kind in LEFT_FOR_GOOD and n.seat is not None]
    places = places_with_abandons(base, [s for s, _k in left])
    return {
        "places": places,
        "left": [{"seat": s, "kind": k} for s, k in left],
        "ratings": [
            {"before": c[0], "after": c[1]} if (c := row.changes.get(s)) else None
            for s in range(row.players)
        ],
    }


def own_decisions(played: list[Played], notes: list[Note], seat: int) -> int:
    """The decisions `seat`'s player made themselves that still stand: its actions
    before it left (if it did), but those a bot made for it."""
    left = next(
        (n.version for n in notes if n.seat == seat and n.kind in LEFT_FOR_GOOD),
        None,
    )
    return sum(
        1
        for p in played
        if p.seat == seat and p.bot is None and (left is None or p.version <= left)
    )


def played_enough(row: GameRow, played: list[Played], notes: list[Note]) -> bool:
    """Whether the game was played: each person's seat made MIN_DECISIONS of its own
    (lifecycle.py), so that a player leaving now loses rather than aborts it."""
    people = [s.seat for s in row.seats if s.kind == "human" or s.user_id is not None]
    return all(own_decisions(played, notes, s) >= lifecycle.MIN_DECISIONS for s in people)


def record_notes(notes: list[Note], played: list[Played]) -> list[dict[str, Any]]:
    """The notes as the record keeps them: each after the standing actions made by
    its version (the record has no undos)."""
    out = []
    for note in notes:
        after = sum(1 for p in played if p.version <= note.version)
        doc = {k: v for k, v in note.to_json().items() if k not in ("version", "at")}
        out.append({"after": after, **doc})
    return out
