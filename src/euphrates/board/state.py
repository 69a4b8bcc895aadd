"""A Tigris & Euphrates game as the protocol sees it (`core.protocol.GameState`).

`BoardState` is the facade: the data and its primitives come from `data.BoardData`,
the rules from the modules named after them, and this class answers the protocol's
questions (the pending decision, the legal actions, a seat's view) and applies an
action through `flow`. The rule modules import the data, never this module.
"""

from __future__ import annotations

from typing import Any

import euphrates.board.flow as flow
import euphrates.board.legal as legal
from euphrates.board.actions import BoardAction, parse_action
from euphrates.board.data import BoardData
from euphrates.board.geometry import square_name
from euphrates.board.legal_text import legal_texts
from euphrates.board.phases import (
    ACTION,
    HAND_SIZE,
    MONUMENT,
    OVER,
    PHASE_KINDS,
    REVOLT,
    TILE_COUNTS,
    TREASURE,
    WAR,
    WAR_ORDER,
)
from euphrates.board.writing import view_of
from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.protocol import Decision, Event, GameState, View, check_viewer, decision_fields
from euphrates.core.rng import Rng

__all__ = [
    "ACTION",
    "HAND_SIZE",
    "MONUMENT",
    "OVER",
    "REVOLT",
    "TILE_COUNTS",
    "TREASURE",
    "WAR",
    "WAR_ORDER",
    "BoardState",
]


class BoardState(BoardData, GameState[BoardAction]):
    """A Tigris & Euphrates game in progress (create one with `new_game`)."""

    revealing_events = frozenset({"drew", "drew_tiles"})  # tiles drawn from the bag (G-3)
    game_over_ruling = "B-31"

    __slots__ = ()

    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.decision_seat()

    def decision(self) -> Decision | None:
        p = self.phase
        if p == OVER:
            return None
        seat = self.decision_seat()
        ctx: dict[str, Any] = {}
        if p == ACTION:
            ctx = {"action": self.actions_done + 1, "actions_left": 2 - self.actions_done}
        elif p in (REVOLT, WAR):
            ctx = self.conflict_context()
        elif p == WAR_ORDER:
            ctx = {
                "wars": [COLOUR_NAMES[c] for c in self.wars],
                "unification": square_name(self.unification),
            }
        elif p == MONUMENT:
            ctx = {
                "square": square_name(self.placed),
                "options": [str(a) for a in self.legal_actions()],
            }
        elif p == TREASURE:
            ctx = {"treasures": [str(a) for a in self.legal_actions()]}
        return Decision(seat, PHASE_KINDS[p], ctx)

    def conflict_context(self) -> dict[str, Any]:
        """Public facts of the conflict being decided (G-1: commitments are public)."""
        c = self.conflict_colour
        return {
            "conflict": "revolt" if self.phase == REVOLT else "war",
            "colour": COLOUR_NAMES[c],
            "commit_colour": COLOUR_NAMES[self.support_colour],
            "attacker": self.attacker,
            "defender": self.defender,
            "attacker_leader": square_name(self.att_sq),
            "defender_leader": square_name(self.def_sq),
            "attacker_strength": self.att_base,
            "defender_strength": self.def_base,
            "attacker_commit": None if self.att_commit < 0 else self.att_commit,
            "role": "attacker" if self.att_commit < 0 else "defender",
        }

    def parse_action(self, text: str) -> BoardAction:
        return parse_action(text)

    def public_text(self, action: str) -> str:
        """A swap shows how many tiles, never which (G-3: swap discards are secret)."""
        if action.startswith("swap "):
            return f"swap {len(action) - 5}"
        return action

    def legal_actions(self) -> list[BoardAction]:
        return legal.legal_actions(self)

    def legal_texts(self) -> list[str]:
        return legal_texts(self)

    def legal_action_count(self) -> int:
        return legal.count(self)

    def is_legal(self, action: BoardAction) -> bool:
        return legal.is_legal(self, action)

    def random_action(self, rng: Rng) -> BoardAction:
        return legal.random_action(self, rng)

    def view(self, seat: int | None, *, legal: bool = True) -> View:
        viewer = check_viewer(seat, self.players)
        return view_of(self, viewer, decision_fields(self, viewer, legal))

    def _apply(self, action: BoardAction) -> list[Event]:
        return flow.play(self, action)
