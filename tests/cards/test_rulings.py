"""One scenario per ruling (RULINGS.md G-1..G-5, C-1..C-19), built from positions."""

from __future__ import annotations

import copy

import pytest

from euphrates.cards import CARDS, CardsState
from euphrates.cards.actions import POINT_NONE, Commit
from euphrates.cards.position import census, to_position
from euphrates.cards.scoring import tallies
from euphrates.core.errors import IllegalActionError, InvalidActionError
from euphrates.core.rng import Rng

from .helpers import column, find, hand, leader_at, pile, play, state

COLS3 = ["rgb", "kkb", "bgr", "ggk", "rbk", "kgb", "bbr", "grk"]


def kind(s: CardsState) -> str:
    d = s.decision()
    return "over" if d is None else d.kind


# --- G ------------------------------------------------------------------------------------
def test_g1_point_asked_even_when_hand_cannot_pay() -> None:
    s = state(leaders={(1, "T"): "1.0"}, hands=["g", "rrr", ""])
    play(s, "g1")
    d = s.decision()
    assert d is not None and d.seat == 1 and d.kind == "point"
    assert s.legal_actions() == [POINT_NONE]


def test_g1_commit_asked_of_defender_with_no_red_and_sees_attacker_commit() -> None:
    s = state(leaders={(1, "P"): "1.1", (0, "P"): "2.1"}, hands=["rr", "gg", ""], columns=COLS3)
    play(s, "P1.2", "commit 2")
    d = s.decision()
    assert d is not None and (d.seat, d.kind) == (1, "commit")
    assert d.context["attacker_commit"] == 2
    assert s.legal_actions() == [Commit(0)]


def test_g2_pass_ends_turn_at_once_and_only_between_actions() -> None:
    s = state(hands=["rrrrrrr", "kkkkkkkk", "gggggggg"])
    events = play(s, "pass")
    assert s.active == 1 and s.actions_left == 2
    assert hand(s, 0).__len__() == 8  # the end of turn ran in full: refill
    assert any(e.kind == "refill" for e in events)
    s = state(leaders={(1, "P"): "1.1"}, columns=COLS3, hands=["rr", "r", ""])
    play(s, "P1.0")
    assert kind(s) == "commit"
    before = to_position(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("pass")
    assert e.value.ruling == "G-2"
    assert to_position(s) == before


def test_g3_commitments_and_points_are_public_events() -> None:
    s = state(leaders={(1, "P"): "1.1"}, columns=COLS3, hands=["rr", "r", ""])
    events = play(s, "P1.0", "commit 1", "commit 1")
    commits = [e for e in events if e.kind == "commit"]
    assert [e.audience for e in commits] == [None, None]
    points = [e for e in events if e.kind == "point"]
    assert points and all(e.audience is None for e in points)


def test_g4_points_are_unlimited() -> None:
    s = state(
        leaders={(0, "T"): "1.0"},
        hands=["gggg", "rrrrrrrr", "rrrrrrrr"],
        piles=["g" * 30 + "ttttttt", "", ""],
        heads="rrrrrrrt",
    )
    play(s, "g1", "point g", "g1", "point g")
    assert pile(s, 0).count("g") == 32
    out = s.outcome()
    assert out is not None and out.points[0][2] == 32  # ended: one original treasure left


def test_g5_one_war_per_colour_and_never_against_oneself() -> None:
    s = state(
        columns=COLS3,
        leaders={(0, "T"): "1.0", (1, "T"): "2.0", (0, "K"): "1.1", (2, "K"): "2.1"},
        hands=["g", "", ""],
    )
    play(s, "g1-2")
    d = s.decision()
    assert d is not None and d.kind == "war_order"
    assert sorted(d.context["wars"]) == ["black", "green"]
    # moving an own leader within its kingdom starts no revolt
    s = state(columns=COLS3, leaders={(0, "T"): "1.0"}, hands=["", "", ""])
    play(s, "T1.2")
    assert kind(s) == "action" and s.actions_left == 1


# --- C: material, set-up, kingdoms -------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_c1_material_is_193_cards_4_catastrophes_3_ships(players: int) -> None:
    s = CARDS.new_game(players, 7)
    assert census(s) == ([65, 40, 40, 40], 8)
    assert sum(s.cats) == players  # one catastrophe each, the rest out of the game
    assert [c for c in s.ships] == [4, 6, 7]  # blue-red, blue-green, blue-black
    assert sum(s.orig) == 8


def test_c2_column_holds_at_most_eight_cards_a_ship_counts_one() -> None:
    s = state(columns=["rbgkrbgk", "rb[bk]gkrbg"], hands=["rr", "", ""])
    with pytest.raises(IllegalActionError) as e:
        s.apply("r1")
    assert e.value.ruling == "C-6"
    # column 2 holds 8 cards counting the ship as one
    with pytest.raises(IllegalActionError):
        s.apply("r2")
    play(s, "r3")
    assert column(s, 3) == "r"


@pytest.mark.parametrize(("players", "deck"), [(2, 139), (3, 161), (4, 153)])
def test_c3_deal_eight_each_and_remove_thirty_with_two(players: int, deck: int) -> None:
    s = CARDS.new_game(players, 11)
    assert [sum(h) for h in s.hands] == [8] * players
    assert len(s.removed) == (30 if players == 2 else 0)
    assert len(s.deck) == deck
    firsts = {CARDS.new_game(players, seed).first for seed in range(40)}
    assert firsts == set(range(players))
    assert CARDS.new_game(players, 11) == s


def test_c4_bridge_stays_when_columns_shrink_and_empty_gap_takes_new_bridge() -> None:
    s = state(
        columns=["rgb", "kkb"],
        bridges=["r", None, None, None, None, None, None],
        leaders={(1, "T"): "2.0"},
        hands=["gg", "", ""],
    )
    # column 1 joins column 2 through the bridge: a green card in 1 scores for the trader in 2
    play(s, "g1")
    assert kind(s) == "point" and s.seat == 1
    play(s, "point none")
    play(s, "x1.1")  # the catastrophe removes column cards; the bridge stays
    assert s.gaps[0] == 0
    s2 = state(
        columns=["rgb", "kkb"],
        bridges=["r", None, None, None, None, None, None],
        hands=["g", "", ""],
    )
    play(s2, "x1-2")
    assert s2.gaps[0] == -1
    play(s2, "g1-2")  # the empty gap takes a new bridge
    assert s2.gaps[0] == 2


# --- C: actions --------------------------------------------------------------------------
def test_c5_leader_goes_to_any_free_card_not_a_ship_and_is_never_withdrawn() -> None:
    s = state(
        columns=["r[bk]", "kkb", "bgr"],
        bridges=[None, "g", None, None, None, None, None],
        leaders={(1, "P"): "3.1"},
        hands=["", "", ""],
    )
    for bad, ruling in (("P1.2", "C-5"), ("P3.1", "C-5"), ("P1.3", "C-5")):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.ruling == ruling
    with pytest.raises(InvalidActionError):
        s.apply("P-")
    play(s, "K2-3")  # onto a bridge
    assert leader_at(s, 0, "K") == "2-3"
    play(s, "K1.1")  # a move, colours need not match
    assert leader_at(s, 0, "K") == "1.1"


def test_c6_bridge_needs_three_cards_in_each_neighbour_ship_counts_one() -> None:
    s = state(columns=["rg", "kk[bg]", "bgr"], hands=["rr", "", ""])
    with pytest.raises(IllegalActionError) as e:
        s.apply("r1-2")
    assert e.value.ruling == "C-6"
    play(s, "r2-3")
    assert s.gaps[1] == 0


def test_c7_catastrophe_once_not_on_leader_head_or_ship_cards_move_up() -> None:
    s = state(
        columns=["rgbk[bk]"],
        leaders={(1, "F"): "1.3"},
        hands=["", "", ""],
    )
    for bad in ("x1.0", "x1.3", "x1.5"):
        before = to_position(s)
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.ruling == "C-7"
        assert to_position(s) == before
    play(s, "x1.2")
    assert column(s, 1) == "rbk[bk]"
    assert leader_at(s, 1, "F") == "1.2"  # moved up with its card
    assert s.out == [0, 0, 1, 0]
    with pytest.raises(IllegalActionError) as e:
        s.apply("x1.1")
    assert e.value.ruling == "C-7"


def test_c8_point_comes_before_the_ship() -> None:
    s = state(columns=["bbb"], leaders={(0, "F"): "1.0"}, hands=["bb", "", ""])
    play(s, "b1")
    assert kind(s) == "point"
    play(s, "point b")
    assert kind(s) == "ship"
    play(s, "ship bg")
    assert column(s, 1) == "[bg]"


# --- C: points ---------------------------------------------------------------------------
def test_c9_point_is_the_leader_owners_decision_king_substitutes_bridge_scores_none() -> None:
    s = state(
        columns=COLS3,
        leaders={(2, "F"): "1.0", (1, "K"): "2.0"},
        hands=["bbgg", "gg", "bb"],
    )
    play(s, "b1")
    assert (kind(s), s.seat) == ("point", 2)
    play(s, "point b")
    assert pile(s, 2) == "b"
    play(s, "g2")  # no trader in kingdom 2: the king's owner may pay green
    assert (kind(s), s.seat) == ("point", 1)
    with pytest.raises(IllegalActionError) as e:
        s.apply("point k")
    assert e.value.ruling == "C-9"
    play(s, "point g")
    assert pile(s, 1) == "g"
    # a bridge scores for no one
    s = state(columns=COLS3, leaders={(1, "K"): "2.0"}, hands=["g", "", ""])
    play(s, "g1-2")
    assert kind(s) == "action" and all(not p for p in s.piles)


def test_c9_closed_piles_show_top_and_height_open_piles_every_colour() -> None:
    s = state(piles=["ggr", "t", ""], heads="rttttttt")
    v = s.view(1)
    assert v["piles"][0] == {"top": "r", "height": 3}
    assert v["piles"][1] == {"top": "t", "height": 1}
    o = state(piles=["ggr", "t", ""], heads="rttttttt", open_piles=True)
    assert o.view(2)["piles"][0] == {"r": 1, "b": 0, "g": 2, "k": 0, "t": 0}


@pytest.mark.parametrize("players", [2, 3])
def test_c9_every_pile_is_open_once_the_game_is_over(players: int) -> None:
    """The scoring turns the closed piles over (C-9, C-18): every seat and a spectator
    see each pile's colours, and a view of the ended game still samples back to itself
    and survives a position's round trip."""
    s = find(lambda x: x.is_over(), players=players)
    assert not s.open_piles and any(s.piles)
    for seat in [*range(players), None]:
        v = s.view(seat)
        for p, cards in enumerate(s.piles):
            counts, treasures = tallies(cards)
            assert v["piles"][p] == {**dict(zip("rbgk", counts, strict=True)), "t": treasures}
        assert CARDS.sample_from_view(copy.deepcopy(v), Rng(2)).view(seat) == v
        assert CARDS.from_position(to_position(s)).view(seat) == v


# --- C: revolts and wars -----------------------------------------------------------------
def test_c10_revolt_leader_on_red_card_gets_plus_one() -> None:
    # defender on a red card: 1 : 1 after one committed card each is 1 : 2
    s = state(columns=COLS3, leaders={(1, "T"): "1.1"}, hands=["r", "r", ""])
    play(s, "T1.2", "commit 1")
    d = s.decision()
    assert d is not None and d.context["defender_strength"] == 1
    assert d.context["attacker_strength"] == 0
    play(s, "commit 0")  # 1 : 1, the tie goes to the defender
    assert leader_at(s, 0, "T") is None and leader_at(s, 1, "T") == "1.1"
    assert pile(s, 1) == "r"  # the winner takes the attacker's committed card


def test_c10_revolt_head_counts_as_red_including_replacement_head() -> None:
    s = state(heads="rttttttt", piles=["t", "", ""], columns=COLS3, leaders={(1, "T"): "1.0"})
    play(s, "T1.2")
    d = s.decision()
    assert d is not None and d.context["defender_strength"] == 1


def test_c10_revolt_without_commitments_winner_may_pay_red_from_hand() -> None:
    s = state(columns=COLS3, leaders={(1, "T"): "1.1"}, hands=["r", "rr", ""])
    play(s, "T1.0", "commit 0", "commit 0")  # 1 : 1, defender wins
    d = s.decision()
    assert d is not None and (d.seat, d.kind, d.context["reason"]) == (1, "point", "revolt")
    play(s, "point r")
    assert pile(s, 1) == "r" and hand(s, 1) == "r"
    assert kind(s) == "action" and s.actions_left == 1


def test_c10_revolt_winner_takes_one_committed_card_rest_discarded() -> None:
    s = state(columns=COLS3, leaders={(1, "T"): "1.2"}, hands=["rrr", "rr", ""])
    play(s, "T1.0", "commit 3", "commit 2")  # 4 : 2
    assert pile(s, 0) == "r" and s.discard[0] == 4
    assert leader_at(s, 1, "T") is None


def test_c11_war_bridge_face_down_order_by_active_attacker_clockwise() -> None:
    # seat 2 is active; the traders of seats 0 and 1 fight: seat 0 is after 2 clockwise
    s = state(
        active=2,
        columns=COLS3,
        leaders={(1, "T"): "1.0", (0, "T"): "2.0", (1, "K"): "1.1", (0, "K"): "2.1"},
        hands=["", "", "b"],
    )
    play(s, "b1-2")
    assert s.view(1)["layout"]["bridges"][0] == "?"
    assert s.view(2)["layout"]["bridges"][0] == "b"
    assert (kind(s), s.seat) == ("war_order", 2)
    with pytest.raises(IllegalActionError) as e:
        s.apply("war r")
    assert e.value.ruling == "C-11"
    play(s, "war g")
    d = s.decision()
    assert d is not None and d.kind == "commit" and d.context["attacker"] == 0
    assert d.context["defender"] == 1


def test_c12_war_strength_counts_face_up_cards_heads_in_red_war_not_ships() -> None:
    s = state(
        columns=["rr[br]", "rrg", "rgk"],
        bridges=[None, "r", None, None, None, None, None],
        leaders={(0, "P"): "1.0", (1, "P"): "2.1"},
        hands=["r", "", ""],
    )
    play(s, "r1-2")
    d = s.decision()
    assert d is not None and d.kind == "commit"
    # side 1: two red cards + head = 3; side 2-3: 2 + 1 red + bridge + 2 heads = 6
    assert (d.context["attacker_strength"], d.context["defender_strength"]) == (3, 6)


def test_c13_war_loser_cards_go_to_winner_bridge_removed_next_war_lapses() -> None:
    # kingdom A = columns 1-2 (green bridge), kingdom B = column 3; bridge 2-3 joins them.
    s = state(
        columns=["ggg", "kgk", "gkk"],
        bridges=["g", None, None, None, None, None, None],
        leaders={(0, "T"): "3.0", (1, "T"): "1.0", (0, "K"): "3.1", (1, "K"): "2.1"},
        hands=["rgggggg", "", ""],
    )
    play(s, "r2-3")
    play(s, "war g")
    # attacker seat 0: 1 green on its side; defender seat 1: 3 + 1 + bridge = 5
    play(s, "commit 6", "commit 0")  # 7 : 5, the attacker wins
    assert leader_at(s, 1, "T") is None
    assert pile(s, 0) == "g" + "ggg" + "g" + "g"  # committed, column 1, bridge 1-2, column 2
    assert s.gaps[0] == -1  # the green bridge left; kingdom A split
    assert s.discard[2] == 5
    # the black war lapsed: seat 1's king in column 2 no longer shares a kingdom? it does
    # (2 is joined to 3 by the face-down bridge), so it is fought next
    assert kind(s) == "commit"


def test_c13_war_lapses_when_split() -> None:
    s = state(
        columns=["ggg", "kgk", "gkk"],
        bridges=["g", None, None, None, None, None, None],
        leaders={(0, "T"): "3.0", (1, "T"): "2.0", (0, "K"): "3.1", (1, "K"): "1.1"},
        hands=["rgggggg", "", ""],
    )
    play(s, "r2-3", "war g", "commit 6", "commit 0")
    # the green bridge 1-2 was taken, so seat 1's king in column 1 is cut off: no black war
    assert s.gaps[0] == -1 and s.down == -1
    assert (kind(s), s.seat) == ("exchange", 0)  # seat 0's trader: columns 2 and 3 remain
    play(s, "exchange none")
    assert kind(s) == "action"


def test_c13_war_without_commitments_winner_may_pay_then_spoils() -> None:
    s = state(
        columns=["ggk", "kkb", "gkk"],
        leaders={(0, "T"): "1.0", (1, "T"): "2.0"},
        hands=["rg", "g", ""],
    )
    play(s, "r1-2", "commit 0", "commit 0")  # 2 : 0, the attacker wins
    d = s.decision()
    assert d is not None and (d.seat, d.kind, d.context["reason"]) == (0, "point", "war")
    play(s, "point g")
    # the loser's side (column 2) loses no card: none is green
    assert pile(s, 0) == "g" and column(s, 2) == "kkb"
    assert kind(s) == "exchange"


# --- C: treasures and ships ---------------------------------------------------------------
def test_c14_exchange_up_to_originals_minus_one_king_no_substitute() -> None:
    s = state(
        columns=COLS3,
        bridges=["k", None, None, None, None, None, None],
        leaders={(1, "T"): "1.0"},
        hands=["g", "rrr", ""],
    )
    play(s, "g2-3")  # joins 1-2 with 3: three original treasure cards
    d = s.decision()
    assert d is not None and (d.seat, d.kind) == (1, "exchange")
    assert d.context["treasures"] == [1, 2, 3]
    play(s, "exchange 1")
    assert s.orig[:3] == [False, True, True]
    assert leader_at(s, 1, "T") == "1.0"  # stays, now on the red head
    play(s, "exchange 3")
    assert kind(s) == "action"  # one original left: no more
    assert pile(s, 1) == "tt" and hand(s, 1) == "r"
    # a king is no substitute
    s = state(columns=COLS3, leaders={(1, "K"): "1.0"}, hands=["g", "rrr", ""])
    play(s, "g1-2")
    assert kind(s) == "action"


def test_c14_exchange_only_after_a_bridge() -> None:
    s = state(
        columns=COLS3,
        bridges=["k", None, None, None, None, None, None],
        hands=["", "rrr", ""],
        leaders={(1, "T"): "3.0"},
        active=1,
    )
    play(s, "T1.0")  # a leader into a kingdom with two treasures: no exchange
    assert kind(s) == "action"


def test_c15_ship_blue_any_other_colour_matching_leaders_return() -> None:
    s = state(
        leaders={(1, "F"): "1.2", (1, "P"): "1.1"},
        columns=["rbbb", "kggg", "", "", "", "", "", "rrr[br]"],
        hands=["bg", "", ""],
    )
    play(s, "b1")
    assert kind(s) == "point"  # the farmer of seat 1
    play(s, "point none")
    d = s.decision()
    assert d is not None and d.kind == "ship" and d.context["ships"] == ["bg", "bk"]
    play(s, "ship bk")
    assert column(s, 1) == "r[bk]"
    assert leader_at(s, 1, "F") is None and leader_at(s, 1, "P") == "1.1"
    assert s.discard[1] == 4
    play(s, "g2")
    assert kind(s) == "ship"
    d = s.decision()
    assert d is not None and d.context["ships"] == ["bg"]


def test_c15_ship_unavailable_colour_and_moved_up_runs_give_none() -> None:
    s = state(columns=["kkkr", "kkk", "", "", "", "", "", "[bk]"], hands=["k", "", ""])
    play(s, "k2")
    assert kind(s) == "action"
    s = state(columns=["bbbbg"], hands=["g", "", ""])
    play(s, "x1.5")  # no ship from a catastrophe
    assert kind(s) == "action"
    s = state(columns=["bb[bk]bb"], hands=["b", "", ""])
    play(s, "b1")  # a ship breaks a run: only three blue below it
    assert kind(s) == "action"


def test_c15_longer_run_qualifies_again() -> None:
    s = state(columns=["bbbbb"], hands=["b", "", ""])
    play(s, "b1")
    d = s.decision()
    assert d is not None and d.kind == "ship"
    play(s, "ship br")
    assert column(s, 1) == "bb[br]"


def test_c16_ship_points_one_per_leader_in_order_king_no_substitute() -> None:
    s = state(
        columns=["r[bk]", "r[br]"],
        bridges=["k", None, None, None, None, None, None],
        leaders={(0, "F"): "1.1", (0, "K"): "1.0", (0, "P"): "2.0", (0, "T"): "2.1"},
        hands=["rbgk", "", ""],
        ships=["bg"],
        discard="bbbbbbbb",
    )
    play(s, "pass")
    order = []
    while kind(s) == "ship_point":
        d = s.decision()
        assert d is not None
        order.append(d.context["leader"])
        if d.context["colour"] == "black":
            with pytest.raises(IllegalActionError) as e:
                s.apply("point g")
            assert e.value.ruling == "C-16"
        play(s, f"point {d.context['colour']}")
    assert order == ["priest", "farmer", "king"]  # one each, however many ships; no trader
    assert pile(s, 0) == "rbk"


def test_c17_refill_everyone_from_active_game_ends_when_deck_short() -> None:
    s = state(
        active=1,
        hands=["rrrrrr", "rrrrrrr", "rrrrrrrr"],
        deck="gkb",
        discard="r" * 44 + "b" * 39 + "g" * 39 + "k" * 39,
    )
    events = play(s, "pass")
    # 3 cards for 3 missing: everyone draws, the active player first
    draws = [e.data["seat"] for e in events if e.kind == "draw" and e.audience is not None]
    assert draws == [1, 0]
    assert hand(s, 1) == "rrrrrrrb" and hand(s, 0) == "rrrrrrgk"
    assert kind(s) == "action"  # the empty deck ends nothing by itself
    play(s, "r1", "pass")
    assert kind(s) == "over"


def test_c17_game_ends_when_at_most_one_original_treasure() -> None:
    s = state(heads="rrrrrrrt", piles=["ttttttt", "", ""], hands=["rrrrrrrr"] * 3)
    play(s, "pass")
    assert kind(s) == "over"


def test_c18_scoring_treasures_are_wildcards_weakest_then_next() -> None:
    s = state(
        piles=[
            "ggggg" + "rrrrrrr" + "bbbbbb" + "kkkkk",
            "tggg" + "rrrr" + "bbbb" + "kkkk",
            "t" * 6,
        ],
        heads="rrrrrrrt",
        hands=["rrrrrrrr"] * 3,
    )
    play(s, "pass")
    out = s.outcome()
    assert out is not None
    assert out.totals[1] == (4, 4, 4, 4)  # the treasure went to the weakest colour (green)
    assert out.places == (1, 2, 3)


def test_c19_views_hide_hands_deck_removed_and_face_down_bridge() -> None:
    s = CARDS.new_game(2, 5)
    for seat in (0, 1, None):
        v = s.view(seat)
        text = str(v)
        assert "deck" not in v and v["deck_count"] == 139 and v["removed_count"] == 30
        assert "rng" not in v
        if seat is not None:
            assert v["hand"] == hand(s, seat)
        else:
            assert v["hand"] is None
        assert "hands" not in text


def test_c19_sampled_state_reproduces_the_view() -> None:
    s = state(
        columns=COLS3,
        leaders={(0, "T"): "1.0", (1, "T"): "2.0"},
        hands=["rgk", "ggg", "bk"],
        removed="",
    )
    play(s, "k1-2")
    for seat in (0, 1, 2):
        v = s.view(seat)
        t = CARDS.sample_from_view(v, Rng(seat))
        assert t.view(seat) == v
        if seat != 0:
            assert v["layout"]["bridges"][0] == "?"
