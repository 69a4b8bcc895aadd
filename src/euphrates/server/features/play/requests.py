"""Request bodies of the HTTP API, checked strictly: `"2"` is not 2 and `true` is
not 1, as in the engines (ArgumentError); unknown fields are refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from euphrates.games import GAMES

MAX_INT = (1 << 31) - 1
"""The largest number the server takes: every number that reaches the database fits
its integer columns (PostgreSQL's are 32-bit)."""


PLAYERS = sorted({n for definition in GAMES.values() for n in definition.players})
"""Every number of players some game takes (each game checks its own)."""
FEWEST, MOST = PLAYERS[0], PLAYERS[-1]
LAST_SEAT = MOST - 1

if TYPE_CHECKING:
    GameName = str
else:
    GameName = Literal[tuple(GAMES)]
    """The games of the registry, by name: a game added there is offered here."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


Level = Literal["beginner", "intermediate", "strong", "expert"]


class HumanSeatIn(_Strict):
    kind: Literal["human"]


class BotSeatIn(_Strict):
    kind: Literal["bot"]
    level: Level


SeatIn = Annotated[HumanSeatIn | BotSeatIn, Field(discriminator="kind")]
"""A person's seat has no level; a bot's must have one."""


class NoClockIn(_Strict):
    mode: Literal["none"]


class RealTimeIn(_Strict):
    """A bank and time added each turn: a preset (fast, medium, slow: 30, 40, 50 s a
    turn and a bank of ten turns) or the seconds themselves (either overrides the
    preset's)."""

    mode: Literal["realtime"]
    preset: Literal["fast", "medium", "slow"] | None = None
    bank: int | None = Field(default=None, ge=1, le=86400)
    increment: int | None = Field(default=None, ge=0, le=3600)


class TurnBasedIn(_Strict):
    """Days per move; once they pass, a bot of `level` plays that seat's turn."""

    mode: Literal["turn"]
    days: Literal[1, 2, 3, 5]
    level: Level = "intermediate"


ClockIn = Annotated[NoClockIn | RealTimeIn | TurnBasedIn, Field(discriminator="mode")]


class CreateIn(_Strict):
    game: GameName
    players: int = Field(ge=FEWEST, le=MOST)
    seats: list[SeatIn] = Field(min_length=FEWEST, max_length=MOST)
    options: dict[str, bool] = Field(default_factory=dict, max_length=4)
    clock: ClockIn | None = None
    open: bool = Field(
        default=False,
        description="an open table, listed in the lobby for anyone signed in to sit at; "
        "its creator (signed in) sits at its first person's seat, the others are free",
    )
    rated: bool = Field(
        default=False,
        description="a rated game: needs a signed-in creator; every person's seat is an "
        "account's, bots only of levels with a measured rating; no take-backs",
    )


class TourIn(_Strict):
    game: GameName


class QuickMatchIn(_Strict):
    game: GameName
    players: int = Field(
        default=2, description="quick match makes 2-player games only; any other is refused"
    )


class JoinIn(_Strict):
    name: str | None = Field(default=None, max_length=200)
    names: dict[str, str] | None = Field(default=None, max_length=MOST)


class ActionIn(_Strict):
    version: int = Field(ge=0, le=MAX_INT)
    seat: int = Field(ge=0, le=LAST_SEAT)
    action: str = Field(min_length=1, max_length=200)


class UndoIn(_Strict):
    version: int = Field(ge=0, le=MAX_INT)
    seat: int = Field(ge=0, le=LAST_SEAT)


class ChatIn(_Strict):
    text: str = Field(max_length=5000)


class BotIn(_Strict):
    level: Level


def create_example() -> dict[str, Any]:
    return {
        "requestBody": {
            "content": {
                "application/json": {
                    "example": {
                        "game": "board",
                        "players": 3,
                        "seats": [
                            {"kind": "human"},
                            {"kind": "human"},
                            {"kind": "bot", "level": "strong"},
                        ],
                        "options": {"advanced": False, "open_scores": False},
                    }
                }
            }
        }
    }


class CredentialsIn(_Strict):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class PasswordIn(_Strict):
    password: str = Field(max_length=1000)


class ReportIn(_Strict):
    reason: str = Field(default="", max_length=500)


class SitIn(_Strict):
    """The seat to take; without one, the first free seat."""

    seat: int | None = Field(default=None, ge=0, le=LAST_SEAT)


class LeaveIn(_Strict):
    pass


class ResignIn(_Strict):
    seat: int = Field(ge=0, le=LAST_SEAT)


class StartIn(_Strict):
    """The level of the bots that take the seats still free."""

    level: Level = "intermediate"
