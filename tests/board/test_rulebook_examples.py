"""The worked examples of the German rulebook (board-game-rules.de.txt), replayed.

The pictures are missing, so the squares are chosen on the standard board to fit the
text; every number the text gives (strengths, commitments, points, tiles drawn) is
checked.
"""

from __future__ import annotations

from typing import Any

from euphrates.board.position import to_position
from tests.board.rulings import context, decision, kinds, leader
from tests.board.scenario import STANDARD_TEMPLES, play, playing, scenario, scored


def drew(events: list[Any]) -> list[tuple[int, int]]:
    return [(e.data["seat"], e.data["count"]) for e in events if e.kind == "drew"]


def test_revolt_example_tie_goes_to_the_defender() -> None:
    """Revolt: the attacker has two adjacent temples and commits two, the defender has
    one and commits three: 4:4, the defender wins, the attacker's leader returns, the
    defender scores one red point and the five committed temples leave the game."""
    st = scenario(
        tiles="r: F5 G6",
        leaders="1P: E5",
        hands={0: "rrkkkk", 1: "rrrbbb"},
    )
    board_before = to_position(st)["board"]
    ev = play(st, "PG5")
    revolt = next(e for e in ev if e.kind == "revolt")
    assert revolt.data["attacker_strength"] == 2
    assert revolt.data["defender_strength"] == 1
    play(st, "commit 2")
    ev = play(st, "commit 3")
    resolved = next(e for e in ev if e.kind == "conflict_resolved")
    assert (resolved.data["attacker_total"], resolved.data["defender_total"]) == (4, 4)
    assert resolved.data["winner"] == 1
    assert scored(ev) == [(1, "red", 1, "revolt")]
    assert leader(st, 0, "priest") is None
    assert leader(st, 1, "priest") == "E5"
    pos = to_position(st)
    assert pos["removed"]["red"] == 5
    assert pos["board"] == board_before
    assert pos["seats"][0]["hand"]["red"] == 0 and pos["seats"][1]["hand"]["red"] == 0


def test_war_example_traders_then_the_kings_war_lapses() -> None:
    """War: traders' and kings' wars; the active player (Lion) fights the traders first
    and attacks: 1 market on its side + 4 committed = 5 against 2 + 1 = 3. The
    defender's two markets go, its trader returns, Lion scores 3 green. The removed
    markets were the link: the kingdom has fallen apart, the kings' war lapses, the
    unification tile is removed and the action ends. At the end of the turn the
    defender too refills the tile it committed."""
    st = playing(
        tiles="r: E5 J5; g: F5 H5 I5",
        leaders="0K: E4; 0T: E6; 1K: J4; 1T: J6",
        hands={0: "rggggk", 1: "gkkkkk"},
    )
    ev = play(st, "rG5")
    assert kinds(ev) == ["tile_placed", "unification", "wars"]
    assert decision(st) == (0, "war_order")
    assert context(st)["wars"] == ["green", "black"]
    ev = play(st, "war g")
    war = next(e for e in ev if e.kind == "war")
    assert (war.data["attacker"], war.data["defender"]) == (0, 1)
    assert (war.data["attacker_strength"], war.data["defender_strength"]) == (1, 2)
    play(st, "commit 4")
    ev = play(st, "commit 1")
    resolved = next(e for e in ev if e.kind == "conflict_resolved")
    assert (resolved.data["attacker_total"], resolved.data["defender_total"]) == (5, 3)
    assert scored(ev) == [(0, "green", 3, "war")]
    gone = next(e for e in ev if e.kind == "tiles_removed")
    assert sorted(gone.data["squares"]) == ["H5", "I5"]
    assert leader(st, 1, "trader") is None
    # The continuation: no kings' war, the unification tile goes, the action ends.
    assert "war" not in kinds(ev)[kinds(ev).index("conflict_resolved") :]
    assert "unification_removed" in kinds(ev)
    pos = to_position(st)
    assert pos["board"]["unification"] is None
    assert "G5" in pos["board"]["tiles"]["red"]
    assert leader(st, 0, "king") == "E4" and leader(st, 1, "king") == "J4"
    assert pos["removed"]["green"] == 5 + 2
    assert decision(st) == (0, "action")
    assert context(st) == {"action": 2, "actions_left": 1}
    ev = play(st, "pass")
    assert drew(ev) == [(0, 5), (1, 1)]


def test_treasure_example_bull_scores_then_lion_takes_the_corner_treasure() -> None:
    """Treasures: Lion (active) places a blue tile into a kingdom where Bull has the
    farmer: Bull scores 1 blue. Lion owns the trader there and the kingdom now holds two
    treasures; the bordered (corner) one must be taken, so no decision is put."""
    st = scenario(
        tiles="r: B2 F3; k: C2 D2 F2",
        treasures="B2 F3",
        leaders="0T: G3; 1F: F4",
        hands={0: "brrggk"},
    )
    ev = play(st, "bE2")
    assert kinds(ev) == ["tile_placed", "scored", "treasure_taken"]
    assert scored(ev) == [(1, "blue", 1, "tile")]
    assert ev[-1].data == {"seat": 0, "square": "B2"}
    pos = to_position(st)
    assert pos["board"]["treasures"] == ["F3"]
    assert pos["seats"][0]["treasures"] == 1
    assert decision(st) == (0, "action")


def test_monument_example_takes_a_leaders_last_temple_then_monument_points() -> None:
    """Monuments: four red tiles form a square; a monument is built; the flipped temples
    take a leader's last adjacent temple and it returns to its owner. At the end of his
    turn Bull (king) scores a black point, at the end of his Archer (priest) a red one."""
    st = playing(
        players=4,
        tiles="r: F5 G5 F6 E4 E7",
        leaders="1K: E5; 2P: F7; 3F: H5",
        hands={0: "rrrrrr", 1: "kkkkkk", 2: "gggggg", 3: "bbbbbb"},
    )
    ev = play(st, "rG6")
    assert scored(ev) == [(2, "red", 1, "tile")]
    assert decision(st) == (0, "monument")
    assert "monument rk F5" in {str(a) for a in st.legal_actions()}
    ev = play(st, "monument rk F5")
    assert kinds(ev) == ["monument_built", "leader_returned"]
    assert ev[1].data == {"seat": 3, "leader": "farmer", "square": "H5", "reason": "no temple"}
    assert scored(ev) == []
    assert leader(st, 1, "king") == "E5" and leader(st, 2, "priest") == "F7"
    ev = play(st, "pass")  # Lion has no leader there
    assert scored(ev) == []
    ev = play(st, "pass")  # Bull
    assert scored(ev) == [(1, "black", 1, "monument")]
    ev = play(st, "pass")  # Archer
    assert scored(ev) == [(2, "red", 1, "monument")]
    ev = play(st, "pass")  # Potter: the farmer is gone
    assert scored(ev) == []


def test_first_round_example() -> None:
    """The rulebook's first round: Andreas, Barbara, Dieter and Karen (seats 0-3)."""
    st = scenario(
        players=4,
        tiles=f"r: {STANDARD_TEMPLES}",
        treasures=STANDARD_TEMPLES,
        hands={0: "rrbggk", 1: "brrgkk", 2: "rbbggk", 3: "rrrrbg"},
    )
    # Turn 1: Andreas places king and priest, founding two kingdoms.
    ev = play(st, "KF4", "PI6")
    assert kinds(ev)[:2] == ["leader_placed", "leader_placed"]
    assert scored(ev) == [] and drew(ev) == []
    assert len(st.kingdoms()) == 2
    assert decision(st) == (1, "action")
    # Turn 2: Barbara's farmer joins Andreas' kingdom; her blue tile on the river scores
    # her a blue point; she draws one tile.
    ev = play(st, "FG3")
    assert "revolt" not in kinds(ev)
    assert len(st.kingdoms()) == 2
    ev = play(st, "bE3")
    assert scored(ev) == [(1, "blue", 1, "tile")]
    assert drew(ev) == [(1, 1)]
    # Turn 3: Dieter's king founds a kingdom; his temple scores red for the king (no
    # priest there), and the king now touches two temples.
    ev = play(st, "KG10", "rH10")
    assert scored(ev) == [(2, "red", 1, "tile")]
    assert drew(ev) == [(2, 1)]
    # Turn 4: Karen's priest enters the kingdom of Andreas' priest: a revolt, both count
    # the same temple (I7); Karen commits 3, Andreas (who holds only 2) none; 4:1.
    ev = play(st, "PI8")
    revolt = next(e for e in ev if e.kind == "revolt")
    assert (revolt.data["attacker"], revolt.data["defender"]) == (3, 0)
    assert (revolt.data["attacker_strength"], revolt.data["defender_strength"]) == (1, 1)
    play(st, "commit 3")
    assert decision(st) == (0, "commit")
    assert {str(a) for a in st.legal_actions()} == {"commit 0", "commit 1", "commit 2"}
    ev = play(st, "commit 0")
    resolved = next(e for e in ev if e.kind == "conflict_resolved")
    assert (resolved.data["attacker_total"], resolved.data["defender_total"]) == (4, 1)
    assert scored(ev) == [(3, "red", 1, "revolt")]
    assert leader(st, 0, "priest") is None and leader(st, 3, "priest") == "I8"
    # Her fourth temple scores another red point; she draws 4 tiles; Andreas is next.
    ev = play(st, "rH7")
    assert scored(ev) == [(3, "red", 1, "tile")]
    assert drew(ev) == [(3, 4)]
    assert decision(st) == (0, "action")
    pos = to_position(st)
    assert [s["points"] for s in pos["seats"]] == [
        {"red": 0, "blue": 0, "green": 0, "black": 0},
        {"red": 0, "blue": 1, "green": 0, "black": 0},
        {"red": 1, "blue": 0, "green": 0, "black": 0},
        {"red": 2, "blue": 0, "green": 0, "black": 0},
    ]
    assert all(sum(s["hand"].values()) == 6 for s in pos["seats"])
    assert pos["removed"]["red"] == 3
