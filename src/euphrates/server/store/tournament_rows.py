"""A tournament as plain values: its row with its entrants and tables, and the plan the
policy hands the store's claim (store/tournaments.py); the row's columns to and from
these values."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from euphrates.server.common.clock import ClockSpec
from euphrates.server.store.database import aware
from euphrates.server.store.rows import GameRow


@dataclass
class Entrant:
    user_id: int
    name: str
    rating: float
    joined_at: datetime
    left_round: int | None = None


@dataclass
class Table:
    round: int
    number: int
    game_id: str | None
    """None: a bye (one seat)."""
    seats: list[int | None]
    places: list[int] | None = None


@dataclass
class Tournament:
    id: str
    name: str
    game: str
    players: int
    options: dict[str, Any]
    clock: ClockSpec | None
    rated: bool
    bots: str | None
    format: str
    rounds: int
    late: bool
    most: int
    creator: int
    status: str
    starts_at: datetime
    created_at: datetime
    seed: int
    round: int = 0
    schedule: list[Any] | None = None
    ended_at: datetime | None = None
    creator_name: str = ""
    entrants: list[Entrant] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass
class Plan:
    """What the policy decided for a tournament due: its new status, round, planned
    rounds and schedule, the tables to write (with their games) and when it is due
    again (None: when a round's last game ends)."""

    status: str
    round: int
    rounds: int
    tables: list[tuple[Table, GameRow | None]] = field(default_factory=list)
    schedule: list[Any] | None = None
    wake_at: datetime | None = None


def values_of(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "players": t.players,
        "options": json.dumps(t.options, sort_keys=True),
        "clock": json.dumps(t.clock.to_json()) if t.clock is not None else None,
        "rated": t.rated,
        "bots": t.bots,
        "format": t.format,
        "rounds": t.rounds,
        "late": t.late,
        "most": t.most,
        "creator": t.creator,
        "status": t.status,
        "round": t.round,
        "seed": str(t.seed),
        "starts_at": t.starts_at,
        "wake_at": t.starts_at,
        "created_at": t.created_at,
    }


def tournament_of(r: Any) -> Tournament:
    return Tournament(
        id=r.id,
        name=r.name,
        game=r.game,
        players=r.players,
        options=json.loads(r.options),
        clock=ClockSpec.from_json(json.loads(r.clock)) if r.clock else None,
        rated=bool(r.rated),
        bots=r.bots,
        format=r.format,
        rounds=r.rounds,
        late=bool(r.late),
        most=r.most,
        creator=r.creator,
        status=r.status,
        starts_at=aware(r.starts_at),
        created_at=aware(r.created_at),
        seed=int(r.seed),
        round=r.round,
        schedule=json.loads(r.schedule) if r.schedule else None,
        ended_at=aware(r.ended_at) if r.ended_at is not None else None,
        creator_name=r.creator_name,
    )
