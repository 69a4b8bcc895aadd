"""Reviews (server/reviews.py): computed once after a game ends by the bot workers,
each request one move's mover's view; stored; finished by another server (or later)
when the one that claimed it stopped; refused before the end."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots.worker import REVIEW_KEYS
from euphrates.core.history import History, with_history
from euphrates.match.records import GameRecord, replay
from euphrates.match.review import review
from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.store import models as db
from euphrates.server.store.database import make_engine
from euphrates.words.book import LANGS
from tests.server.harness import Api, running_app
from tests.server.test_bots import SPY

BOTS = [{"kind": "bot", "level": "beginner"}] * 2


def spied_settings(db_url: str, **kw: Any) -> Settings:
    return Settings(
        db_url=db_url,
        bot_workers=1,
        bot_pace=0,
        bot_command=[sys.executable, "-c", SPY],
        review_poll=0.2,
        **kw,
    )


@pytest.fixture
def spied(
    own_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, Path, Any]]:
    """A server whose bot workers write down every request they are sent, on a database
    of its own (another test's games left there would be driven and reviewed too)."""
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    with running_app(spied_settings(own_db_url)) as (url, app):
        yield url, log, app


def ended(api: Api, game: str, timeout: float = 120) -> str:
    gid = str(api.create(game, BOTS)["id"])
    deadline = time.monotonic() + timeout
    while api.call("GET", f"/api/games/{gid}").json()["game"]["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return gid


def reviewed(api: Api, gid: str, timeout: float = 600) -> dict[str, Any]:
    """The game's review, once the server has it. The deadline only stops a review that
    never comes: a card game's review read from the table took over two minutes under
    a full suite beside other work on two cores."""
    deadline = time.monotonic() + timeout
    while True:
        r = api.call("GET", f"/api/games/{gid}/review")
        if r.status_code == 200:
            doc: dict[str, Any] = r.json()
            return doc
        assert r.status_code == 202, r.text
        assert r.json() == {"status": "pending"}
        assert time.monotonic() < deadline
        time.sleep(0.1)


def review_requests(log: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [r for r in lines if "action" in r and "bot" not in r]


@pytest.mark.parametrize("game", ["board", "cards"])
def test_an_ended_game_is_reviewed_once_each_request_one_movers_view(
    spied: tuple[str, Path, Any], game: str
) -> None:
    url, log, app = spied
    api = Api(url)
    gid = ended(api, game)
    doc = reviewed(api, gid)
    record = GameRecord.from_json(api.call("GET", f"/api/games/{gid}/record").json())
    # The server's review is the terminal's: the same moves, views and seeds.
    expected = review(record, "quick")  # the depth the tests' servers judge at
    assert doc == {"status": "done", **expected}
    assert doc["estimate"] == "model"  # both games ship a value model
    assert doc["format"] == 3
    for m in doc["moves"]:  # every row names its mover and says the move in words
        assert m["name"] == record.seats[m["seat"]]
        assert set(m["words"]) == set(LANGS) and m["words"]["en"]["move"]
        if m["best"] is not None:
            assert {"move", "better", "why"} <= set(m["words"]["de"])
    requests = review_requests(log)
    assert len(requests) == len(record.actions)  # once: one request a move
    state = replay(record, 0)
    history = History()
    for i, (req, text) in enumerate(zip(requests, record.actions, strict=True)):
        assert set(req) == REVIEW_KEYS
        seat = state.to_move()
        # Exactly the mover's view, nothing more; in the card game, whose table the
        # review reads, with the mover's public history beside it (G-3).
        view = state.view(seat)
        assert req["view"] == (with_history(view, history) if game == "cards" else view)
        assert req["action"] == text and req["seed"] == i and req["depth"] == "quick"
        assert str(record.seed) not in json.dumps(req)
        history.play(state, text)
    assert api.call("GET", f"/api/games/{gid}/review").json() == doc  # stored
    assert app.state.services.reviewer.done == 1


def test_review_refusals(spied: tuple[str, Path, Any]) -> None:
    url, _log, _app = spied
    api = Api(url)
    made = api.create("cards", [{"kind": "human"}, {"kind": "human"}])
    waiting = made["id"]
    r = api.call("GET", f"/api/games/{waiting}/review")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_over")
    r = api.call("GET", "/api/games/nosuchgame00/review")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown_game")
    # An ended game without a review is not a mistake to ask about: a replay page asks.
    assert api.call("POST", f"/api/games/{waiting}/abandon", made["host"]["token"]).is_success
    r = api.call("GET", f"/api/games/{waiting}/review")
    assert r.status_code == 200 and r.json()["status"] == "none", r.text
    assert r.json()["reason"] == "not_played_out"


def test_a_review_left_half_done_is_finished_once_its_lease_runs_out(
    own_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that stopped mid-review leaves a claimed job: another (here the same,
    restarted) takes it up when its lease has run out, not before. A board game: the
    lease is the same for both games, and a board game's review is the shorter (some 200
    moves, each sent with its view alone; a card game's are some 550, each with the
    public history so far)."""
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    db_url = own_db_url
    with running_app(spied_settings(db_url)) as (url, _app):
        api = Api(url)
        gid = ended(api, "board")
        first = reviewed(api, gid)

    def claimed(until: float) -> None:
        """The job as a server leaves it that claimed it and died: lease till `until`."""
        at = datetime.now(UTC) + timedelta(seconds=until)
        values = {"status": "queued", "doc": None, "lease_until": at}
        run_sql(db_url, db.reviews.update().where(db.reviews.c.game_id == gid).values(values))

    claimed(3600)  # still claimed by a server that is working on it
    log.write_text("")
    with running_app(spied_settings(db_url)) as (url, _app):
        api = Api(url)
        time.sleep(1.0)
        assert api.call("GET", f"/api/games/{gid}/review").status_code == 202
        assert review_requests(log) == []
        claimed(-1)  # its lease ran out: the server that held it stopped
        assert reviewed(api, gid) == first
    assert len(review_requests(log)) == len(first["moves"])


def run_sql(db_url: str, statement: Any) -> None:
    async def run() -> None:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.begin() as conn:
                await conn.execute(statement)
        finally:
            await engine.dispose()

    asyncio.run(run())
