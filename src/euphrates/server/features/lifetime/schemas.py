"""What the lifetime route answers, as models: names, counts and places only — no
account id, nothing that a profile and the ended games' replays do not show anyway."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import GameName


class ConflictCounts(BaseModel):
    won_attacking: int
    lost_attacking: int
    won_defending: int
    lost_defending: int


class PointCounts(BaseModel):
    red: int
    blue: int
    green: int
    black: int


class SummedStats(BaseModel):
    """match/stats.py's figures of each game, summed."""

    revolts: ConflictCounts
    wars: ConflictCounts
    monuments: int = Field(description="monuments (board) or ships (cards) built")
    treasures: int
    catastrophes: int
    placed: int = Field(description="tiles or cards laid from the hand")
    points: PointCounts = Field(description="points per colour, before wildcards")


class OpponentOut(BaseModel):
    kind: Literal["account", "deleted", "bot", "guest"] = Field(
        description="an account (named), a deleted account, a bot (by level), any guest"
    )
    name: str | None = Field(description="the account's name (null but for `account`)")
    level: str | None = Field(description="the bot's level (null but for `bot`)")
    games: int = Field(description="ended games together")
    above: int = Field(description="games in which this player finished above them")
    below: int = Field(description="games in which they finished above this player")
    tied: int = Field(description="games in which both shared a place")
    last: str = Field(description="when they last met")


class LifetimeSet(BaseModel):
    game: GameName | None = Field(description="null: every game")
    players: int | None = Field(description="null: every number of players")
    games: int = Field(description="games ended `over`, rated or not")
    wins: int = Field(description="games finished first (a shared first place is a win)")
    win_rate: float | None = Field(description="wins / games")
    average_place: float | None
    scored: int = Field(description="games with a final score (not a duel ended by leaving)")
    average_score: float | None = Field(
        description="the weakest colour's points at the end (the final score), on average"
    )
    best_score: int | None
    rated: int = Field(description="of `games`, those rated")
    left: int = Field(description="of `games`, those this player left for good")
    aborted: int = Field(description="rated games aborted before they were played (not in `games`)")
    abandoned: int = Field(description="games their host abandoned before the end (not in `games`)")
    stats: SummedStats
    opponents: list[OpponentOut] = Field(
        description="the 10 accounts met most often, then the bots (by level) and guests"
    )
    last: str | None = Field(description="when a game last counted")


class LifetimeOut(BaseModel):
    name: str
    sets: list[LifetimeSet] = Field(
        description="first every game together, then one per game and number of players"
    )


class LifetimeTotals(BaseModel):
    game: GameName
    players: int
    games: int
    wins: int
    places: int = Field(description="the places' sum")
    scored: int
    score: int = Field(description="the final scores' sum")
    best: int | None
    rated: int
    left_early: int
    aborted: int
    abandoned: int
    revolts_won_attacking: int
    revolts_lost_attacking: int
    revolts_won_defending: int
    revolts_lost_defending: int
    wars_won_attacking: int
    wars_lost_attacking: int
    wars_won_defending: int
    wars_lost_defending: int
    monuments: int
    treasures: int
    catastrophes: int
    placed: int
    points_red: int
    points_blue: int
    points_green: int
    points_black: int
    last: str


class LifetimeMeeting(OpponentOut):
    game: GameName
    players: int


class LifetimeExport(BaseModel):
    totals: list[LifetimeTotals]
    opponents: list[LifetimeMeeting]
