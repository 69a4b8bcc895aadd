"""What the chat's routes send and receive."""

from __future__ import annotations

from pydantic import BaseModel, Field

from euphrates.server.features.api import Strict


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


class ChatIn(Strict):
    text: str = Field(max_length=5000)


class ReportIn(Strict):
    reason: str = Field(default="", max_length=500)
