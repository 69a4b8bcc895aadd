"""The protocol both games share: seats, decisions, views, events, errors and randomness."""

from euphrates.core.colours import (
    BLACK,
    BLUE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLOURS,
    GREEN,
    LEADER_LETTERS,
    LEADER_NAMES,
    RED,
)
from euphrates.core.errors import (
    EuphratesError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    StaleActionError,
    WrongSeatError,
)
from euphrates.core.protocol import (
    Decision,
    Event,
    GameDefinition,
    GameState,
    Outcome,
    Seat,
    View,
)
from euphrates.core.rng import Rng
from euphrates.core.scoring import assign_wildcards, final_outcome

__all__ = [
    "BLACK",
    "BLUE",
    "COLOURS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "GREEN",
    "LEADER_LETTERS",
    "LEADER_NAMES",
    "RED",
    "Decision",
    "EuphratesError",
    "Event",
    "GameDefinition",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "RecordError",
    "Rng",
    "Seat",
    "StaleActionError",
    "View",
    "WrongSeatError",
    "assign_wildcards",
    "final_outcome",
]
