"""The public history of a game: what each seat saw happen, in order (G-3).

A bot that reads the table needs more than the table as it stands: who passed, who
swapped how many tiles, which bridge went down before the war. A host keeps one
`History` per game, applying every action through it, and hands a bot its seat's part
beside the view (`with_history`). A seat's part holds, per action in order:

- ``seat``: who acted;
- ``action``: the action's text, or for another seat's action whose text names
  something hidden (a swap's tiles, a face-down bridge's colour) its public part alone
  (`GameState.public_text`: ``swap 3``, ``bridge 3-4``);
- ``events``: the events the action caused that the seat may see
  (`Event.visible_to`), as their JSON, its own private ones (its draws) included.

Nothing in it is hidden from the seat: it is what a player who watched every move from
that chair knows, and no more. The whole history is kept once; each seat's part is
filtered from it, with every event's JSON written once however many seats read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from euphrates.core.protocol import Event, GameState, Json, Seat, View

HISTORY_KEY: Final = "history"
"""The key of a seat's history in the view a host hands its bot (`with_history`)."""


class History:
    """Every action of one game with its mover, its public text and its events."""

    __slots__ = ("_steps",)

    def __init__(self) -> None:
        self._steps: list[tuple[Seat | None, str, str, tuple[tuple[Seat | None, Json], ...]]] = []

    def __len__(self) -> int:
        return len(self._steps)

    def play(self, state: GameState[Any], text: str, seat: Seat | None = None) -> list[Event]:
        """Apply `text` to `state` for `seat` (checked when given) and record it; the
        events as `state.apply` returns them. A refused action records nothing."""
        mover = state.to_move()
        action = state.parse_action(text)
        events = state.apply(action, seat=seat)
        self.add(mover, str(action), state.public_text(str(action)), events)
        return events

    def add(self, seat: Seat | None, text: str, public: str, events: Iterable[Event]) -> None:
        """Record an action already applied: its mover, canonical text, public text
        (`state.public_text(text)`) and events."""
        encoded = tuple((e.audience, e.to_json()) for e in events)
        self._steps.append((seat, text, public, encoded))

    def seen_by(self, seat: Seat | None) -> list[Json]:
        """What `seat` (None: a spectator) saw happen, in order (see the module's text)."""
        out: list[Json] = []
        for mover, text, public, events in self._steps:
            out.append(
                {
                    "seat": mover,
                    "action": text if seat is not None and mover == seat else public,
                    "events": [e for aud, e in events if aud is None or aud == seat],
                }
            )
        return out


def replayed(start: GameState[Any], actions: Iterable[str]) -> History:
    """The history of the game `start` (a new game, copied, not changed) after
    `actions`: for a host that keeps a record rather than a history."""
    state = start.copy()
    history = History()
    for text in actions:
        history.play(state, text)
    return history


class Follower:
    """The history of a game kept up with its standing actions, for a host that keeps a
    record (the server's rooms): each `update` applies only the actions new since the
    last, and starts again from `start` when the record is no longer an extension of
    what it followed (an undo took actions back)."""

    __slots__ = ("_actions", "_start", "_state", "history")

    def __init__(self, start: GameState[Any]) -> None:
        self._start = start.copy()
        self._state = start.copy()
        self._actions: list[str] = []
        self.history = History()

    def update(self, actions: list[str]) -> History:
        done = len(self._actions)
        if actions[:done] != self._actions:
            self._state = self._start.copy()
            self._actions = []
            self.history = History()
            done = 0
        for text in actions[done:]:
            self.history.play(self._state, text)
            self._actions.append(text)
        return self.history


def with_history(view: View, history: History) -> View:
    """`view` with its viewer's public history beside it, under `history`: what a host
    hands a bot (docs/bots.md)."""
    return {**view, HISTORY_KEY: history.seen_by(view.get("viewer"))}


def without_history(view: Mapping[str, Any]) -> View:
    """`view` without a history beside it: what `with_history` was given."""
    return {k: v for k, v in view.items() if k != HISTORY_KEY}
