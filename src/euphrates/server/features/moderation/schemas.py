"""What the moderation routes receive and answer: a player's report and block, and the
admin page's reports and accounts. An answer names accounts, never their ids."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from euphrates.server.features.api import Strict

Kind = Literal["chat", "player"]
Resolution = Literal["dismissed", "muted", "disabled"]


class BlockOut(BaseModel):
    blocked: bool = Field(description="whether you block this player now")


class ReportedBy(BaseModel):
    reporter: str
    reason: str
    at: str


class AccountStanding(BaseModel):
    name: str
    muted: bool
    disabled: bool
    admin: bool


class ContextLine(BaseModel):
    seq: int
    author: str = Field(description="the name it was said under at the table")
    account: str | None = Field(description="the account that said it (null: a guest)")
    text: str
    at: str
    reported: bool = Field(description="the line reported")


class EarlierReport(BaseModel):
    kind: Kind
    game: str | None
    text: str | None = Field(description="the line reported, for a line")
    reason: str
    reporter: str
    at: str
    resolution: Resolution | None = Field(description="how it was settled (null: open)")


class Case(BaseModel):
    """One line or player reported, by everyone who reported it while it is open."""

    id: int = Field(description="settle it with this number")
    kind: Kind
    at: str = Field(description="when it was first reported")
    game: str | None
    seq: int | None
    reports: list[ReportedBy]
    account: AccountStanding | None = Field(
        description="the player reported, or who said the line (null: a guest)"
    )
    context: list[ContextLine] = Field(description="a line's neighbours in its game")
    recent: list[EarlierReport] = Field(description="the account's latest other reports")


class CasesOut(BaseModel):
    reports: list[Case]


class StandingOut(AccountStanding):
    recent: list[EarlierReport]


class SettleIn(Strict):
    resolution: Resolution


class StandingIn(Strict):
    muted: bool | None = None
    disabled: bool | None = None
