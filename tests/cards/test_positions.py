"""Positions no game can reach are refused, naming the field and the ruling.

Each case takes a real position (a random game's state at the decision kind concerned),
breaks one invariant and expects a RecordError whose message names the field and the
ruling; every reachable state still loads and round-trips."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from euphrates.cards import CARDS, CardsState
from euphrates.cards.position import from_position, to_position
from euphrates.core.errors import RecordError
from euphrates.core.rng import Rng

from .helpers import ACTION_PENDING, find, kind_is, position

Doc = dict[str, Any]
COLS3 = ["rgb", "kkb", "bgr", "ggk", "rbk", "kgb", "bbr", "grk"]


@cache
def _doc(name: str) -> str:
    """A reachable position of each kind, kept as text so cases cannot share changes."""
    import json

    preds: dict[str, Callable[[CardsState], bool]] = {
        "action": kind_is("action"),
        "revolt": kind_is("commit", conflict_type="revolt"),
        "revolt_defender": lambda s: (
            kind_is("commit", conflict_type="revolt")(s) and s.att_commit >= 0
        ),
        "war": kind_is("commit", conflict_type="war"),
        "column_point": kind_is("point", reason="column"),
        "revolt_point": kind_is("point", reason="revolt"),
        "war_point": kind_is("point", reason="war"),
        "war_order": kind_is("war_order"),
        "exchange": kind_is("exchange"),
        "ship": kind_is("ship"),
        "ship_point": kind_is("ship_point"),
        "over": kind_is("over"),
    }
    return json.dumps(to_position(find(preds[name])))


def doc(name: str) -> Doc:
    import json

    d: Doc = json.loads(_doc(name))
    return d


def refused(d: Any, *needles: str) -> str:
    with pytest.raises(RecordError) as e:
        from_position(d)
    text = str(e.value)
    for needle in needles:
        assert needle in text, text
    return text


def _leader(d: Doc, seat: int, letter: str) -> str | None:
    where: str | None = d["leaders"][seat][letter]
    return where


# --- every reachable state loads ------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_random_games_round_trips(players: int) -> None:
    """The strict reader accepts every state a game reaches, every decision kind."""
    kinds: set[str] = set()
    for seed in range(2):
        s = CARDS.new_game(players, 300 + seed)
        rng = Rng(seed)
        while True:
            assert from_position(to_position(s)) == s
            d = s.decision()
            kinds.add("over" if d is None else d.kind)
            if s.is_over():
                break
            s.apply(s.random_action(rng))
    assert {"action", "commit", "point", "over"} <= kinds


@pytest.mark.parametrize(
    "name",
    [
        "action",
        "revolt",
        "revolt_defender",
        "war",
        "column_point",
        "revolt_point",
        "war_point",
        "war_order",
        "exchange",
        "ship",
        "ship_point",
        "over",
    ],
)
def test_each_decision_kind_loads_unchanged(name: str) -> None:
    d = doc(name)
    assert to_position(from_position(d)) == d


# --- the cases of the issue, as given -------------------------------------------------------
@pytest.mark.parametrize("hand", ["r" * 18, "rbgk" * 25])
def test_a_hand_of_more_than_eight_cards_is_refused(hand: str) -> None:
    d = position(hands=[hand, "", ""])
    refused(d, "position.hands[0]", f"{len(hand)} cards", "C-3")


def test_a_hand_over_eight_even_when_the_deck_makes_up_for_it() -> None:
    d = position(hands=["rrrrrrrr", "", ""])
    d["hands"][0] += "r"
    d["deck"] = d["deck"].replace("r", "", 1)
    refused(d, "position.hands[0]", "at most 8", "C-3")


def test_a_revolt_of_a_leader_against_itself_or_a_wrong_rival_is_refused() -> None:
    d = doc("revolt")
    conflict = d["pending"]["conflict"]
    attacker = dict(conflict["attacker"])
    d1 = copy.deepcopy(d)
    d1["pending"]["conflict"]["defender"] = dict(attacker)
    refused(d1, "position.pending.conflict", "itself", "G-5")
    other = "K" if attacker["leader"] != "K" else "P"
    d2 = copy.deepcopy(d)
    d2["pending"]["conflict"]["defender"] = {"seat": conflict["defender"]["seat"], "leader": other}
    refused(d2, "position.pending.conflict", "one colour", "C-10")
    d3 = copy.deepcopy(d)
    own = {"seat": attacker["seat"], "leader": attacker["leader"]}
    d3["pending"]["conflict"]["defender"] = own
    d3["pending"]["conflict"]["attacker"] = dict(conflict["defender"])
    d3["pending"]["seat"] = conflict["defender"]["seat"]
    del d3["pending"]["context"]
    refused(d3, "position.pending.conflict.attacker", "active player", "C-10")


def test_a_revolt_between_two_leaders_of_one_player_is_refused() -> None:
    """G-5: the two leaders of a conflict belong to two players, also in a hand-built
    position where one player would own two priests."""
    d = position(columns=COLS3, leaders={(0, "P"): "1.0", (1, "P"): "1.1"}, hands=["rr", "", ""])
    d["pending"] = {
        **ACTION_PENDING,
        "kind": "commit",
        "seat": 0,
        "colour": "r",
        "conflict": {
            "type": "revolt",
            "attacker": {"seat": 0, "leader": "P"},
            "defender": {"seat": 0, "leader": "P"},
            "attacker_base": 1,
            "defender_base": 0,
            "attacker_commit": None,
            "defender_commit": None,
            "attacker_side": [1, 1],
            "defender_side": [1, 1],
            "spoils_side": None,
            "winner": None,
        },
    }
    refused(d, "position.pending.conflict", "G-5")


@pytest.mark.parametrize(
    ("path", "value", "needle"),
    [
        (("options", "open_piles"), "no", "position.options.open_piles must be true or false"),
        (("options", "open_piles"), 0, "position.options.open_piles must be true or false"),
        (("catastrophes", 0), "no", "position.catastrophes[0] must be true or false"),
        (("catastrophes", 0), 1, "position.catastrophes[0] must be true or false"),
        (("pending", "seat"), "1", "position.pending.seat must be an integer"),
        (("pending", "seat"), 1.0, "position.pending.seat must be an integer"),
        (("pending", "seat"), True, "position.pending.seat must be an integer"),
        (("active",), "1", "position.active must be an integer"),
        (("players",), 3.0, "position.players must be an integer"),
        (("version",), "17", "position.version must be an integer"),
        (("actions_left",), True, "position.actions_left must be an integer"),
        (("format",), True, "position.format must be an integer"),
        (("rng",), -1, "position.rng must lie in 0..18446744073709551615"),
        (("rng",), 1 << 64, "position.rng must lie in 0..18446744073709551615"),
        (("rng",), 2.5, "position.rng must be an integer"),
    ],
)
def test_values_are_never_coerced(path: tuple[Any, ...], value: Any, needle: str) -> None:
    d = position(hands=["rrr", "gg", ""])
    target: Any = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    refused(d, needle)


KINDS = (
    "action",
    "revolt",
    "revolt_defender",
    "war",
    "column_point",
    "war_order",
    "exchange",
    "ship",
    "ship_point",
    "over",
)


def test_no_field_with_a_meaning_may_be_left_out() -> None:
    """A missing field is refused, never read as a default: without `open_piles` a game
    of open piles read as closed ones (C-9), without `reason` a war point as a column
    point. Only `pending.context`, derived from the rest and checked when given, may be
    left out (as the board's `bordered_treasures`)."""
    d = doc("action")
    del d["options"]["open_piles"]
    refused(d, "position.options", "'open_piles' is missing")
    for name in KINDS:
        for key in [k for k in doc(name)["pending"] if k != "context"]:
            d = doc(name)
            del d["pending"][key]
            refused(d, "position.pending", f"{key!r} is missing")
        d = doc(name)
        del d["pending"]["context"]
        assert to_position(from_position(d)) == doc(name)
    for name in ("revolt", "revolt_defender", "war", "war_point"):
        for key in doc(name)["pending"]["conflict"]:
            d = doc(name)
            del d["pending"]["conflict"][key]
            refused(d, "position.pending.conflict", f"{key!r} is missing")


def _numbers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], int]]:
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _numbers(v, (*path, k))]
    if isinstance(value, list):
        return [n for i, v in enumerate(value) for n in _numbers(v, (*path, i))]
    if type(value) is int:
        return [(path, value)]
    return []


def test_the_context_s_numbers_are_never_coerced() -> None:
    """`true` is no 1, `false` no 0 and `2.0` no 2 in `pending.context` either, though
    Python's `==` says they are."""
    tried = 0
    for name in KINDS:
        for path, n in _numbers(doc(name)["pending"]["context"]):
            for value in ([bool(n)] if n in (0, 1) else []) + [float(n)]:
                d = doc(name)
                target: Any = d["pending"]["context"]
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = value
                refused(d, "position.pending.context")
                tried += 1
    assert tried >= 20


def test_conflict_numbers_are_never_coerced() -> None:
    for key, value in [("attacker_base", "3"), ("defender_base", 1.0), ("attacker_base", True)]:
        d = doc("revolt")
        d["pending"]["conflict"][key] = value
        refused(d, f"position.pending.conflict.{key} must be an integer")
    d = doc("revolt_defender")
    d["pending"]["conflict"]["attacker_commit"] = "1"
    refused(d, "position.pending.conflict.attacker_commit must be an integer")
    d = doc("revolt")
    d["pending"]["conflict"]["attacker"]["seat"] = "0"
    refused(d, "position.pending.conflict.attacker.seat must be an integer")
    d = doc("war")
    d["pending"]["conflict"]["attacker_side"] = ["1", "2"]
    refused(d, "position.pending.conflict.attacker_side[0] must be an integer")
    d = doc("column_point")
    d["pending"]["ship_column"] = float(d["pending"]["ship_column"])
    refused(d, "position.pending.ship_column must be an integer")


# --- material --------------------------------------------------------------------------------
def test_every_card_is_accounted_for() -> None:
    d = doc("action")
    d["deck"] = d["deck"][1:]
    refused(d, "does not account for every card", "C-1")
    d = doc("action")
    d["piles"][0] += "t"
    refused(d, "treasure cards 9", "C-1")


def test_columns_hold_at_most_eight_cards() -> None:
    d = position(columns=["rrrrrrrrr"], deck=None)
    refused(d, "position.layout.columns[0]", "9 cards", "C-2")


def test_every_built_ship_lies_in_the_layout_once() -> None:
    d = position(columns=["r[bk]"], ships=["br", "bg"])
    d["ships"] = ["br"]
    refused(d, "bg", "C-15")
    d = position(columns=["r[bk]"], ships=["br", "bg"])
    d["ships"] = ["br", "bg", "bk"]
    refused(d, "position.ships offers the ship bk", "C-15")
    d = position(columns=["r[bk]", "[bk]"], ships=["br", "bg"])
    refused(d, "lies in the layout twice", "C-1")
    d = position(columns=["r"], ships=["br", "bg", "bk"])
    d["ships"] = ["br", "br", "bk"]
    refused(d, "position.ships names br twice")


def test_removed_cards_catastrophes_and_original_heads() -> None:
    d = position(players=2, hands=["", ""])
    refused(d, "position.removed holds 0 cards; a 2-player game removes 30", "C-3")
    d = position(hands=["", "", ""], removed="rrr")
    refused(d, "position.removed holds 3 cards; a 3-player game removes 0", "C-3")
    d = position(hands=["", "", ""], out="g")
    refused(d, "position.out holds 1 cards but 0 catastrophes", "C-7")
    d = position(hands=["", "", ""], catastrophes=[False, True, True])
    refused(d, "position.out holds 0 cards but 1 catastrophes", "C-7")
    d = position(hands=["", "", ""], heads="rrrrrrrr", piles=["tttttttt", "", ""])
    refused(d, "position.layout.heads", "C-14")


# --- leaders ---------------------------------------------------------------------------------
def test_leaders_stand_on_distinct_cards_that_can_hold_them() -> None:
    d = position(columns=COLS3, leaders={(0, "P"): "1.2", (1, "T"): "1.2"})
    refused(d, "position.leaders[1].T", "already carries position.leaders[0].P", "C-5")
    d = position(columns=COLS3, leaders={(0, "P"): "1.5"})
    refused(d, "position.leaders[0].P", "no card in row 5", "C-5")
    d = position(columns=["r[bk]"], leaders={(0, "P"): "1.2"}, ships=["br", "bg"])
    refused(d, "position.leaders[0].P", "ship", "C-5")
    d = position(columns=COLS3, leaders={(0, "P"): "1-2"})
    refused(d, "position.leaders[0].P", "holds no bridge", "C-5")
    d = position(columns=COLS3, leaders={(0, "P"): "9.1"})
    refused(d, "position.leaders[0].P", "is not a spot")
    d = position(columns=COLS3, leaders={(0, "P"): "1.²"})
    refused(d, "position.leaders[0].P", "is not a spot")


def test_no_leader_stands_on_the_face_down_bridge() -> None:
    d = doc("war")
    gap = d["layout"]["face_down"]
    conflict = d["pending"]["conflict"]
    fighting = [(x["seat"], x["leader"]) for x in (conflict["attacker"], conflict["defender"])]
    seat, letter = next(
        (p, k) for p, entry in enumerate(d["leaders"]) for k in entry if (p, k) not in fighting
    )
    d["leaders"][seat][letter] = gap
    refused(d, f"position.leaders[{seat}].{letter}", "face-down bridge", "C-11")


def test_two_leaders_of_one_colour_share_a_kingdom_only_in_their_conflict() -> None:
    d = position(columns=COLS3, leaders={(0, "T"): "1.1", (1, "T"): "1.2"})
    refused(d, "position.leaders[1].T", "kingdom of columns 1-1", "C-10")


# --- the pending decision --------------------------------------------------------------------
def test_a_conflict_belongs_to_commit_and_won_point_decisions_only() -> None:
    d = doc("action")
    d["pending"]["conflict"] = doc("revolt")["pending"]["conflict"]
    refused(d, "position.pending.conflict", "action decision has no conflict")
    d = doc("revolt")
    d["pending"]["conflict"] = None
    refused(d, "position.pending.conflict", "needs the conflict")


def test_base_strengths_are_what_the_layout_gives() -> None:
    for name in ("revolt", "war", "war_point"):
        d = doc(name)
        d["pending"]["conflict"]["defender_base"] += 1
        if "context" in d["pending"]:
            del d["pending"]["context"]
        refused(d, "position.pending.conflict.defender_base", "C-1")


def test_a_revolt_is_red_its_attacker_active_and_its_leaders_in_one_kingdom() -> None:
    d = doc("revolt")
    d["pending"]["colour"] = "g"
    refused(d, "position.pending.colour", "red", "C-10")
    d = doc("revolt")
    d["active"] = (d["active"] + 1) % d["players"]
    refused(d, "position.pending.conflict.attacker", "active player", "C-10")
    d = doc("revolt")
    conflict = d["pending"]["conflict"]
    lid = conflict["defender"]
    d["leaders"][lid["seat"]][lid["leader"]] = _free_card_far(d, conflict)
    del d["pending"]["context"]
    refused(d, "position.pending.conflict", "one kingdom", "C-10")


def _free_card_far(d: Doc, conflict: Doc) -> str:
    """A free column card outside the attacker's kingdom (columns differ, no bridges
    between them assumed: the case needs only some card outside)."""
    a = conflict["attacker"]
    at = d["leaders"][a["seat"]][a["leader"]]
    col = int(at[0])
    taken = {w for entry in d["leaders"] for w in entry.values() if w}
    for c, cards in enumerate(d["layout"]["columns"], 1):
        if abs(c - col) < 2:
            continue
        for r, card in enumerate(cards, 1):
            if len(card) == 1 and f"{c}.{r}" not in taken:
                return f"{c}.{r}"
    raise AssertionError("no card far away")


def test_a_war_names_its_sides_attacker_and_wars_as_the_layout_gives() -> None:
    d = doc("war")
    conflict = d["pending"]["conflict"]
    conflict["attacker"], conflict["defender"] = conflict["defender"], conflict["attacker"]
    conflict["attacker_side"], conflict["defender_side"] = (
        conflict["defender_side"],
        conflict["attacker_side"],
    )
    conflict["attacker_base"], conflict["defender_base"] = (
        conflict["defender_base"],
        conflict["attacker_base"],
    )
    d["pending"]["seat"] = conflict["attacker"]["seat"]
    del d["pending"]["context"]
    refused(d, "position.pending.conflict.attacker", "clockwise", "C-11")
    d = doc("war")
    d["pending"]["conflict"]["attacker_side"] = [1, 8]
    refused(d, "position.pending.conflict.attacker_side", "C-12")
    d = doc("war")
    d["pending"]["colour"] = "r" if d["pending"]["colour"] != "r" else "g"
    refused(d, "position.pending.colour", "C-12")
    d = doc("war")
    d["pending"]["wars"] = d["pending"]["wars"] + d["pending"]["colour"]
    refused(d, "position.pending.wars", "C-11")


def test_the_face_down_bridge_lies_only_while_its_wars_are_pending() -> None:
    d = doc("war")
    d["layout"]["face_down"] = None
    refused(d, "position.layout.face_down", "C-11")
    d = doc("action")
    gaps = [g for g, b in enumerate(d["layout"]["bridges"]) if b is not None]
    if gaps:
        d["layout"]["face_down"] = f"{gaps[0] + 1}-{gaps[0] + 2}"
        refused(d, "position.layout.face_down", "C-11")
    d = doc("war")
    gap = int(d["layout"]["face_down"][0]) - 1
    d["deck"] += d["layout"]["bridges"][gap]
    d["layout"]["bridges"][gap] = None
    refused(d, "position.layout.face_down", "holds no bridge", "C-11")


def test_the_war_order_is_asked_only_between_two_or_more_wars() -> None:
    d = doc("war_order")
    d["pending"]["wars"] = d["pending"]["wars"][:1]
    refused(d, "position.pending.wars", "C-11")
    d = position(columns=COLS3, hands=["g", "", ""])
    d["pending"] = {**ACTION_PENDING, "kind": "war_order", "seat": 0, "wars": "g"}
    refused(d, "position.layout.face_down", "C-11")


def test_a_point_after_a_conflict_goes_to_its_winner_when_nothing_was_committed() -> None:
    d = doc("revolt_point")
    c = d["pending"]["conflict"]
    loser = c["attacker"]["seat"] if c["winner"] == c["defender"]["seat"] else c["defender"]["seat"]
    c["winner"] = loser
    d["pending"]["seat"] = loser
    refused(d, "position.pending.conflict.winner", "C-10")
    d = doc("war_point")
    d["pending"]["conflict"]["attacker_commit"] = 1
    d["deck"] = d["deck"].replace(d["pending"]["colour"], "", 1)
    refused(d, "position.pending.conflict", "nothing was committed")


def test_a_column_point_is_the_right_colour_and_seat() -> None:
    d = doc("column_point")
    d["pending"]["seat"] = (d["pending"]["seat"] + 1) % d["players"]
    refused(d, "position.pending.seat", "C-9")
    d = doc("column_point")
    d["pending"]["colour"] = "r" if d["pending"]["colour"] != "r" else "b"
    del d["pending"]["context"]
    refused(d, "position.pending.colour", "C-9")


def test_an_exchange_needs_the_trader_and_two_originals() -> None:
    d = doc("exchange")
    d["pending"]["seat"] = (d["pending"]["seat"] + 1) % d["players"]
    refused(d, "position.pending.seat", "trader", "C-14")
    d = doc("exchange")
    seat = d["pending"]["seat"]
    d["leaders"][seat]["T"] = None
    refused(d, "position.pending.seat", "C-14")


def test_ship_options_are_real_runs_of_four() -> None:
    d = doc("ship")
    col = d["pending"]["ship_column"]
    d["pending"]["ship_column"] = col % 8 + 1
    del d["pending"]["context"]
    refused(d, "position.pending.ship_options", "C-15")
    d = doc("action")
    d["pending"].update({"kind": "ship", "ship_column": 1, "ship_options": ["bk"]})
    del d["pending"]["context"]
    refused(d, "position.pending.ship_options", "allows the ships []", "C-15")


def test_ship_points_are_a_tail_of_those_due() -> None:
    d = doc("ship_point")
    d["pending"]["ship_points"] = "rbgk"
    d["pending"]["colour"] = "r"
    del d["pending"]["context"]
    refused(d, "position.pending.ship_points", "C-16")


def test_fields_appear_exactly_where_the_decision_needs_them() -> None:
    d = doc("action")
    d["pending"]["wars"] = "g"
    refused(d, "position.pending.wars")
    d = doc("action")
    d["pending"]["ship_points"] = "g"
    refused(d, "position.pending.ship_points")
    d = doc("action")
    d["pending"]["exchange_gap"] = "1-2"
    refused(d, "position.pending.exchange_gap")
    d = doc("action")
    d["pending"]["colour"] = "g"
    refused(d, "position.pending.colour")
    d = doc("action")
    d["pending"]["reason"] = "war"
    refused(d, "position.pending.reason")
    d = doc("action")
    d["actions_left"] = 0
    refused(d, "position.actions_left")
    d = doc("action")
    d["pending"]["seat"] = (d["active"] + 1) % d["players"]
    refused(d, "position.pending.seat", "active player")
    d = doc("over")
    d["pending"]["seat"] = 0
    refused(d, "position.pending.seat must be null")


def test_the_context_must_match_and_fields_must_be_known() -> None:
    d = doc("revolt")
    d["pending"]["context"]["attacker_strength"] += 5
    refused(d, "position.pending.context does not match")
    d = doc("action")
    d["catastrophe"] = d.pop("catastrophes")
    refused(d, "position: the field 'catastrophes' is missing")
    d = doc("action")
    d["extra"] = 1
    refused(d, "position: unknown field 'extra'")
    d = doc("revolt")
    d["pending"]["conflict"]["colour"] = "r"
    refused(d, "position.pending.conflict: unknown field 'colour'")
    refused([1, 2], "position must be an object")
    refused({"game": "board"}, "not of the card game")
