"""Tournaments between bots: seeded games in parallel processes, fair seat rotation,
every game kept as a replayable record, and a results table with confidence intervals
and ratings.

Game g (0-based) is dealt with seed `seed + g`; the entrants sit in rotation g mod n,
so with n players each entrant sits in each seat equally often over n games. Every
bot gets a seed derived from the tournament seed, the game and its seat, so a
tournament with iteration budgets replays exactly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from euphrates.bots.levels import make_bot
from euphrates.match.play import MAX_DECISIONS, UnfinishedGame, play_game
from euphrates.match.ratings import bradley_terry_elo, openskill_ratings, wilson


@dataclass
class GameResult:
    """One game's result; `places` is empty for a game stopped unfinished (it is left
    out of the table and counted apart)."""

    index: int
    entrants: list[str]  # by seat
    places: list[int]  # by seat
    weakest: list[int]  # weakest colour total by seat
    seconds: list[float]
    decisions: list[int]
    record_path: str | None
    iterations: list[int]


def seating(entrants: Sequence[str], players: int, game_index: int) -> list[str]:
    """Entrants by seat for game `game_index`: a rotation of the list."""
    r = game_index % players
    return [entrants[(s + r) % players] for s in range(players)]


def fill(bots: Sequence[str], players: int) -> list[str]:
    """One entrant per seat: the list as given, its last bot repeated to fill the seats."""
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    return list(bots) + [bots[-1]] * (players - len(bots))


def play_one(
    game: str,
    entrants: list[str],
    seed: int,
    index: int,
    options: dict[str, Any],
    out_dir: str | None,
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    seats = seating(entrants, len(entrants), index)
    bots = [make_bot(spec, seed=(seed * 1_000_003 + index) * 8 + s) for s, spec in enumerate(seats)]
    try:
        played = play_game(game, bots, seed + index, options, seats, max_decisions)
    except UnfinishedGame as stopped:
        path = None
        if out_dir is not None:
            path = os.path.join(out_dir, f"game-{index:05d}-unfinished.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(stopped.record.dumps())
        return GameResult(
            index, seats, [], [], [0.0] * len(seats), [0] * len(seats), path, [0] * len(seats)
        )
    out = played.state.outcome()
    assert out is not None
    path = None
    if out_dir is not None:
        path = os.path.join(out_dir, f"game-{index:05d}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(played.record.dumps())
    iterations = [int(getattr(b, "total_iterations", 0)) for b in bots]
    return GameResult(
        index,
        seats,
        list(out.places),
        [min(t) for t in out.totals],
        played.seconds,
        played.decisions,
        path,
        iterations,
    )


def run_tournament(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 1,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    out_dir: str | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    entrants = fill(bots, players)
    for spec in set(entrants):
        make_bot(spec)  # refuse a bad name before any game starts
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    results: list[GameResult] = []
    opts = dict(options or {})
    if jobs <= 1:
        for g in range(games):
            r = play_one(game, entrants, seed, g, opts, out_dir)
            results.append(r)
            if progress:
                progress(r)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(play_one, game, entrants, seed, g, opts, out_dir) for g in range(games)
            ]
            for fut in as_completed(futures):
                r = fut.result()
                results.append(r)
                if progress:
                    progress(r)
    results.sort(key=lambda r: r.index)
    return results


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
