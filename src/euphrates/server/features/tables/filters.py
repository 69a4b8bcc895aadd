"""Which open tables a player looks for: by game, size, speed, rated or not, and the
ratings of the players already seated. The open tables' route takes them as query
parameters (`GET /api/tables?players=3&speed=turn`), checked like any request; the
lobby applies the same rule to the list its socket keeps (web/js/shared/tablefilter.js).

The rating range is of the seated players, not of the host alone: a table is shown
when every player seated at it has a shown rating (in the table's game and player-count
group, as on their profile; a newcomer's 1000) within the range. Whom one would play
is what a range is for, and the host is one of them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import FEWEST, MOST, GameName

Speed = Literal["fast", "medium", "slow", "realtime", "turn", "none"]
"""A real-time preset (server/common/clock.py), any real-time clock, any turn-based
clock (days per move), or no clock."""
RATING_BOUND = 9999
"""The largest rating a range may name (every shown rating lies well within)."""


class TablesQuery(BaseModel):
    """The filters, each optional; a parameter nobody knows is refused."""

    model_config = ConfigDict(extra="forbid")

    game: GameName | None = None
    players: int | None = Field(default=None, ge=FEWEST, le=MOST)
    speed: Speed | None = Field(
        default=None,
        description="fast, medium, slow (real-time presets), realtime (any real-time "
        "clock), turn (days per move) or none (no clock)",
    )
    rated: bool | None = None
    rating_min: int | None = Field(
        default=None,
        ge=-RATING_BOUND,
        le=RATING_BOUND,
        description="every seated player's shown rating at least this",
    )
    rating_max: int | None = Field(
        default=None,
        ge=-RATING_BOUND,
        le=RATING_BOUND,
        description="every seated player's shown rating at most this",
    )

    def check(self) -> None:
        """Refuse a range no rating can be in."""
        low, high = self.rating_min, self.rating_max
        if low is not None and high is not None and low > high:
            raise Refusal("bad_request", "'rating_min' must not be above 'rating_max'")


def speed_of(clock: dict[str, Any] | None) -> str:
    """A table's speed as the filters name it: a preset, `realtime` (a clock of its own
    figures), `turn` or `none`."""
    if clock is None:
        return "none"
    if clock.get("mode") == "turn":
        return "turn"
    return str(clock.get("preset") or "realtime")


def shown(entry: dict[str, Any], q: TablesQuery) -> bool:
    """Whether an open table (as `Tables.entry` makes it) passes the filters."""
    if q.game is not None and entry["game"] != q.game:
        return False
    if q.players is not None and entry["players"] != q.players:
        return False
    if q.rated is not None and entry["rated"] != q.rated:
        return False
    if q.speed is not None:
        speed = speed_of(entry["clock"])
        if speed != q.speed and not (q.speed == "realtime" and speed not in ("turn", "none")):
            return False
    ratings = [s["rating"] for s in entry["seats"] if s["rating"] is not None]
    if q.rating_min is not None and any(r < q.rating_min for r in ratings):
        return False
    return q.rating_max is None or all(r <= q.rating_max for r in ratings)
