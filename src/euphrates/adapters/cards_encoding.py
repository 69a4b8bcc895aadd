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

    def encode(self, view: View, out: Array, recall: bool) -> None:
        parts = self.parts(out, recall)
        slot = slot_of(view)
        me = view.get("viewer")
        layout = view["layout"]
        planes = parts["columns"].reshape(COLUMN_PLANES, COLUMNS * ROWS)
        flat = parts["columns"].reshape(-1)
        cells = COLUMNS * ROWS
        ones: list[int] = []  # indices into `flat`, set at once below
        for c, head in enumerate(layout["heads"]):
            i = c * ROWS
            ones.append(9 * cells + i)
            if head == "t":
                ones.append(7 * cells + i)
            else:
                ones += (i, 8 * cells + i)
        for c, column in enumerate(layout["columns"]):
            for r, card in enumerate(column, 1):
                i = c * ROWS + r
                plane = _LETTER.get(card)
                if plane is None:
                    plane = 4 + SHIP_CODES.index(card)
                ones += (9 * cells + i, plane * cells + i)
        flat[ones] = 1
        bridges = parts["bridges"]
        down = layout["face_down"]
        for g, card in enumerate(layout["bridges"]):
            if card is None:
                continue
            bridges[g, 6] = 1
            if card == "?":
                bridges[g, 4] = 1
            else:
                bridges[g, _LETTER[card]] = 1
            if down is not None and int(down.split("-")[0]) - 1 == g:
                bridges[g, 5] = 1

        seats = parts["seats"]
        decision = view["decision"]
        outcome = view["outcome"]
        for s, leaders in enumerate(view["leaders"]):
            k = slot(s)
            row = seats[k]
            for c, letter in enumerate(LEADER_LETTERS):
                where = leaders[letter]
                if where is None:
                    continue
                row[SEAT.start("leaders_placed") + c] = 1
                # `on`, not `kind`: the decision's kind below is text, and compiled, a
                # variable keeps the type it was first given.
                on, i = _spot(where)
                if on == 0:
                    planes[10 + 4 * k + c, i] = 1
                else:
                    bridges[i, 7 + 4 * k + c] = 1
        hand = view["hand"]
        for s in range(view["players"]):
            row = seats[slot(s)]
            row[SEAT.start("present")] = 1
            row[SEAT.start("me")] = s == me
            row[SEAT.start("active")] = s == view["active"]
            row[SEAT.start("first")] = s == view["first"]
            row[SEAT.start("to_move")] = decision is not None and decision["seat"] == s
            row[SEAT.start("hand_size")] = view["hand_counts"][s]
            if s == me and hand is not None:
                row[SEAT["hand"]] = [hand.count(x) for x in COLOUR_LETTERS]
            row[SEAT.start("catastrophe")] = view["catastrophes"][s]
            pile = view["piles"][s]
            if "height" in pile:
                row[SEAT.start("height")] = pile["height"]
                if pile["top"] is not None:
                    row[SEAT.start("top") + PILE_LETTERS.index(pile["top"])] = 1
            else:
                row[SEAT["pile"]] = [pile[x] for x in PILE_LETTERS]
                row[SEAT.start("pile_shown")] = 1
                row[SEAT.start("height")] = sum(pile[x] for x in PILE_LETTERS)
            if outcome is not None:
                row[SEAT.start("place") + outcome["places"][s] - 1] = 1
                row[SEAT.start("outcome_known")] = 1

        game = parts["game"]
        game[GAME.start("players") + view["players"] - 2] = 1
        game[GAME.start("open_piles")] = view["options"]["open_piles"]
        if me is not None:
            game[GAME.start("viewer") + me] = 1
        game[GAME.start("deck")] = view["deck_count"]
        game[GAME.start("removed")] = view["removed_count"]
        game[GAME["discard"]] = [view["discard"].count(x) for x in COLOUR_LETTERS]
        game[GAME["out"]] = [view["out"].count(x) for x in COLOUR_LETTERS]
        for code in view["ships"]:
            game[GAME.start("ships") + SHIP_CODES.index(code)] = 1
        game[GAME.start("actions_left") + view["actions_left"]] = 1
        game[GAME.start("version")] = view["version"]
        if decision is None:
            game[GAME.start("over")] = 1
        else:
            kind = decision["kind"]
            context = decision["context"]
            game[GAME.start("kind") + KIND_NAMES.index(kind)] = 1
            if kind in ("point", "ship_point"):
                game[GAME.start("colour") + _COLOUR[context["colour"]]] = 1
                game[GAME.start("reason") + REASONS.index(context["reason"])] = 1
            elif kind in ("commit", "war_order"):
                write_conflict(game, GAME, kind, context, slot, _COLOUR)
            elif kind == "ship":
                game[GAME.start("ship_column") + context["column"] - 1] = 1
                for code in context["ships"]:
                    game[GAME.start("ship_options") + SHIP_CODES.index(code)] = 1
            elif kind == "exchange":
                lo, hi = context["kingdom"]
                game[GAME.start("kingdom") + lo - 1 : GAME.start("kingdom") + hi] = 1
                for col in context["treasures"]:
                    game[GAME.start("exchangeable") + col - 1] = 1

        if recall:
            record = parts["record"]
            for s, pile in enumerate(view["scored"]):
                record[slot(s)] = [pile.count(x) for x in PILE_LETTERS]

    def observation_string(self, view: View) -> str:
        return render(view)
