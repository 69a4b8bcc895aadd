"""Playing a game between bots: the host side of the bot protocol.

The host holds the true state; each bot is shown only its own view when its decision
is pending, answers with an action text, and the host applies it for that seat. The
game comes back as a replayable record.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from euphrates.bots.base import Bot
from euphrates.core.protocol import GameState
from euphrates.match.games import game_definition
from euphrates.match.records import GameRecord


@dataclass
class PlayedGame:
    record: GameRecord
    state: GameState[Any]
    seconds: list[float] = field(default_factory=list)  # thinking time per seat
    decisions: list[int] = field(default_factory=list)


def play_game(
    game: str,
    bots: Sequence[Bot],
    seed: int,
    options: dict[str, Any] | None = None,
    names: Sequence[str] | None = None,
) -> PlayedGame:
    definition = game_definition(game)
    players = len(bots)
    state = definition.new_game(players, seed, options)
    actions: list[str] = []
    seconds = [0.0] * players
    decisions = [0] * players
    while not state.is_over():
        decision = state.decision()
        assert decision is not None
        seat = decision.seat
        view = state.view(seat)
        start = time.perf_counter()
        text = bots[seat].choose(definition, view)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        state.apply(text, seat=seat, version=view["version"])
        actions.append(text)
    out = state.outcome()
    record = GameRecord(
        game,
        players,
        seed,
        dict(options or {}),
        list(names or [b.describe() for b in bots]),
        actions,
        None if out is None else out.to_json(),
    )
    return PlayedGame(record, state, seconds, decisions)
