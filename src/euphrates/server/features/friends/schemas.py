"""What the friends' routes receive and answer, as models (the OpenAPI description is
generated from them). Players appear by name and games by their public id and page;
no answer has a field for an account's id, a token or an address, so none can carry
one."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import LAST_SEAT, GameName, Strict
from euphrates.server.features.tables.schemas import ClockChosen


class WatchableOut(BaseModel):
    """A game a followed player plays that anyone may watch."""

    id: str
    game: GameName
    players: int
    status: Literal["waiting", "active"] = Field(
        description="being played, or an open table waiting for players"
    )
    rated: bool
    link: str = Field(description="the table's page: to watch (no token)")


class FollowedOut(BaseModel):
    name: str
    online: bool = Field(
        description="connected now, on any server (false across a block, whatever the truth)"
    )
    since: str = Field(description="when you began to follow them")
    games: list[WatchableOut] = Field(description="at most 5, the most recently changed")


class FollowsOut(BaseModel):
    players: list[FollowedOut] = Field(description="whom you follow, online first, then by name")


class ReceivedInvitationOut(BaseModel):
    """An invitation to you that still stands."""

    id: str
    host: str = Field(description="who invites you")
    game: GameName
    players: int
    seat: int = Field(description="the seat offered, counted from 0")
    rated: bool
    open: bool = Field(description="an open table (listed in the lobby)")
    clock: ClockChosen | None
    link: str = Field(description="the table's page (no token: accepting seats your account)")
    created: str


class SentInvitationOut(BaseModel):
    """An invitation you made that still stands."""

    id: str
    name: str = Field(description="whom you invited")
    game: GameName
    players: int
    seat: int
    link: str
    created: str


class InvitationsOut(BaseModel):
    received: list[ReceivedInvitationOut]
    sent: list[SentInvitationOut]


class TableInvitationsOut(BaseModel):
    invitations: list[SentInvitationOut] = Field(
        description="the table's invitations that still stand"
    )


class InviteIn(Strict):
    name: str = Field(min_length=1, max_length=64, description="the account to invite")
    seat: int = Field(ge=0, le=LAST_SEAT, description="a free seat, counted from 0")


class AcceptedOut(BaseModel):
    game: str = Field(description="the game's id")
    seats: list[int] = Field(description="the seats your account holds there now")
    link: str = Field(description="the table's page: your account opens its seat there")
