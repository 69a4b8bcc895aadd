"""A tournament's standings from its tables' results, as plain arithmetic
(docs/tournaments.md).

**Place points.** At a table of k seats an entrant earns k − 1 points for the first
place, k − 2 for the second … 0 for the last; entrants sharing places (B-32, C-18: equal
results share a place) share the points of the places they cover (a shared first at a
duel: ½ each). A bye is worth a win (k − 1), as a bye is in chess. A seat whose player
left the game (resigned, forfeited) is placed below everyone who stayed, as the ratings
place it (docs/fair-play.md).

**Tiebreaks**, in this order:
1. *Buchholz*: for each game, the mean final score of the entrant's opponents at that
   table (bots' seats aside), summed over the games — at a duel, the opponent's score,
   exactly chess's Buchholz;
2. *median Buchholz*: the same without the highest and the lowest game (with 3 games or
   more);
3. wins (first places, shared ones included);
4. the rating at entry, then the account (a fixed order every server agrees on).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    """One table of a round: its seats (an account, None a bot) and their places
    (1 best); `places` None while it is played."""

    round: int
    seats: Sequence[int | None]
    places: Sequence[int] | None


@dataclass
class Standing:
    user: int
    score: float = 0.0
    buchholz: float = 0.0
    median: float = 0.0
    wins: int = 0
    played: int = 0
    byes: int = 0
    rank: int = 0
    games: list[tuple[float, list[int]]] = field(default_factory=list)
    """(points, the opponents) per game played: what the tiebreaks read."""


def place_points(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place at a table, shared places sharing."""
    k = len(places)
    out = []
    for p in places:
        better = sum(1 for q in places if q < p)
        tied = sum(1 for q in places if q == p)
        out.append(k - 1 - better - (tied - 1) / 2)
    return out


def standings(
    entrants: Iterable[tuple[int, float]],
    results: Iterable[Result],
    byes: Iterable[tuple[int, int]],
    size: int,
) -> list[Standing]:
    """The standings, best first, of `entrants` (account, rating at entry) from the
    tables that ended and the byes given (round, account)."""
    rating = dict(entrants)
    table: dict[int, Standing] = {u: Standing(u) for u in rating}
    for r in results:
        if r.places is None:
            continue
        points = place_points(r.places)
        people = [u for u in r.seats if u is not None]
        best = min(r.places)
        for seat, user in enumerate(r.seats):
            if user is None or user not in table:
                continue
            s = table[user]
            s.score += points[seat]
            s.played += 1
            s.wins += r.places[seat] == best
            s.games.append((points[seat], [u for u in people if u != user]))
    for _round, user in byes:
        if user in table:
            table[user].score += size - 1
            table[user].byes += 1
    for s in table.values():
        per_game = [
            sum(table[o].score for o in opponents if o in table) / len(opponents)
            for _points, opponents in s.games
            if opponents
        ]
        s.buchholz = sum(per_game)
        s.median = sum(sorted(per_game)[1:-1]) if len(per_game) >= 3 else s.buchholz
    order = sorted(
        table.values(),
        key=lambda s: (-s.score, -s.buchholz, -s.median, -s.wins, -rating[s.user], s.user),
    )
    for i, s in enumerate(order):
        s.rank = i + 1
    return order


def by_round(results: Iterable[Result]) -> dict[int, list[Result]]:
    out: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        out[r.round].append(r)
    return dict(out)
