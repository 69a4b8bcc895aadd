"""What the open tables' routes answer, as models (the OpenAPI description is generated
from them). An entry has no field for a token, a seed, an account's id or anything a
view hides: an answer cannot carry what it has no field for. A column the lobby should
show is one more field of `TableOut` (and of `Listed` in store/tables.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import LAST_SEAT, GameName, Level, Strict
from euphrates.server.features.play.schemas import Status


class ClockChosen(BaseModel):
    """The clock a game was created with (its figures come with the game's meta)."""

    mode: Literal["realtime", "turn"]
    level: str
    bank: float | None = None
    increment: float | None = None
    preset: str | None = None
    per_move: float | None = None
    days: int | None = None


class TableSeat(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str | None = Field(description="who sits there (null: a free seat, or a bot)")
    taken: bool
    rating: int | None = Field(
        default=None,
        description="the seated player's shown rating in the game and player-count group "
        "(as on their profile; a newcomer's 1000); null for a bot or a free seat",
    )
    presence: Literal["here", "online", "away"] | None = Field(
        description="at this table now, online elsewhere, or away; null for a bot or a free seat"
    )
    you: bool = Field(description="the seat is the signed-in caller's")
    creator: bool = Field(description="the seat of the table's creator, its host")


class TableOut(BaseModel):
    id: str
    game: GameName
    players: int
    status: Status
    options: dict[str, Any]
    clock: ClockChosen | None
    created: str
    creator: str | None = Field(description="the name of the account that opened the table")
    rated: bool = Field(description="a rated game (accounts only, no take-backs)")
    seats: list[TableSeat]
    free: list[int] = Field(description="the seats anyone signed in may take")
    link: str = Field(description="the table's page (no token: the account opens its seats)")


class TablesOut(BaseModel):
    tables: list[TableOut] = Field(description="the open tables waiting for players, newest first")


class SitIn(Strict):
    """The seat to take; without one, the first free seat."""

    seat: int | None = Field(default=None, ge=0, le=LAST_SEAT)


class LeaveIn(Strict):
    pass


class StartIn(Strict):
    """The level of the bots that take the seats still free."""

    level: Level = "intermediate"
