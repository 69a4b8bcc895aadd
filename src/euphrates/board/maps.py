"""The two sides of the board (board-map.md, B-2, B-34), parsed from their drawings."""

from __future__ import annotations

from dataclasses import dataclass

from euphrates.board.geometry import FULL, HEIGHT, WIDTH, square_at

_STANDARD = """\
....~~~~~.T.~...
.C..~.......~..C
...~~T......~~..
~~~~.........~~~
.............T~~
..............~.
~~~~....T...~~~.
.C.~~~~.....~...
......~~~~~~~.C.
.....T..........
..........T.....
"""

_ADVANCED = """\
..~~T....T.....~
..~~..........T~
.C~~...........~
..~...T....T~~~~
..~.........~...
..~T........~..C
..~~........~~..
C..~~~.T....T~..
.....~~~.....~..
....C.~~~~~~~~..
......~..C....C.
"""


@dataclass(frozen=True, slots=True)
class BoardMap:
    """One side of the board: river squares, starting temples, bordered treasures, and
    the land (every square not river), kept rather than derived: the legal squares need
    it at every decision."""

    name: str
    river: int
    temples: int
    bordered: int
    land: int


def _parse(name: str, drawing: str) -> BoardMap:
    rows = drawing.splitlines()
    assert len(rows) == HEIGHT and all(len(r) == WIDTH for r in rows)
    river = temples = bordered = 0
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            b = 1 << square_at(x, y)
            if ch == "~":
                river |= b
            elif ch in "TC":
                temples |= b
                if ch == "C":
                    bordered |= b
    return BoardMap(name, river, temples, bordered, FULL ^ river)


STANDARD = _parse("standard", _STANDARD)
ADVANCED = _parse("advanced", _ADVANCED)
DRAWINGS = {"standard": _STANDARD, "advanced": _ADVANCED}


def board_map(advanced: bool) -> BoardMap:
    return ADVANCED if advanced else STANDARD
