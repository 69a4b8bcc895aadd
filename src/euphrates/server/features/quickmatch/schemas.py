"""What the quick match routes answer, as models (the OpenAPI description is generated
from them). A player is told their own place only: the game, their own rating, their
wait and, once paired, the game and the name the opponent plays under — never an
account's id, another player's rating, a token or an address."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import GameName, Strict


class Rule(BaseModel):
    """How the window widens: `start` at once, `step` more every `every` seconds, any
    rating after `any_after` seconds."""

    start: float
    step: float
    every: float
    any_after: float


class Paired(BaseModel):
    id: str
    link: str = Field(description="the table's page (no token: the account opens its seat)")
    opponent: str | None = Field(description="the name the opponent plays under")


class QuickMatchOut(BaseModel):
    state: Literal["idle", "waiting", "matched"]
    game: GameName | None = None
    rating: int | None = Field(
        default=None,
        description="your shown rating in the game's duels, as your profile and the "
        "leaderboard show it (1000 + 40 × (μ − 3σ))",
    )
    skill: int | None = Field(
        default=None,
        description="the skill estimate you are paired by, on the same scale (1000 + 40 × "
        "(μ − 25)): the window applies to it",
    )
    since: str | None = None
    waited: float | None = Field(default=None, description="seconds waited so far")
    window: float | None = Field(
        default=None,
        description="the largest rating difference accepted now (waiting; null: any)",
    )
    rule: Rule | None = None
    match: Paired | None = None


class QuickMatchIn(Strict):
    game: GameName
    players: int = Field(
        default=2, description="quick match makes 2-player games only; any other is refused"
    )
