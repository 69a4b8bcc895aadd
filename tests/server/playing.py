"""Playing a game's first moves over HTTP, each seat deciding for itself, until every
person's seat has made the decisions that make a rated game count (docs/fair-play.md)."""

from __future__ import annotations

import time
from typing import Any

from euphrates.server.game.lifecycle import MIN_DECISIONS
from tests.server.people import Person


def game_doc(person: Person, gid: str, token: str | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = person.get(f"/api/games/{gid}", token=token).json()
    return doc


def play_decisions(
    gid: str,
    players: dict[int, Person],
    least: int = MIN_DECISIONS,
    tokens: dict[int, str] | None = None,
    timeout: float = 120,
) -> dict[int, int]:
    """Each seat of `players` (seat → its person, signed in to the seat's account or
    holding its token) makes `least` decisions of its own — the first legal action of
    its view each time, waiting while others (or bots) decide. Returns the decisions
    made by seat; stops early if the game ends."""
    made = dict.fromkeys(players, 0)
    deadline = time.monotonic() + timeout
    while min(made.values()) < least:
        assert time.monotonic() < deadline, made
        moved = False
        for seat, person in players.items():
            token = (tokens or {}).get(seat)
            doc = game_doc(person, gid, token)
            if doc["game"]["status"] != "active":
                return made
            view = doc["views"].get(str(seat), {})
            decision = view.get("decision")
            if decision is None or decision["seat"] != seat or not view.get("legal"):
                continue
            body = {"version": doc["version"], "seat": seat, "action": view["legal"][0]}
            r = person.post(f"/api/games/{gid}/actions", body, token=token)
            if r.status_code == 200:
                made[seat] += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    return made
