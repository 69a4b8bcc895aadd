"""What the HTTP API answers, as models: the OpenAPI description is generated from
them, so it documents every answer a route gives — its success and each refusal's
status — and a client (or a fuzzer) can check an answer against it.

Views, events and records are the engines' documented JSON (docs/board.md,
docs/cards.md) and are described here as objects, not field by field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, JsonValue
from pydantic.json_schema import SkipJsonSchema

from euphrates.server.common.refusals import HTTP_STATUS
from euphrates.server.features.play.requests import GameName

Status = Literal["waiting", "active", "over", "abandoned", "expired"]


class ErrorDetail(BaseModel):
    code: str = Field(json_schema_extra={"enum": list[JsonValue](sorted(HTTP_STATUS))})
    message: str
    ruling: str | None = Field(description="the rule's number (G-n, B-n, C-n) when a rule refused")


class ErrorOut(BaseModel):
    """Every refusal: nothing was changed."""

    error: ErrorDetail


class SeatMeta(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str | None
    taken: bool
    connected: bool = Field(description="a client holding the seat is connected to this server")
    presence: Literal["here", "online", "away"] | None = Field(
        default=None,
        description="across servers: at this table now, online elsewhere (the lobby, "
        "another table), or away; null for a bot or a seat nobody took",
    )


class ClockOut(BaseModel):
    """A game's clock: the figures the server keeps; a client ticks on from them."""

    mode: Literal["realtime", "turn"]
    level: str = Field(description="the bot that plays a turn-based seat's late turn")
    bank: float | None = Field(default=None, description="real-time: seconds to start with")
    increment: float | None = Field(default=None, description="real-time: seconds added a turn")
    preset: str | None = None
    per_move: float | None = Field(default=None, description="turn-based: seconds a move")
    days: int | None = None
    seat: int | None = Field(description="whose clock runs")
    deadline: str | None = Field(description="when it runs out (ISO 8601)")
    remaining_ms: list[int] = Field(description="each seat's time left, at `now`")
    standin: list[str | None] = Field(description="per seat, the level of a bot playing for it")
    out_of_time: list[bool]
    now: str = Field(description="the server's time of these figures")


class GameMeta(BaseModel):
    id: str
    game: GameName
    players: int
    options: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatMeta]
    clock: ClockOut | None = None
    open: bool = Field(default=False, description="created as an open table (the lobby's)")
    creator: int | None = Field(default=None, description="an open table's creator's seat")
    rated: bool = Field(
        default=False, description="rated: accounts only, no take-backs, resignation counts"
    )


class Link(BaseModel):
    token: str
    link: str


class CreatedSeat(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    token: str | None = Field(description="a human seat's secret, shown only here")
    link: str | None


class CreateOut(BaseModel):
    id: str
    game: GameMeta
    host: Link
    seats: list[CreatedSeat]
    spectate: str


class You(BaseModel):
    seats: list[int]
    host: bool


class NoteOut(BaseModel):
    """Something that happened between versions: a clock ran out, a bot played a late
    turn or stood in, a player came back, the host gave a seat to a bot, a player
    resigned a rated game, a player took a hint."""

    version: int = Field(description="it happened after this version")
    kind: Literal["out_of_time", "late_turn", "standin", "back", "replaced", "resigned", "hint"]
    seat: int | None
    level: str | None = Field(default=None, description="the bot's level")
    by: int | None = Field(default=None, description="the seat that let a bot stand in")
    at: str


class GameOut(BaseModel):
    game: GameMeta
    you: You
    version: int
    can_undo: dict[str, bool]
    notes: list[NoteOut]
    views: dict[str, dict[str, Any]] = Field(description="by seat number, or 'spectator'")


class JoinOut(BaseModel):
    game: GameMeta
    you: You


class GameOnly(BaseModel):
    game: GameMeta


class VersionOut(BaseModel):
    version: int


class ChatMessage(BaseModel):
    seq: int
    seat: int | None
    author: str
    text: str
    at: str


class ChatListOut(BaseModel):
    messages: list[ChatMessage]


class ChatOut(BaseModel):
    message: ChatMessage


class Step(BaseModel):
    version: int
    kind: Literal["action", "undo"]
    seat: int | None
    events: list[dict[str, Any]]
    bot: str | None = Field(
        default=None, description="a bot's level, when a bot made this move for a person"
    )


class SeatsOnly(BaseModel):
    seats: list[int]


class LogOut(BaseModel):
    game: GameMeta
    you: SeatsOnly
    version: int
    history: list[Step]
    notes: list[NoteOut]


class ReplayOut(BaseModel):
    game: GameMeta
    step: int
    steps: int
    action: str | None
    events: list[dict[str, Any]]
    views: dict[str, dict[str, Any]]


class MapOut(BaseModel):
    columns: int
    rows: int
    river: list[str]
    temples: list[str]
    bordered: list[str]


class AssetsOut(BaseModel):
    """One game's assets: the board game has its sides; the card game has none."""

    maps: dict[str, MapOut] | SkipJsonSchema[None] = None
    """Absent, never null, for a game without (the route leaves out what is None)."""


class MetaOut(BaseModel):
    games: dict[str, list[str]]
    players: list[int]
    levels: list[str]


class HealthOut(BaseModel):
    ok: bool
    rss_mb: float
    rooms: int
    clients: int
    bots_thinking: int
    driving: int = Field(description="games whose bots this server moves")
    deadlines: int = Field(description="clock deadlines this server keeps a timer for")
    deadlines_acted: int = Field(description="deadlines this server acted on since it started")
    deadline_ms: float = Field(description="time spent acting on them, in milliseconds")
    time: float


COMMON = ("bad_request", "bad_host", "too_large", "rate_limited", "csrf_failed", "server_error")
"""What any route may answer: a request it cannot read, a body over the cap, too many
requests from one address, a signed-in change without its CSRF proof, a failure of
the server's own."""
GAME = ("unknown_game", "expired", "storage_unavailable")
"""What any route of one game may answer besides."""
ENDED = ("game_over", "abandoned")
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
