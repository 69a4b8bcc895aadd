"""The worked examples of the German rulebook, replayed as positions and actions.

Seats stand for the rulebook's dynasties; each test says which is which.
"""

from __future__ import annotations

from euphrates.cards import CardsState

from .helpers import column, hand, leader_at, pile, play, state


def kind(s: CardsState) -> str:
    d = s.decision()
    return "over" if d is None else d.kind


def test_example_trader_on_red_card_scores_a_green_point() -> None:
    # lion = seat 0: the trader onto the red card, then a green card below it
    s = state(columns=["r"], hands=["ggrrkkbb", "", ""])
    play(s, "T1.1", "g1")
    d = s.decision()
    assert d is not None and (d.seat, d.kind, d.context["colour"]) == (0, "point", "green")
    play(s, "point g")  # the second action ends the turn: the hand is refilled
    assert pile(s, 0) == "g" and hand(s, 0).startswith("rrbb") and s.active == 1


def test_example_king_as_joker_scores_two_green_points() -> None:
    # lion = seat 0: the king has stood in a kingdom without a trader for some time
    s = state(columns=["rk"], leaders={(0, "K"): "1.2"}, hands=["ggggrrkk", "", ""])
    play(s, "g1", "point g", "g1", "point g")
    assert pile(s, 0) == "gg" and hand(s, 0).startswith("rrk") and "g" not in hand(s, 0)


def test_example_bridge_then_treasure_card_exchanged_for_red_card() -> None:
    # lion = seat 0 lays the black card between two treasure cards; its trader is in
    # the new kingdom, so it replaces one treasure card by a red card from hand
    s = state(columns=["rgb", "bkr"], leaders={(0, "T"): "2.2"}, hands=["krr", "", ""])
    play(s, "k1-2")
    d = s.decision()
    assert d is not None and (d.seat, d.kind) == (0, "exchange")
    play(s, "exchange 1")
    assert s.orig[0] is False and pile(s, 0) == "t" and hand(s, 0) == "r"
    assert kind(s) == "action"  # one treasure card must stay in the kingdom


def test_example_catastrophe_on_blue_bridge_splits_the_kingdom() -> None:
    s = state(
        columns=["rgk", "gkr"],
        bridges=["b", None, None, None, None, None, None],
        leaders={(1, "K"): "2.0"},
        hands=["gg", "", ""],
    )
    play(s, "g1")
    assert (kind(s), s.seat) == ("point", 1)  # one kingdom: seat 1's king scores green
    play(s, "point none", "x1-2")
    assert s.gaps[0] == -1 and s.out == [0, 1, 0, 0]
    assert not s.cats[0]
    play(s, "pass")  # two kingdoms again: a green card in 1 scores for no one
    s2 = s.copy()
    s2.active = s2.seat = 0
    s2.actions_left = 2
    play(s2, "g1")
    assert kind(s2) == "action"


def test_example_revolt_a_to_e() -> None:
    # lion = seat 0 (trader on a red card, one red card in hand), bow = seat 1 (active)
    s = state(
        columns=["krg"],
        leaders={(0, "T"): "1.2"},
        hands=["rbb", "rrrk", ""],
        active=1,
    )
    play(s, "T1.3")  # (A) bow's trader into the kingdom: a revolt, lion leads 1 : 0
    d = s.decision()
    assert d is not None and d.context["defender_strength"] == 1
    play(s, "commit 3")  # (B) 3 : 1
    d = s.decision()
    assert d is not None and (d.seat, d.context["attacker_commit"]) == (0, 3)
    play(s, "commit 0")  # (C) lion keeps its red card
    assert pile(s, 1) == "r" and s.discard[0] == 2  # (D) bow keeps one played red card
    assert leader_at(s, 0, "T") is None  # (E) lion takes its trader back
    assert leader_at(s, 1, "T") == "1.3" and hand(s, 0) == "rbb"


def test_example_war_a_to_e_then_the_red_war() -> None:
    # vase = seat 0 (active), lion = seat 1, bull = seat 2: lion sits before bull
    # clockwise from vase. Kingdom 1 = columns 1-2 joined by a green bridge, with lion's
    # trader and lion's priest; kingdom 2 = column 3 (its head already a red card) with
    # bull's trader and vase's priest.
    s = state(
        heads="ttrttttt",
        piles=["", "", "t"],
        columns=["gbk", "rkg", "kgb"],
        bridges=["g", None, None, None, None, None, None],
        leaders={(1, "T"): "1.0", (1, "P"): "2.1", (2, "T"): "3.0", (0, "P"): "3.1"},
        hands=["gr", "gg", "gggg"],
    )
    play(s, "g2-3")  # (A) two wars, green and red
    d = s.decision()
    assert d is not None and (d.seat, d.kind, sorted(d.context["wars"])) == (
        0,
        "war_order",
        ["green", "red"],
    )
    play(s, "war g")  # vase picks the green war, where it is not involved
    d = s.decision()
    assert d is not None and d.context["attacker"] == 1 and d.context["defender"] == 2
    assert (d.context["attacker_strength"], d.context["defender_strength"]) == (3, 1)
    play(s, "commit 2")  # (B) 5 : 1
    play(s, "commit 4")  # (C) 5 : 5, the defender wins
    # (D) one played green card, then the three green cards of kingdom 1, to bull
    assert pile(s, 2) == "t" + "g" + "ggg"
    assert s.discard[2] == 5
    # (E) the blue and black cards move up, lion's trader returns, kingdom 1 splits
    assert column(s, 1) == "bk" and column(s, 2) == "rk"
    assert leader_at(s, 1, "T") is None and s.gaps[0] == -1
    # now the red war: vase (active, involved) attacks lion
    d = s.decision()
    assert d is not None and d.kind == "commit" and d.context["colour"] == "red"
    assert (d.context["attacker"], d.context["defender"]) == (0, 1)
    assert (d.context["attacker_strength"], d.context["defender_strength"]) == (1, 2)
    play(s, "commit 1", "commit 0")  # 2 : 2, lion defends
    assert leader_at(s, 0, "P") is None and pile(s, 1) == "r"
    # the bridge turns face up; bull's trader may not exchange: one original treasure card
    assert s.down == -1 and s.gaps[1] == 2
    assert kind(s) == "action" and s.actions_left == 1


def test_example_ship_blue_black_then_king_scores_black_at_end_of_turn() -> None:
    # bull = seat 0 appends the 4th blue card and builds the blue-black ship; its king
    # in this kingdom may then pay one black card at the end of each of its turns
    s = state(columns=["rbbb"], leaders={(0, "K"): "1.1"}, hands=["bkk", "", ""])
    play(s, "b1")
    assert (kind(s), s.seat) == ("point", 0)  # the king as joker for blue
    play(s, "point none")
    assert kind(s) == "ship"
    play(s, "ship bk")
    assert column(s, 1) == "r[bk]" and leader_at(s, 0, "K") == "1.1"
    play(s, "pass")
    d = s.decision()
    assert d is not None and (d.kind, d.context["colour"]) == ("ship_point", "black")
    play(s, "point k")
    assert pile(s, 0) == "k" and s.active == 1


def test_example_scoring_table_the_bow_player_wins() -> None:
    # green, red, blue, black as in the rulebook's table; seat 0 = bow, 1 = lion,
    # 2 = bull, 3 = vase. The game ends because the deck cannot refill seat 0.
    table = [(5, 7, 6, 5), (6, 4, 6, 6), (4, 9, 5, 6), (9, 7, 8, 3)]
    piles = ["g" * g + "r" * r + "b" * b + "k" * k for g, r, b, k in table]
    s = state(
        players=4,
        piles=piles,
        hands=["rrrrrrr", "rrrrrrrr", "rrrrrrrr", "rrrrrrrr"],
        rest="discard",
    )
    play(s, "pass")
    out = s.outcome()
    assert out is not None
    assert out.places == (1, 2, 3, 4)
    assert out.ranking == (0, 1, 2, 3)
