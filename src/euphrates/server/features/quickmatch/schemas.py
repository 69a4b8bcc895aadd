"""What the quick match routes take and answer, as models (the OpenAPI description is
generated from them). A player is told their own place only: what they asked for, their
own rating, their wait, how many wait for the same kind (a count) and, once seated, the
game and the names their opponents play under — never an account's id, another
player's rating, a token or an address."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import FEWEST, MOST, GameName, Strict
from euphrates.server.features.quickmatch.kinds import CLOCKS, DEFAULT_CLOCK

if TYPE_CHECKING:
    ClockName = str
else:
    ClockName = Literal[CLOCKS]
    """The clocks a wait may name (kinds.py): a clock preset added there is offered here."""

OPTIONS = 8
"""The most options a request may name (each game checks its own)."""


class Rule(BaseModel):
    """How the window widens: `start` at once, `step` more every `every` seconds, any
    rating after `any_after` seconds."""

    start: float
    step: float
    every: float
    any_after: float


class Seated(BaseModel):
    id: str
    link: str = Field(description="the table's page (no token: the account opens its seat)")
    opponent: str | None = Field(description="the name the first opponent plays under")
    opponents: list[str] = Field(description="the names the opponents play under, by seat")


class QuickMatchOut(BaseModel):
    state: Literal["idle", "waiting", "matched"]
    game: GameName | None = None
    players: int | None = Field(default=None, description="the table's players")
    clock: ClockName | None = Field(
        default=None, description="a real-time preset, or `turn:<days>` per move"
    )
    options: dict[str, bool] | None = Field(
        default=None, description="the game's options, each as asked (the rest: defaults)"
    )
    rating: int | None = Field(
        default=None,
        description="your shown rating in the game and player-count group, as your "
        "profile and the leaderboard show it (1000 + 40 × (μ − 3σ))",
    )
    skill: int | None = Field(
        default=None,
        description="the skill estimate you are matched by, on the same scale (1000 + 40 × "
        "(μ − 25)): the window applies to it",
    )
    since: str | None = None
    waited: float | None = Field(default=None, description="seconds waited so far")
    window: float | None = Field(
        default=None,
        description="the largest span of ratings accepted now (waiting; null: any)",
    )
    rule: Rule | None = None
    alike: int | None = Field(
        default=None,
        description="how many wait for the same kind of table now, you included (a count)",
    )
    match: Seated | None = None


class QuickMatchIn(Strict):
    """The kind of table to wait for; only players who ask for exactly the same kind
    share one."""

    game: GameName
    players: int = Field(default=2, ge=FEWEST, le=MOST, description="each game checks its own")
    clock: ClockName = Field(
        default=DEFAULT_CLOCK,
        description="a real-time preset (fast, medium, slow) or `turn:<days>` per move",
    )
    options: dict[str, bool] = Field(
        default_factory=dict,
        max_length=OPTIONS,
        description="the game's options (GET /api/meta); those not named: their defaults",
    )
