"""Statistics of a finished game, read from its record: what each seat won and lost,
built, took and destroyed, and its points per colour turn by turn.

One function computes them, from the events a replay of the record gives, so the
terminal (`euphrates replay --stats`), the server (`GET /api/games/{id}/stats`, after
the end) and through it the table and the replay page show the same figures.

Only public events are counted (revolts, wars, monuments or ships, treasures,
catastrophes, points: all taken openly, B-33, C-9, G-3); still, the server hands the
figures out only once the game is over, like the record they come from.

    {"game": "board", "players": 3, "steps": 212, "turns": 41,
     "seats": [{"revolts": {"won_attacking": 1, "lost_attacking": 0,
                            "won_defending": 2, "lost_defending": 1},
                "wars": {...}, "monuments": 1, "treasures": 2, "catastrophes": 1,
                "placed": 30, "points": {"red": 9, "blue": 4, "green": 6, "black": 2}},
               ...],
     "timeline": [{"step": 0, "points": [[0, 0, 0, 0], ...]}, ...]}

`timeline` holds each seat's points per colour (red, blue, green, black) at the start
of every turn and at the end, for the chart of points over time. `monuments` counts
monuments built in the board game and ships built in the card game (their one
building each); `placed` counts tiles, or cards, laid from the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES
from euphrates.core.errors import EuphratesError, RecordError
from euphrates.core.protocol import Json
from euphrates.match.records import MAX_TEXT, GameRecord

CONFLICTS: Final = ("revolts", "wars")
OUTCOMES: Final = ("won_attacking", "lost_attacking", "won_defending", "lost_defending")
COUNTS: Final = ("monuments", "treasures", "catastrophes", "placed")

# Event kinds, by game: the conflict that starts (with attacker and defender), its
# result (winner), what counts toward each figure. Both engines name their events
# differently; the figures are the same.
_START: Final = {"board": ("revolt", "war"), "cards": ("revolt", "war")}
_RESULT: Final = {"board": ("conflict_resolved",), "cards": ("revolt_result", "war_result")}
_BUILT: Final = {"board": "monument_built", "cards": "ship"}
_PLACED: Final = {"board": ("tile_placed",), "cards": ("card", "bridge")}
_TURN: Final = {"board": "turn_started", "cards": "turn"}


def _seat_stats() -> Json:
    return {
        "revolts": dict.fromkeys(OUTCOMES, 0),
        "wars": dict.fromkeys(OUTCOMES, 0),
        **dict.fromkeys(COUNTS, 0),
        "points": dict.fromkeys(COLOUR_NAMES, 0),
    }


class _Tally:
    """The figures as the events of one game go by."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.seats = [_seat_stats() for _ in range(players)]
        self.points = [[0, 0, 0, 0] for _ in range(players)]
        self.timeline: list[Json] = [{"step": 0, "points": self._points()}]
        self.turns = 0
        # The conflict being fought: its kind ("revolts"/"wars") and its two sides.
        self.conflict: tuple[str, int, int] | None = None

    def _points(self) -> list[list[int]]:
        return [p[:] for p in self.points]

    def event(self, step: int, e: Mapping[str, Any]) -> None:
        kind = e["kind"]
        g = self.game
        if kind == _TURN[g]:
            self.turns += 1
            self.timeline.append({"step": step, "points": self._points()})
        elif kind in _START[g]:
            self.conflict = (f"{kind}s", int(e["attacker"]), int(e["defender"]))
        elif kind in _RESULT[g] and self.conflict is not None:
            which, attacker, defender = self.conflict
            attacker_won = int(e["winner"]) == attacker
            self.seats[attacker][which]["won_attacking" if attacker_won else "lost_attacking"] += 1
            self.seats[defender][which]["lost_defending" if attacker_won else "won_defending"] += 1
            self.conflict = None
        elif kind == _BUILT[g]:
            self.seats[int(e["seat"])]["monuments"] += 1
        elif kind in _PLACED[g]:
            self.seats[int(e["seat"])]["placed"] += 1
        elif kind == "catastrophe":
            self.seats[int(e["seat"])]["catastrophes"] += 1
        elif kind == "treasure_taken":  # board: a treasure is a wildcard point (B-30)
            self.seats[int(e["seat"])]["treasures"] += 1
        elif kind == "scored":  # board (B-14)
            self._score(int(e["seat"]), COLOUR_NAMES.index(str(e["colour"])), int(e["points"]))
        elif kind == "point":  # cards: one card reaches a pile (C-9); "t" a treasure card
            card = str(e["card"])
            if card == "t":
                self.seats[int(e["seat"])]["treasures"] += 1
            else:
                self._score(int(e["seat"]), COLOUR_LETTERS.index(card), 1)

    def _score(self, seat: int, colour: int, n: int) -> None:
        self.points[seat][colour] += n
        self.seats[seat]["points"][COLOUR_NAMES[colour]] += n

    def result(self, steps: int) -> Json:
        if self.timeline[-1]["step"] != steps or self.timeline[-1]["points"] != self.points:
            self.timeline.append({"step": steps, "points": self._points()})
        return {
            "game": self.game,
            "players": len(self.seats),
            "steps": steps,
            "turns": self.turns,
            "seats": self.seats,
            "timeline": self.timeline,
        }


def game_stats(record: GameRecord) -> Json:
    """The statistics of the game the record holds (finished or not: the figures so far).
    RecordError if an action does not replay."""
    state = record.new_game()
    tally = _Tally(record.game, record.players)
    for i, text in enumerate(record.actions):
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise RecordError(f"record: action {i} is not an action text")
        try:
            events = state.apply(text)
        except (EuphratesError, ValueError) as e:
            raise RecordError(f"record: action {i} ({text!r}) does not replay: {e}") from None
        for ev in events:
            if ev.audience is None:
                tally.event(i + 1, ev.to_json())
    return tally.result(len(record.actions))
