"""What the vacation routes receive and answer."""

from __future__ import annotations

from pydantic import BaseModel, Field

from euphrates.server.features.api import Strict
from euphrates.server.features.fairplay.fairplay import VACATION_DAYS


class VacationIn(Strict):
    days: int = Field(ge=1, le=VACATION_DAYS, description="days from now")


class VacationOut(BaseModel):
    on_vacation: bool
    starts: str | None = Field(default=None, description="since when (ISO 8601)")
    ends: str | None = Field(default=None, description="until when (ISO 8601)")
    days_left: float = Field(description="days of vacation left in the last 365")
    days_a_year: int
