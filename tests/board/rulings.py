"""What the ruling tests of the board game check with: refusals that change nothing,
the legal actions as text, parts of the position, and the invariants of a position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from euphrates.board.geometry import NEIGHBOURS, parse_square
from euphrates.board.kingdoms import kingdoms_of
from euphrates.board.phases import TILE_COUNTS
from euphrates.board.position import to_position
from euphrates.board.state import BoardState
from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.errors import IllegalActionError


def illegal(st: BoardState, action: str, *rulings: str) -> IllegalActionError:
    """`action` is refused with an error naming one of `rulings`; nothing changes."""
    before = to_position(st)
    with pytest.raises(IllegalActionError) as info:
        st.apply(action)
    assert any(r in str(info.value) for r in rulings), str(info.value)
    assert to_position(st) == before
    return info.value


def legal(st: BoardState) -> set[str]:
    return {str(a) for a in st.legal_actions()}


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def board(st: BoardState) -> dict[str, Any]:
    doc: dict[str, Any] = to_position(st)["board"]
    return doc


def tiles_of(st: BoardState, colour: str) -> set[str]:
    return set(board(st)["tiles"][colour])


def leader(st: BoardState, seat: int, name: str) -> str | None:
    square: str | None = to_position(st)["seats"][seat]["leaders"][name]
    return square


def hand(st: BoardState, seat: int) -> dict[str, int]:
    counts: dict[str, int] = to_position(st)["seats"][seat]["hand"]
    return counts


def points(st: BoardState, seat: int) -> dict[str, int]:
    counts: dict[str, int] = to_position(st)["seats"][seat]["points"]
    return counts


def removed(st: BoardState) -> dict[str, int]:
    counts: dict[str, int] = to_position(st)["removed"]
    return counts


def decision(st: BoardState) -> tuple[int, str]:
    d = st.decision()
    assert d is not None
    return d.seat, d.kind


def context(st: BoardState) -> Mapping[str, Any]:
    """The pending decision's context (the game is not over)."""
    d = st.decision()
    assert d is not None, "the game is over: no decision"
    return d.context


def consistent(st: BoardState) -> None:
    """The invariants of the notes for tests: all 153 tiles accounted for, every leader
    next to a temple, no kingdom with two leaders of one colour while no conflict is
    pending, and every point logged as a scoring event since the position was set."""
    pos = to_position(st)
    total: Counter[str] = Counter(pos["bag"])
    total.update({c: len(sq) for c, sq in pos["board"]["tiles"].items()})
    total.update(pos["removed"])
    for m in pos["board"]["monuments"]:
        total[m["colour"]] += 4
    for seat in pos["seats"]:
        total.update(seat["hand"])
        total.update(seat["discarded"])
    assert tuple(total[c] for c in COLOUR_NAMES) == TILE_COUNTS
    occupied = {sq for squares in pos["board"]["tiles"].values() for sq in squares}
    assert not occupied & set(pos["board"]["catastrophes"])
    temples = 0
    for name in pos["board"]["tiles"]["red"]:
        temples |= 1 << parse_square(name)
    for seat in pos["seats"]:
        for sq in seat["leaders"].values():
            if sq is not None:
                assert NEIGHBOURS[parse_square(sq)] & temples, f"leader on {sq} has no temple"
                assert sq not in occupied
    fresh = kingdoms_of(st.occupied, st.leader_bits)
    assert sorted(st.kingdoms()) == sorted(fresh), "kingdoms out of date"
    if pos["pending"]["phase"] in ("action", "over"):
        for k in st.kingdoms():
            for c in range(4):
                assert len(st.leaders_in(k, c)) <= 1
    for s, seat in enumerate(pos["seats"]):
        logged: Counter[str] = Counter()
        for who, colour, n, _ in pos["score_log"]:
            if who == s:
                logged[colour] += n
        assert all(logged[c] <= seat["points"][c] for c in COLOUR_NAMES)


# A kingdom with two red monuments: B-17's monument points, B-31's end in a swap.
MONUMENT_KINGDOM: dict[str, Any] = {
    "tiles": "r: H5 I5",
    "monuments": [("rb", "F4", "red"), ("rk", "J4", "red")],
    "leaders": "0P: H6; 0K: H4; 1F: I6",
}
