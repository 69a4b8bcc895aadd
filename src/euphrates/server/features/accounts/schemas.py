"""What the account routes receive and answer, as models (the OpenAPI description is
generated from them). None of the answers has a field for a password, its hash, a session id or a
seat's token: an answer cannot carry what it has no field for."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import GameName, Strict
from euphrates.server.features.lifetime.schemas import LifetimeExport
from euphrates.server.features.notifications.schemas import NotifyExport
from euphrates.server.features.play.schemas import GameMeta, Status, You
from euphrates.server.features.ratings.schemas import RatedGameOut, RatingOut


class UserOut(BaseModel):
    name: str
    created: str


class AccountOut(BaseModel):
    user: UserOut | None = Field(description="the signed-in account, or null")
    csrf: str | None = Field(
        description="send it as `X-CSRF-Token` with every request that changes something"
    )


class MyGame(BaseModel):
    id: str
    game: GameName
    players: int
    status: Status
    seats: list[int] = Field(description="the seats of this account")
    created: str
    updated: str
    link: str = Field(description="the table; the account opens its seats, no token needed")
    replay: str | None


class MyGamesOut(BaseModel):
    games: list[MyGame]


class ProfileOut(BaseModel):
    name: str
    created: str
    games: dict[str, int] = Field(description="games played, per game")
    finished: list[MyGame] = Field(description="the latest ended games, with their replays")
    ratings: list[RatingOut] = Field(description="per game and player-count group")
    rated: list[RatedGameOut] = Field(description="the rated games, newest first")
    blocked: bool | None = Field(
        default=None, description="whether you block this player (null: not signed in, or you)"
    )


class SessionOut(BaseModel):
    created: str
    last_seen: str
    expires: str


class SeatOut(BaseModel):
    game: str
    seat: int
    name: str | None
    taken: bool


class ChatLineOut(BaseModel):
    game: str
    seq: int
    author: str
    text: str
    at: str


class BlockedOut(BaseModel):
    name: str
    since: str


class ExportAccount(UserOut):
    muted: bool
    settings: dict[str, object]


class RatingsExport(BaseModel):
    ratings: list[RatingOut]
    rated: list[RatedGameOut]


class FollowOut(BaseModel):
    name: str
    since: str


class InvitationExport(BaseModel):
    game: str
    seat: int
    host: str
    guest: str
    state: Literal["pending", "accepted", "declined", "withdrawn"]
    made: str
    ended: str | None


class FriendsExport(BaseModel):
    following: list[FollowOut] = Field(description="the players you follow")
    invitations: list[InvitationExport] = Field(
        description="every invitation to a seat you made or were sent, in any state"
    )


class ExportOut(BaseModel):
    account: ExportAccount
    sessions: list[SessionOut]
    games: list[MyGame]
    seats: list[SeatOut]
    chat: list[ChatLineOut]
    blocked: list[BlockedOut] = Field(description="the players you block")
    notifications: NotifyExport = Field(
        description="your address, webhook and choices, and the messages sent to you"
    )
    ratings: RatingsExport = Field(description="your ratings and your rated games")
    lifetime: LifetimeExport = Field(
        description="your lifetime figures per game and number of players, and every "
        "head-to-head row"
    )
    friends: FriendsExport = Field(description="whom you follow, and your invitations")


class EndedOut(BaseModel):
    ended: int = Field(description="sessions ended")


class DoneOut(BaseModel):
    done: Literal[True]


class ClaimOut(BaseModel):
    game: GameMeta
    you: You


class CredentialsIn(Strict):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class PasswordIn(Strict):
    password: str = Field(max_length=1000)


class PasswordChangeIn(Strict):
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)
