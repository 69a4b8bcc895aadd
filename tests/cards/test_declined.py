"""What a declined point tells (G-1): the public count of cards held since, and hands
imagined without the declined colour.

Every point is asked even when the hand cannot pay (G-1), and a player who can pay
nearly always does, so "point none" says the hand most likely holds none of the
colour. The state keeps, per player and colour, how many cards of the hand were held
at the last decline, at least (`declined`): it drops by one for every card leaving the
hand, whatever its colour, so it shows nothing a seat may not see (a face-down bridge's
colour, C-11); search deals those cards from the other colours.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from euphrates.cards import CARDS, CardsState
from euphrates.cards.actions import POINT_NONE
from euphrates.cards.views import sample_from_view
from euphrates.core.errors import RecordError
from euphrates.core.rng import Rng
from tests.cards.helpers import position

BLACK = 3


def _expected(before: list[list[int]], s: CardsState, sizes: list[int], events: Any) -> Any:
    """The rule, from the outside: a decline sets the count to the hand's size then (a
    decline moves no card; the end of turn may draw after it), and every card that left
    a hand (the hand's change plus what it drew) lowers each count by one."""
    drawn = [0] * s.players
    declined_by: tuple[int, int] | None = None
    for e in events:
        if e.kind == "draw":
            drawn[e.data["seat"]] += len(e.data["cards"])
        if e.kind == "point_declined":
            declined_by = (e.data["seat"], "rbgk".index(e.data["colour"]))
    out = []
    for p in range(s.players):
        left = sizes[p] - sum(s.hands[p]) + drawn[p]
        out.append([max(0, k - left) for k in before[p]])
    if declined_by is not None:
        p, c = declined_by
        out[p][c] = sizes[p]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_count_follows_declines_and_cards_leaving_hands_in_random_games(players: int) -> None:
    rng = Rng(40 + players)
    declines = bridges = 0
    for game in range(3):
        s = CARDS.new_game(players, 900 + game)
        while not s.is_over():
            before = [d[:] for d in s.declined]
            sizes = [sum(h) for h in s.hands]
            legal = s.legal_actions()
            # Decline more often than random play would, so the counts are exercised.
            action = POINT_NONE if POINT_NONE in legal and rng.below(2) else s.random_action(rng)
            declines += action == POINT_NONE
            events = s.apply(action)
            bridges += any(e.kind == "bridge" for e in events)
            assert s.declined == _expected(before, s, sizes, events)
            # Public: every seat and a spectator read the same counts, none above a hand.
            shown = [s.view(seat)["declined"] for seat in [None, *range(players)]]
            assert all(v == shown[0] for v in shown)
            assert shown[0] == [dict(zip("rbgk", d, strict=True)) for d in s.declined]
            assert all(max(d) <= sum(h) for d, h in zip(s.declined, s.hands, strict=True))
    assert declines > 10 and bridges > 0


def test_a_face_down_bridge_lowers_the_count_the_same_whatever_its_colour() -> None:
    """C-11: the bridge's colour is the layer's secret; the counts must not depend on it."""
    doc = position(
        players=3,
        columns=["rrr", "bbb", "", "", "", "", "", ""],
        hands=["rbgkrbgk", "rrbbggkk", "rrbbggkk"],
        leaders={(0, "K"): "1.0", (1, "K"): "2.0"},
    )
    doc["declined"][0] = {"r": 6, "b": 8, "g": 3, "k": 0}
    after = []
    for card in "rbgk":
        s = CARDS.from_position(doc)
        s.apply(f"{card}1-2")
        # The kings' war is pending, so the bridge still lies face down.
        assert s.down == 0 and s.gaps[0] == "rbgk".index(card)
        assert s.view(1)["layout"]["bridges"][0] == "?"
        after.append(s.declined[0])
        assert s.view(1)["declined"][0] == {"r": 5, "b": 7, "g": 2, "k": 0}
    assert all(d == after[0] for d in after)


def _declined_position(counts: dict[str, int], hand: str) -> dict[str, Any]:
    doc = position(players=3, hands=["rrbbggkk", hand, "rrbbggkk"])
    doc["declined"][1] = {"r": 0, "b": 0, "g": 0, "k": 0, **counts}
    return doc


def _black_in_samples(doc: dict[str, Any], redeal: bool) -> list[int]:
    s = CARDS.from_position(doc)
    view = s.view(0)
    rng = Rng(5)
    out = []
    for _ in range(300):
        if redeal:
            world = s.copy()
            world.redeal(0, rng)
        else:
            world = sample_from_view(view, rng)
        assert world.view(0) == view
        out.append(world.hands[1][BLACK])
    return out


@pytest.mark.parametrize("redeal", [False, True], ids=["sample_from_view", "redeal"])
def test_hands_are_imagined_without_a_declined_colour(redeal: bool) -> None:
    # Declined black with all eight cards: no imagined hand holds black.
    assert max(_black_in_samples(_declined_position({"k": 8}, "rrrbbggg"), redeal)) == 0
    # Five of the eight held since: at most the three new cards are black.
    partial = _black_in_samples(_declined_position({"k": 5}, "rrrbbggk"), redeal)
    assert max(partial) <= 3 and sum(partial) > 0
    # Nothing declined: black comes as often as chance gives it (40 of 185 unseen-ish).
    free = _black_in_samples(_declined_position({}, "rrrbbggk"), redeal)
    assert max(free) > 3 or sum(free) > sum(partial)


def test_two_declines_nest_the_oldest_cards_lack_both_colours() -> None:
    doc = _declined_position({"k": 3, "g": 6}, "rrrbbrbr")
    s = CARDS.from_position(doc)
    rng = Rng(9)
    for _ in range(300):
        world = sample_from_view(s.view(0), rng)
        hand = world.hands[1]
        assert hand[BLACK] <= 5 and hand[2] <= 2 and hand[BLACK] + hand[2] <= 5


def test_the_count_round_trips_through_a_position() -> None:
    doc = _declined_position({"k": 5, "r": 2}, "rrrbbggk")
    s = CARDS.from_position(doc)
    assert s.declined[1] == [2, 0, 0, 5]
    assert CARDS.to_position(s)["declined"] == doc["declined"]
    assert s.copy().declined == s.declined and s.copy().declined is not s.declined


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "position.declined must be a list"),
        ([{"r": 0, "b": 0, "g": 0, "k": 0}], "position.declined must list 3 entries"),
        ([{"r": 0, "b": 0, "g": 0}, *[{"r": 0, "b": 0, "g": 0, "k": 0}] * 2], "'k' is missing"),
        ([{"r": 9, "b": 0, "g": 0, "k": 0}] * 3, "position.declined[0].r"),
        ([{"r": 0, "b": 0, "g": 0, "k": True}] * 3, "position.declined[0].k must be an integer"),
    ],
)
def test_a_malformed_count_is_refused_by_name(value: object, message: str) -> None:
    doc = _declined_position({}, "rrrbbggk")
    doc["declined"] = value
    with pytest.raises(RecordError, match=re.escape(message)):
        CARDS.from_position(doc)


def test_a_count_above_the_hand_is_refused_with_the_ruling() -> None:
    doc = position(players=3, hands=["rrbbggkk", "rrb", "rrbbggkk"])
    doc["declined"][1]["k"] = 4
    with pytest.raises(RecordError, match=r"position\.declined\[1\].*3 \(G-1\)"):
        CARDS.from_position(doc)
