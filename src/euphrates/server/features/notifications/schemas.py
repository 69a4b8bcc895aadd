"""The bodies and answers of an account's notification settings. The address and the webhook are in the answers of their owner's own routes
only: no other model has a field for them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema

from euphrates.server.features.api import Strict
from euphrates.words.book import LANGS


def _known(value: str) -> str:
    if value not in LANGS:
        raise ValueError(f"no messages in {value!r}: the languages are {', '.join(LANGS)}")
    return value


# the book's languages (euphrates.words.book.LANGS): one list for the pages and the messages
Lang = Annotated[
    str, AfterValidator(_known), WithJsonSchema({"type": "string", "enum": list(LANGS)})
]


class NotifyOut(BaseModel):
    email: str | None = Field(description="the verified address turn mail goes to (yours only)")
    email_pending: str | None = Field(description="an address waiting for its code")
    email_on: bool
    webhook: str | None = Field(description="the webhook address (yours only)")
    webhook_on: bool
    digest: bool = Field(description="a daily digest instead of a message per turn")
    digest_hour: int = Field(description="the hour of the digest, 0–23, in `timezone`")
    timezone: str
    lang: Lang = Field(description="the language of the messages")
    mail: bool = Field(description="whether this server sends e-mail at all (`--smtp`)")
    next_digest: str | None = Field(description="when the next digest is due, if chosen")


class NotifyIn(Strict):
    """What to change; a field left out stays as it is (`webhook: null` removes it)."""

    email_on: bool | None = None
    webhook_on: bool | None = None
    webhook: str | None = Field(default=None, max_length=500)
    digest: bool | None = None
    digest_hour: int | None = Field(default=None, ge=0, le=23)
    timezone: str | None = Field(default=None, min_length=1, max_length=64)
    lang: Lang | None = None


class EmailIn(Strict):
    """A new address (a code is mailed to it), or null to remove the address."""

    email: str | None = Field(max_length=254)
    lang: Lang | None = None


class CodeIn(Strict):
    code: str = Field(min_length=1, max_length=20)


class TestIn(Strict):
    channel: Literal["email", "webhook"]


class SentOut(BaseModel):
    sent: Literal[True]


class MessageOut(BaseModel):
    about: str = Field(description="turn:GAME:SEAT:N or digest:ACCOUNT:DAY")
    channel: Literal["email", "webhook"]
    state: Literal["queued", "sent", "withdrawn", "failed"]
    created: str
    sent: str | None


class NotifyExport(BaseModel):
    settings: dict[str, object]
    messages: list[MessageOut]
