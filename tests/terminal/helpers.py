"""Running the terminal game without a terminal: scripted input, a recording console."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console

from euphrates.core.protocol import GameDefinition, View
from euphrates.terminal.seats import spawn_bot


def console(width: int = 100) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, force_terminal=False, highlight=False), out


def scripted(lines: Iterable[str], then: type[BaseException] = EOFError) -> Callable[[str], str]:
    """A `read` that answers the given lines, then raises `then` (end of input)."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise then from None

    return read


class RecordingBot:
    """A real bot whose answers are kept (to check they are never shown) and whose
    `close` is counted."""

    def __init__(self, spec: str, seed: int) -> None:
        self.bot = spawn_bot(spec, seed)
        self.texts: list[str] = []
        self.closed = 0

    @property
    def reads_history(self) -> bool:
        return bool(getattr(self.bot, "reads_history", False))

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        text = self.bot.choose(game, view)
        self.texts.append(text)
        return text

    def close(self) -> None:
        self.closed += 1


class Spawner:
    def __init__(self) -> None:
        self.bots: list[RecordingBot] = []

    def __call__(self, spec: str, seed: int) -> RecordingBot:
        bot = RecordingBot(spec, seed)
        self.bots.append(bot)
        return bot
