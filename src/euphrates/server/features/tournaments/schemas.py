"""What the tournament routes take and answer, as models (the OpenAPI description is
generated from them). Entrants are shown by the names they play under — never an
account's id, a rating's internals, a seed or a token."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import FEWEST, MOST, GameName, Level, Strict
from euphrates.server.features.play.schemas import RealTimeIn, TurnBasedIn

MOST_ROUNDS = 20
MOST_ENTRANTS = 64
LONGEST_SIGNUP = 7 * 24 * 60
"""Minutes a sign-up may stay open: a week."""


class TournamentIn(Strict):
    name: str = Field(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]+$")
    game: GameName
    players: int = Field(ge=FEWEST, le=MOST, description="seats at each table")
    options: dict[str, bool] = Field(default_factory=dict, max_length=4)
    format: Literal["swiss", "robin"] = Field(
        description="Swiss (pairs by score, no repeat where possible) or round robin "
        "(everyone meets everyone; its rounds are fixed at the start)"
    )
    rounds: int = Field(
        default=3,
        ge=1,
        le=MOST_ROUNDS,
        description="a Swiss's rounds (a round robin's come from its entrants)",
    )
    clock: RealTimeIn | TurnBasedIn = Field(
        discriminator="mode",
        description="every game's clock: a player who does not come is forfeited by it",
    )
    rated: bool = False
    bots: Level | None = Field(
        default=None,
        description="a bot of this level fills a table's empty seats (rated: a level "
        "with a measured rating); none: entrants left over sit out with a bye",
    )
    starts_in: int = Field(
        default=60, ge=1, le=LONGEST_SIGNUP, description="minutes the sign-up stays open"
    )
    most: int = Field(default=32, ge=2, le=MOST_ENTRANTS, description="entrants at most")
    late: bool = Field(
        default=False, description="a Swiss takes late entrants until its first half is played"
    )


class TournamentListed(BaseModel):
    id: str
    name: str
    game: GameName
    players: int
    format: str
    rounds: int
    round: int
    status: Literal["signup", "running", "over", "cancelled"]
    rated: bool
    clock: dict[str, object] | None
    starts_at: str
    most: int
    creator: str
    entrants: int


class TournamentsOut(BaseModel):
    tournaments: list[TournamentListed]


class TournamentTableOut(BaseModel):
    number: int
    game_id: str
    link: str
    seats: list[str | None] = Field(description="the entrants by seat; null: a bot")
    places: list[int] | None = Field(description="each seat's place once over (1 best)")
    over: bool


class TournamentRoundOut(BaseModel):
    round: int
    tables: list[TournamentTableOut]
    byes: list[str]


class TournamentStandingOut(BaseModel):
    rank: int
    name: str
    score: float = Field(description="place points: k − 1 for a win at a table of k …")
    buchholz: float
    median: float
    wins: int
    played: int
    byes: int
    withdrew: bool
    you: bool


class TournamentEntrantOut(BaseModel):
    name: str
    withdrew: bool


class TournamentYouOut(BaseModel):
    entered: bool
    creator: bool
    may_join: bool


class TournamentOut(BaseModel):
    id: str
    name: str
    game: GameName
    players: int
    options: dict[str, bool]
    clock: dict[str, object] | None
    rated: bool
    bots: str | None
    format: Literal["swiss", "robin"]
    rounds: int
    round: int
    late: bool
    most: int
    status: Literal["signup", "running", "over", "cancelled"]
    creator: str
    starts_at: str
    ended_at: str | None
    entrants: list[TournamentEntrantOut]
    fewest: int
    rounds_played: list[TournamentRoundOut]
    standings: list[TournamentStandingOut]
    winner: str | None
    you: TournamentYouOut
