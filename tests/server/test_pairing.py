"""A tournament's pairings and standings as arithmetic (features/tournaments/), each
checked another way: a Swiss round against every possible cut of the entrants, a
round robin against the pairs it must cover, place points against a hand count."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from euphrates.server.features.tournaments.pairing import History, round_robin, swiss
from euphrates.server.features.tournaments.standings import Result, place_points, standings


def cuts(people: list[int], size: int) -> Iterator[list[tuple[int, ...]]]:
    """Every way to cut `people` into tables of `size` (brute force)."""
    if not people:
        yield []
        return
    head, rest = people[0], people[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for more in cuts(left, size):
            yield [(head, *others), *more]


def random_history(rng: random.Random, people: list[int], size: int, rounds: int) -> History:
    h = History()
    for _ in range(rounds):
        pool = people[:]
        rng.shuffle(pool)
        for i in range(0, len(pool), size):
            h.add(pool[i : i + size])
    return h


@pytest.mark.parametrize(("n", "size"), [(6, 2), (8, 2), (6, 3), (9, 3), (8, 4)])
def test_a_swiss_round_repeats_nobody_when_some_cut_does_not(n: int, size: int) -> None:
    rng = random.Random(n * 10 + size)
    people = list(range(n))
    for trial in range(60):
        history = random_history(rng, people, size, rng.randrange(0, 3))
        order = people[:]
        rng.shuffle(order)
        made = swiss(order, size, history, bots=False)
        assert not made.byes
        tables = [[p for p in t if p is not None] for t in made.tables]
        assert sorted(p for t in tables for p in t) == people
        fewest = min(sum(history.repeats(t) for t in cut) for cut in cuts(people, size))
        got = sum(history.repeats(t) for t in tables)
        if fewest == 0:
            assert got == 0, (trial, tables)
        # The leader always sits with the best-placed entrants it can meet anew.
        assert order[0] in tables[0]


def test_the_first_swiss_round_pairs_by_the_standing_order() -> None:
    made = swiss(list(range(8)), 2, History(), bots=False)
    assert [sorted(p for p in t if p is not None) for t in made.tables] == [
        [0, 1],
        [2, 3],
        [4, 5],
        [6, 7],
    ]


def test_byes_go_to_the_lowest_placed_who_had_none() -> None:
    h = History()
    made = swiss(list(range(7)), 2, h, bots=False)
    assert made.byes == [6]
    h = History.of([], [6])
    assert swiss(list(range(7)), 2, h, bots=False).byes == [5]
    made = swiss(list(range(8)), 3, History(), bots=False)
    assert made.byes == [6, 7] and len(made.tables) == 2


def test_bots_fill_the_lowest_tables_one_seat_each() -> None:
    made = swiss(list(range(7)), 3, History(), bots=True)
    assert not made.byes
    bots = [sum(1 for s in t if s is None) for t in made.tables]
    assert bots == [0, 1, 1]


def test_seat_order_balances_who_moves_first() -> None:
    h = History()
    people = list(range(8))
    rng = random.Random(3)
    for _ in range(7):
        order = people[:]
        rng.shuffle(order)
        for t in swiss(order, 2, h, bots=False).tables:
            h.add(t)
    first = Counter(p for (p, s), n in h.seats.items() if s == 0 for _ in range(n))
    counts = [first[p] for p in people]
    assert max(counts) - min(counts) <= 2, counts


@pytest.mark.parametrize("n", [2, 5, 6, 8, 11])
def test_a_round_robin_of_duels_meets_each_pair_once(n: int) -> None:
    rounds = round_robin(list(range(n)), 2, bots=False, seed=1)
    assert len(rounds) == n - 1 + n % 2
    met = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [p for t in r.tables for p in t] + r.byes
        assert sorted(seated) == list(range(n))  # type: ignore[type-var]
    first = Counter(t[0] for r in rounds for t in r.tables)
    assert max(first.values()) - min(first.get(p, 0) for p in range(n)) <= 1


@pytest.mark.parametrize(("n", "size", "rounds"), [(6, 3, 4), (9, 3, 4), (8, 4, 3), (7, 3, None)])
def test_a_round_robin_at_bigger_tables_covers_every_pair(
    n: int, size: int, rounds: int | None
) -> None:
    made = round_robin(list(range(n)), size, bots=False, seed=7)
    pairs = {
        frozenset(p)
        for r in made
        for t in r.tables
        for p in itertools.combinations([q for q in t if q is not None], 2)
    }
    assert len(pairs) == n * (n - 1) // 2
    if rounds is not None:
        assert len(made) == rounds
    # 6 entrants at tables of 3 cannot do it in 3 rounds: a round covers 6 pairs of 15,
    # and after a first round's two tables the 9 pairs across need 2 per table at most.
    if (n, size) == (6, 3):
        best = max(
            len({frozenset(p) for cut in three for t in cut for p in itertools.combinations(t, 2)})
            for three in itertools.combinations(list(cuts(list(range(6)), 3)), 3)
        )
        assert best < 15


def test_place_points_share_the_places_they_cover() -> None:
    assert place_points([1, 2]) == [1.0, 0.0]
    assert place_points([1, 1]) == [0.5, 0.5]
    assert place_points([2, 1, 3]) == [1.0, 2.0, 0.0]
    assert place_points([1, 1, 3]) == [1.5, 1.5, 0.0]
    assert place_points([1, 2, 2, 4]) == [3.0, 1.5, 1.5, 0.0]


def test_standings_and_buchholz_by_hand() -> None:
    # Round 1: A beats B, C beats D. Round 2: A beats C, B and D draw.
    results = [
        Result(1, [1, 2], [1, 2]),
        Result(1, [3, 4], [1, 2]),
        Result(2, [1, 3], [1, 2]),
        Result(2, [2, 4], [1, 1]),
    ]
    table = standings([(1, 1000), (2, 1000), (3, 1000), (4, 1000)], results, [], 2)
    by = {s.user: s for s in table}
    assert [by[u].score for u in (1, 2, 3, 4)] == [2.0, 0.5, 1.0, 0.5]
    # Buchholz: the opponents' scores. A met B (0.5) and C (1); C met D (0.5) and A (2).
    assert by[1].buchholz == 1.5 and by[3].buchholz == 2.5
    assert by[2].buchholz == 2.5 and by[4].buchholz == 1.5  # B: A 2 + D 0.5
    assert [s.user for s in table] == [1, 3, 2, 4]
    assert by[1].wins == 2 and by[2].wins == 1  # a shared first counts
