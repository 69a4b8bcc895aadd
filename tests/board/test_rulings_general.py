"""Scenario tests of the general rulings and the board (G-1 … G-5, B-1 … B-5).

Each test builds a position with `scenario`, plays actions through the public API and
checks the exact effects. Squares follow board-map.md (standard side): river squares
used here are A4–D4, E1, E2, E3, D3, G9–M9; everything else named is land.
"""

from __future__ import annotations

from collections import Counter

import pytest

from euphrates.board.actions import MONUMENTS
from euphrates.board.maps import ADVANCED, STANDARD
from euphrates.board.phases import TILE_COUNTS
from euphrates.board.position import to_position
from euphrates.board.state import BoardState
from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.errors import WrongSeatError
from tests.board.rulings import (
    consistent,
    context,
    decision,
    hand,
    illegal,
    kinds,
    leader,
    legal,
    points,
)
from tests.board.scenario import STANDARD_TEMPLES, play, playing, scenario, scored


# ---------------------------------------------------------------------- G-1 … G-5
def test_g1_defender_is_asked_even_with_no_matching_tile() -> None:
    """G-1: every commitment is put to its owner, even when the hand cannot pay;
    "none" is always legal. The attacker commits first; the defender then sees it."""
    st = scenario(tiles="r: G5", leaders="1P: F5", hands={0: "rrk", 1: "bbkk"})
    ev = play(st, "PH5")
    assert "revolt" in kinds(ev)
    d = st.decision()
    assert d is not None and (d.seat, d.kind) == (0, "commit")
    assert d.context["role"] == "attacker"
    assert d.context["attacker_commit"] is None
    assert legal(st) == {"commit 0", "commit 1", "commit 2"}
    play(st, "commit 2")
    d = st.decision()
    assert d is not None and (d.seat, d.kind) == (1, "commit")
    assert d.context["role"] == "defender"
    assert d.context["attacker_commit"] == 2
    assert legal(st) == {"commit 0"}
    ev = play(st, "commit 0")
    assert scored(ev) == [(0, "red", 1, "revolt")]
    assert leader(st, 1, "priest") is None


def test_g1_only_the_deciding_seat_may_answer() -> None:
    """G-1: the defender's commitment belongs to the defender alone."""
    st = scenario(tiles="r: G5", leaders="1P: F5", hands={0: "rr", 1: "rr"})
    play(st, "PH5", "commit 1")
    before = to_position(st)
    with pytest.raises(WrongSeatError) as info:
        st.apply("commit 0", seat=0)
    assert "G-1" in str(info.value)
    assert to_position(st) == before
    play(st, "commit 1")  # 2:2, the defender keeps its priest
    assert leader(st, 0, "priest") is None
    assert leader(st, 1, "priest") == "F5"


def test_g2_pass_ends_the_turn_at_once_even_after_zero_actions() -> None:
    """G-2: "pass" ends the turn at once; the end of turn happens in full (refill)."""
    st = playing(hands={0: "rrrr", 1: "rrrrrr"}, bag="kkgggg")
    assert "pass" in legal(st)
    ev = play(st, "pass")
    assert kinds(ev)[0] == "passed"
    assert ev[0].data == {"seat": 0, "actions_taken": 0}
    assert ev[-1].kind == "turn_started" and ev[-1].data == {"seat": 1}
    assert hand(st, 0) == {"red": 4, "blue": 0, "green": 0, "black": 2}
    assert st.decision() is not None
    assert decision(st) == (1, "action")
    assert context(st) == {"action": 1, "actions_left": 2}


def test_g2_pass_after_one_action_gives_up_the_second() -> None:
    """G-2: passing after the first action ends the turn."""
    st = playing(hands={0: "rrrrrr", 1: "rrrrrr"}, bag="kkkk")
    play(st, "rK8")
    assert context(st) == {"action": 2, "actions_left": 1}
    ev = play(st, "pass")
    assert ev[0].data == {"seat": 0, "actions_taken": 1}
    assert decision(st) == (1, "action")
    assert hand(st, 0) == {"red": 5, "blue": 0, "green": 0, "black": 1}


def test_g2_pass_is_not_offered_while_a_decision_is_pending() -> None:
    """G-2: pass is offered only between actions, never inside one."""
    st = scenario(tiles="r: G5", leaders="1P: F5", hands={0: "rrk", 1: "rr"})
    play(st, "PH5")
    assert "pass" not in legal(st)
    illegal(st, "pass", "G-2")
    illegal(st, "kK8", "G-2")
    play(st, "commit 0")
    assert "pass" not in legal(st)
    illegal(st, "pass", "G-2")


def test_g3_drawn_tiles_and_discards_are_private_counts_are_public() -> None:
    """G-3: hands and swap discards are secret; how many tiles were drawn is public."""
    st = BoardState.new_game(3, seed=11)
    seat = st.active
    counts = hand(st, seat)
    colour = next(c for c in COLOUR_NAMES if counts[c] > 0)
    letter = {"red": "r", "blue": "b", "green": "g", "black": "k"}[colour]
    ev = play(st, f"swap {letter}")
    by_kind = {e.kind: e for e in ev}
    assert by_kind["swapped"].audience is None
    assert by_kind["swapped"].data == {"seat": seat, "count": 1}
    assert by_kind["discarded"].audience == seat
    assert by_kind["drew"].audience is None
    assert by_kind["drew"].data == {"seat": seat, "count": 1}
    assert by_kind["drew_tiles"].audience == seat
    other = (seat + 1) % 3
    assert not by_kind["drew_tiles"].visible_to(other)
    assert not by_kind["discarded"].visible_to(other)
    assert not by_kind["drew_tiles"].visible_to(None)
    assert by_kind["drew_tiles"].visible_to(seat)
    view = st.view(other)
    assert view["seats"][seat]["hand"] == {"count": 6}
    assert view["seats"][seat]["discarded"] == {"count": 1}
    assert view["seats"][other]["hand"] == hand(st, other)


def test_g3_points_and_commitments_are_public_events() -> None:
    """G-3: every commitment and every point is public."""
    st = scenario(tiles="r: G5", leaders="1P: F5", hands={0: "rr", 1: "r"})
    ev = play(st, "PH5", "commit 2", "commit 1")
    for e in ev:
        if e.kind in ("committed", "scored", "revolt", "conflict_resolved", "leader_returned"):
            assert e.audience is None
    assert [(e.data["seat"], e.data["count"]) for e in ev if e.kind == "committed"] == [
        (0, 2),
        (1, 1),
    ]


def test_g4_points_are_unlimited() -> None:
    """G-4: cubes are currency only; a score is never capped: a kings' war that removes
    ten settlements scores 11 on top of 250."""
    st = scenario(
        tiles=(
            "r: A10 H10; k: B10 C10 D10 E10 F10 B11 C11 D11 E11 F11 "
            "I10 J10 K10 L10 M10 N10 I11 J11 K11 L11 M11"
        ),
        leaders="1K: A11; 0K: H11",
        hands={0: "r"},
        points={0: "k" * 250},
    )
    play(st, "rG10")
    ctx = context(st)
    assert (ctx["attacker"], ctx["attacker_strength"], ctx["defender_strength"]) == (0, 11, 10)
    ev = play(st, "commit 0", "commit 0")
    assert scored(ev) == [(0, "black", 11, "war")]
    assert points(st, 0)["black"] == 261


def test_g5_one_join_makes_at_most_one_war_per_colour_between_two_players() -> None:
    """G-5: one leader per colour per dynasty, so a join makes at most four wars, each
    between two different players."""
    st = scenario(
        tiles="r: E5 F5 H5 I5",
        leaders="0P: E4; 0F: F4; 0T: E6; 0K: F6; 1P: H4; 1F: I4; 1T: H6; 1K: I6",
        hands={0: "k"},
    )
    ev = play(st, "kG5")
    assert "unification" in kinds(ev)
    assert decision(st) == (0, "war_order")
    assert context(st)["wars"] == ["red", "blue", "green", "black"]
    assert legal(st) == {"war r", "war b", "war g", "war k"}
    for c in "rbgk":
        probe = st.copy()
        play(probe, f"war {c}")
        ctx = context(probe)
        assert {ctx["attacker"], ctx["defender"]} == {0, 1}


# ---------------------------------------------------------------------- B-1 … B-3
@pytest.mark.parametrize("players", [2, 3, 4])
def test_b1_b2_b3_set_up_counts(players: int) -> None:
    """B-1/B-2/B-3: 153 tiles (57/36/30/30), a temple and a treasure on each of the 10
    temple squares, 143 in the bag less 6 drawn per player, 2 catastrophes each, the
    16 leaders off the board, 6 monuments available."""
    st = BoardState.new_game(players, seed=3)
    pos = to_position(st)
    temples = set(STANDARD_TEMPLES.split())
    assert set(pos["board"]["tiles"]["red"]) == temples
    assert set(pos["board"]["treasures"]) == temples
    assert all(pos["board"]["tiles"][c] == [] for c in ("blue", "green", "black"))
    assert len(pos["bag"]) == 143 - 6 * players
    for seat in pos["seats"]:
        assert sum(seat["hand"].values()) == 6
        assert seat["catastrophes"] == 2
        assert all(v is None for v in seat["leaders"].values())
        assert seat["treasures"] == 0
    total: Counter[str] = Counter(pos["bag"])
    for seat in pos["seats"]:
        total.update(seat["hand"])
    total.update({"red": 10})
    assert tuple(total[c] for c in COLOUR_NAMES) == TILE_COUNTS == (57, 36, 30, 30)
    assert sum(TILE_COUNTS) == 153
    assert pos["board"]["monuments"] == []
    assert len(MONUMENTS) == 6 and len(set(MONUMENTS)) == 6
    assert all(a != b for a, b in MONUMENTS)
    assert st.active == st.first
    consistent(st)


def test_b2_advanced_side_has_fourteen_temples() -> None:
    """B-2: the advanced side has 14 temple squares; 139 tiles go into the bag."""
    st = BoardState.new_game(2, seed=3, advanced=True)
    pos = to_position(st)
    assert len(pos["board"]["tiles"]["red"]) == 14
    assert len(pos["board"]["treasures"]) == 14
    assert len(pos["bag"]) == 139 - 12
    assert ADVANCED.temples.bit_count() == 14 and ADVANCED.bordered.bit_count() == 6
    assert STANDARD.temples.bit_count() == 10 and STANDARD.bordered.bit_count() == 4
    assert STANDARD.river.bit_count() == 41


def test_b3_first_player_is_random_but_seeded() -> None:
    """B-3: the first player is chosen at random from the seed; the same seed gives the
    same game."""
    a = BoardState.new_game(4, seed=123)
    b = BoardState.new_game(4, seed=123)
    assert to_position(a) == to_position(b)
    firsts = {BoardState.new_game(4, seed=s).first for s in range(40)}
    assert len(firsts) > 1
    st = BoardState.new_game(3, seed=9)
    assert decision(st) == (st.first, "action")


# ---------------------------------------------------------------------- B-4, B-5
def test_b4_leaders_connect_like_tiles() -> None:
    """B-4: leaders that touch connect like tiles: E5 and G5 are one kingdom through the
    king on F5, so a priest placed by G5 starts a revolt with the priest by E5."""
    st = scenario(tiles="r: E5 G5", leaders="1P: E4; 0K: F5", hands={0: "r"})
    play(st, "PG4")
    assert decision(st) == (0, "commit")
    assert context(st)["conflict"] == "revolt"
    # Without the king, G5 is a leaderless region: the priest founds its own kingdom.
    st = scenario(tiles="r: E5 G5", leaders="1P: E4", hands={0: "r"})
    ev = play(st, "PG4")
    assert "revolt" not in kinds(ev)
    assert decision(st) == (0, "action")


def test_b4_catastrophes_connect_nothing() -> None:
    """B-4: a catastrophe connects nothing: covering F5 splits the kingdom."""
    st = scenario(tiles="r: E5 F5 G5", leaders="1P: E4", hands={0: "r"})
    probe = st.copy()
    play(probe, "PG4")
    assert decision(probe) == (0, "commit")
    ev = play(st, "xF5")
    assert ev[0].kind == "catastrophe" and ev[0].data["destroyed"] == "temple"
    ev = play(st, "PG4")
    assert "revolt" not in kinds(ev)
    assert leader(st, 0, "priest") == "G4" and leader(st, 1, "priest") == "E4"
    consistent(st)


def test_b4_flipped_tiles_connect() -> None:
    """B-4/B-5: tiles flipped under a monument still connect: a settlement next to the
    monument joins the king's kingdom and scores for the king."""
    st = scenario(tiles="r: H5", leaders="1K: H6", monuments=[("rb", "F4", "red")], hands={0: "k"})
    ev = play(st, "kE4")
    assert scored(ev) == [(1, "black", 1, "tile")]


def test_b5_flipped_tiles_are_not_temples() -> None:
    """B-5: a flipped red tile is no temple: no leader may stand next to it alone, and it
    does not count in a revolt."""
    st = scenario(
        tiles="r: H5",
        leaders="1K: H6; 1P: I5",
        monuments=[("rb", "F4", "red")],
        hands={0: "rk"},
    )
    assert "PE5" not in legal(st)
    illegal(st, "PE5", "B-8")
    assert "PH4" in legal(st)
    play(st, "PH4")  # next to G4 (flipped) and H5 (a temple)
    ctx = context(st)
    assert ctx["conflict"] == "revolt"
    assert ctx["attacker_strength"] == 1  # H5 only, G4 does not count
    assert ctx["defender_strength"] == 1
