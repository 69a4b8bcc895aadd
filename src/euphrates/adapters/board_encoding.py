"""Tigris & Euphrates views as tensors (the layout is in docs/adapters.md).

Pieces of the observation, all float32, all from `state.view(seat)`:

* `board` (31, 11, 16): planes over the squares, row 1 first (A1 at [*, 0, 0]):
  0 river; 1-4 face-up tiles red, blue, green, black; 5-10 the 2x2 blocks of the
  monuments rb rg rk bg bk gk; 11 catastrophes; 12 treasures; 13 the unification tile;
  14 treasures on bordered squares (taken first, B-30); 15-30 leaders, 4 per seat
  slot (priest, farmer, trader, king).
* `seats` (4, 31): per seat slot, the fields of `SEAT` below.
* `game` (52,): the fields of `GAME` below: options, the bag, the pending decision and
  its public context.

The information state adds `record` (4, 4): each slot's points per colour summed from
the score log, known to anyone who followed the game even where the table hides
totals (B-33).
"""

from __future__ import annotations

from array import array
from typing import Final

import numpy as np

from euphrates.adapters.encoding import (
    SLOTS,
    Array,
    Encoding,
    Fields,
    Piece,
    conflict_fields,
    slot_of,
    write_conflict,
)
from euphrates.board.actions import MONUMENT_CODES
from euphrates.board.geometry import HEIGHT, SQUARE_NAMES, SQUARES, WIDTH, squares_of
from euphrates.board.maps import board_map
from euphrates.board.phases import HAND_SIZE, TILE_COUNTS
from euphrates.board.render import render_view
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES
from euphrates.core.protocol import View

PLANES: Final = 31
TILE_PLANE, MONUMENT_PLANE, CATASTROPHE_PLANE, TREASURE_PLANE = 1, 5, 11, 12
UNIFICATION_PLANE, BORDERED_PLANE, LEADER_PLANE = 13, 14, 15
MANY: Final = 1e6
"""The bound of a count the rules do not bound: points (monuments score every turn)."""
TILES: Final = float(sum(TILE_COUNTS))
TREASURES: Final = float(max(board_map(a).temples.bit_count() for a in (False, True)))

SEAT: Final = Fields(
    [
        ("present", 1, 1),  # the slot holds a seat
        ("me", 1, 1),  # the viewer
        ("active", 1, 1),
        ("first", 1, 1),
        ("to_move", 1, 1),  # the pending decision is this seat's
        ("hand", 4, HAND_SIZE),  # the viewer's own tiles by colour; 0 for others
        ("hand_size", 1, HAND_SIZE),
        ("discarded", 4, TILES),  # the viewer's own swap discards by colour (B-16)
        ("discarded_size", 1, TILES),
        ("catastrophes", 1, 2),  # catastrophe tiles left (B-15)
        ("treasures", 1, TREASURES),
        ("points", 4, MANY),  # as the table shows them: own, or everyone's (B-33)
        ("points_shown", 1, 1),
        ("leaders_placed", 4, 1),  # priest, farmer, trader, king on the board
        ("place", 4, 1),  # once the game is over: one-hot place 1..4
        ("outcome_known", 1, 1),
    ]
)
GAME: Final = Fields(
    [
        ("players", 3, 1),  # one-hot 2, 3, 4
        ("advanced", 1, 1),  # the advanced side of the board (B-34)
        ("open_scores", 1, 1),  # B-33
        ("viewer", 4, 1),  # the viewer's seat number, one-hot; none for a spectator
        ("bag", 1, TILES),
        ("removed", 4, TILES),  # tiles out of the game in public, by colour
        ("treasures_left", 1, TREASURES),
        ("kind", 5, 1),  # action, commit, war_order, monument, treasure
        ("action", 2, 1),  # first or second action of the turn
        ("over", 1, 1),
        *conflict_fields(TILES, HAND_SIZE),
        ("version", 1, MANY),  # actions played so far
    ]
)
KINDS: Final = ("action", "commit", "war_order", "monument", "treasure")
_PRESENT: Final[int] = SEAT.start("present")
_ME: Final[int] = SEAT.start("me")
_ACTIVE: Final[int] = SEAT.start("active")
_FIRST: Final[int] = SEAT.start("first")
_TO_MOVE: Final[int] = SEAT.start("to_move")
_HAND: Final[int] = SEAT.start("hand")
_HAND_SIZE: Final[int] = SEAT.start("hand_size")
_DISCARDED: Final[int] = SEAT.start("discarded")
_DISCARDED_SIZE: Final[int] = SEAT.start("discarded_size")
_CATASTROPHES: Final[int] = SEAT.start("catastrophes")
_TREASURES: Final[int] = SEAT.start("treasures")
_POINTS: Final[int] = SEAT.start("points")
_POINTS_SHOWN: Final[int] = SEAT.start("points_shown")
_PLACED: Final[int] = SEAT.start("leaders_placed")
_PLACE: Final[int] = SEAT.start("place")
_OUTCOME_KNOWN: Final[int] = SEAT.start("outcome_known")
_SQUARE: Final = {name: i for i, name in enumerate(SQUARE_NAMES)}
_COLOUR: Final = {name: c for c, name in enumerate(COLOUR_NAMES)}
_MONUMENT: Final = {code: m for m, code in enumerate(MONUMENT_CODES)}


SEATS_AT: Final = PLANES * SQUARES
GAME_AT: Final = SEATS_AT + SLOTS * SEAT.size
RECORD_AT: Final = GAME_AT + GAME.size


class BoardEncoding(Encoding):
    observation_pieces: tuple[Piece, ...] = (
        Piece("board", (PLANES, HEIGHT, WIDTH)),
        Piece("seats", (SLOTS, SEAT.size)),
        Piece("game", (GAME.size,)),
    )
    recall_pieces: tuple[Piece, ...] = (Piece("record", (SLOTS, 4)),)

    def __init__(self) -> None:
        super().__init__()
        # Each side's river (plane 0) written once, into the buffer every view starts from.
        self._start: dict[tuple[bool, bool], bytes] = {}
        for advanced in (False, True):
            for recall in (False, True):
                buf = self.zeroed(recall)
                for sq in squares_of(board_map(advanced).river):
                    buf[sq] = 1.0
                self._start[advanced, recall] = buf.tobytes()

    def high(self, recall: bool) -> Array:
        parts = [
            np.ones(PLANES * SQUARES, dtype=np.float32),
            np.tile(SEAT.high, SLOTS),
            GAME.high,
        ]
        if recall:
            parts.append(np.full(SLOTS * 4, MANY, dtype=np.float32))
        return np.concatenate(parts)

    def filled(self, view: View, recall: bool) -> array[float]:
        buf = array("f", self._start[bool(view["options"]["advanced"]), recall])
        slot = slot_of(view)
        me = view.get("viewer")
        board = view["board"]
        for name, squares in board["tiles"].items():
            at = (TILE_PLANE + _COLOUR[name]) * SQUARES
            for square in squares:
                buf[at + _SQUARE[square]] = 1.0
        for monument in board["monuments"]:
            sq = _SQUARE[monument["square"]]
            at = (MONUMENT_PLANE + _MONUMENT[monument["monument"]]) * SQUARES + sq
            buf[at] = buf[at + 1] = buf[at + WIDTH] = buf[at + WIDTH + 1] = 1.0
        for plane, key in (
            (CATASTROPHE_PLANE, "catastrophes"),
            (TREASURE_PLANE, "treasures"),
            (BORDERED_PLANE, "bordered_treasures"),
        ):
            for square in board[key]:
                buf[plane * SQUARES + _SQUARE[square]] = 1.0
        if board["unification"] is not None:
            buf[UNIFICATION_PLANE * SQUARES + _SQUARE[board["unification"]]] = 1.0

        decision = view["decision"]
        outcome = view["outcome"]
        turn = view["turn"]
        for s, entry in enumerate(view["seats"]):
            k = slot(s)
            row = SEATS_AT + k * SEAT.size
            buf[row + _PRESENT] = 1.0
            if s == me:
                buf[row + _ME] = 1.0
            if s == turn["active"]:
                buf[row + _ACTIVE] = 1.0
            if s == turn["first"]:
                buf[row + _FIRST] = 1.0
            if decision is not None and decision["seat"] == s:
                buf[row + _TO_MOVE] = 1.0
            for first, size_at, tiles in (
                (_HAND, _HAND_SIZE, entry["hand"]),
                (_DISCARDED, _DISCARDED_SIZE, entry["discarded"]),
            ):  # the viewer's own by colour, anyone else's a count
                if "count" in tiles:
                    buf[row + size_at] = tiles["count"]
                else:
                    total = 0
                    for c, n in enumerate(COLOUR_NAMES):
                        buf[row + first + c] = tiles[n]
                        total += tiles[n]
                    buf[row + size_at] = total
            buf[row + _CATASTROPHES] = entry["catastrophes"]
            buf[row + _TREASURES] = entry["treasures"]
            if "points" in entry:
                for c, n in enumerate(COLOUR_NAMES):
                    buf[row + _POINTS + c] = entry["points"][n]
                buf[row + _POINTS_SHOWN] = 1.0
            for c, leader in enumerate(LEADER_NAMES):
                where = entry["leaders"][leader]
                if where is not None:
                    buf[(LEADER_PLANE + 4 * k + c) * SQUARES + _SQUARE[where]] = 1.0
                    buf[row + _PLACED + c] = 1.0
            if outcome is not None:
                buf[row + _PLACE + outcome["places"][s] - 1] = 1.0
                buf[row + _OUTCOME_KNOWN] = 1.0

        game = GAME_AT
        buf[game + GAME.start("players") + view["players"] - 2] = 1.0
        buf[game + GAME.start("advanced")] = view["options"]["advanced"]
        buf[game + GAME.start("open_scores")] = view["options"]["open_scores"]
        if me is not None:
            buf[game + GAME.start("viewer") + me] = 1.0
        buf[game + GAME.start("bag")] = view["bag"]["count"]
        for c, n in enumerate(COLOUR_NAMES):
            buf[game + GAME.start("removed") + c] = view["removed"][n]
        buf[game + GAME.start("treasures_left")] = len(board["treasures"])
        buf[game + GAME.start("version")] = view["version"]
        if decision is None:
            buf[game + GAME.start("over")] = 1.0
        else:
            buf[game + GAME.start("kind") + KINDS.index(decision["kind"])] = 1.0
            context = decision["context"]
            if decision["kind"] == "action":
                buf[game + GAME.start("action") + context["action"] - 1] = 1.0
            else:
                write_conflict(buf, game, GAME, decision["kind"], context, slot, _COLOUR)

        if recall:
            for s, colour, points, _reason in view["score_log"]:
                buf[RECORD_AT + 4 * slot(s) + _COLOUR[colour]] += points
        return buf

    def observation_string(self, view: View) -> str:
        return render_view(view)
