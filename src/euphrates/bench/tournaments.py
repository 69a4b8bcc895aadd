"""Running tournaments beside the load test (`euphrates loadtest --tournaments N`): N
tournaments created, entered and started on the server before the measured play, each
a Swiss of duels for four members whose games wait on turn-based clocks of five days.
They stay running while the load test plays, so the server's CPU per action, compared
with a run without them on the same machine, is what keeping them costs: each game's
end asks whether it is a tournament's table, and every server passes over the
tournaments due."""

from __future__ import annotations

import httpx

from euphrates.core.errors import ArgumentError

MEMBERS = 10
"""Accounts that create and enter the tournaments (a server takes ten sign-ups at once
from one address)."""
PER_CREATOR = 5
"""Tournaments one member may run at once (features/tournaments)."""
ENTRANTS = 4
PASSWORD = "tournament bench password"


def seed(url: str, count: int) -> dict[str, int]:
    """Create, enter and start `count` tournaments; what was made."""
    if not 0 <= count <= MEMBERS * PER_CREATOR:
        raise ArgumentError(f"--tournaments must be 0 … {MEMBERS * PER_CREATOR}")
    if count == 0:
        return {"tournaments": 0, "games": 0}
    members: list[httpx.Client] = []
    for i in range(MEMBERS):
        http = httpx.Client(base_url=url, timeout=60)
        r = http.post("/api/account/signup", json={"name": f"Bench{i}", "password": PASSWORD})
        if r.status_code == 409:
            r = http.post("/api/account/login", json={"name": f"Bench{i}", "password": PASSWORD})
        r.raise_for_status()
        http.headers["x-csrf-token"] = r.json()["csrf"]
        members.append(http)
    body = {
        "name": "Bench",
        "game": "board",
        "players": 2,
        "format": "swiss",
        "rounds": 3,
        "clock": {"mode": "turn", "days": 5},
        "most": ENTRANTS,
    }
    games = 0
    try:
        for n in range(count):
            creator = members[n // PER_CREATOR]
            made = creator.post("/api/tournaments", json={**body, "name": f"Bench {n}"})
            made.raise_for_status()
            tid = made.json()["id"]
            others = [m for m in members if m is not creator][: ENTRANTS - 1]
            for m in others:
                m.post(f"/api/tournaments/{tid}/join").raise_for_status()
            started = creator.post(f"/api/tournaments/{tid}/start")
            started.raise_for_status()
            games += sum(len(r["tables"]) for r in started.json()["rounds_played"])
    finally:
        for m in members:
            m.close()
    return {"tournaments": count, "games": games}
