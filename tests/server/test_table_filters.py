"""The open tables filtered (`GET /api/tables?…`, features/tables/filters.py): by game,
size, speed, rated, and the seated players' ratings; each filter refused with a clear
message when it cannot be read (SQLite, and PostgreSQL when it answers)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from euphrates.match.ratings import display
from euphrates.server.common.config import async_db_url
from euphrates.server.store import models as db
from euphrates.server.store.database import make_engine
from tests.server.harness import Api, run_async
from tests.server.people import Person, forget_accounts
from tests.server.test_tables import HUMAN, code, person

BOT = {"kind": "bot", "level": "beginner"}


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def create(host: Person, game: str, seats: list[dict[str, Any]], **more: Any) -> str:
    body = {"game": game, "players": len(seats), "seats": seats, "open": True, **more}
    r = host.post("/api/games", body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def rate(db_url: str, name: str, game: str, group: str, mu: float, sigma: float) -> int:
    """Give `name` a rating in `game` and `group`; its shown rating."""

    async def write() -> None:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.begin() as conn:
                uid = (
                    await conn.execute(sa.select(db.users.c.id).where(db.users.c.name == name))
                ).scalar_one()
                await conn.execute(
                    db.ratings.insert().values(
                        user_id=uid,
                        game=game,
                        grp=group,
                        mu=mu,
                        sigma=sigma,
                        games=5,
                        updated_at=datetime.now(UTC),
                    )
                )
        finally:
            await engine.dispose()

    run_async(write())
    return display(mu, sigma)


def test_open_tables_filtered_by_game_size_speed_rated_and_rating(base: str, db_url: str) -> None:
    ann, bob, cy, dan, eve = (person(base, n) for n in ("Ann", "Bob", "Cy", "Dan", "Eve"))
    strong = rate(db_url, "Bob", "cards", "3-4", 40.0, 2.0)  # 1000 + 40 × 34 = 2360
    assert strong == 2360
    assert rate(db_url, "Bob", "cards", "2", 20.0, 2.0) == 1560, "another group: not read"
    tables = {
        "plain": create(ann, "board", [HUMAN, HUMAN]),
        "fast4": create(
            bob, "cards", [HUMAN, HUMAN, HUMAN, BOT], clock={"mode": "realtime", "preset": "fast"}
        ),
        "turn4": create(cy, "board", [HUMAN] * 4, clock={"mode": "turn", "days": 2}, rated=True),
        "custom": create(
            dan, "board", [HUMAN, HUMAN], clock={"mode": "realtime", "bank": 100, "increment": 5}
        ),
    }
    ours = set(tables.values())

    def found(query: str, who: Any = None) -> set[str]:
        r = (who or eve).http.get(f"/api/tables{query}")
        assert r.status_code == 200, r.text
        ids = {t["id"] for t in r.json()["tables"]} & ours
        return {k for k, v in tables.items() if v in ids}

    assert found("") == set(tables)
    assert found("?game=cards") == {"fast4"}
    assert found("?game=board") == {"plain", "turn4", "custom"}
    assert found("?players=2") == {"plain", "custom"}
    assert found("?players=4&game=board") == {"turn4"}
    assert found("?players=4") == {"turn4", "fast4"}
    assert found("?speed=fast") == {"fast4"}
    assert found("?speed=medium") == set()
    assert found("?speed=realtime") == {"fast4", "custom"}
    assert found("?speed=turn") == {"turn4"}
    assert found("?speed=none") == {"plain"}
    assert found("?rated=true") == {"turn4"}
    assert found("?rated=false") == {"plain", "fast4", "custom"}
    # Ratings: of every player seated. Bob is 2360 in 3–4-player card games, the
    # others newcomers (1000).
    entry = next(
        t for t in eve.get("/api/tables?game=cards").json()["tables"] if t["id"] == tables["fast4"]
    )
    assert [s["rating"] for s in entry["seats"]] == [2360, None, None, None], (
        "a free seat and a bot have none"
    )
    assert found("?rating_min=1500") == {"fast4"}
    assert found("?rating_max=1500") == {"plain", "turn4", "custom"}
    assert found("?rating_min=900&rating_max=1100") == {"plain", "turn4", "custom"}
    assert found("?rating_min=2360&rating_max=2360") == {"fast4"}
    # Eve (a newcomer) sits at Bob's table: it now has a 1000 among its players.
    assert eve.post(f"/api/games/{tables['fast4']}/sit", {"seat": 1}).status_code == 200
    assert found("?rating_min=1500", ann) == set()
    assert found("?rating_min=900&rating_max=2400&players=4", ann) == {"fast4", "turn4"}
    # Everyone may filter, signed in or not.
    assert found("?game=board&players=2&speed=none", Api(base)) == {"plain"}


def test_filters_that_cannot_be_read_are_refused(base: str) -> None:
    guest = Api(base)
    bad = [
        ("?game=chess", "game"),
        ("?players=5", "players"),
        ("?players=1", "players"),
        ("?players=" + "9" * 40, "players"),
        ("?players=three", "players"),
        ("?speed=blitz", "speed"),
        ("?speed=turn:9", "speed"),
        ("?rated=maybe", "rated"),
        ("?rating_min=" + "9" * 30, "rating_min"),
        ("?rating_max=-100000", "rating_max"),
        ("?rating_min=1600&rating_max=1500", "rating_min"),
        ("?colour=red", "colour"),
    ]
    for query, named in bad:
        r = guest.http.get(f"/api/tables{query}")
        assert code(r) == (400, "bad_request"), (query, r.text)
        assert named in r.json()["error"]["message"], (query, r.text)
