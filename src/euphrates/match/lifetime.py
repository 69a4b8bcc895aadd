"""What one ended game adds to its players' lifetime figures, from its stored facts:
the seats, the log (actions and undos), the notes of who left for good.

The server adds it up per account as each game ends (server/store/lifetime.py) and
its migration from the games already ended; both call these functions, so a figure
means the same wherever it was counted. Nothing here knows a database or an account
beyond its number.

- **Places** are the game's result as the table shows it (server/game/standing.py):
  the engine's order (equal results share a place, B-32, C-18) with every seat whose
  player left for good below everyone who stayed, the earliest to leave last. A duel
  ended by a player leaving has no result of the engine's: the one who stayed is first.
- **A win** is first place, shared or not.
- **The score** is the weakest colour's points with the treasures assigned (B-32,
  C-18: the final score in both games, `Outcome.weakest`); None when the engine has no
  result (a duel ended by leaving).
- **The counts** are match/stats.py's figures of the seat (revolts and wars won and
  lost as attacker and defender, monuments or ships built, treasures, catastrophes,
  tiles or cards laid, points per colour before wildcards), of the game as far as it
  was played.
- **An account at several seats** of one game (one screen, several seats claimed)
  counts the game once, by its best-placed seat (the lower seat on a tie); its other
  seats are not its opponents.
- **Opponents** are keyed: an account by its number (`u:12`), a bot by its level
  (`bot:strong`), every guest as one (`guest`). Per game each opponent counts once,
  by its best-placed seat: the account finished above it, below it or level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from euphrates.core.colours import COLOUR_NAMES
from euphrates.match.ratings import places_with_abandons
from euphrates.match.records import GameRecord
from euphrates.match.stats import CONFLICTS, COUNTS, OUTCOMES, game_stats

LEFT_FOR_GOOD: Final = ("resigned", "replaced", "left", "forfeited")
"""Notes of a person's seat handed to a bot for good (game/standing.py)."""

SUMMED: Final = (
    *(f"{c}_{o}" for c in CONFLICTS for o in OUTCOMES),
    *COUNTS,
    *(f"points_{c}" for c in COLOUR_NAMES),
)
"""The statistics summed over an account's games, one column each."""

GUEST: Final = "guest"


@dataclass(frozen=True)
class SeatFacts:
    """A seat as stored when the game ended: its kind, its bot's level, its account."""

    kind: str
    level: str | None
    user: int | None


@dataclass(frozen=True)
class SeatResult:
    place: int
    score: int | None
    counts: dict[str, int]


@dataclass(frozen=True)
class Meeting:
    """One game against one opponent: who finished above."""

    opponent: int | None
    """The opponent's account, if it is one."""
    above: int
    below: int
    tied: int


@dataclass
class Credit:
    """What one game adds to one account's figures."""

    user: int
    place: int
    won: bool
    score: int | None
    left: bool
    counts: dict[str, int]
    meetings: dict[str, Meeting] = field(default_factory=dict)


def standing(log: Iterable[tuple[str, str | None]]) -> list[str]:
    """The actions that stand, from the log's (kind, text) in version order: an undo
    takes back the last one."""
    actions: list[str] = []
    for kind, text in log:
        if kind == "undo":
            actions.pop()
        elif text is not None:
            actions.append(text)
    return actions


def seat_results(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    actions: Sequence[str],
    left: Sequence[int],
) -> list[SeatResult]:
    """Each seat's place, score and counts (the module's docstring); `left`: the seats
    whose player left for good, in the order they left."""
    record = GameRecord(game, players, seed, dict(options), actions=list(actions))
    state = record.new_game()
    for text in actions:
        state.apply(text)
    outcome = state.outcome()
    base = list(outcome.places) if outcome is not None else [1] * players
    places = places_with_abandons(base, list(left))
    stats = game_stats(record)
    return [
        SeatResult(
            places[s],
            outcome.weakest(s) if outcome is not None else None,
            flat_counts(stats["seats"][s]),
        )
        for s in range(players)
    ]


def flat_counts(seat: Mapping[str, Any]) -> dict[str, int]:
    """A seat's figures of match/stats.py as the SUMMED columns."""
    out: dict[str, int] = {}
    for c in CONFLICTS:
        for o in OUTCOMES:
            out[f"{c}_{o}"] = int(seat[c][o])
    for k in COUNTS:
        out[k] = int(seat[k])
    for colour in COLOUR_NAMES:
        out[f"points_{colour}"] = int(seat["points"][colour])
    return out


def opponent_key(seat: SeatFacts) -> str:
    if seat.user is not None:
        return f"u:{seat.user}"
    if seat.kind == "bot":
        return f"bot:{seat.level}"
    return GUEST


def credits(
    seats: Sequence[SeatFacts],
    results: Sequence[SeatResult],
    left: Sequence[int],
    accounts: Iterable[int],
) -> list[Credit]:
    """What the game adds for each of `accounts` (those seated that still exist), in
    the order of their numbers."""
    best: dict[str, int] = {}
    for s, seat in enumerate(seats):
        key = opponent_key(seat)
        if key not in best or (results[s].place, s) < (results[best[key]].place, best[key]):
            best[key] = s
    out = []
    for user in sorted(set(accounts)):
        own = best.get(f"u:{user}")
        if own is None:
            continue
        mine = results[own]
        meetings = {}
        for key, s in sorted(best.items()):
            if s == own:
                continue
            theirs = results[s].place
            meetings[key] = Meeting(
                seats[s].user,
                int(mine.place < theirs),
                int(mine.place > theirs),
                int(mine.place == theirs),
            )
        out.append(
            Credit(
                user,
                mine.place,
                mine.place == 1,
                mine.score,
                own in left,
                dict(mine.counts),
                meetings,
            )
        )
    return out
