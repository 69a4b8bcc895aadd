"""The HTTP API at its edges: text people write, paths nobody serves, who may read a
seat's log, what health tells, seats of ended games, and seat specs that do not fit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.harness import Api


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    assert err["message"]
    return err


def _joined(api: Api) -> tuple[str, list[str], str]:
    created = api.create()
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    for t in tokens:
        assert api.call("POST", f"/api/games/{gid}/join", t, {}).status_code == 200
    return gid, tokens, created["host"]["token"]


@pytest.mark.parametrize(
    "text",
    [
        "👨\u200d👩\u200d👧 family",  # joined by ZERO WIDTH JOINER (Cf)
        "10\u202f000 points",  # NARROW NO-BREAK SPACE (Zs)
        "🏳️\u200d🌈",
        "مرحبا",
    ],
)
def test_chat_and_names_take_what_people_write(api: Api, text: str) -> None:
    gid, tokens, _host = _joined(api)
    r = api.call("POST", f"/api/games/{gid}/chat", tokens[0], {"text": text})
    assert r.status_code == 200, r.text
    assert r.json()["message"]["text"] == text
    r = api.call("POST", f"/api/games/{gid}/join", tokens[1], {"name": text[:20]})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["seats"][1]["name"] == text[:20]


def test_chat_and_names_are_normalised_and_refuse_controls_and_bidi(api: Api) -> None:
    gid, tokens, _host = _joined(api)
    r = api.call("POST", f"/api/games/{gid}/chat", tokens[0], {"text": "cafe\u0301"})
    assert r.json()["message"]["text"] == "café"  # NFC: one code point
    r = api.call("POST", f"/api/games/{gid}/join", tokens[0], {"name": "Rene\u0301"})
    assert r.json()["game"]["seats"][0]["name"] == "René"
    for bad in ["a\u202eb", "x\u2066y\u2069", "bell\x07", "nul\x00", "line\nbreak", "\u200d"]:
        _error(
            api.call("POST", f"/api/games/{gid}/chat", tokens[0], {"text": bad}),
            422,
            "chat_refused",
        )
        _error(
            api.call("POST", f"/api/games/{gid}/join", tokens[1], {"name": bad}),
            400,
            "bad_request",
        )


def test_unknown_paths_are_not_found_and_unknown_games_unknown(api: Api) -> None:
    for path in ["/api/nothing", "/nothing/at/all", "/api/games/x/nothing", "/static/none.js"]:
        _error(api.call("GET", path), 404, "not_found")
    _error(api.call("GET", "/api/games/nosuchgame"), 404, "unknown_game")
    _error(api.call("GET", "/api/games/nosuchgame/chat"), 404, "unknown_game")
    _error(api.call("GET", "/api/games/bad%00id"), 404, "unknown_game")


def test_the_log_is_a_seat_route(api: Api) -> None:
    gid, tokens, host = _joined(api)
    _error(api.call("GET", f"/api/games/{gid}/log"), 403, "not_your_seat")
    _error(api.call("GET", f"/api/games/{gid}/log", host), 403, "not_your_seat")
    r = api.call("GET", f"/api/games/{gid}/log", tokens[0])
    assert r.status_code == 200 and r.json()["you"]["seats"] == [0]


def test_health_names_no_process(api: Api) -> None:
    health = api.call("GET", "/api/health").json()
    assert "pid" not in health
    assert health["ok"] is True and health["rss_mb"] > 0


def test_seats_of_an_ended_game_are_not_renamed(api: Api) -> None:
    gid, tokens, host = _joined(api)
    api.call("POST", f"/api/games/{gid}/join", tokens[0], {"name": "Ann"})
    assert api.call("POST", f"/api/games/{gid}/abandon", host).status_code == 200
    _error(
        api.call("POST", f"/api/games/{gid}/join", tokens[0], {"name": "Mallory"}),
        409,
        "abandoned",
    )
    seats = api.call("GET", f"/api/games/{gid}").json()["game"]["seats"]
    assert seats[0]["name"] == "Ann"


def test_a_level_is_only_for_a_bot(api: Api) -> None:
    for seats in (
        [{"kind": "human", "level": "expert"}, {"kind": "human"}],
        [{"kind": "bot"}, {"kind": "human"}],
    ):
        r = api.http.post("/api/games", json={"game": "board", "players": 2, "seats": seats})
        err = _error(r, 400, "bad_request")
        assert "level" in err["message"]
