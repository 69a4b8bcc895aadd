"""Contest of Kings views as tensors (the layout is in docs/adapters.md).

Pieces of the observation, all float32, all from `state.view(seat)`:

* `columns` (26, 8, 9): planes over the eight columns and their rows (row 0 the
  head): 0-3 a card red, blue, green, black (a red head counts red); 4-6 the ships
  br, bg, bk; 7 an original treasure head; 8 a red card that replaced one (C-14);
  9 any card; 10-25 leaders, 4 per seat slot (priest, farmer, trader, king).
* `bridges` (7, 23): per gap 1-2 .. 7-8: 0-3 the bridge's colour when the viewer sees
  it; 4 face down and hidden from the viewer; 5 face down; 6 a bridge; 7-22 leaders.
* `seats` (4, 32): per seat slot, the fields of `SEAT` below.
* `game` (96,): the fields of `GAME` below: options, deck, discards, the pending
  decision and its public context.

The information state adds `record` (4, 5): each slot's point pile by colour and
treasure cards (r b g k t), which every seat has seen card by card (G-3) even while the
table shows a closed pile only by its top card and height (C-9).
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
from euphrates.cards.kinds import KIND_NAMES, REASON_NAMES
from euphrates.cards.layout import (
    CARD_TOTALS,
    CIVILISATION_CARDS,
    COLUMNS,
    GAPS,
    HAND_SIZE,
    MAX_CARDS,
)
from euphrates.cards.render import render
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, LEADER_LETTERS
from euphrates.core.protocol import View

ROWS: Final = MAX_CARDS + 1
COLUMN_PLANES: Final = 26
BRIDGE_FIELDS: Final = 23
SHIP_CODES: Final = ("br", "bg", "bk")
PILE_LETTERS: Final = ("r", "b", "g", "k", "t")
REASONS: Final = (*REASON_NAMES, "ship")
CARDS_ALL: Final = float(CIVILISATION_CARDS)
MANY: Final = 1e6

SEAT: Final = Fields(
    [
        ("present", 1, 1),
        ("me", 1, 1),
        ("active", 1, 1),
        ("first", 1, 1),
        ("to_move", 1, 1),
        ("hand", 4, HAND_SIZE),  # the viewer's own cards by colour; 0 for others
        ("hand_size", 1, HAND_SIZE),
        ("catastrophe", 1, 1),  # the catastrophe card not yet used (C-7)
        ("pile", 5, CARDS_ALL),  # r b g k t, where the table shows them (open piles, C-9)
        ("pile_shown", 1, 1),
        ("top", 5, 1),  # a closed pile's top card, one-hot r b g k t
        ("height", 1, CARDS_ALL),
        ("leaders_placed", 4, 1),
        ("place", 4, 1),  # once the game is over: one-hot place 1..4
        ("outcome_known", 1, 1),
    ]
)
GAME: Final = Fields(
    [
        ("players", 3, 1),  # one-hot 2, 3, 4
        ("open_piles", 1, 1),  # C-9
        ("viewer", 4, 1),  # the viewer's seat number, one-hot; none for a spectator
        ("deck", 1, CARDS_ALL),
        ("removed", 1, CARDS_ALL),
        ("discard", 4, float(max(CARD_TOTALS))),
        ("out", 4, float(max(CARD_TOTALS))),  # cards removed by catastrophes (C-7)
        ("ships", 3, 1),  # ships still available: br bg bk
        ("actions_left", 3, 1),  # one-hot 0, 1, 2
        ("kind", len(KIND_NAMES), 1),
        ("over", 1, 1),
        ("colour", 4, 1),  # a point or ship point's colour
        ("reason", len(REASONS), 1),  # why a point is asked: column, revolt, war, ship
        *conflict_fields(CARDS_ALL, HAND_SIZE),
        ("ship_column", COLUMNS, 1),  # the column of a run of four (C-15)
        ("ship_options", 3, 1),
        ("kingdom", COLUMNS, 1),  # the columns of an exchange's kingdom (C-14)
        ("exchangeable", COLUMNS, 1),  # columns still headed by an original treasure card
        ("version", 1, MANY),
    ]
)
BRIDGES_AT: Final = COLUMN_PLANES * COLUMNS * ROWS
SEATS_AT: Final = BRIDGES_AT + GAPS * BRIDGE_FIELDS
GAME_AT: Final = SEATS_AT + SLOTS * SEAT.size
RECORD_AT: Final = GAME_AT + GAME.size
_COLOUR: Final = {name: c for c, name in enumerate(COLOUR_NAMES)}
_LETTER: Final = {letter: c for c, letter in enumerate(COLOUR_LETTERS)}


def _spot(name: str) -> tuple[int, int]:
    """Where a leader stands: ``3.2`` -> (0, its index in a plane of `columns`), a
    bridge ``3-4`` -> (1, gap 2)."""
    if "-" in name:
        return 1, int(name.split("-")[0]) - 1
    col, row = name.split(".")
    return 0, (int(col) - 1) * ROWS + int(row)


class CardsEncoding(Encoding):
    observation_pieces: tuple[Piece, ...] = (
        Piece("columns", (COLUMN_PLANES, COLUMNS, ROWS)),
        Piece("bridges", (GAPS, BRIDGE_FIELDS)),
        Piece("seats", (SLOTS, SEAT.size)),
        Piece("game", (GAME.size,)),
    )
    recall_pieces: tuple[Piece, ...] = (Piece("record", (SLOTS, len(PILE_LETTERS))),)

    def high(self, recall: bool) -> Array:
        parts = [
            np.ones(COLUMN_PLANES * COLUMNS * ROWS + GAPS * BRIDGE_FIELDS, dtype=np.float32),
            np.tile(SEAT.high, SLOTS),
            GAME.high,
        ]
        if recall:
            parts.append(np.full(SLOTS * len(PILE_LETTERS), CARDS_ALL, dtype=np.float32))
        return np.concatenate(parts)

    def filled(self, view: View, recall: bool) -> array[float]:
        buf = self.zeroed(recall)
        slot = slot_of(view)
        me = view.get("viewer")
        layout = view["layout"]
        cells = COLUMNS * ROWS
        for c, head in enumerate(layout["heads"]):
            i = c * ROWS
            buf[9 * cells + i] = 1.0
            if head == "t":
                buf[7 * cells + i] = 1.0
            else:
                buf[i] = buf[8 * cells + i] = 1.0
        for c, column in enumerate(layout["columns"]):
            for r, card in enumerate(column, 1):
                i = c * ROWS + r
                plane = _LETTER.get(card)
                if plane is None:
                    plane = 4 + SHIP_CODES.index(card)
                buf[9 * cells + i] = buf[plane * cells + i] = 1.0
        down = layout["face_down"]
        for g, card in enumerate(layout["bridges"]):
            if card is None:
                continue
            gap = BRIDGES_AT + g * BRIDGE_FIELDS
            buf[gap + 6] = 1.0
            if card == "?":
                buf[gap + 4] = 1.0
            else:
                buf[gap + _LETTER[card]] = 1.0
            if down is not None and int(down.split("-")[0]) - 1 == g:
                buf[gap + 5] = 1.0

        decision = view["decision"]
        outcome = view["outcome"]
        for s, leaders in enumerate(view["leaders"]):
            k = slot(s)
            row = SEATS_AT + k * SEAT.size
            for c, letter in enumerate(LEADER_LETTERS):
                where = leaders[letter]
                if where is None:
                    continue
                buf[row + SEAT.start("leaders_placed") + c] = 1.0
                # `on`, not `kind`: the decision's kind below is text, and compiled, a
                # variable keeps the type it was first given.
                on, i = _spot(where)
                if on == 0:
                    buf[(10 + 4 * k + c) * cells + i] = 1.0
                else:
                    buf[BRIDGES_AT + i * BRIDGE_FIELDS + 7 + 4 * k + c] = 1.0
        hand = view["hand"]
        for s in range(view["players"]):
            row = SEATS_AT + slot(s) * SEAT.size
            buf[row + SEAT.start("present")] = 1.0
            if s == me:
                buf[row + SEAT.start("me")] = 1.0
            if s == view["active"]:
                buf[row + SEAT.start("active")] = 1.0
            if s == view["first"]:
                buf[row + SEAT.start("first")] = 1.0
            if decision is not None and decision["seat"] == s:
                buf[row + SEAT.start("to_move")] = 1.0
            buf[row + SEAT.start("hand_size")] = view["hand_counts"][s]
            if s == me and hand is not None:
                for c, letter in enumerate(COLOUR_LETTERS):
                    buf[row + SEAT.start("hand") + c] = hand.count(letter)
            buf[row + SEAT.start("catastrophe")] = view["catastrophes"][s]
            pile = view["piles"][s]
            if "height" in pile:
                buf[row + SEAT.start("height")] = pile["height"]
                if pile["top"] is not None:
                    buf[row + SEAT.start("top") + PILE_LETTERS.index(pile["top"])] = 1.0
            else:
                height = 0
                for c, letter in enumerate(PILE_LETTERS):
                    buf[row + SEAT.start("pile") + c] = pile[letter]
                    height += pile[letter]
                buf[row + SEAT.start("pile_shown")] = 1.0
                buf[row + SEAT.start("height")] = height
            if outcome is not None:
                buf[row + SEAT.start("place") + outcome["places"][s] - 1] = 1.0
                buf[row + SEAT.start("outcome_known")] = 1.0

        game = GAME_AT
        buf[game + GAME.start("players") + view["players"] - 2] = 1.0
        buf[game + GAME.start("open_piles")] = view["options"]["open_piles"]
        if me is not None:
            buf[game + GAME.start("viewer") + me] = 1.0
        buf[game + GAME.start("deck")] = view["deck_count"]
        buf[game + GAME.start("removed")] = view["removed_count"]
        for c, letter in enumerate(COLOUR_LETTERS):
            buf[game + GAME.start("discard") + c] = view["discard"].count(letter)
            buf[game + GAME.start("out") + c] = view["out"].count(letter)
        for code in view["ships"]:
            buf[game + GAME.start("ships") + SHIP_CODES.index(code)] = 1.0
        buf[game + GAME.start("actions_left") + view["actions_left"]] = 1.0
        buf[game + GAME.start("version")] = view["version"]
        if decision is None:
            buf[game + GAME.start("over")] = 1.0
        else:
            kind = decision["kind"]
            context = decision["context"]
            buf[game + GAME.start("kind") + KIND_NAMES.index(kind)] = 1.0
            if kind in ("point", "ship_point"):
                buf[game + GAME.start("colour") + _COLOUR[context["colour"]]] = 1.0
                buf[game + GAME.start("reason") + REASONS.index(context["reason"])] = 1.0
            elif kind in ("commit", "war_order"):
                write_conflict(buf, game, GAME, kind, context, slot, _COLOUR)
            elif kind == "ship":
                buf[game + GAME.start("ship_column") + context["column"] - 1] = 1.0
                for code in context["ships"]:
                    buf[game + GAME.start("ship_options") + SHIP_CODES.index(code)] = 1.0
            elif kind == "exchange":
                lo, hi = context["kingdom"]
                for col in range(lo, hi + 1):
                    buf[game + GAME.start("kingdom") + col - 1] = 1.0
                for col in context["treasures"]:
                    buf[game + GAME.start("exchangeable") + col - 1] = 1.0

        if recall:
            for s, scored in enumerate(view["scored"]):
                for c, letter in enumerate(PILE_LETTERS):
                    buf[RECORD_AT + slot(s) * len(PILE_LETTERS) + c] = scored.count(letter)
        return buf

    def observation_string(self, view: View) -> str:
        return render(view)
