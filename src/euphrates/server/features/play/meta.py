"""What the server offers and how it is: games, options, levels, assets, health."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euphrates.bots.levels import LEVELS
from euphrates.games import GAMES
from euphrates.match.ladder import shipped
from euphrates.match.ratings import group_of
from euphrates.server.common.clock import MISSES
from euphrates.server.common.config import Settings
from euphrates.server.features.api import PLAYERS, refusals
from euphrates.server.features.deps import RoomsDep, ServicesDep
from euphrates.server.features.fairplay.fairplay import ABORT_LIMIT, VACATION_DAYS
from euphrates.server.features.play.schemas import AssetsOut, HealthOut, MapOut, MetaOut
from euphrates.server.game.lifecycle import MIN_DECISIONS
from euphrates.server.store.fairplay import MARKS_KEPT
from euphrates.server.store.ratings import PAIR_LIMIT

router = APIRouter(tags=["server"], responses=refusals())


@router.get("/api/meta", response_model=MetaOut)
async def meta(services: ServicesDep) -> dict[str, Any]:
    """The games, their options, the numbers of players and the bots' levels; and
    each game's description (`definitions`: its title, options with their defaults,
    players, how its seats are marked), from which a lobby offers every game without
    knowing any by name. `rated_levels`: the levels a rated game seats, by game and
    player-count group; `fair_play`: the figures of docs/fair-play.md as this server
    keeps them."""
    return {
        "games": {name: list(definition.options) for name, definition in GAMES.items()},
        "players": PLAYERS,
        "levels": list(LEVELS),
        "definitions": {name: definition.describe() for name, definition in GAMES.items()},
        "rated_levels": rated_levels(),
        "fair_play": fair_play(services.settings),
    }


def rated_levels() -> dict[str, dict[str, list[str]]]:
    """The bots' levels with a measured rating (the ladder's file, match/ladder.py), in
    the levels' order, by game and player-count group: a rated game seats no other."""
    measured = shipped()
    groups = sorted({group_of(n) for definition in GAMES.values() for n in definition.players})
    return {
        name: {
            group: [level for level in LEVELS if level in measured.get(name, {}).get(group, {})]
            for group in groups
            if any(group_of(n) == group for n in definition.players)
        }
        for name, definition in GAMES.items()
    }


def fair_play(settings: Settings) -> dict[str, Any]:
    """The fair-play rules' figures, each from where the server keeps it."""
    return {
        "min_decisions": MIN_DECISIONS,
        "abort_limit": ABORT_LIMIT,
        "pair_limit": PAIR_LIMIT,
        "forfeit_grace": settings.forfeit_grace,
        "misses": MISSES,
        "vacation_days": VACATION_DAYS,
        "marks_days": MARKS_KEPT.days,
        "hints_per_minute": settings.hints_per_minute,
    }


@router.get("/api/assets", response_model=dict[str, AssetsOut], response_model_exclude_none=True)
async def assets() -> dict[str, Any]:
    """What each game's clients need to draw it besides the views, by game (the
    board's two sides; nothing for the card game)."""
    return {name: definition.assets() for name, definition in GAMES.items()}


@router.get("/api/maps", response_model=dict[str, MapOut])
async def maps() -> dict[str, Any]:
    """The board's sides (board-map.md): river, temple and bordered-treasure
    squares, so a client draws exactly the engine's board. The `maps` of
    `/api/assets`, kept where the browser reads them."""
    out: dict[str, Any] = {}
    for definition in GAMES.values():
        out.update(definition.assets().get("maps", {}))
    return out


@router.get("/api/health", response_model=HealthOut)
async def health(rooms: RoomsDep) -> dict[str, Any]:
    """Liveness, and what the load test reports: memory, rooms and clients."""
    return {"ok": True, "rss_mb": rss_mb(), **rooms.stats()}


def rss_mb() -> float:
    """Resident memory of this process (Linux), for the load test's report."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0
