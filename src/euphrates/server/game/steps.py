"""What one version of a game is, as the room records it and its audience tells it.

A step's events are encoded once, each with its audience (G-3, B-33, C-19), so that
every client is sent exactly the ones its seats may see without encoding them again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

from euphrates.core.protocol import Event


class Step(NamedTuple):
    """One version of the game: what happened and who did it. Events are kept as
    (audience, JSON text), each encoded once however many clients read it. A tuple of
    plain values: the garbage collector stops tracking it after one look, so a long
    game's history costs its pauses nothing."""

    version: int
    kind: str  # action | undo
    seat: int | None
    events: tuple[tuple[int | None, str], ...]
    bot: str | None = None
    """The level of a bot that moved for a person's seat (its clock ran out)."""


def encode_events(events: Iterable[Event]) -> tuple[tuple[int | None, str], ...]:
    return tuple((e.audience, json.dumps(e.to_json(), separators=(",", ":"))) for e in events)


def join_events(step: Step, seats: frozenset[int]) -> str:
    """The step's events the seats may see, as a JSON array."""
    return "[" + ",".join(text for aud, text in step.events if aud is None or aud in seats) + "]"
