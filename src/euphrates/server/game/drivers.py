"""Who decides for a bot's seat: the bot workers by default, or a registered driver of
the seat's level — the one way a feature (the guided tour, features/tour/) plays seats
of its own without the room or the bot loop knowing it by name.

A driver may be *scripted*: its game follows a script, so the room takes from every
seat only the script's next move (`check`), and the features that would change the
game's course or speak for it from outside — hints, turn messages — leave it alone
(`Room.scripted`).
"""

from __future__ import annotations

from typing import Any, Protocol

from euphrates.server.store.rows import GameRow


class Driver(Protocol):
    level: str
    """The bot level a seat names to be played by this driver."""
    scripted: bool
    pace: float | None
    """Seconds before each of its moves, at most (None: the server's bot pace)."""

    def check(self, row: GameRow, version: int, action: str) -> None:
        """Refuse (a Refusal) a move a scripted game does not expect at `version`."""
        ...

    async def choose(self, row: GameRow, version: int, view: dict[str, Any]) -> str:
        """The move for the seat whose decision is pending at `version`, from its
        view."""
        ...


class Drivers:
    """The drivers a server knows, by level."""

    def __init__(self) -> None:
        self.by_level: dict[str, Driver] = {}

    def register(self, driver: Driver) -> None:
        self.by_level[driver.level] = driver

    def of_level(self, level: str | None) -> Driver | None:
        return self.by_level.get(level or "")

    def scripts(self, row: GameRow) -> list[Driver]:
        """The scripted drivers of a game's bot seats."""
        found = {
            d.level: d
            for s in row.seats
            if s.kind == "bot" and (d := self.by_level.get(s.level or "")) is not None
        }
        return [d for d in found.values() if d.scripted]
