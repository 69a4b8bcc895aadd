"""The guided first games' lines: legal in the engine, every promised event reached by
the learner, the end reached; and the server plays one through, scripted, refusing
any other move."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from euphrates.games import game_definition
from euphrates.match.tours import LESSONS, TARGETS, check_line, load_line
from euphrates.server.common.config import Settings
from euphrates.server.features.tour.tour import steps_of
from tests.server.harness import Api, running_server

GAMES = ("board", "cards")


@pytest.mark.parametrize("game", GAMES)
def test_the_line_is_legal_and_reaches_every_lesson_and_the_end(game: str) -> None:
    line = load_line(game)
    reached = check_line(line)  # every action applied for the seat to move, at its version
    for key in (*LESSONS, "end"):
        assert key in reached, f"{game}: the line never reaches {key}"
    assert sorted(line.lessons.values()) == sorted(LESSONS)
    assert reached["end"] == len(line.actions) - 1


@pytest.mark.parametrize("game", GAMES)
def test_each_lesson_is_the_learners_event(game: str) -> None:
    """At each lesson's version, the event is the learner's (seat 0 places, attacks,
    builds, takes): replayed here without the module's own checker."""
    line = load_line(game)
    state = game_definition(game).new_game(line.players, line.seed, line.options)
    for version, text in enumerate(line.actions):
        events = state.apply(text)
        if version in line.lessons:
            kind, field = TARGETS[game][line.lessons[version]]
            assert any(e.kind == kind and e.data.get(field) == 0 for e in events), (
                game,
                version,
                line.lessons[version],
            )


def test_a_line_that_breaks_is_refused() -> None:
    line = load_line("board")
    broken = line.__class__(
        line.game, line.players, line.options, line.seed, line.actions[:-1], line.lessons
    )
    with pytest.raises(AssertionError, match="does not end"):
        check_line(broken)


@pytest.mark.parametrize("game", GAMES)
def test_steps_start_at_the_learners_action(game: str) -> None:
    steps = steps_of(game)
    keys = [k for _, k in steps]
    for lesson in LESSONS:
        assert lesson in keys
    assert "revolt.commit" in keys
    versions = [v for v, _ in steps]
    assert versions == sorted(versions)


def _doc(api: Api, gid: str, token: str) -> dict[str, Any]:
    r = api.call("GET", f"/api/games/{gid}", token)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


@pytest.mark.parametrize("game", GAMES)
def test_the_server_plays_a_tour_through_and_refuses_other_moves(game: str, tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path}/games.db", bot_workers=0, bot_pace=0, rate_per_s=5000
    )
    line = load_line(game)
    with running_server(settings) as url:
        api = Api(url)
        r = api.http.post("/api/tours", json={"game": game})
        assert r.status_code == 201, r.text
        created = r.json()
        gid, token = created["id"], created["seats"][0]["token"]
        assert created["seats"][1]["level"] == "tour" and created["seats"][1]["token"] is None
        assert api.call("POST", f"/api/games/{gid}/join", token, {"name": "Ann"}).status_code == 200
        refused = False
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline
            tour = api.call("GET", f"/api/games/{gid}/tour", token).json()
            assert "seed" not in tour and "actions" not in tour
            if tour["version"] >= len(line.actions):
                break
            if tour["action"] is None:  # the scripted opponent moves by itself
                time.sleep(0.01)
                continue
            version = tour["version"]
            assert tour["action"] == line.actions[version]
            view = _doc(api, gid, token)["views"]["0"]
            other = next((a for a in view["legal"] if a != tour["action"]), None)
            if other is not None and not refused:
                body = {"version": version, "seat": 0, "action": other}
                no = api.call("POST", f"/api/games/{gid}/actions", token, body)
                assert no.status_code == 409 and no.json()["error"]["code"] == "tour_step"
                refused = True
            body = {"version": version, "seat": 0, "action": tour["action"]}
            ok = api.call("POST", f"/api/games/{gid}/actions", token, body)
            assert ok.status_code == 200, ok.text
        assert refused
        doc = _doc(api, gid, token)
        assert doc["game"]["status"] == "over"
        # an ordinary game's page may not ask for a tour
        plain = api.create(game)
        no = api.call("GET", f"/api/games/{plain['id']}/tour", plain["seats"][0]["token"])
        assert no.status_code == 404
