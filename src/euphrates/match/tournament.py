"""Tournaments between bots: seeded games in job processes, fair seat rotation, every
game kept as a replayable record, and a results table with confidence intervals and
ratings.

The entrants sit in rotation g mod n in game g (0-based), so with n players each sits
in each seat equally often over n games. Game g is dealt with `seeds.game_seed(base,
g)` and the bot in seat s gets `seeds.bot_seed(base, g, s)`: one-way hashes, so no bot
can work its way back to the deal, and a tournament with iteration budgets replays
exactly from its base seed.

The host of a game (a job process, or this one with `jobs=1`) holds the true state;
every bot plays in a worker process of its own (`bots.remote`) and sees only views.
Each job keeps one worker per seat from game to game (the workers keep nothing
between decisions). With an output directory a tournament can be continued: see
`match.store`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from euphrates.bots.levels import make_bot
from euphrates.bots.remote import WorkerProcess
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import check_players, check_seed
from euphrates.core.seeds import fresh_seed
from euphrates.games import game_definition
from euphrates.match.hosting import GameResult, PlayedOne, Setup, play_one, seat_workers
from euphrates.match.jobs import run_in_jobs
from euphrates.match.play import MAX_DECISIONS
from euphrates.match.ratings import bradley_terry_elo, openskill_ratings, wilson
from euphrates.match.store import Store, check_manifest, read_manifest

MAX_GAMES = 1_000_000
"""The most games one tournament plays: the list of games to play is made before the
first, and a million games of the quickest bots already take days."""
MAX_JOBS = 64
"""The most job processes at once (each with a bot worker per seat)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a tournament; `results` holds every game finished so far."""

    def __init__(self, results: list[GameResult]) -> None:
        super().__init__()
        self.results = results


def fill(bots: Sequence[str], players: int) -> list[str]:
    """One entrant per seat: the list as given, its last bot repeated to fill the seats."""
    if not bots:
        raise ArgumentError("name at least one bot")
    if len(bots) > players:
        raise ArgumentError(f"{len(bots)} bots for {players} seats")
    return list(bots) + [bots[-1]] * (players - len(bots))


def tournament_seed(out_dir: str | None, seed: int | None) -> int:
    """The base seed: `seed` if given, else the one of the tournament being continued in
    `out_dir`, else a fresh one (print it: it is what repeats the run)."""
    if seed is not None:
        return check_seed(seed)
    found = read_manifest(out_dir) if out_dir is not None else None
    if found is not None and isinstance(found.get("seed"), int):
        return int(found["seed"])
    return fresh_seed()


def check_setup(game: str, players: int, bots: Sequence[str], games: int, jobs: int) -> list[str]:
    """The entrants by seat, once every argument is known to be good (one-line errors)."""
    game_definition(game)
    check_players(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArgumentError(f"--games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise ArgumentError(f"--games must be at most {MAX_GAMES}, not {games}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError(f"--jobs must be at least 1, not {jobs}")
    if jobs > MAX_JOBS:
        raise ArgumentError(f"--jobs must be at most {MAX_JOBS}, not {jobs}")
    entrants = fill([b.strip() for b in bots], players)
    for spec in set(entrants):
        make_bot(spec)  # refuse a bad name or budget before any game starts
    return entrants


def prepare(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    jobs: int = 1,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    out_dir: str | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> Setup:
    """The tournament's setup, once every argument is known to be good and `out_dir`
    (if any) is new or holds this same tournament."""
    entrants = check_setup(game, players, bots, games, jobs)
    base = tournament_seed(out_dir, seed)
    setup = Setup(game, players, tuple(entrants), base, dict(options or {}), max_decisions)
    if out_dir is not None:
        check_manifest(out_dir, setup.to_json())
    return setup


def run_tournament(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    out_dir: str | None = None,
    progress: Callable[[GameResult], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> list[GameResult]:
    """Games 0 … games-1 (those not already in `out_dir`), in `jobs` job processes.
    Ctrl-C raises `Interrupted` with the games finished so far."""
    setup = prepare(game, players, bots, games, jobs, seed, options, out_dir, max_decisions)
    store = None if out_dir is None else Store(out_dir, setup.to_json())
    results: dict[int, GameResult] = {}
    if store is not None:
        for index, doc in store.finished().items():
            if index < games:
                results[index] = GameResult.from_json(doc, store.record_path(doc["record"]))
    for r in sorted(results.values(), key=lambda r: r.index):
        if progress:
            progress(r)

    def keep(played: PlayedOne) -> None:
        result = played.result
        if store is not None:
            store.add(result.to_json(), played.record_name, played.record_text)
            result.record_path = store.record_path(played.record_name)
        results[result.index] = result
        if progress:
            progress(result)

    todo = [g for g in range(games) if g not in results]
    try:
        if jobs <= 1 or len(todo) <= 1:
            _run_here(setup, todo, keep)
        else:
            run_in_jobs(setup, todo, jobs, keep)
    except KeyboardInterrupt:
        raise Interrupted(sorted(results.values(), key=lambda r: r.index)) from None
    return sorted(results.values(), key=lambda r: r.index)


def _run_here(setup: Setup, todo: Sequence[int], keep: Callable[[PlayedOne], None]) -> None:
    """This process hosts the games; one worker per seat serves every game."""
    workers: list[WorkerProcess] = []
    try:
        for index in todo:
            seat_workers(workers, setup.players)
            keep(play_one(setup, index, workers))
    finally:
        for w in workers:
            w.close(grace=0.5)


def summarise(results: Sequence[GameResult], players: int) -> list[dict[str, Any]]:
    """One row per bot name: games, wins (shared first places split), win rate with a
    95 % interval, mean weakest-colour score, rating, thinking time and iterations."""
    names = sorted({e for r in results for e in r.entrants})
    rows: dict[str, dict[str, Any]] = {
        n: {
            "bot": n,
            "games": 0,
            "wins": 0.0,
            "weakest": 0.0,
            "seconds": 0.0,
            "decisions": 0,
            "iterations": 0,
        }
        for n in names
    }
    pairwise: list[tuple[str, str, float]] = []
    multi: list[tuple[list[str], list[int]]] = []
    for r in results:
        if not r.places:
            continue  # unfinished
        firsts = [s for s, p in enumerate(r.places) if p == 1]
        for s, name in enumerate(r.entrants):
            row = rows[name]
            row["games"] += 1
            if s in firsts:
                row["wins"] += 1.0 / len(firsts)
            row["weakest"] += r.weakest[s]
            row["seconds"] += r.seconds[s]
            row["decisions"] += r.decisions[s]
            row["iterations"] += r.iterations[s]
        if players == 2:
            a, b = r.entrants
            score = 1.0 if r.places[0] < r.places[1] else 0.0 if r.places[0] > r.places[1] else 0.5
            pairwise.append((a, b, score))
        else:
            multi.append((r.entrants, r.places))
    if len(names) > 1:
        ratings = (
            bradley_terry_elo(names, pairwise) if players == 2 else openskill_ratings(names, multi)
        )
    else:
        ratings = dict.fromkeys(names, 1500.0 if players == 2 else 0.0)
    out = []
    for n in names:
        row = rows[n]
        g = row["games"]
        lo, hi = wilson(row["wins"], g)
        out.append(
            {
                "bot": n,
                "games": g,
                "wins": round(row["wins"], 2),
                "win_rate": round(row["wins"] / g, 4) if g else 0.0,
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_weakest": round(row["weakest"] / g, 2) if g else 0.0,
                "rating": round(ratings[n], 1),
                "seconds_per_decision": round(row["seconds"] / max(row["decisions"], 1), 4),
                "iterations_per_second": round(row["iterations"] / row["seconds"])
                if row["iterations"]
                else None,
            }
        )
    return out


def results_json(rows: list[dict[str, Any]]) -> str:
    keys = ("bot", "games", "wins", "win_rate", "ci95", "rating")
    return json.dumps({"results": [{k: r[k] for k in keys} for r in rows]})
