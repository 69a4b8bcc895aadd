"""Answers both games share: passing, committing to a conflict, choosing the next war,
declining. Small immutable values whose `str` is their notation."""

from __future__ import annotations

from dataclasses import dataclass

from euphrates.core.colours import COLOUR_LETTERS


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn now, giving up the remaining actions (G-2)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Commit:
    """Commit `count` tiles or cards to the pending conflict (G-1; B-20, B-24, C-10, C-12)."""

    count: int

    def __str__(self) -> str:
        return f"commit {self.count}"


@dataclass(frozen=True, slots=True)
class ChooseWar:
    """Fight the war of `colour` next (B-22, C-11)."""

    colour: int

    def __str__(self) -> str:
        return f"war {COLOUR_LETTERS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Build no monument (B-28) or no ship (C-15)."""

    def __str__(self) -> str:
        return "decline"


def is_ascii_number(text: str, max_digits: int = 3) -> bool:
    """Whether `text` is 1..max_digits ASCII digits. `str.isdigit()` accepts '²' and other
    Unicode digits that `int()` then refuses, and unbounded digit strings make `int()`
    slow or raise: notation reads ASCII digits only, a few at most."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()
