"""Errors shared by both engines.

Following python-chess, a malformed action (it cannot even be read) and an illegal
one (well formed, but the rules forbid it now) are different `ValueError`s, so a
caller can tell a typo from a rules question. Every rules error names the ruling
that forbids the action, and the engine guarantees the state is unchanged.
"""

from __future__ import annotations


class EuphratesError(Exception):
    """Base of every error raised on purpose by this package."""


class InvalidActionError(EuphratesError, ValueError):
    """The text or object is not an action of this game at all (bad syntax, bad square)."""


class IllegalActionError(EuphratesError, ValueError):
    """A well-formed action the rules do not allow in the current state.

    `ruling` is the id from RULINGS.md (for example ``"B-12"``) that forbids it.
    """

    def __init__(self, message: str, ruling: str | None = None) -> None:
        self.ruling = ruling
        text = f"{message} ({ruling})" if ruling else message
        super().__init__(text)


class WrongSeatError(IllegalActionError):
    """The action was sent for a seat that does not hold the pending decision."""


class StaleActionError(IllegalActionError):
    """The action was meant for an earlier version of the game (boardgame.io style)."""


class GameOverError(IllegalActionError):
    """The game has ended; no action is legal any more."""


class RecordError(EuphratesError, ValueError):
    """A game record or position document is malformed or does not replay."""


class ArgumentError(EuphratesError, ValueError):
    """An argument of the API (players, seed, options, seat, a bound) has the wrong type or
    lies out of range. Both games raise this one type, naming the argument, so a host can
    tell a caller's mistake from a rules question."""


def short_repr(value: object) -> str:
    """A value for an error message, cut short: it may be anything a file held."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
