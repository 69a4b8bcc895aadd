"""Quick match's pairing rule (matching.py): the window widening with the wait, the
closest rating first, the longest wait served first, and never across games."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from euphrates.server.features.quickmatch.matching import (
    ANY_AFTER,
    START_RATING,
    WINDOW_START,
    fits,
    pairs,
    window,
)
from euphrates.server.store.quickmatch import Waiting

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def w(user: int, rating: float, waited: float, at: datetime = T0, game: str = "board") -> Waiting:
    """A player who has waited `waited` seconds at `at`."""
    return Waiting(user, game, rating, at - timedelta(seconds=waited))


@pytest.mark.parametrize(
    ("waited", "expected"),
    [
        (0, 100),
        (9.9, 100),
        (10, 150),
        (19.99, 150),
        (20, 200),
        (35, 250),
        (50, 350),
        (59.9, 350),
        (60, None),
        (3600, None),
        (-1, 100),  # a clock a little behind: the narrowest window
    ],
)
def test_the_window_widens_by_50_every_10_seconds_and_is_any_after_60(
    waited: float, expected: float | None
) -> None:
    assert window(waited) == expected


def test_the_start_rating_is_the_scale_start() -> None:
    assert START_RATING == 1000
    assert WINDOW_START == 100


def test_a_pair_needs_the_window_of_the_one_who_waited_less() -> None:
    old = w(1, 1500, 45)  # its own window is 250
    new = w(2, 1700, 0)  # its own is 100
    assert not fits(old, new, T0)
    assert not pairs([old, new], T0)
    # Once the newcomer has waited 20 s (window 200), the 200 points fit.
    later = T0 + timedelta(seconds=20)
    assert fits(old, new, later)
    assert pairs([old, new], later) == [(old, new)]


def test_within_the_window_at_once_and_not_a_point_beyond() -> None:
    a, b, c = w(1, 1500, 0), w(2, 1600, 0), w(3, 1601, 0)
    assert fits(a, b, T0)
    assert not fits(a, c, T0)


def test_after_a_minute_any_rating_fits() -> None:
    a, b = w(1, 900, ANY_AFTER), w(2, 2400, ANY_AFTER)
    assert pairs([a, b], T0) == [(a, b)]
    assert not pairs([w(1, 900, ANY_AFTER), w(2, 2400, ANY_AFTER - 1)], T0)


def test_the_closest_rating_is_chosen() -> None:
    a = w(1, 1500, 30)
    far, near, nearer = w(2, 1580, 20), w(3, 1440, 20), w(4, 1510, 20)
    assert pairs([far, a, near, nearer], T0)[0] == (a, nearer)


def test_the_longest_wait_is_served_first() -> None:
    """Three players who all fit: the one who waited longest gets the closest, the
    third waits on."""
    first, second, third = w(1, 1500, 30), w(2, 1520, 20), w(3, 1505, 10)
    made = pairs([third, second, first], T0)
    assert made == [(first, third)]


def test_equal_distances_go_to_whoever_waited_longer() -> None:
    a = w(1, 1500, 30)
    older, newer = w(2, 1550, 20), w(3, 1450, 5)
    assert pairs([newer, a, older], T0) == [(a, older)]
    # Equal waits: by account, so every server and every pass agree.
    x, y = w(7, 1500, 10), w(5, 1500, 10)
    assert pairs([x, y], T0) == [(y, x)]


def test_fifo_many_players_each_paired_once() -> None:
    players = [w(i, 1500 + (i % 7) * 10, 60 - i) for i in range(1, 22)]
    made = pairs(players, T0)
    seen = [p.user_id for pair in made for p in pair]
    assert len(seen) == len(set(seen))
    assert len(made) == 10  # 21 players who all fit: one waits on
    left = {p.user_id for p in players} - set(seen)
    assert left == {21}, "the newest one waits, not an older one"


def test_never_across_games_or_with_oneself() -> None:
    a = w(1, 1500, 30, game="board")
    b = w(2, 1500, 30, game="cards")
    assert not pairs([a, b], T0)
    assert not fits(a, a, T0)


def simple_pairs(waiting: list[Waiting], at: datetime) -> list[tuple[Waiting, Waiting]]:
    """The rule as written: each in turn, longest wait first, takes the closest of
    those after it that fits (as close: the earlier)."""
    order = sorted(waiting, key=lambda x: (x.since, x.user_id))
    taken: set[int] = set()
    out = []
    for i, a in enumerate(order):
        if a.user_id in taken:
            continue
        fitting = [b for b in order[i + 1 :] if b.user_id not in taken and fits(a, b, at)]
        if fitting:
            best = min(fitting, key=lambda b: abs(a.rating - b.rating))  # first of equals
            taken |= {a.user_id, best.user_id}
            out.append((a, best))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_fast_pass_pairs_exactly_as_the_rule_says(seed: int) -> None:
    """Random pools — ratings on a coarse grid so that equal distances happen, waits
    across every window, both games — are paired exactly as the rule as written."""
    rng = random.Random(seed)
    pool = [
        w(
            i,
            1500 + 25 * rng.randint(-16, 16),
            rng.choice([0, 3, 9.5, 10, 25, 40, 59, 61, 200]) + rng.random() * (seed % 3),
            game=rng.choice(["board", "board", "cards"]),
        )
        for i in range(rng.randint(0, 60))
    ]
    assert pairs(pool, T0) == simple_pairs(pool, T0)
