"""Features of a position as one seat sees it: numbers read from that seat's view only.

The value model (`bots.value`) learns a seat's chance of winning from these, so they
must be what the seat may know, and nothing else: they are computed from the JSON view
(`state.view(seat)`), never from a state, and every field they read is public or the
viewer's own (G-3): the point piles through the public record of scoring (`scored` in
the card game, `score_log` on the board), leaders on the table, hand sizes, the deck or
bag, catastrophes, the viewer's own hand. A test deals the hidden cards and tiles
differently and checks that the features stay the same.

Each feature compares the viewer with the best placed opponent (the one whose weakest
colour, treasures filled in, is highest; C-18, B-36), so one model serves every
player count; `progress` (0 at the start, 1 when the deck or bag is empty) and its
products with the margins let the model learn that a lead counts more late.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from euphrates.core.protocol import View

COLOURS = ("red", "blue", "green", "black")
LETTERS = "rbgk"
CARDS_DECK = 121.0  # a two-player deal's deck after the hands; a scale, not a rule
BOARD_BAG = 153.0  # tiles in the bag at the start, less two hands of six

NAMES = (
    "bias",
    "weakest",
    "second",
    "third",
    "strongest",
    "points",
    "leaders",
    "hand",
    "catastrophes",
    "own_hand_red",
    "progress",
    "weakest_late",
    "second_late",
    "to_move",
    "players",
)
"""What each feature is, in order (the model's weights follow this order)."""


def _filled(counts: Sequence[float], wild: float) -> list[float]:
    """Colour totals sorted weakest first, each wildcard given to the weakest at the
    time (how treasures count at the end, C-18, B-36)."""
    totals = sorted(counts)
    for _ in range(int(wild)):
        totals[0] += 1
        totals.sort()
    return totals


class _Seat:
    __slots__ = ("catastrophes", "hand", "leaders", "totals")

    def __init__(self, totals: list[float], leaders: float, hand: float, cats: float) -> None:
        self.totals = totals
        self.leaders = leaders
        self.hand = hand
        self.catastrophes = cats


def _cards_seats(view: View) -> tuple[list[_Seat], float, float]:
    seats = []
    hand_counts = view["hand_counts"]
    for s, pile in enumerate(view["scored"]):
        counts = [float(pile.count(letter)) for letter in LETTERS]
        leaders = sum(1 for spot in view["leaders"][s].values() if spot is not None)
        cats = 1.0 if view["catastrophes"][s] else 0.0
        seats.append(_Seat(_filled(counts, pile.count("t")), leaders, hand_counts[s], cats))
    own = view.get("hand") or ""
    progress = 1.0 - min(1.0, view["deck_count"] / CARDS_DECK)
    return seats, progress, float(own.count("r"))


def _board_seats(view: View) -> tuple[list[_Seat], float, float]:
    points = [[0.0] * 4 for _ in view["seats"]]
    for seat, colour, n, _reason in view["score_log"]:
        points[seat][COLOURS.index(colour)] += n
    seats = []
    for s, seat in enumerate(view["seats"]):
        leaders = sum(1 for spot in seat["leaders"].values() if spot is not None)
        hand: Mapping[str, Any] = seat["hand"]
        size = hand["count"] if "count" in hand else sum(hand[c] for c in COLOURS)
        totals = _filled(points[s], seat["treasures"])
        seats.append(_Seat(totals, leaders, float(size), float(seat["catastrophes"])))
    viewer = view["viewer"]
    own = view["seats"][viewer]["hand"] if viewer is not None else {}
    progress = 1.0 - min(1.0, view["bag"]["count"] / BOARD_BAG)
    return seats, progress, float(own.get("red", 0))


class _Reading(NamedTuple):
    """How the features read one game's view: its seats, progress and the viewer's red
    (`seats`), and whose turn it is when the view names no pending decision, as a
    search's view of an imagined state does not (`active`)."""

    seats: Callable[[View], tuple[list[_Seat], float, float]]
    active: Callable[[View], int]


READINGS: dict[str, _Reading] = {
    "board": _Reading(_board_seats, lambda view: int(view["turn"]["active"])),
    "cards": _Reading(_cards_seats, lambda view: int(view["active"])),
}
"""Each game's reading, by the name its views carry (`view["game"]`): the value model's
own knowledge of the views, kept with the features it feeds."""


def _reading(view: View) -> _Reading:
    game = view.get("game")
    reading = READINGS.get(game) if isinstance(game, str) else None
    if reading is None:
        raise ValueError(f"no features for the game {game!r}")
    return reading


def _to_move(view: View, reading: _Reading) -> int | None:
    decision = view.get("decision")
    if isinstance(decision, Mapping):
        return int(decision["seat"])
    return reading.active(view)


def features(view: View) -> list[float]:
    """The features (`NAMES`) of `view` for its viewer, who must be a seat."""
    viewer = view["viewer"]
    if not isinstance(viewer, int):
        raise ValueError("features are a seat's: a spectator's view has no viewer")
    reading = _reading(view)
    seats, progress, red = reading.seats(view)
    me = seats[viewer]
    best = max(
        (s for i, s in enumerate(seats) if i != viewer),
        key=lambda s: (s.totals[0], s.totals[1], s.totals[2], s.totals[3]),
    )
    margin = [a - b for a, b in zip(me.totals, best.totals, strict=True)]
    return [
        1.0,
        *margin,
        sum(me.totals) - sum(best.totals),
        me.leaders - best.leaders,
        (me.hand - best.hand) / 6.0,
        me.catastrophes - best.catastrophes,
        red / 6.0,
        progress,
        margin[0] * progress,
        margin[1] * progress,
        1.0 if _to_move(view, reading) == viewer else 0.0,
        (len(seats) - 2) / 2.0,
    ]
