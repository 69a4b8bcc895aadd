"""Board states with each kind of decision pending (a revolt, the order of wars, a war,
a monument, a treasure): what the hostile-input and fuzz tests break."""

from __future__ import annotations

from collections.abc import Callable

from euphrates.board.state import BoardState
from tests.board.scenario import play, scenario


def revolt() -> BoardState:
    st = scenario(tiles="r: F5 H5", leaders="0P: F6", hands={0: "rr", 1: "r"}, active=1)
    play(st, "PG5")
    return st


def war_order() -> BoardState:
    st = scenario(
        tiles="r: E5 J5; g: F5 H5 I5",
        leaders="0K: E4; 0T: E6; 1K: J4; 1T: J6",
        hands={0: "rrgggg", 1: "g"},
    )
    play(st, "rG5")
    return st


def war() -> BoardState:
    st = war_order()
    play(st, "war g")
    return st


def monument() -> BoardState:
    st = scenario(
        tiles="r: F10 G10 F11 D10 K11; k: H11 I11 J11",
        treasures="F10 K11",
        leaders="0P: E10; 0K: E11; 1T: D11",
        hands={0: "rr"},
    )
    play(st, "rG11")
    return st


def treasure() -> BoardState:
    st = scenario(
        tiles="r: F10 K11; k: G10 H10 I10 J10",
        treasures="F10 K11",
        leaders="0T: E10",
        active=1,
        hands={1: "k"},
    )
    play(st, "kK10")
    return st


PENDING: dict[str, Callable[[], BoardState]] = {
    "revolt": revolt,
    "war_order": war_order,
    "war": war,
    "monument": monument,
    "treasure": treasure,
}
