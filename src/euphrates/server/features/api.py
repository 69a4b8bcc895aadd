"""What every route's description shares: the one error shape and the codes any route
may answer, the strict base of request bodies, and the bounds of numbers.

Request bodies are checked strictly: `"2"` is not 2 and `true` is not 1, as in the
engines (ArgumentError); unknown fields are refused. The OpenAPI description is
generated from the models, so it documents every answer a route gives — its success
and each refusal's status — and a client (or a fuzzer) can check an answer against it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from euphrates.bots.levels import LEVELS
from euphrates.games import GAMES
from euphrates.server.common.refusals import HTTP_STATUS

MAX_INT = (1 << 31) - 1
"""The largest number the server takes: every number that reaches the database fits
its integer columns (PostgreSQL's are 32-bit)."""

PLAYERS = sorted({n for definition in GAMES.values() for n in definition.players})
"""Every number of players some game takes (each game checks its own)."""
FEWEST, MOST = PLAYERS[0], PLAYERS[-1]
LAST_SEAT = MOST - 1

if TYPE_CHECKING:
    GameName = str
    Level = str
else:
    GameName = Literal[tuple(GAMES)]
    """The games of the registry, by name: a game added there is offered here."""
    Level = Literal[tuple(LEVELS)]
    """The bots' levels (bots/levels.py): a level added there is offered here."""


class Strict(BaseModel):
    """A request body: exact types, no unknown field."""

    model_config = ConfigDict(strict=True, extra="forbid")


class ErrorDetail(BaseModel):
    code: str = Field(json_schema_extra={"enum": list[JsonValue](sorted(HTTP_STATUS))})
    message: str
    ruling: str | None = Field(description="the rule's number (G-n, B-n, C-n) when a rule refused")


class ErrorOut(BaseModel):
    """Every refusal: nothing was changed."""

    error: ErrorDetail


COMMON = (
    "bad_request",
    "bad_host",
    "too_large",
    "rate_limited",
    "csrf_failed",
    "server_error",
    "too_many_connections",
    "request_timeout",
    "headers_too_large",
)
"""What any route may answer: a request it cannot read, a body over the cap, too many
requests from one address, a signed-in change without its CSRF proof, a failure of
the server's own; and what the connection itself may be answered (transport/serving.py):
too many connections from one address, a request too slow to arrive, its head too large."""
GAME = ("unknown_game", "expired", "storage_unavailable")
"""What any route of one game may answer besides."""
ENDED = ("game_over", "abandoned", "aborted")
PLAY = (
    "bad_token",
    "account_required",
    "not_your_seat",
    "not_started",
    "stale_version",
    "wrong_seat",
    *ENDED,
)
"""What acting for a seat may answer: a token or seat that is not the caller's, a game
not started or ended, a version past, a decision that is another seat's."""


def refusals(*codes: str) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route that may refuse with `codes` (and COMMON): one entry
    per status, naming its codes."""
    by_status: dict[int, list[str]] = {}
    for code in (*COMMON, *codes):
        by_status.setdefault(HTTP_STATUS[code], []).append(code)
    by_status[400].append("bad_json")
    return {
        status: {
            "model": ErrorOut,
            "description": ", ".join(f"`{c}`" for c in sorted(set(codes))),
        }
        for status, codes in sorted(by_status.items())
    }
