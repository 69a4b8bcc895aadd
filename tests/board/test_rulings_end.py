"""Scenario tests of treasures, the end of the game and what each seat sees (B-30 … B-33).

Each test builds a position with `scenario`, plays actions through the public API and
checks the exact effects. Squares follow board-map.md (standard side).
"""

from __future__ import annotations

import pytest

from euphrates.board.geometry import parse_square
from euphrates.board.position import from_position, to_position
from euphrates.board.state import BoardState
from euphrates.core.colours import BLACK
from euphrates.core.errors import GameOverError, RecordError, WrongSeatError
from euphrates.core.scoring import final_outcome
from tests.board.rulings import (
    MONUMENT_KINGDOM,
    board,
    consistent,
    context,
    decision,
    hand,
    illegal,
    kinds,
    legal,
)
from tests.board.scenario import FAR, play, playing, scenario, scored


# ---------------------------------------------------------------------- B-30
def test_b30_real_choice_is_the_trader_owners_decision_even_if_not_active() -> None:
    """B-30: where the owner has a real choice, the trader's owner chooses, even when
    not active; then play returns to the active player."""
    st = scenario(
        tiles="r: F10 K11; k: G10 H10 I10 J10",
        treasures="F10 K11",
        leaders="0T: E10",
        active=1,
        hands={1: "k"},
    )
    ev = play(st, "kK10")
    assert scored(ev) == []
    assert decision(st) == (0, "treasure")
    assert context(st) == {"treasures": ["treasure F10", "treasure K11"]}
    illegal(st, "treasure I7", "B-30")
    with pytest.raises(WrongSeatError):
        st.apply("treasure K11", seat=1)
    ev = st.apply("treasure K11", seat=0)
    assert kinds(ev) == ["treasure_taken"]
    assert to_position(st)["seats"][0]["treasures"] == 1
    assert decision(st) == (1, "action")
    consistent(st)
    # B-15: the temple whose treasure was taken is a legal catastrophe target now.
    assert "xK11" in legal(st)
    ev = play(st, "xK11")
    assert ev[0].data["destroyed"] == "temple"


def test_b30_treasures_are_settled_after_the_wars_by_the_winner() -> None:
    """B-7/B-30: after the wars of a tile action, the joined kingdom holding two
    treasures gives one to the owner of the trader that is left (here the defender, not
    the active player)."""
    st = scenario(
        tiles="r: F10 K11; k: H10 I10 J10",
        treasures="F10 K11",
        leaders="0T: E10; 1T: J11",
        hands={0: "k"},
    )
    ev = play(st, "kG10")
    assert "treasure_taken" not in kinds(ev)
    assert decision(st) == (0, "commit")
    ev = play(st, "commit 0", "commit 0")
    assert scored(ev) == [(1, "green", 1, "war")]
    assert decision(st) == (1, "treasure")
    assert legal(st) == {"treasure F10", "treasure K11"}


def test_b30_each_treasure_is_its_own_decision() -> None:
    """B-30: the trader's owner takes treasures one at a time until one is left."""
    st = scenario(
        tiles="r: F10 K11 I7; k: G10 H10 I10 I8 J8 K10; b: J9",
        treasures="F10 K11 I7",
        leaders="0T: E10",
        hands={0: "k"},
    )
    play(st, "kJ10")  # joins the regions of I7 and K11 to the trader's kingdom
    assert legal(st) == {"treasure F10", "treasure K11", "treasure I7"}
    play(st, "treasure I7")
    assert decision(st) == (0, "treasure")
    assert legal(st) == {"treasure F10", "treasure K11"}
    play(st, "treasure F10")
    assert board(st)["treasures"] == ["K11"]
    assert to_position(st)["seats"][0]["treasures"] == 2
    assert decision(st) == (0, "action")


def test_b30_bordered_treasures_first_without_a_choice_are_automatic() -> None:
    """B-30/G-1: bordered treasures must be taken first; with no real choice no decision
    is put."""
    st = scenario(
        tiles="r: B2 F3; k: C2 D2 F2",
        treasures="B2 F3",
        leaders="1T: G3",
        hands={0: "b"},
    )
    ev = play(st, "bE2")
    assert kinds(ev) == ["tile_placed", "treasure_taken"]
    assert ev[1].data == {"seat": 1, "square": "B2"}
    assert board(st)["treasures"] == ["F3"]
    assert decision(st) == (0, "action")


def test_b30_bordered_first_then_a_choice() -> None:
    """B-30: with one bordered and two other treasures, the bordered one goes first, then
    the owner chooses between the others."""
    st = scenario(
        tiles="r: B2 F3 K1; k: C2 D2 J1; b: E3 E1 F1 G1 H1 I1",
        treasures="B2 F3 K1",
        leaders="0T: G3",
        hands={0: "b"},
    )
    ev = play(st, "bE2")
    assert [e.data["square"] for e in ev if e.kind == "treasure_taken"] == ["B2"]
    assert decision(st) == (0, "treasure")
    assert legal(st) == {"treasure F3", "treasure K1"}


def test_b30_kingdom_without_trader_keeps_its_treasures() -> None:
    """B-30: a kingdom with no trader keeps its treasures until a trader arrives."""
    st = playing(
        tiles="r: F10 K11; k: G10 H10 I10 J10",
        treasures="F10 K11",
        leaders="0K: E10",
        hands={0: "k", 1: "rrrrrr"},
        actions_done=1,
        bag="kkkkkk",
    )
    ev = play(st, "kK10")
    assert "treasure_taken" not in kinds(ev)
    assert set(board(st)["treasures"]) - set(FAR.split()) == {"F10", "K11"}
    assert decision(st) == (1, "action")
    play(st, "TF11")
    assert decision(st) == (1, "treasure")


def test_b30_two_kingdoms_settle_in_seat_order_from_the_active_player() -> None:
    """B-30: should two kingdoms qualify at once they are settled in seat order from the
    active player. No action makes two kingdoms qualify (a tile or leader enlarges
    one kingdom, removals only split, and after a war every piece cut off from the
    joining tile lies inside one old kingdom), so the loader refuses such a position; it
    is made here by adding the two joining black tiles to a legal one behind its back."""
    st = scenario(
        players=3,
        active=1,
        tiles="r: F10 K11 F3 K1; k: G10 H10 I10 J10 F2 G2 H2 I2 J2",
        treasures="F10 K11 F3 K1",
        leaders="0T: E10; 2T: G3",
        hands={1: "r"},
    )
    st.tiles[BLACK] |= 1 << parse_square("K10") | 1 << parse_square("K2")
    st.bag.remove(BLACK)
    st.bag.remove(BLACK)
    st.board_changed()
    with pytest.raises(RecordError) as err:
        from_position(to_position(st))
    assert "B-30" in str(err.value)
    play(st, "rM10")
    assert decision(st) == (2, "treasure")
    play(st, "treasure K1")
    assert decision(st) == (0, "treasure")
    play(st, "treasure K11")
    assert decision(st) == (1, "action")


# ---------------------------------------------------------------------- B-31, B-32
def test_b31_game_ends_at_once_in_a_swap() -> None:
    """B-31: when the swap cannot be covered nothing more of the turn happens: no second
    action, no monument points, no refills."""
    st = scenario(
        **MONUMENT_KINGDOM,
        hands={0: "rrrrrr", 1: "rr"},
        bag="k",
    )
    ev = play(st, "swap rr")
    assert st.is_over()
    assert scored(ev) == []
    assert [(e.data["seat"], e.data["count"]) for e in ev if e.kind == "drew"] == [(0, 1)]
    assert sum(hand(st, 1).values()) == 2
    with pytest.raises(GameOverError) as info:
        st.apply("pass")
    assert "B-31" in str(info.value)


def test_b32_final_scoring_treasures_are_wildcards_and_weakest_colour_ranks() -> None:
    """B-32: the rulebook's scoring example: treasures go to the weakest colours; players
    rank by their weakest colour, then the second weakest, and so on."""
    lion = (10, 7, 13, 12)
    archer = (6, 15, 14, 22)
    bull = (10, 11, 14, 10)
    potter = (9, 11, 12, 10)
    out = final_outcome([lion, archer, bull, potter], [3, 3, 0, 3])
    assert out.wildcards[0] == (0, 3, 0, 0)
    assert out.totals[0] == (10, 10, 13, 12)
    assert out.totals[1] == (9, 15, 14, 22)
    assert out.totals[3] == (11, 11, 12, 11)
    assert out.places == (2, 4, 3, 1)
    assert out.winners == (3,)


def test_b32_complete_equality_is_a_shared_place() -> None:
    """B-32: complete equality is a shared place."""
    out = final_outcome([(3, 4, 5, 6), (6, 5, 4, 3), (2, 2, 9, 9)], [0, 0, 1])
    assert out.places == (1, 1, 3)
    assert out.winners == (0, 1)


def test_b32_end_to_end_outcome_uses_held_treasures() -> None:
    """B-32: at the end of a game, the outcome counts the treasures taken as
    wildcards."""
    st = scenario(
        tiles="r: F10 K11 I7; k: G10 H10 I10 J10 K10",
        treasures="F10 K11 I7",
        leaders="1K: E10",
        hands={0: "rrrrrr", 1: "rrrrrr"},
        points={0: "rrrbbgggkkk", 1: "rrrbbbgggkk"},
        held={1: 7},
    )
    play(st, "TF11", "treasure K11", "pass")
    out = st.outcome()
    assert out is not None
    assert out.points == ((3, 2, 3, 3), (3, 3, 3, 2))
    assert out.wildcards == ((0, 1, 0, 0), (2, 2, 1, 2))  # seat 1 held 7 (B-2)
    assert out.places == (2, 1)
    assert out == final_outcome(st.points, st.held)
    assert st.view(1)["seats"][0]["points"] == {"red": 3, "blue": 2, "green": 3, "black": 3}


@pytest.mark.parametrize(("players", "seed"), [(2, 2024), (3, 7), (4, 99)])
def test_b32_random_game_to_the_end(players: int, seed: int) -> None:
    """B-6/B-31/B-32: a whole game reaches its end and is scored from the points and
    treasures; every hand holds 6 tiles at the start of each turn, and the invariants
    hold after every action."""
    from euphrates.core.rng import Rng

    st = BoardState.new_game(players, seed=seed)
    rng = Rng(seed)
    n = 0
    while not st.is_over():
        d = st.decision()
        assert d is not None
        if d.kind == "action" and d.context == {"action": 1, "actions_left": 2}:
            assert all(sum(hand(st, s).values()) == 6 for s in range(players))
        st.apply(st.random_action(rng))
        consistent(st)
        n += 1
        assert n < 5000
    out = st.outcome()
    assert out is not None
    assert out == final_outcome(st.points, st.held)
    pos = to_position(st)
    assert len(pos["board"]["treasures"]) + sum(s["treasures"] for s in pos["seats"]) == 10
    assert sum(s["catastrophes"] for s in pos["seats"]) + len(pos["board"]["catastrophes"]) == (
        2 * players
    )


# ---------------------------------------------------------------------- B-33
def test_b33_views_show_own_totals_others_only_as_events() -> None:
    """B-33: by default a view shows the seat's own point totals; others' points only as
    scoring events; the bag as a count; other hands as counts; no seed."""
    st = scenario(
        tiles="r: F5",
        leaders="1P: F4",
        hands={0: "rrbgkk", 1: "kkkkkk"},
        points={0: "rr", 1: "bbb"},
    )
    play(st, "rG5")
    v = st.view(0)
    assert v["seats"][0]["points"] == {"red": 2, "blue": 0, "green": 0, "black": 0}
    assert "points" not in v["seats"][1]
    assert v["score_log"][-1] == [1, "red", 1, "tile"] and len(v["score_log"]) == 6
    assert v["seats"][1]["hand"] == {"count": 6}
    assert v["seats"][0]["hand"] == {"red": 1, "blue": 1, "green": 1, "black": 2}
    assert v["bag"] == {"count": len(to_position(st)["bag"])}
    assert "seed" not in v
    spectator = st.view(None)
    assert all("points" not in s for s in spectator["seats"])
    assert all(set(s["hand"]) == {"count"} for s in spectator["seats"])
    assert v["legal"] and st.view(1)["legal"] == []


def test_b33_open_scores_show_every_total() -> None:
    """B-33: the option "open scores" shows everyone's totals."""
    st = scenario(points={0: "rr", 1: "bbb"}, open_scores=True)
    v = st.view(0)
    assert v["seats"][1]["points"] == {"red": 0, "blue": 3, "green": 0, "black": 0}
    assert v["options"]["open_scores"] is True
    assert v["bag"] == {"count": len(to_position(st)["bag"])}
