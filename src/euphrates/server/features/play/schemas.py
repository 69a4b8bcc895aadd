"""What playing a game sends and receives over HTTP: the game's description, its
creation, its seats, its versions, its log and replays, what the server offers.

Views, events and records are the engines' documented JSON (docs/board.md,
docs/cards.md) and are described here as objects, not field by field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from euphrates.server.features.api import FEWEST, LAST_SEAT, MAX_INT, MOST, GameName, Level, Strict
from euphrates.server.store.notes import NoteKind

Status = Literal["waiting", "active", "over", "abandoned", "expired", "aborted"]


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
    grace: float | None = Field(
        default=None, description="real-time: seconds before an out-of-time seat is forfeited"
    )
    misses: int | None = Field(
        default=None, description="turn-based: deadlines missed in a row that forfeit a seat"
    )
    seat: int | None = Field(description="whose clock runs")
    deadline: str | None = Field(description="when it runs out (ISO 8601)")
    remaining_ms: list[int] = Field(description="each seat's time left, at `now`")
    standin: list[str | None] = Field(description="per seat, the level of a bot playing for it")
    out_of_time: list[bool]
    forfeit: list[str | None] = Field(
        description="per seat, when a deserter's seat goes to a bot for good unless its "
        "player comes back (ISO 8601; docs/fair-play.md)"
    )
    missed: list[int] = Field(description="per seat, turn-based deadlines missed in a row")
    paused: list[str | None] = Field(
        description="per seat, turn-based: on vacation until (its deadlines wait)"
    )
    now: str = Field(description="the server's time of these figures")


class LeftOut(BaseModel):
    seat: int
    kind: Literal["resigned", "replaced", "left", "forfeited"]


class RatingChange(BaseModel):
    before: int
    after: int


class ResultOut(BaseModel):
    """How an ended game came out, as the table shows it (docs/fair-play.md)."""

    places: list[int] = Field(
        description="per seat, its place: the engine's for the seats that stayed, then "
        "those who left for good, the earliest last"
    )
    left: list[LeftOut] = Field(description="the seats that left for good, in order")
    ratings: list[RatingChange | None] = Field(
        description="per seat, a rated game's rating change on the shown scale (null: "
        "no account, or the game did not count)"
    )


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
    verdict: Literal["counted", "repeat", "voided"] | None = Field(
        default=None,
        description="a rated game's outcome for the ratings once it ended (docs/fair-play.md): "
        "counted; repeat (the same accounts met too often that day: counted for nobody); "
        "voided by an admin",
    )
    result: ResultOut | None = Field(default=None, description="once the game is over")


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
    resigned a rated game, a deleted account's seat went to a bot, the server's admin
    ended the game, a player took a hint."""

    version: int = Field(description="it happened after this version")
    kind: NoteKind
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


class LogStep(BaseModel):
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
    history: list[LogStep]
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


class DefinitionOut(BaseModel):
    """One game as a lobby offers it (`GameDefinition.describe`)."""

    title: str
    options: dict[str, bool] = Field(description="each option's default")
    players: list[int]
    seats: Literal["dynasty", "number"] = Field(
        description="how a seat is marked before the game starts"
    )


class FairPlayOut(BaseModel):
    """The figures of the fair-play rules this server keeps (docs/fair-play.md), for a
    page to state them as they are."""

    min_decisions: int = Field(
        description="decisions of its own each person's seat makes before a rated game "
        "counts (leaving earlier aborts it)"
    )
    abort_limit: int = Field(
        description="rated games aborted within a day before an account takes no rated seat"
    )
    pair_limit: int = Field(
        description="rated games between the same two accounts that count a day"
    )
    forfeit_grace: float = Field(
        description="real-time: seconds an out-of-time seat's player has to come back "
        "before it is forfeited"
    )
    misses: int = Field(description="turn-based: deadlines missed in a row that forfeit a seat")
    vacation_days: int = Field(
        description="days a year an account's turn-based clocks may stand still"
    )
    hints_per_minute: float = Field(description="hints an account (or address) may take a minute")
    marks_days: int = Field(
        description="days a device or an address an account signed in from keeps quick "
        "match from pairing it with another account of the same"
    )


class MetaOut(BaseModel):
    games: dict[str, list[str]]
    players: list[int]
    levels: list[str]
    definitions: dict[str, DefinitionOut]
    rated_levels: dict[str, dict[str, list[str]]] = Field(
        description='by game and player-count group ("2", "3-4"): the bots\' levels '
        "with a measured rating, the only ones a rated game seats"
    )
    fair_play: FairPlayOut


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


class HumanSeatIn(Strict):
    kind: Literal["human"]


class BotSeatIn(Strict):
    kind: Literal["bot"]
    level: Level


SeatIn = Annotated[HumanSeatIn | BotSeatIn, Field(discriminator="kind")]
"""A person's seat has no level; a bot's must have one."""


class NoClockIn(Strict):
    mode: Literal["none"]


class RealTimeIn(Strict):
    """A bank and time added each turn: a preset (fast, medium, slow: 30, 40, 50 s a
    turn and a bank of ten turns) or the seconds themselves (either overrides the
    preset's)."""

    mode: Literal["realtime"]
    preset: Literal["fast", "medium", "slow"] | None = None
    bank: int | None = Field(default=None, ge=1, le=86400)
    increment: int | None = Field(default=None, ge=0, le=3600)


class TurnBasedIn(Strict):
    """Days per move; once they pass, a bot of `level` plays that seat's turn."""

    mode: Literal["turn"]
    days: Literal[1, 2, 3, 5]
    level: Level = "intermediate"


ClockIn = Annotated[NoClockIn | RealTimeIn | TurnBasedIn, Field(discriminator="mode")]


class CreateIn(Strict):
    game: GameName
    players: int = Field(ge=FEWEST, le=MOST)
    seats: list[SeatIn] = Field(min_length=FEWEST, max_length=MOST)
    options: dict[str, bool] = Field(default_factory=dict, max_length=4)
    clock: ClockIn | None = None
    open: bool = Field(
        default=False,
        description="an open table, listed in the lobby for anyone signed in to sit at; "
        "its creator (signed in) sits at its first person's seat, the others are free",
    )
    rated: bool = Field(
        default=False,
        description="a rated game: needs a signed-in creator; every person's seat is an "
        "account's, bots only of levels with a measured rating; no take-backs",
    )


class JoinIn(Strict):
    name: str | None = Field(default=None, max_length=200)
    names: dict[str, str] | None = Field(default=None, max_length=MOST)


class ActionIn(Strict):
    version: int = Field(ge=0, le=MAX_INT)
    seat: int = Field(ge=0, le=LAST_SEAT)
    action: str = Field(min_length=1, max_length=200)


class UndoIn(Strict):
    version: int = Field(ge=0, le=MAX_INT)
    seat: int = Field(ge=0, le=LAST_SEAT)


class BotIn(Strict):
    level: Level


def create_example() -> dict[str, Any]:
    return {
        "requestBody": {
            "content": {
                "application/json": {
                    "example": {
                        "game": "board",
                        "players": 3,
                        "seats": [
                            {"kind": "human"},
                            {"kind": "human"},
                            {"kind": "bot", "level": "strong"},
                        ],
                        "options": {"advanced": False, "open_scores": False},
                    }
                }
            }
        }
    }
