"""Playing a game between bots: the host side of the bot protocol.

The host holds the true state; each bot is shown only its own view when its decision
is pending, with its seat's public history beside it (`core.history`), answers with an
action text, and the host applies it for that seat. The
game comes back as a replayable record.

Neither game ends while the players keep making moves that change nothing (the card
game with an empty deck and full hands, say), so the host stops a game after
`max_decisions` and reports it unfinished rather than waiting for ever.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from euphrates.bots.base import Bot
from euphrates.core.history import History, with_history
from euphrates.core.protocol import GameState
from euphrates.games import game_definition
from euphrates.match.records import GameRecord

MAX_DECISIONS = 20_000


class UnfinishedGame(RuntimeError):
    """The game reached the host's decision limit without ending."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        super().__init__(
            f"game with seed {record.seed} did not end within {len(record.actions)} decisions"
        )


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
    max_decisions: int = MAX_DECISIONS,
) -> PlayedGame:
    definition = game_definition(game)
    players = len(bots)
    state = definition.new_game(players, seed, options)
    seat_names = list(names or [b.describe() for b in bots])
    actions: list[str] = []
    seconds = [0.0] * players
    decisions = [0] * players
    # Kept only for bots that read it (Bot.reads_history): its cost grows with the game.
    history = History() if any(b.reads_history for b in bots) else None
    while not state.is_over():
        decision = state.decision()
        assert decision is not None
        seat = decision.seat
        view = state.view(seat)
        if history is not None and bots[seat].reads_history:
            view = with_history(view, history)
        start = time.perf_counter()
        text = bots[seat].choose(definition, view)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        if history is not None:
            history.play(state, text, seat)
        else:
            state.apply(text, seat=seat, version=view["version"])
        actions.append(text)
        if len(actions) >= max_decisions and not state.is_over():
            raise UnfinishedGame(
                GameRecord(game, players, seed, dict(options or {}), seat_names, actions)
            )
    out = state.outcome()
    record = GameRecord(
        game,
        players,
        seed,
        dict(options or {}),
        seat_names,
        actions,
        None if out is None else out.to_json(),
    )
    return PlayedGame(record, state, seconds, decisions)
