"""Scenario tests of a turn's actions and its end (B-6 … B-19).

Each test builds a position with `scenario`, plays actions through the public API and
checks the exact effects. Squares follow board-map.md (standard side).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from euphrates.board.position import to_position
from euphrates.core.errors import GameOverError
from tests.board.rulings import (
    MONUMENT_KINGDOM,
    board,
    consistent,
    context,
    decision,
    hand,
    illegal,
    kinds,
    leader,
    legal,
    points,
    removed,
    tiles_of,
)
from tests.board.scenario import play, playing, scenario, scored


def test_b6_two_actions_the_same_twice_then_the_turn_ends() -> None:
    """B-6: up to two actions, the same one twice allowed; then the turn ends and the
    hand is refilled to 6."""
    st = playing(hands={0: "rrrrrr", 1: "kkkkkk"}, bag="gggg")
    play(st, "rE5")
    assert decision(st) == (0, "action")
    assert context(st) == {"action": 2, "actions_left": 1}
    ev = play(st, "rG5")
    assert ev[-1].kind == "turn_started"
    assert decision(st) == (1, "action")
    assert context(st) == {"action": 1, "actions_left": 2}
    assert hand(st, 0) == {"red": 4, "blue": 0, "green": 2, "black": 0}
    assert sum(hand(st, 1).values()) == 6


def test_b7_tile_steps_point_then_monument_then_leaders_then_treasures() -> None:
    """B-7: a tile action runs (1) place, (2) the point, (3) the monument, decided by the
    active player, then leaders without a temple return, (4) treasures, decided by the
    trader's owner (here not the active player)."""
    st = scenario(
        tiles="r: F10 G10 F11 D10 K11; k: H11 I11 J11",
        treasures="F10 K11",
        leaders="0P: E10; 0K: E11; 1T: D11",
        hands={0: "rr"},
    )
    ev = play(st, "rG11")
    assert kinds(ev) == ["tile_placed", "scored"]
    assert scored(ev) == [(0, "red", 1, "tile")]
    assert decision(st) == (0, "monument")
    assert legal(st) == {"monument rb F10", "monument rg F10", "monument rk F10", "decline"}
    ev = play(st, "monument rk F10")
    assert kinds(ev) == ["monument_built", "leader_returned"]
    assert ev[1].data["seat"] == 0 and ev[1].data["leader"] == "king"
    assert ev[1].data["square"] == "E11"
    assert decision(st) == (1, "treasure")
    assert legal(st) == {"treasure F10", "treasure K11"}
    ev = play(st, "treasure K11")
    assert kinds(ev) == ["treasure_taken"]
    assert board(st)["treasures"] == ["F10"]  # the treasure stays on the flipped tile
    assert decision(st) == (0, "action")
    assert context(st) == {"action": 2, "actions_left": 1}
    consistent(st)


def test_b7_leader_steps_revolt_then_treasures() -> None:
    """B-7: a leader action runs place, revolt, then treasures: the revolt's winner is
    the trader that takes the treasure."""
    base: dict[str, Any] = {
        "tiles": "r: F10 F11 G11 K11; k: I11 J11",
        "treasures": "F10 K11",
        "leaders": "1T: G10",
        "hands": {0: "rr", 1: "rr"},
    }
    st = scenario(**base)
    ev = play(st, "TH11")
    assert kinds(ev)[:2] == ["leader_placed", "revolt"]
    assert ev[1].data["attacker_strength"] == 1 and ev[1].data["defender_strength"] == 2
    play(st, "commit 2")
    ev = play(st, "commit 0")
    assert kinds(ev) == ["committed", "conflict_resolved", "leader_returned", "scored"]
    assert decision(st) == (0, "treasure")
    assert legal(st) == {"treasure F10", "treasure K11"}
    # The defender wins instead: the trader on H11 leaves, the region of K11 is
    # leaderless again and there is nothing to take.
    st = scenario(**base)
    ev = play(st, "TH11", "commit 1", "commit 0")
    assert leader(st, 0, "trader") is None
    assert "treasure_taken" not in kinds(ev)
    assert decision(st) == (0, "action")


def test_b7_catastrophe_and_swap_steps() -> None:
    """B-7: a catastrophe covers the square, then leaders left without a temple return;
    a swap discards, then draws."""
    st = scenario(tiles="r: E5", leaders="1K: E4", hands={0: "rrbbgk", 1: "kkkkkk"}, bag="kk")
    ev = play(st, "xE5")
    assert kinds(ev) == ["catastrophe", "leader_returned"]
    ev = play(st, "swap rr")
    assert kinds(ev)[:4] == ["swapped", "discarded", "drew", "drew_tiles"]


# ---------------------------------------------------------------------- B-8, B-9
def test_b8_move_is_lift_then_place_and_may_not_join_the_split_halves() -> None:
    """B-8: a move lifts the leader first; here the lifted king held the kingdom
    together, so G4 would join the two halves (B-9) and is illegal for the king, while
    another leader may go there."""
    st = scenario(
        tiles="r: F4 F5 H5; k: H4",
        leaders="0K: G5; 1P: E5; 1F: I5",
        hands={0: "r"},
    )
    assert "KG4" not in legal(st)
    assert "TG4" in legal(st)
    illegal(st, "KG4", "B-8", "B-9")
    ev = play(st, "KE4")
    assert ev[0].kind == "leader_moved"
    assert ev[0].data == {"seat": 0, "leader": "king", "square": "E4", "from": "G5"}
    assert leader(st, 0, "king") == "E4"


def test_b8_move_must_end_on_a_different_square() -> None:
    """B-8: a move must end on a different square."""
    st = scenario(tiles="r: F5", leaders="0K: G5")
    assert "KG5" not in legal(st)
    illegal(st, "KG5", "B-8")


def test_b8_leader_squares() -> None:
    """B-8: a leader goes on an empty land square next to a temple; not the river, not a
    catastrophe, not a tile."""
    st = scenario(tiles="r: D5 E5", catastrophes="E6")
    assert "PD4" not in legal(st)
    illegal(st, "PD4", "B-8")  # river
    illegal(st, "PE6", "B-8")  # catastrophe
    illegal(st, "PE5", "B-8")  # a tile
    illegal(st, "PK8", "B-8")  # no temple
    assert {"PC5", "PE4", "PD6", "PF5"} <= legal(st)


def test_b8_withdraw_is_an_action() -> None:
    """B-8: withdrawing a leader to its owner is an action; one not on the board cannot
    be withdrawn."""
    st = scenario(tiles="r: F5", leaders="0K: G5")
    assert "K-" in legal(st) and "P-" not in legal(st)
    illegal(st, "P-", "B-8")
    ev = play(st, "K-")
    assert ev[0].kind == "leader_withdrawn"
    assert leader(st, 0, "king") is None
    assert context(st) == {"action": 2, "actions_left": 1}


def test_b9_leader_touches_at_most_one_kingdom() -> None:
    """B-9: a leader may touch any number of leaderless regions but at most one
    kingdom."""
    st = scenario(tiles="r: E5 G5 I5; k: H6", leaders="0K: E4; 1K: G4", hands={0: "r"})
    assert "PF5" not in legal(st)
    illegal(st, "PF5", "B-9")
    assert "PH5" in legal(st)  # kingdom of G5 + leaderless I5 and H6
    ev = play(st, "PH5", "rJ5")
    assert scored(ev) == [(0, "red", 1, "tile")]  # I5 became part of the kingdom


# ---------------------------------------------------------------------- B-10, B-11
def test_b10_leader_returns_when_a_catastrophe_takes_its_last_temple() -> None:
    """B-10: a leader whose last adjacent temple disappears returns at once; no one
    scores. A leader with another temple stays."""
    st = scenario(tiles="r: E5 D6", leaders="1K: E4; 0P: E6")
    ev = play(st, "xE5")
    assert kinds(ev) == ["catastrophe", "leader_returned"]
    assert ev[1].data == {"seat": 1, "leader": "king", "square": "E4", "reason": "no temple"}
    assert scored(ev) == []
    assert leader(st, 1, "king") is None
    assert leader(st, 0, "priest") == "E6"
    assert removed(st)["red"] == 1
    consistent(st)


def test_b10_leader_returns_when_a_monument_flips_its_last_temple() -> None:
    """B-10: flipping the temples of a monument returns leaders left without one."""
    st = scenario(tiles="r: F5 G5 F6 E4", leaders="1K: E5; 1F: H5; 0P: F4", hands={0: "r"})
    play(st, "rG6", "monument rk F5")
    assert leader(st, 1, "farmer") is None  # H5 touched only G5
    assert leader(st, 1, "king") == "E5"  # E4 still a temple
    assert leader(st, 0, "priest") == "F4"  # E4 still a temple
    consistent(st)


def test_b11_placing_a_leader_into_a_kingdom_with_its_colour_starts_a_revolt() -> None:
    """B-11: a leader placed into a kingdom with a leader of its colour starts a revolt;
    of another colour, nothing happens."""
    st = scenario(tiles="r: G5", leaders="1P: F5")
    ev = play(st, "KH5")
    assert "revolt" not in kinds(ev)
    ev = play(st, "PG4")
    assert ev[-1].kind == "revolt"
    assert ev[-1].data["attacker"] == 0 and ev[-1].data["defender"] == 1


def test_b11_moving_a_leader_into_a_kingdom_with_its_colour_starts_a_revolt() -> None:
    """B-11: a move into such a kingdom starts a revolt too; the mover attacks and counts
    the temples at its new square."""
    st = scenario(tiles="r: E5 G5 H6", leaders="0P: E4; 1P: G4", hands={0: "r"})
    ev = play(st, "PH5")
    assert kinds(ev) == ["leader_moved", "revolt"]
    ctx = context(st)
    assert (ctx["attacker"], ctx["defender"]) == (0, 1)
    assert (ctx["attacker_strength"], ctx["defender_strength"]) == (2, 1)


# ---------------------------------------------------------------------- B-12, B-13
def test_b12_tile_squares() -> None:
    """B-12: blue only on empty river squares, other colours only on empty land."""
    st = scenario(tiles="r: E5", catastrophes="K8 D3", hands={0: "rbgk"})
    illegal(st, "bF5", "B-12")
    illegal(st, "rD4", "B-12")
    illegal(st, "kE5", "B-12")
    illegal(st, "gK8", "B-12")
    illegal(st, "bD3", "B-12")
    assert {"bD4", "bE3", "rF5", "gF5", "kF5"} <= legal(st)
    assert not {"bF5", "rD4", "kE5", "gK8", "bD3"} & legal(st)


def test_b12_tile_may_join_at_most_two_kingdoms() -> None:
    """B-12: a tile may touch any number of leaderless regions but at most two
    kingdoms."""
    st = scenario(
        tiles="r: E5 I5 G3 K4 K6; k: L5",
        leaders="0K: F5; 1K: H5; 1P: G4",
        hands={0: "kk"},
    )
    assert "kG5" not in legal(st)
    illegal(st, "kG5", "B-12")
    # J5 joins the farmer-less kingdom of H5; K5 then touches that kingdom and three
    # leaderless regions (K4, K6, L5).
    ev = play(st, "kJ5")
    assert scored(ev) == [(1, "black", 1, "tile")]
    ev = play(st, "kK5")
    assert scored(ev) == [(1, "black", 1, "tile")]


def test_b13_tile_scores_for_leader_of_its_colour_else_king() -> None:
    """B-13: the owner of the kingdom's leader of the tile's colour scores; with no such
    leader but a king, the king's owner scores that colour; otherwise no one."""
    st = scenario(tiles="r: F5", leaders="1P: F4; 0K: F6", hands={0: "rgbk", 1: "g"})
    assert scored(play(st, "rG5")) == [(1, "red", 1, "tile")]
    assert scored(play(st, "gE5")) == [(0, "green", 1, "tile")]
    st = scenario(tiles="r: F5", leaders="1P: F4", hands={0: "gk"})
    assert scored(play(st, "gE5")) == []
    assert scored(play(st, "kG5")) == []
    assert points(st, 0) == points(st, 1) == {"red": 0, "blue": 0, "green": 0, "black": 0}


def test_b13_tile_touching_no_kingdom_scores_nothing() -> None:
    """B-13: a tile touching no kingdom scores nothing."""
    st = scenario(tiles="r: F5 H8", leaders="1P: F4", hands={0: "rr"})
    assert scored(play(st, "rH7")) == []
    assert scored(play(st, "rK8")) == []


def test_b13_tile_joining_leaderless_regions_scores_in_the_enlarged_kingdom() -> None:
    """B-13: a tile touching one kingdom and leaderless regions scores once, and those
    regions are now part of the kingdom."""
    st = scenario(tiles="r: F5 H5 G6", leaders="1P: F4", hands={0: "rr"})
    assert scored(play(st, "rG5")) == [(1, "red", 1, "tile")]
    assert scored(play(st, "rI5")) == [(1, "red", 1, "tile")]


def test_b13_tile_joining_two_kingdoms_scores_for_no_one_without_war() -> None:
    """B-13/B-22: a tile that joins two kingdoms scores for no one; with no war the
    unification tile is taken away at once and the action ends."""
    st = scenario(tiles="r: F5 H5", leaders="1P: F4; 0K: H6", hands={0: "rr"})
    ev = play(st, "rG5")
    assert scored(ev) == []
    assert kinds(ev) == ["tile_placed", "unification", "unification_removed"]
    assert board(st)["unification"] is None
    assert decision(st) == (0, "action")
    # The joined kingdom is one now: the next temple scores for the priest.
    assert scored(play(st, "rI5")) == [(1, "red", 1, "tile")]


def test_b14_points_are_taken_openly() -> None:
    """B-14: every point is a public scoring event in the score log."""
    st = scenario(tiles="r: F5", leaders="1P: F4", hands={0: "r"})
    ev = play(st, "rG5")
    e = next(e for e in ev if e.kind == "scored")
    assert e.audience is None
    assert to_position(st)["score_log"] == [[1, "red", 1, "tile"]]
    assert st.view(0)["score_log"] == [[1, "red", 1, "tile"]]


# ---------------------------------------------------------------------- B-15, B-16
def test_b15_catastrophe_targets() -> None:
    """B-15: a catastrophe goes on an empty square (land or river) or a tile; never on a
    leader, another catastrophe, a tile holding a treasure or a monument. A temple whose
    treasure was taken is a legal target."""
    st = playing(
        tiles="r: F3 G4 F10",
        treasures="F3",
        leaders="0K: F4",
        catastrophes="C10",
        monuments=[("rk", "L10", "red")],
        hands={0: "r"},
    )
    targets = {a for a in legal(st) if a.startswith("x")}
    assert not {"xF4", "xF3", "xC10", "xL10", "xM11"} & targets
    assert {"xF10", "xD4", "xK8", "xG4"} <= targets
    illegal(st, "xF4", "B-15")
    illegal(st, "xF3", "B-15")
    illegal(st, "xC10", "B-15")
    illegal(st, "xL10", "B-15", "B-29")
    illegal(st, "xM11", "B-15", "B-29")
    ev = play(st, "xF10")
    assert ev[0].data == {"seat": 0, "square": "F10", "destroyed": "temple"}
    assert "F10" not in tiles_of(st, "red")
    assert removed(st)["red"] == 1
    play(st, "pass")
    play(st, "pass")
    illegal(st, "rF10", "B-12")  # it stays for the rest of the game
    consistent(st)


def test_b15_catastrophe_on_an_empty_river_square_and_none_left() -> None:
    """B-15: an empty river square is a legal target; with no catastrophe left none is
    legal."""
    st = scenario(catastrophes="P11", catastrophes_left={0: 1, 1: 2})
    play(st, "xD4")
    assert board(st)["catastrophes"] == ["D4", "P11"]
    assert not any(a.startswith("x") for a in legal(st))
    illegal(st, "xK8", "B-15")


def test_b16_swap_with_an_empty_bag_is_legal_and_ends_the_game() -> None:
    """B-16/B-31: a swap is legal even when the bag is empty; then the game ends."""
    st = scenario(hands={0: "rrbbgk", 1: "rrrrrr"}, bag="")
    assert "swap r" in legal(st)
    ev = play(st, "swap r")
    assert st.is_over()
    assert ev[-1].kind == "game_over"
    assert hand(st, 0) == {"red": 1, "blue": 2, "green": 1, "black": 1}
    assert st.outcome() is not None
    assert st.legal_actions() == []
    with pytest.raises(GameOverError):
        st.apply("pass")


def test_b16_swap_with_a_short_bag_draws_what_is_left_and_ends_the_game() -> None:
    """B-16/B-31: the player draws what is there and the game ends."""
    st = scenario(hands={0: "rrbbgk"}, bag="kk")
    ev = play(st, "swap rrb")
    assert [e.data["count"] for e in ev if e.kind == "drew"] == [2]
    assert hand(st, 0) == {"red": 0, "blue": 1, "green": 1, "black": 3}
    assert st.is_over()


def test_b16_swap_emptying_the_bag_exactly_does_not_end_the_game() -> None:
    """B-16: a swap the bag covers exactly does not end the game."""
    st = scenario(hands={0: "rrbbgk"}, bag="kkk")
    play(st, "swap rrb")
    assert not st.is_over()
    assert hand(st, 0) == {"red": 0, "blue": 1, "green": 1, "black": 4}
    assert to_position(st)["bag"] == []
    assert decision(st) == (0, "action")


def test_b16_swap_only_tiles_in_hand() -> None:
    """B-16: 1 to n tiles of the hand are discarded out of the game."""
    st = scenario(hands={0: "rrbbgk"}, bag="kkkk")
    illegal(st, "swap ggg", "B-16")
    play(st, "swap rrbbgk")
    assert to_position(st)["seats"][0]["discarded"] == {
        "red": 2,
        "blue": 2,
        "green": 1,
        "black": 1,
    }
    assert st.is_over()  # 6 discarded, 4 in the bag


# ---------------------------------------------------------------------- B-17 … B-19


def test_b17_monument_points_king_only_black_two_monuments_twice() -> None:
    """B-17: at the end of the active player's turn, each of their leaders in a kingdom
    with a monument of its colour scores 1 per monument; the king scores only black;
    other players' leaders score nothing. Also after a pass with no action (G-2)."""
    st = playing(**MONUMENT_KINGDOM, hands={0: "rrrrrr", 1: "rrrrrr"})
    ev = play(st, "pass")
    got = Counter((s, c) for s, c, n, why in scored(ev) if why == "monument")
    assert got == Counter({(0, "red"): 2, (0, "black"): 1})
    assert all(n == 1 for _, _, n, _ in scored(ev))
    # On seat 1's turn only seat 1's farmer scores (blue, from the red-blue monument).
    ev = play(st, "pass")
    assert scored(ev) == [(1, "blue", 1, "monument")]


def test_b17_monument_points_need_the_same_kingdom() -> None:
    """B-17: a leader not connected to the monument scores nothing for it."""
    st = playing(
        tiles="r: H5 K8",
        monuments=[("rk", "F4", "red")],
        leaders="0P: K7; 0K: H4",
        hands={0: "rrrrrr"},
    )
    ev = play(st, "pass")
    assert scored(ev) == [(0, "black", 1, "monument")]


def test_b18_refills_active_first_then_others_in_seat_order() -> None:
    """B-18: the active player refills to 6, then every other player short of 6, in seat
    order from the active player."""
    st = playing(
        players=3,
        active=1,
        actions_done=1,
        hands={0: "rr", 1: "rrrrrr", 2: "rrr"},
        bag="kgggbbbbrr",
    )
    ev = play(st, "rK8")
    drew = [(e.data["seat"], e.data["count"]) for e in ev if e.kind == "drew"]
    assert drew == [(1, 1), (2, 3), (0, 4)]
    assert hand(st, 1) == {"red": 5, "blue": 0, "green": 0, "black": 1}
    assert hand(st, 2) == {"red": 3, "blue": 0, "green": 3, "black": 0}
    assert hand(st, 0) == {"red": 2, "blue": 4, "green": 0, "black": 0}
    assert decision(st) == (2, "action")


def test_b18_conflict_commitments_are_refilled_at_the_end_of_the_turn() -> None:
    """B-18: the defender who committed tiles is refilled after the active player."""
    st = playing(tiles="r: G5", leaders="1P: F5", hands={0: "rrrkkk", 1: "rrrbbb"})
    ev = play(st, "PH5", "commit 1", "commit 2", "pass")
    drew = [(e.data["seat"], e.data["count"]) for e in ev if e.kind == "drew"]
    assert drew == [(0, 1), (1, 2)]
    assert sum(hand(st, 0).values()) == sum(hand(st, 1).values()) == 6


def test_b18_refill_emptying_the_bag_exactly_does_not_end_the_game() -> None:
    """B-18: a refill that empties the bag exactly does not end the game; the next one
    that cannot be completed does."""
    st = playing(
        players=3,
        active=1,
        actions_done=1,
        hands={0: "rr", 1: "rrrrrr", 2: "rrr"},
        bag="kgggbbbb",
    )
    play(st, "rK8")
    assert not st.is_over()
    assert to_position(st)["bag"] == []
    ev = play(st, "rK7", "pass")
    assert st.is_over()
    assert kinds(ev)[-2:] == ["bag_empty", "game_over"]


def test_b31_refill_short_mid_refill_ends_the_game_at_once() -> None:
    """B-18/B-31: the player who cannot be refilled draws what is left and the game ends
    there: no further refills, no treasure check. Monument points came first."""
    st = scenario(
        players=3,
        active=1,
        actions_done=1,
        tiles="r: F10 K11 H5",
        treasures="F10 K11",
        monuments=[("rk", "F4", "red")],
        leaders="1K: H4; 1P: H6",
        hands={0: "rr", 1: "rrrrrr", 2: "rrr"},
        bag="kgg",
    )
    ev = play(st, "rK8")
    order = [e.kind for e in ev if e.kind in ("scored", "drew", "bag_empty", "game_over")]
    assert order == ["scored", "scored", "drew", "drew", "bag_empty", "game_over"]
    assert sorted(scored(ev)) == [(1, "black", 1, "monument"), (1, "red", 1, "monument")]
    drew = [(e.data["seat"], e.data["count"]) for e in ev if e.kind == "drew"]
    assert drew == [(1, 1), (2, 2)]
    assert "treasures_low" not in kinds(ev)
    assert hand(st, 0) == {"red": 2, "blue": 0, "green": 0, "black": 0}
    assert st.is_over() and st.outcome() is not None


def test_b19_game_ends_after_refills_when_two_treasures_remain() -> None:
    """B-19/B-31: taking a treasure that leaves two on the board ends the game only at
    the end of the turn, after the refills."""
    st = scenario(
        tiles="r: F10 K11 I7; k: G10 H10 I10 J10 K10",
        treasures="F10 K11 I7",
        leaders="1K: E10",
        hands={0: "rrrrr", 1: "rrrrrr"},
        bag="kkkk",
    )
    play(st, "TF11")
    assert decision(st) == (0, "treasure")
    play(st, "treasure K11")
    assert set(board(st)["treasures"]) == {"I7", "F10"}
    assert not st.is_over()
    assert decision(st) == (0, "action")
    ev = play(st, "pass")
    assert kinds(ev)[-4:] == ["drew", "drew_tiles", "treasures_low", "game_over"]
    assert st.is_over()
    out = st.outcome()
    assert out is not None and sum(out.wildcards[0]) == 1


def test_b19_three_treasures_left_the_game_goes_on() -> None:
    """B-19: with three treasures left the game goes on."""
    st = scenario(tiles="r: F10 K11 I7", treasures="F10 K11 I7", hands={0: "rrrrrr"})
    play(st, "pass")
    assert not st.is_over()
    assert decision(st) == (1, "action")
