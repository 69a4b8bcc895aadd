"""The guided first game on the server: a game dealt from its line's seed, the learner
at seat 0 against a scripted opponent (a bot seat of level `tour`) that plays the
line's moves, and a room that takes from either seat only the line's next move, so
the tour cannot leave its script and every move is still checked by the engine.

A tour is a game like any other in storage (options, seed, log); what marks it is
its scripted seat, played by `TourDriver`, a driver registered for the level `tour`
(game/drivers.py): the room and the bots know it only as a scripted driver. The page
learns where the lessons are and, when the learner is to move, the one move expected
now: never the opponent's moves or the deal.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from euphrates.games import game_definition
from euphrates.match.tours import LEARNER, Line, load_line
from euphrates.server.common.refusals import Refusal
from euphrates.server.store.rows import GameRow

TOUR_LEVEL = "tour"
PACE = 0.25
"""Seconds before the scripted opponent's moves at most: they need no thought, only
time to be seen."""


def is_tour(row: GameRow) -> bool:
    return any(s.kind == "bot" and s.level == TOUR_LEVEL for s in row.seats)


@cache
def line_of(game: str) -> Line:
    return load_line(game)


def tour_line(row: GameRow) -> Line | None:
    return line_of(row.game) if is_tour(row) else None


class TourDriver:
    """The scripted opponent, and the script every seat of a tour follows."""

    level = TOUR_LEVEL
    scripted = True
    pace: float | None = PACE

    def check(self, row: GameRow, version: int, action: str) -> None:
        """Refuse any move but the line's (the page shows where to play)."""
        expected = line_of(row.game).expected(version)
        if action != expected:
            raise Refusal("tour_step", "the guided game expects another move here")

    async def choose(self, row: GameRow, version: int, view: dict[str, Any]) -> str:
        return line_of(row.game).expected(version) or "pass"


@cache
def steps_of(game: str) -> tuple[tuple[int, str], ...]:
    """The learner's moves the tour teaches, as (version, step key): the move that
    brings each lesson's event (`revolt`), and the learner's decisions inside the
    same action that follow it (`revolt.commit`, `monument.monument`)."""
    line = line_of(game)
    state = game_definition(game).new_game(line.players, line.seed, line.options)
    deciders: list[tuple[int, str]] = []
    for text in line.actions:
        decision = state.decision()
        assert decision is not None
        deciders.append((decision.seat, decision.kind))
        state.apply(text)
    steps: list[tuple[int, str]] = []
    for version, key in sorted(line.lessons.items()):
        start = version
        while deciders[start] != (LEARNER, "action") and start > 0:
            start -= 1
        steps.append((start, key))
        after = start + 1
        while after < len(deciders) and deciders[after][1] != "action":
            seat, kind = deciders[after]
            if seat == LEARNER:
                steps.append((after, f"{key}.{kind}"))
            after += 1
    return tuple(steps)


def tour_now(row: GameRow, version: int, to_move: int | None) -> dict[str, Any]:
    """What the learner's page may know now: the lessons' places and the move
    expected of the learner (None while the opponent moves or once it is over)."""
    line = tour_line(row)
    if line is None:
        raise Refusal("not_found", "this game is not a guided game")
    return {
        "game": row.game,
        "version": version,
        "length": len(line.actions),
        "steps": [{"version": v, "key": k} for v, k in steps_of(row.game)],
        "action": line.expected(version) if to_move == LEARNER else None,
    }
