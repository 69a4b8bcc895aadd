"""What the hint route answers."""

from __future__ import annotations

from pydantic import BaseModel, Field


class HintOut(BaseModel):
    """A hint (features/hints/hints.py): the seat's view alone went into it."""

    action: str = Field(description="the suggested action, in the game's notation")
    version: int = Field(description="the version whose pending decision it answers")
    level: str = Field(description="the level of the bot that chose it")
    words: dict[str, str] = Field(
        default_factory=dict,
        description="the action said as advice, in words, by language (`en`, `de`)",
    )
