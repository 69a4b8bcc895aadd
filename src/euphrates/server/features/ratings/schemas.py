"""What the rating routes answer, as models: names and shown ratings only — no account
id, no μ or σ, nothing of anyone that is not on a leaderboard anyway."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import GameName

Group = Literal["2", "3-4"]


class BoardEntry(BaseModel):
    place: int
    name: str = Field(description="an account's name, or a bot's level")
    rating: int = Field(description="the shown rating: 1000 + 40 × (μ − 3σ)")
    games: int = Field(description="rated games counted (a bot's: its ladder's games)")
    provisional: bool = Field(description="fewer than 10 rated games")
    bot: bool = Field(description="a bot level's fixed rating, measured by the ladder")


class LeaderboardOut(BaseModel):
    game: GameName
    players: Group
    entries: list[BoardEntry]


class RatingOut(BaseModel):
    game: GameName
    group: Group
    rating: int
    games: int
    provisional: bool


class RatedGameOut(BaseModel):
    id: str
    game: GameName
    group: Group
    players: int
    place: int = Field(description="the place counted (those who resigned last)")
    before: int
    after: int
    at: str
    replay: str
    verdict: str | None = Field(
        default=None, description="counted, or repeat: counted for nobody (docs/fair-play.md)"
    )


class ResignOut(BaseModel):
    level: str | None = Field(
        description="the level of the bot that plays the seat to the end; null when the "
        "game ended (a duel) or was aborted (not yet played)"
    )
    status: str = Field(description="the game's status after it")
