"""Who sits with whom in a tournament's round, as plain arithmetic over the entrants
and the rounds already played (docs/tournaments.md).

- **Swiss**: the entrants in standing order are cut into tables of the tournament's
  size, each table the highest-placed entrant not yet seated with the nearest below
  it that it has not met; only when no such cut exists are repeats allowed, as few as
  possible. What does not fill a table is a bye for the lowest-placed entrants who
  have had none (or, where the creator allowed bots, a bot seat at the lowest tables).
- **Round robin**: a schedule fixed at the start. Duels follow the circle method
  (every pair meets exactly once in n − 1 rounds, n rounded up to even with a bye);
  tables of 3 or 4 come from a seeded search for the fewest rounds in which every
  pair meets at least once (6 entrants at tables of 3 need 4 rounds: 3 rounds cover
  at most 14 of the 15 pairs).
- **Seat order**: at every table the seats go to the permutation whose entrants have
  sat in those seats least often so far, so that over the rounds everyone moves first
  about as often as anyone (seat 0 moves first in both games).

Nothing here reads a clock or the database: the same entrants and history give the
same tables on every server.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Seat = int | None
"""An entrant's account id, or None for a bot's seat."""

SEARCH_NODES = 20_000
"""Tables tried by a Swiss round's search for a cut without repeats before it settles
for the fewest repeats (a few milliseconds; far more than 64 entrants ever need)."""
SCHEDULE_TRIES = 400
"""Random restarts per round count in a round robin's search for a schedule."""


@dataclass
class History:
    """What earlier rounds say about the entrants: how often each pair met, how often
    each entrant sat in each seat, who had a bye."""

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    seats: Counter[tuple[int, int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)

    @classmethod
    def of(cls, tables: Iterable[Sequence[Seat]], byes: Iterable[int] = ()) -> History:
        h = cls()
        for table in tables:
            h.add(table)
        for b in byes:
            h.byes[b] += 1
        return h

    def add(self, table: Sequence[Seat]) -> None:
        people = [p for p in table if p is not None]
        for a, b in itertools.combinations(people, 2):
            self.met[frozenset((a, b))] += 1
        for s, p in enumerate(table):
            if p is not None:
                self.seats[(p, s)] += 1

    def repeats(self, group: Sequence[int]) -> int:
        return sum(self.met[frozenset(pair)] for pair in itertools.combinations(group, 2))


@dataclass(frozen=True)
class Round:
    tables: list[list[Seat]]
    """Each table's seats in order (seat 0 first); None a bot's seat."""
    byes: list[int]


def seat_order(group: Sequence[Seat], history: History) -> list[Seat]:
    """The group in the seat order that repeats the fewest earlier seats (ties: the
    order given, that is standing order)."""
    best: tuple[int, ...] | None = None
    best_key: tuple[int, int] | None = None
    for order in itertools.permutations(range(len(group))):
        cost = sum(
            history.seats[(p, s)] for s, i in enumerate(order) if (p := group[i]) is not None
        )
        # Second: who moves first has done so least (a tie of totals is broken there).
        first = group[order[0]]
        lead = history.seats[(first, 0)] if first is not None else 0
        key = (cost, lead)
        if best_key is None or key < best_key:
            best, best_key = order, key
    assert best is not None
    return [group[i] for i in best]


def swiss(order: Sequence[int], size: int, history: History, bots: bool) -> Round:
    """A Swiss round for the entrants in standing order (best first)."""
    people = list(order)
    byes: list[int] = []
    extra = len(people) % size
    bot_seats = 0
    if extra and bots:
        bot_seats = size - extra
    elif extra:
        # The lowest-placed entrants who have had the fewest byes sit out.
        ranked = sorted(range(len(people)), key=lambda i: (history.byes[people[i]], -i))
        out = sorted(ranked[:extra])
        byes = [people[i] for i in out]
        people = [p for i, p in enumerate(people) if i not in set(out)]
    # With bots, the lowest tables are one person short each (a bot in their seat).
    tables_n = (len(people) + bot_seats) // size
    sizes = [size] * tables_n
    for t in range(bot_seats):
        sizes[tables_n - 1 - t % tables_n] -= 1
    groups = _cut(people, sizes, history)
    tables: list[list[Seat]] = []
    for group, n in zip(groups, sizes, strict=True):
        seats: list[Seat] = list(group) + [None] * (size - n)
        tables.append(seat_order(seats, history))
    return Round(tables, byes)


def _cut(people: list[int], sizes: list[int], history: History) -> list[list[int]]:
    """People cut into groups of `sizes`, in order, without a repeat if the search
    finds such a cut, else the greedy cut with the fewest repeats."""
    budget = [SEARCH_NODES]

    def search(rest: list[int], at: int) -> list[list[int]] | None:
        if at == len(sizes):
            return []
        head, others = rest[0], rest[1:]
        for combo in itertools.combinations(range(len(others)), sizes[at] - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            group = [head, *(others[i] for i in combo)]
            if history.repeats(group):
                continue
            left = [p for i, p in enumerate(others) if i not in combo]
            found = search(left, at + 1)
            if found is not None:
                return [group, *found]
        return None

    found = search(people, 0) if people else []
    if found is not None:
        return found
    out: list[list[int]] = []
    rest = list(people)
    for n in sizes:
        head, others = rest[0], rest[1:]
        best = min(
            itertools.combinations(range(len(others)), n - 1),
            key=lambda c: (history.repeats([head, *(others[i] for i in c)]), c),
        )
        out.append([head, *(others[i] for i in best)])
        rest = [p for i, p in enumerate(others) if i not in best]
    return out


def round_robin(entrants: Sequence[int], size: int, bots: bool, seed: int) -> list[Round]:
    """A round robin's whole schedule, seats in order. Entrants in entry order."""
    people = list(entrants)
    if size == 2:
        return [
            Round([_duel_order(t, people) for t in tables], byes)
            for tables, byes in _circle(people)
        ]
    history = History()
    out: list[Round] = []
    for tables, byes in _covering(people, size, bots, seed):
        seated = []
        for group in tables:
            table = seat_order(group, history)
            history.add(table)
            seated.append(table)
        out.append(Round(seated, byes))
    return out


def _duel_order(table: list[Seat], people: list[int]) -> list[Seat]:
    """Who moves first in a round robin's duel, so that everyone does so in half their
    games (an odd count exactly, an even one within one): numbered around a circle of
    an odd count m, the first is the one the other follows by 1 … (m − 1) / 2 places;
    with an even count the last entrant, outside the circle, moves first against the
    even-numbered."""
    a, b = table
    assert a is not None and b is not None
    i, j = people.index(a), people.index(b)
    m = len(people) - (1 - len(people) % 2)
    if j == m:
        return [b, a] if i % 2 == 0 else [a, b]
    if i == m:
        return [a, b] if j % 2 == 0 else [b, a]
    return [a, b] if 1 <= (j - i) % m <= (m - 1) // 2 else [b, a]


def _circle(people: list[int]) -> list[tuple[list[list[Seat]], list[int]]]:
    """The circle method: the first entrant stays, the others turn one place a round;
    an odd count adds a bye."""
    ring: list[int | None] = list(people)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    out: list[tuple[list[list[Seat]], list[int]]] = []
    for _ in range(n - 1):
        tables: list[list[Seat]] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
            else:
                tables.append([a, b])
        out.append((tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return out


def _covering(
    people: list[int], size: int, bots: bool, seed: int
) -> list[tuple[list[list[Seat]], list[int]]]:
    """The fewest rounds of tables of `size` in which every pair meets, by a seeded
    search (each round greedy for pairs not yet met, many restarts)."""
    n = len(people)
    pairs = n * (n - 1) // 2
    least = max(1, -(-(n - 1) // (size - 1)))
    rng = random.Random(seed)
    for rounds in range(least, least + 2 * n + 4):
        best: list[tuple[list[list[Seat]], list[int]]] | None = None
        for _ in range(SCHEDULE_TRIES):
            tried = _try_schedule(people, size, bots, rounds, rng)
            met = {frozenset(p) for r in tried for t in r[0] for p in _people_pairs(t)}
            if len(met) == pairs:
                best = tried
                break
        if best is not None:
            return best
    raise ValueError(f"no round robin schedule for {n} entrants at tables of {size}")


def _people_pairs(table: Sequence[Seat]) -> Iterable[tuple[int, int]]:
    return itertools.combinations([p for p in table if p is not None], 2)


def _try_schedule(
    people: list[int], size: int, bots: bool, rounds: int, rng: random.Random
) -> list[tuple[list[list[Seat]], list[int]]]:
    met: Counter[frozenset[int]] = Counter()
    byes_had: Counter[int] = Counter()
    out: list[tuple[list[list[Seat]], list[int]]] = []
    for _ in range(rounds):
        pool = list(people)
        rng.shuffle(pool)
        byes: list[int] = []
        extra = len(pool) % size
        if extra and not bots:
            pool.sort(key=lambda p: byes_had[p])  # stable: shuffled among equals
            byes, pool = pool[:extra], pool[extra:]
            for b in byes:
                byes_had[b] += 1
        bot_seats = (size - extra) % size if bots else 0
        count = (len(pool) + bot_seats) // size
        sizes = [size] * count
        for t in range(bot_seats):
            sizes[count - 1 - t % count] -= 1
        tables: list[list[Seat]] = []
        for want in sizes:
            head = pool.pop(0)
            group = [head]
            while len(group) < want:
                # The one who meets the fewest already met at this table (random ties).
                pick = min(pool, key=lambda p: sum(met[frozenset((p, q))] for q in group))
                pool.remove(pick)
                group.append(pick)
            for a, b in itertools.combinations(group, 2):
                met[frozenset((a, b))] += 1
            tables.append([*group, *([None] * (size - want))])
        out.append((tables, byes))
    return out
