"""Scenario tests of revolts, wars and monuments (B-20 … B-29).

Each test builds a position with `scenario`, plays actions through the public API and
checks the exact effects. Squares follow board-map.md (standard side).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.board.rulings import (
    board,
    consistent,
    context,
    decision,
    hand,
    illegal,
    kinds,
    leader,
    legal,
    removed,
    tiles_of,
)
from tests.board.scenario import FAR, play, playing, scenario, scored


# ---------------------------------------------------------------------- B-20, B-21
def test_b20_revolt_strengths_adjacent_temples_one_may_count_for_both() -> None:
    """B-20: each side counts the temples next to its own leader (F5 counts for both);
    other tiles and temples elsewhere in the kingdom do not count."""
    st = scenario(
        tiles="r: D5 F5 G6 H6; k: G4",
        leaders="1P: E5",
        hands={0: "rrr", 1: "rr"},
    )
    play(st, "PG5")
    ctx = context(st)
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (2, 2)
    illegal(st, "commit 4", "B-20")


def test_b20_revolt_commitments_are_temples_whatever_the_leader() -> None:
    """B-20: in a revolt both sides commit red tiles (temples) from hand, whatever the
    colour of the leaders: a revolt of kings is fought with temples."""
    st = scenario(tiles="r: G5", leaders="1K: F5", hands={0: "rrkkkk", 1: "rkkkkk"})
    play(st, "KH5")
    d = st.decision()
    assert d is not None and (d.seat, d.kind) == (0, "commit")
    assert legal(st) == {"commit 0", "commit 1", "commit 2"}
    play(st, "commit 2")
    assert legal(st) == {"commit 0", "commit 1"}
    ev = play(st, "commit 1")
    assert scored(ev) == [(0, "red", 1, "revolt")]
    assert hand(st, 0) == {"red": 0, "blue": 0, "green": 0, "black": 4}
    assert hand(st, 1) == {"red": 0, "blue": 0, "green": 0, "black": 5}
    assert removed(st) == {"red": 3, "blue": 0, "green": 0, "black": 0}
    consistent(st)


def test_b21_revolt_attacker_wins_with_more() -> None:
    """B-21: the loser's leader returns; the winner scores 1 red; all committed tiles
    leave the game; no tile on the board is removed."""
    st = scenario(
        tiles="r: D5 F5 G6 H6; k: G4",
        leaders="1P: E5",
        hands={0: "rrr", 1: "rr"},
    )
    before = board(st)["tiles"]
    ev = play(st, "PG5", "commit 1", "commit 0")
    assert scored(ev) == [(0, "red", 1, "revolt")]
    resolved = next(e for e in ev if e.kind == "conflict_resolved")
    assert resolved.data["attacker_total"] == 3 and resolved.data["defender_total"] == 2
    assert leader(st, 1, "priest") is None and leader(st, 0, "priest") == "G5"
    assert board(st)["tiles"] == before
    assert removed(st)["red"] == 1
    assert hand(st, 0)["red"] == 2
    consistent(st)


def test_b21_revolt_tie_goes_to_the_defender() -> None:
    """B-20/B-21: a tie goes to the defender; both sides' committed tiles leave."""
    st = scenario(
        tiles="r: D5 F5 G6 H6; k: G4",
        leaders="1P: E5",
        hands={0: "rrr", 1: "rr"},
    )
    ev = play(st, "PG5", "commit 1", "commit 1")
    assert scored(ev) == [(1, "red", 1, "revolt")]
    assert leader(st, 0, "priest") is None and leader(st, 1, "priest") == "E5"
    assert removed(st)["red"] == 2
    assert hand(st, 0)["red"] == 2 and hand(st, 1)["red"] == 1
    consistent(st)


# ---------------------------------------------------------------------- B-22 … B-27
FOUR_WARS: dict[str, Any] = {
    "tiles": "r: E5 F5 H5 I5",
    "leaders": "0P: E4; 0F: F4; 0T: E6; 0K: F6; 1P: H4; 1F: I4; 1T: H6; 1K: I6",
    "hands": {0: "k"},
}


def test_b22_war_order_is_chosen_and_offered_again_after_each_war() -> None:
    """B-22/G-1: the active player picks the next war before each one; when a single
    war is left it is fought without asking."""
    st = scenario(**FOUR_WARS)
    play(st, "kG5")
    assert decision(st) == (0, "war_order")
    assert context(st) == {"wars": ["red", "blue", "green", "black"], "unification": "G5"}
    ev = play(st, "war k", "commit 0", "commit 0")
    assert scored(ev) == [(1, "black", 1, "war")]
    assert decision(st) == (0, "war_order")
    assert legal(st) == {"war r", "war b", "war g"}
    illegal(st, "war k", "B-22")
    play(st, "war b", "commit 0", "commit 0")
    assert legal(st) == {"war r", "war g"}
    play(st, "war g", "commit 0", "commit 0")
    # Only the priests' war is left: it starts at once.
    assert decision(st) == (0, "commit")
    assert context(st)["colour"] == "red"
    ev = play(st, "commit 0", "commit 0")
    assert scored(ev) == [(1, "red", 3, "war")]  # E5 and F5 removed
    assert "unification_removed" in kinds(ev)
    assert board(st)["unification"] is None
    assert "G5" in tiles_of(st, "black")
    assert decision(st) == (0, "action")
    consistent(st)


def test_b22_single_war_is_not_asked_for() -> None:
    """B-22/G-1: with one war the order is not put; the war begins."""
    st = scenario(tiles="r: E5 G5", leaders="0K: E4; 1K: G4", hands={0: "r"})
    ev = play(st, "rF5")
    assert kinds(ev) == ["tile_placed", "unification", "wars", "war"]
    assert decision(st) == (0, "commit")


@pytest.mark.parametrize(
    ("players", "active", "seats", "attacker"),
    [
        (2, 1, (0, 1), 1),  # the active player attacks when involved
        (3, 1, (1, 2), 1),
        (3, 0, (1, 2), 1),  # else the first involved clockwise after the active player
        (3, 2, (1, 0), 0),
        (4, 1, (0, 3), 3),
        (4, 2, (1, 3), 3),
        (4, 3, (2, 1), 1),
    ],
)
def test_b23_attacker_is_the_active_player_else_first_clockwise(
    players: int, active: int, seats: tuple[int, int], attacker: int
) -> None:
    """B-23: if the active player owns one of the two leaders, they attack; otherwise
    the owner who comes first clockwise after the active player attacks."""
    a, b = seats
    st = scenario(
        players=players,
        active=active,
        tiles="r: E5 G5",
        leaders=f"{a}K: E4; {b}K: G4",
        hands={active: "r"},
    )
    play(st, "rF5")
    ctx = context(st)
    assert ctx["attacker"] == attacker
    assert ctx["defender"] == (b if attacker == a else a)
    assert decision(st) == (attacker, "commit")


def test_b24_sides_exclude_the_joining_tile_and_leaderless_regions_it_touched() -> None:
    """B-24: each side is the leader's region without the joining tile; markets that
    reach the kingdom only through the joining tile count for no one and stay."""
    layout: dict[str, Any] = {
        "tiles": "r: E5 I5; g: F5 E6 H5 I6 J5 G6 G7",
        "leaders": "0T: E4; 1T: I4",
    }
    st = scenario(**layout, hands={0: "kgg"})
    play(st, "kG5")
    ctx = context(st)
    assert ctx["colour"] == "green"
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (2, 3)
    ev = play(st, "commit 2", "commit 0")
    assert scored(ev) == [(0, "green", 4, "war")]
    assert tiles_of(st, "green") == {"F5", "E6", "G6", "G7"}
    st = scenario(**layout, hands={0: "kgg"})
    ev = play(st, "kG5", "commit 0", "commit 0")
    assert scored(ev) == [(1, "green", 3, "war")]
    assert tiles_of(st, "green") == {"H5", "I6", "J5", "G6", "G7"}
    consistent(st)


def test_b24_part_cut_off_by_an_earlier_war_is_on_no_side() -> None:
    """B-24: after the traders' war removed F6, the settlement G6 reaches the kingdom
    only through the joining tile: in the kings' war it counts for no one and stays."""
    st = scenario(
        tiles="r: E5 F5 H5; g: F6 I6 J5; k: G6 I4",
        leaders="0K: E4; 0T: E6; 1K: H4; 1T: I5",
        hands={0: "rk"},
    )
    play(st, "rG5")
    assert decision(st) == (0, "war_order")
    ctx_probe = st.copy()
    play(ctx_probe, "war k")
    assert context(ctx_probe)["attacker_strength"] == 1  # G6 before the split
    ev = play(st, "war g", "commit 0", "commit 0")
    assert scored(ev) == [(1, "green", 2, "war")]
    assert "F6" not in tiles_of(st, "green")
    ctx = context(st)
    assert ctx["colour"] == "black"
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (0, 1)
    ev = play(st, "commit 0", "commit 0")
    assert scored(ev) == [(1, "black", 1, "war")]
    assert tiles_of(st, "black") == {"G6", "I4"}
    consistent(st)


def test_b25_tiles_removed_are_judged_with_the_losing_leader_on_the_board() -> None:
    """B-25: every face-up tile of the war colour on the loser's side goes, including
    one joined to the side only through the losing leader; the winner scores 1 for the
    leader plus 1 per removed tile; committed tiles score nothing and leave the game."""
    st = scenario(
        tiles="r: E5 I5; g: F5 H5 J4; k: H6",
        leaders="0T: E4; 1T: I4",
        hands={0: "kggg", 1: "g"},
    )
    play(st, "kG5")
    ctx = context(st)
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (1, 2)
    ev = play(st, "commit 3", "commit 1")
    assert scored(ev) == [(0, "green", 3, "war")]  # the trader, H5 and J4
    assert tiles_of(st, "green") == {"F5"}
    assert "H6" in tiles_of(st, "black")
    assert removed(st)["green"] == 3 + 1 + 2
    assert leader(st, 1, "trader") is None
    consistent(st)


def test_b25_the_attacker_can_lose() -> None:
    """B-25: when the attacker loses, its leader and its side's tiles go."""
    st = scenario(
        tiles="r: E5 I5; g: F5 H5 J4",
        leaders="0T: E4; 1T: I4",
        hands={0: "kggg", 1: "g"},
    )
    ev = play(st, "kG5", "commit 0", "commit 0")
    assert scored(ev) == [(1, "green", 2, "war")]  # the trader and F5
    assert tiles_of(st, "green") == {"H5", "J4"}
    assert leader(st, 0, "trader") is None


def test_b26_priests_war_keeps_temples_with_treasure_or_next_to_other_leaders() -> None:
    """B-26: in a war of priests, temples holding a treasure or next to any leader other
    than the losing priest stay; only removed temples score."""
    st = scenario(
        tiles="r: D6 E6 F6 E7 F7 H6 I5 I7 J6 J7",
        treasures="I7",
        leaders="0P: E5; 1P: I6; 1K: K6; 0T: I4",
        hands={0: "kr"},
    )
    play(st, "kG6")
    ctx = context(st)
    assert ctx["colour"] == "red"
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (5, 5)
    ev = play(st, "commit 1", "commit 0")
    assert scored(ev) == [(0, "red", 3, "war")]  # the priest, H6 and J7
    assert tiles_of(st, "red") == {"D6", "E6", "F6", "E7", "F7", "I5", "I7", "J6"}
    assert leader(st, 1, "king") == "K6"  # B-10 never triggers in a war
    assert board(st)["treasures"] == ["I7"]
    consistent(st)


def test_b27_war_lapses_when_the_leaders_are_no_longer_joined() -> None:
    """B-27: a war lapses once its leaders are not in one region with the joining tile;
    the unification tile goes and the joining tile stays and counts normally."""
    st = scenario(
        tiles="r: E5 J5; g: F5 H5 I5",
        leaders="0K: E4; 0T: E6; 1K: J4; 1T: J6",
        hands={0: "rrgggg", 1: "g"},
    )
    play(st, "rG5", "war g", "commit 4", "commit 1")
    assert decision(st) == (0, "action")
    assert board(st)["unification"] is None
    assert "G5" in tiles_of(st, "red")
    assert leader(st, 0, "king") == "E4" and leader(st, 1, "king") == "J4"
    # G5 is now an ordinary tile of seat 0's kingdom: a temple next to it scores for
    # the king (no priest there).
    assert scored(play(st, "rH5")) == [(0, "red", 1, "tile")]


def test_b27_war_goes_on_while_the_leaders_stay_joined() -> None:
    """B-27: a war still exists while both leaders are in one region containing the
    joining tile: losing F5 leaves seat 0's kingdom joined through G4."""
    st = scenario(
        tiles="r: E5 H5 I5; g: F5 J5; k: F4 G4",
        leaders="0K: E4; 0T: E6; 1K: H6; 1T: I4",
        hands={0: "r"},
    )
    play(st, "rG5")
    assert legal(st) == {"war g", "war k"}
    ev = play(st, "war g", "commit 0", "commit 0")
    assert scored(ev) == [(1, "green", 2, "war")]
    assert tiles_of(st, "green") == {"J5"}
    assert decision(st) == (0, "commit")
    ctx = context(st)
    assert ctx["colour"] == "black"
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (2, 0)
    assert board(st)["unification"] == "G5"


# ---------------------------------------------------------------------- B-28, B-29
def test_b28_monument_choice_of_block_and_monument() -> None:
    """B-28: the active player chooses the block (if several) and a monument showing
    that colour; the four tiles flip."""
    st = scenario(tiles="r: E10 F10 G10 E11 G11", hands={0: "r"})
    play(st, "rF11")
    assert decision(st) == (0, "monument")
    want = {f"monument {m} {sq}" for m in ("rb", "rg", "rk") for sq in ("E10", "F10")}
    assert legal(st) == want | {"decline"}
    assert set(context(st)["options"]) == want | {"decline"}
    illegal(st, "monument bg F10", "B-28")
    illegal(st, "monument rk G10", "B-28")
    ev = play(st, "monument rk F10")
    assert ev[0].data == {"seat": 0, "monument": "red-black", "code": "rk", "square": "F10"}
    assert tiles_of(st, "red") == {"E10", "E11"}
    assert board(st)["monuments"] == [{"monument": "rk", "square": "F10", "colour": "red"}]
    consistent(st)


def test_b28_declining_and_only_in_the_completing_action() -> None:
    """B-28: declining is allowed; a block can become a monument only in the tile action
    that completed it."""
    st = playing(tiles="r: E10 F10 E11", hands={0: "rr"})
    play(st, "rF11")
    ev = play(st, "decline")
    assert kinds(ev)[0] == "monument_declined"
    assert tiles_of(st, "red") - set(FAR.split()) == {"E10", "F10", "E11", "F11"}
    assert decision(st) == (0, "action")
    ev = play(st, "rD10")  # touches the block, completes none
    assert decision(st) == (1, "action")
    assert board(st)["monuments"] == []


def test_b28_no_monument_of_that_colour_left() -> None:
    """B-28: with no monument of the colour left, none is built and nothing is asked."""
    st = scenario(
        tiles="r: F10 G10 F11",
        monuments=[("rb", "A10", "red"), ("rg", "C10", "green"), ("rk", "N10", "black")],
        hands={0: "rr"},
    )
    play(st, "rG11")
    assert decision(st) == (0, "action")
    assert context(st) == {"action": 2, "actions_left": 1}


def test_b28_monument_after_the_wars() -> None:
    """B-28: the wars come first; if the block still stands the monument may be built,
    if the war took part of it, it cannot."""
    layout: dict[str, Any] = {
        "tiles": "r: E5 I6; k: F5 G5 F6",
        "leaders": "0K: E6; 1K: H6",
    }
    st = scenario(**layout, hands={0: "kk", 1: "kkkk"})
    play(st, "kG6")
    assert decision(st) == (0, "commit")
    play(st, "commit 0", "commit 0")  # 3:0 for the attacker
    assert decision(st) == (0, "monument")
    assert legal(st) == {"monument rk F5", "monument bk F5", "monument gk F5", "decline"}
    play(st, "monument gk F5")
    assert leader(st, 0, "king") == "E6"
    st = scenario(**layout, hands={0: "kk", 1: "kkkk"})
    play(st, "kG6", "commit 0", "commit 4")  # 3:4 for the defender
    assert tiles_of(st, "black") == {"G6"}
    assert decision(st) == (0, "action")


def test_b29_war_never_removes_monument_tiles() -> None:
    """B-29/B-5: flipped tiles count for no side and no war removes them."""
    st = scenario(
        tiles="r: E5 J6; k: F5 K5",
        monuments=[("gk", "H4", "black")],
        leaders="0K: E4; 1K: J5",
        hands={0: "rk"},
    )
    play(st, "rG5")
    ctx = context(st)
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (1, 1)
    ev = play(st, "commit 1", "commit 0")
    assert scored(ev) == [(0, "black", 2, "war")]  # the king and K5
    assert board(st)["monuments"] == [{"monument": "gk", "square": "H4", "colour": "black"}]
    assert tiles_of(st, "black") == {"F5"}
    consistent(st)
