"""The bots' fixed ratings: the levels play tournaments against each other and their
OpenSkill (Plackett–Luce) ratings are written to a data file shipped in the package,
on the scale the server rates people on (server/ratings.py).

A rated game against a bot then counts: the bot's rating is read from this file and
never changes, and a newcomer (μ 25, σ 25/3) who beats or loses to a bot whose σ the
ladder has narrowed moves a long way in one game, as a first rating should.

A field of levels is played as lineups: with two players every pair of levels, with
more every combination of that many levels (the levels repeated when there are fewer
levels than seats), each lineup for `games` games with the tournament's seat rotation.
The games of all lineups are rated in one sequence, interleaved lineup by lineup, so no
lineup's games all come last.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from euphrates.bots.levels import LEVELS
from euphrates.core.errors import ArgumentError
from euphrates.match.hosting import GameResult
from euphrates.match.ratings import Rating, group_of, rate_game
from euphrates.match.tournament import run_tournament

LADDER_FILE = Path(__file__).resolve().parent.parent / "bots" / "ratings.json"
"""Where the shipped ratings live: {"ratings": {game: {group: {level: {mu, sigma,
games}}}}, "runs": [how each entry was measured]}."""


def lineups(levels: Sequence[str], players: int) -> list[list[str]]:
    """The lineups a ladder plays (see the module's docstring)."""
    if len(levels) < 2:
        raise ArgumentError("a ladder needs at least two levels")
    if len(set(levels)) != len(levels):
        raise ArgumentError("name each level once")
    for level in levels:
        if level not in LEVELS:
            raise ArgumentError(f"unknown level {level!r}: levels are {', '.join(LEVELS)}")
    if len(levels) >= players:
        return [list(c) for c in itertools.combinations(levels, players)]
    return [list(levels) + [levels[i]] * (players - len(levels)) for i in range(len(levels))]


def fit(results: Sequence[Sequence[GameResult]]) -> dict[str, dict[str, Any]]:
    """Each level's μ and σ after rating every finished game (one list of results per
    lineup, interleaved). Seats of one level in one game update that level by their
    mean, as in `match.ratings.openskill_ratings`."""
    ratings: dict[str, Rating] = {}
    games: dict[str, int] = {}
    for round_ in itertools.zip_longest(*results):
        for r in round_:
            if r is None or not r.places:
                continue
            before = [ratings.setdefault(e, Rating()) for e in r.entrants]
            after = rate_game(before, list(r.places))
            sums: dict[str, list[Rating]] = {}
            for e, new in zip(r.entrants, after, strict=True):
                sums.setdefault(e, []).append(new)
            for e, news in sums.items():
                mu = sum(n.mu for n in news) / len(news)
                sigma = sum(n.sigma for n in news) / len(news)
                ratings[e] = Rating(mu, sigma)
                games[e] = games.get(e, 0) + 1
    return {
        e: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "games": games[e]}
        for e, r in sorted(ratings.items())
    }


def run_ladder(
    game: str,
    players: int,
    levels: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
) -> tuple[dict[str, dict[str, Any]], int]:
    """Play every lineup for `games` games (lineup i with base seed `seed + i`) and fit
    the levels' ratings; returns them and the number of games finished."""
    per_lineup = []
    for i, lineup in enumerate(lineups(levels, players)):
        per_lineup.append(
            run_tournament(
                game, players, lineup, games, seed=seed + i, jobs=jobs, progress=progress
            )
        )
    played = sum(1 for rs in per_lineup for r in rs if r.places)
    return fit(per_lineup), played


@cache
def shipped() -> dict[str, Any]:
    """The shipped ratings: {game: {group: {level: {mu, sigma, games}}}}."""
    ratings: dict[str, Any] = read().get("ratings", {})
    return ratings


def read(path: Path = LADDER_FILE) -> dict[str, Any]:
    if not path.exists():
        return {"ratings": {}, "runs": []}
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


def write(
    path: Path,
    game: str,
    players: int,
    fitted: dict[str, dict[str, Any]],
    run: dict[str, Any],
) -> dict[str, Any]:
    """Put one ladder's ratings into the file (replacing that game and group's), with
    how they were measured."""
    doc = read(path)
    group = group_of(players)
    doc.setdefault("ratings", {}).setdefault(game, {})[group] = fitted
    runs = [r for r in doc.get("runs", []) if (r["game"], r["group"]) != (game, group)]
    runs.append({"game": game, "group": group, **run})
    doc["runs"] = sorted(runs, key=lambda r: (r["game"], r["group"]))
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    return doc
