"""Events in words, for one viewer.

A client tells a player what happened only from the events that seat may see (an
event's `audience` is everyone or that seat), never from another seat's action text: a
swap's text names the discarded tiles and a bridge's text its colour, both secret (G-3,
C-11, C-19). The events carry everything public — who moved what where, every
commitment, conflict strengths and winners, every point as it is scored (G-3, B-33) —
so the words can be complete without revealing anything.

Events come as JSON objects, as the server sends them and `Event.to_json` writes them
(`kind`, the data, `audience` where private): no engine is needed to read them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import euphrates.words.board as board
import euphrates.words.cards as cards
from euphrates.words.voice import Voice, is_seat

EventJson = Mapping[str, Any]


class _Words(NamedTuple):
    describe: Callable[[Voice, EventJson], str | None]
    scores: Callable[[Voice, list[EventJson]], list[str]]
    turn: str
    kinds: frozenset[str]


_GAMES = {
    "board": _Words(board.describe, board.scores, board.TURN, board.KINDS),
    "cards": _Words(cards.describe, cards.scores, cards.TURN, cards.KINDS),
}
KINDS = {game: words.kinds for game, words in _GAMES.items()}
"""Every event kind of each game: each has words."""


def _game(game: str) -> _Words:
    try:
        return _GAMES[game]
    except KeyError:
        raise ValueError(f"no words for the game {game!r}: it is board or cards") from None


def describe(game: str, event: EventJson, voice: Voice) -> str | None:
    """One event in words for the voice's viewer, or None when the viewer may not see
    it or it is told with others (the turn, points: `tell`)."""
    if not voice.seen(event):
        return None
    return _game(game).describe(voice, event)


@dataclass
class Told:
    """What one step (an action and all it brought) tells a viewer, as the browser's log
    shows a step: its lines, the points scored, and whose turn it is now."""

    lines: list[str] = field(default_factory=list)
    scores: list[str] = field(default_factory=list)
    turn: str | None = None


def tell(game: str, events: Sequence[EventJson], voice: Voice) -> Told:
    """A step's events in words for the voice's viewer, leaving out what it may not see."""
    words = _game(game)
    seen = [e for e in events if voice.seen(e)]
    told = Told(scores=words.scores(voice, seen))
    for e in seen:
        text = words.describe(voice, e)
        if text:
            told.lines.append(text)
    turn = next((e for e in seen if e.get("kind") == words.turn), None)
    if turn is not None and is_seat(turn.get("seat")):
        told.turn = voice.say("log.turn", {"who": turn["seat"]})
    return told
