"""The HTTP API: every route and every error code it can answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from euphrates.board import BOARD
from euphrates.match.records import GameRecord, replay
from tests.server.harness import Api


def _tokens(created: dict[str, Any]) -> list[str]:
    return [s["token"] for s in created["seats"] if s["token"]]


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    assert err["message"]
    return err


def test_create_gives_links_once_and_stores_no_token(api: Api) -> None:
    created = api.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "strong"}])
    gid = created["id"]
    seat0, seat1 = created["seats"]
    assert len(seat0["token"]) >= 32 and seat0["link"].endswith("#s=" + seat0["token"])
    assert seat1["token"] is None and seat1["link"] is None and seat1["level"] == "strong"
    assert created["host"]["link"].endswith("#h=" + created["host"]["token"])
    assert created["spectate"].endswith(f"/g/{gid}")
    # Reading the game never shows a token again.
    r = api.call("GET", f"/api/games/{gid}")
    assert r.status_code == 200
    assert seat0["token"] not in r.text and created["host"]["token"] not in r.text
    assert r.json()["game"]["status"] == "waiting"


def test_create_refuses_bad_requests(api: Api) -> None:
    bad: list[Any] = [
        {"game": "chess", "players": 2, "seats": [{"kind": "human"}] * 2},
        {"game": "board", "players": 5, "seats": [{"kind": "human"}] * 5},
        {"game": "board", "players": "2", "seats": [{"kind": "human"}] * 2},
        {"game": "board", "players": 3, "seats": [{"kind": "human"}] * 2},
        {"game": "board", "players": 2, "seats": [{"kind": "bot", "level": "god"}] * 2},
        {"game": "board", "players": 2, "seats": [{"kind": "alien"}] * 2},
        {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2, "options": {"x": True}},
        {
            "game": "board",
            "players": 2,
            "seats": [{"kind": "human"}] * 2,
            "options": {"advanced": "no"},
        },
        {
            "game": "cards",
            "players": 2,
            "seats": [{"kind": "human"}] * 2,
            "options": {"advanced": True},
        },
        {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2, "extra": 1},
        [],
        "board",
    ]
    for body in bad:
        _error(api.http.post("/api/games", json=body), 400, "bad_request")
    r = api.http.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    _error(r, 400, "bad_json")
    r = api.http.post(
        "/api/games", content=b"x" * 20000, headers={"content-type": "application/json"}
    )
    _error(r, 413, "too_large")


def test_join_act_undo_and_read_as_seat_host_and_spectator(api: Api) -> None:
    created = api.create()
    gid = created["id"]
    t0, t1 = _tokens(created)
    host = created["host"]["token"]
    _error(
        api.call(
            "POST", f"/api/games/{gid}/actions", t0, {"version": 0, "seat": 0, "action": "pass"}
        ),
        409,
        "not_started",
    )
    r = api.call("POST", f"/api/games/{gid}/join", t0, {"name": "Ann"})
    assert r.status_code == 200 and r.json()["you"]["seats"] == [0]
    r = api.call("POST", f"/api/games/{gid}/join", t1, {"name": "Bob"})
    game = r.json()["game"]
    assert game["status"] == "active"
    assert [s["name"] for s in game["seats"]] == ["Ann", "Bob"]
    # The seat's view holds its hand; the spectator's and the host's do not.
    seat_view = api.call("GET", f"/api/games/{gid}", t0).json()["views"]["0"]
    assert "red" in seat_view["seats"][0]["hand"]
    public = api.call("GET", f"/api/games/{gid}").json()
    assert list(public["views"]) == ["spectator"]
    assert public["views"]["spectator"]["seats"][0]["hand"] == {"count": 6}
    as_host = api.call("GET", f"/api/games/{gid}", host).json()
    assert as_host["you"] == {"seats": [], "host": True} and list(as_host["views"]) == ["spectator"]
    # Play the first legal action of whoever decides.
    decider = seat_view["decision"]["seat"]
    token = [t0, t1][decider]
    view = api.call("GET", f"/api/games/{gid}", token).json()["views"][str(decider)]
    # a tile: nothing revealed (blue only where the hand holds no other colour)
    tiles = [a for a in view["legal"] if a[0] in "rgkb"]
    action = next((a for a in tiles if a[0] != "b"), tiles[0])
    r = api.call(
        "POST",
        f"/api/games/{gid}/actions",
        token,
        {"version": 0, "seat": decider, "action": action},
    )
    assert r.json() == {"version": 1}
    _error(
        api.call(
            "POST",
            f"/api/games/{gid}/actions",
            token,
            {"version": 0, "seat": decider, "action": action},
        ),
        409,
        "stale_version",
    )
    other = 1 - decider
    _error(
        api.call("POST", f"/api/games/{gid}/undo", [t0, t1][other], {"version": 1, "seat": other}),
        409,
        "undo_refused",
    )
    r = api.call("POST", f"/api/games/{gid}/undo", token, {"version": 1, "seat": decider})
    assert r.json() == {"version": 2}
    back = api.call("GET", f"/api/games/{gid}", token).json()["views"][str(decider)]
    assert back["board"] == view["board"] and back["version"] == 2
    # The seat's log holds the action and its undo.
    log = api.call("GET", f"/api/games/{gid}/log", token).json()
    assert [h["kind"] for h in log["history"]] == ["action", "undo"]
    assert log["history"][1]["events"] == [{"kind": "undo", "seat": decider, "undone": 1}]


def test_action_errors_name_the_ruling_and_change_nothing(api: Api) -> None:
    created = api.create()
    gid = created["id"]
    toks = _tokens(created)
    for t in toks:
        api.call("POST", f"/api/games/{gid}/join", t, {})
    view = api.call("GET", f"/api/games/{gid}", ",".join(toks)).json()["views"]
    decider = view["0"]["decision"]["seat"]
    mine, theirs = toks[decider], toks[1 - decider]
    url = f"/api/games/{gid}/actions"
    # A blue tile on land (B-12), if the decider holds one; else a leader on the river.
    hand = view[str(decider)]["seats"][decider]["hand"]
    action = "bF10" if hand["blue"] else "KA4"
    err = _error(
        api.call("POST", url, mine, {"version": 0, "seat": decider, "action": action}),
        422,
        "illegal_action",
    )
    assert err["ruling"] and err["ruling"] in err["message"]
    _error(
        api.call("POST", url, mine, {"version": 0, "seat": decider, "action": "fly away"}),
        422,
        "invalid_action",
    )
    _error(
        api.call("POST", url, mine, {"version": 0, "seat": decider, "action": "commit ²"}),
        422,
        "invalid_action",
    )
    _error(
        api.call("POST", url, theirs, {"version": 0, "seat": 1 - decider, "action": "pass"}),
        409,
        "wrong_seat",
    )
    _error(
        api.call("POST", url, theirs, {"version": 0, "seat": decider, "action": "pass"}),
        403,
        "not_your_seat",
    )
    _error(
        api.call("POST", url, None, {"version": 0, "seat": decider, "action": "pass"}),
        403,
        "not_your_seat",
    )
    _error(
        api.call("POST", url, "x" * 32, {"version": 0, "seat": decider, "action": "pass"}),
        403,
        "bad_token",
    )
    _error(
        api.call("POST", url, "bad token!", {"version": 0, "seat": decider, "action": "pass"}),
        403,
        "bad_token",
    )
    _error(
        api.call("POST", url, mine, {"version": "0", "seat": decider, "action": "pass"}),
        400,
        "bad_request",
    )
    _error(
        api.call("POST", url, mine, {"version": 0, "seat": True, "action": "pass"}),
        400,
        "bad_request",
    )
    r = api.http.post(
        url,
        json={"version": 0, "seat": 0, "action": "pass"},
        headers={"authorization": "Basic abc"},
    )
    _error(r, 403, "bad_token")
    # A token of another game opens nothing here.
    other = api.create()
    _error(
        api.call("POST", url, _tokens(other)[0], {"version": 0, "seat": 0, "action": "pass"}),
        403,
        "bad_token",
    )
    after = api.call("GET", f"/api/games/{gid}", ",".join(toks)).json()
    assert after["version"] == 0 and after["views"] == view


def test_unknown_games_and_routes(api: Api) -> None:
    _error(api.call("GET", "/api/games/nosuchgame"), 404, "unknown_game")
    _error(
        api.call(
            "POST",
            "/api/games/nosuchgame/actions",
            "a" * 32,
            {"version": 0, "seat": 0, "action": "pass"},
        ),
        404,
        "unknown_game",
    )
    _error(api.call("GET", "/api/games/" + "x" * 300), 404, "unknown_game")
    assert api.call("GET", "/api/nothing").status_code == 404


def test_chat_is_plain_text_with_limits(api: Api) -> None:
    created = api.create()
    gid = created["id"]
    t0 = _tokens(created)[0]
    api.call("POST", f"/api/games/{gid}/join", t0, {"name": "Ann"})
    r = api.call("POST", f"/api/games/{gid}/chat", t0, {"text": "<b>hi</b> & <script>x</script>"})
    assert r.json()["message"]["text"] == "<b>hi</b> & <script>x</script>"
    assert r.json()["message"]["author"] == "Ann"
    r = api.call("POST", f"/api/games/{gid}/chat", None, {"text": "from the rail"})
    assert r.json()["message"]["author"] == "spectator" and r.json()["message"]["seat"] is None
    for text in ["", "   ", "x" * 501, "bell\x07", "line\nbreak"]:
        _error(api.call("POST", f"/api/games/{gid}/chat", t0, {"text": text}), 422, "chat_refused")
    messages = api.call("GET", f"/api/games/{gid}/chat").json()["messages"]
    assert [m["seq"] for m in messages] == [1, 2]
    assert api.call("GET", f"/api/games/{gid}/chat?after=1").json()["messages"][0]["seq"] == 2


def test_host_replaces_a_player_and_abandons(api: Api) -> None:
    created = api.create()
    gid = created["id"]
    t0, t1 = _tokens(created)
    host = created["host"]["token"]
    api.call("POST", f"/api/games/{gid}/join", t0, {"name": "Ann"})
    _error(
        api.call("POST", f"/api/games/{gid}/seats/1/bot", t0, {"level": "beginner"}),
        403,
        "not_host",
    )
    _error(
        api.call("POST", f"/api/games/{gid}/seats/1/bot", host, {"level": "godlike"}),
        400,
        "bad_request",
    )
    _error(
        api.call("POST", f"/api/games/{gid}/seats/9/bot", host, {"level": "beginner"}),
        400,
        "bad_request",
    )
    r = api.call("POST", f"/api/games/{gid}/seats/1/bot", host, {"level": "beginner"})
    game = r.json()["game"]
    assert game["seats"][1]["kind"] == "bot" and game["status"] == "active"
    _error(
        api.call("POST", f"/api/games/{gid}/seats/1/bot", host, {"level": "beginner"}),
        409,
        "seat_not_human",
    )
    # The replaced seat's link opens nothing any more.
    _error(api.call("GET", f"/api/games/{gid}", t1), 403, "bad_token")
    _error(api.call("GET", f"/api/games/{gid}/record"), 403, "record_unavailable")
    _error(api.call("POST", f"/api/games/{gid}/abandon", t0), 403, "not_host")
    assert (
        api.call("POST", f"/api/games/{gid}/abandon", host).json()["game"]["status"] == "abandoned"
    )
    _error(
        api.call(
            "POST", f"/api/games/{gid}/actions", t0, {"version": 0, "seat": 0, "action": "pass"}
        ),
        409,
        "abandoned",
    )
    _error(api.call("POST", f"/api/games/{gid}/abandon", host), 409, "abandoned")
    record = api.call("GET", f"/api/games/{gid}/record").json()
    assert record["seats"] == ["Ann", "bot:beginner"] and record["actions"] == []


def test_finished_game_record_and_replay(api: Api) -> None:
    """Play a whole game through the API; the record replays to the same end."""
    import random

    created = api.create()
    gid = created["id"]
    toks = _tokens(created)
    for t in toks:
        api.call("POST", f"/api/games/{gid}/join", t, {})
    both = ",".join(toks)
    rng = random.Random(3)
    version = 0
    while True:
        doc = api.call("GET", f"/api/games/{gid}", both).json()
        if doc["game"]["status"] == "over":
            break
        views = doc["views"]
        seat = views["0"]["decision"]["seat"]
        action = rng.choice(views[str(seat)]["legal"])
        r = api.call(
            "POST",
            f"/api/games/{gid}/actions",
            both,
            {"version": version, "seat": seat, "action": action},
        )
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    err = _error(
        api.call(
            "POST",
            f"/api/games/{gid}/actions",
            both,
            {"version": version, "seat": 0, "action": "pass"},
        ),
        409,
        "game_over",
    )
    assert err["ruling"] == "B-31" and "(B-31)" in err["message"]
    record = GameRecord.from_json(api.call("GET", f"/api/games/{gid}/record").json())
    final = replay(record)
    outcome = final.outcome()
    assert final.is_over() and outcome is not None and record.outcome == outcome.to_json()
    assert doc["views"]["0"]["outcome"] == record.outcome
    n = len(record.actions)
    for k in (3, 40, 17, 16, 33, 32, n, 1, 0, n - 1):
        step = api.call("GET", f"/api/games/{gid}/replay/{k}").json()
        again = BOARD.new_game(2, record.seed, record.options)
        events: list[Any] = []
        for text in record.actions[:k]:
            events = again.apply(text)
        assert step["views"]["0"] == again.view(0) and step["views"]["spectator"] == again.view(
            None
        )
        assert step["events"] == [e.to_json() for e in events]
        assert step["steps"] == n and step["action"] == (record.actions[k - 1] if k else None)
    _error(
        api.call("GET", f"/api/games/{gid}/replay/{len(record.actions) + 1}"), 400, "bad_request"
    )


def test_meta_maps_health_and_openapi(api: Api) -> None:
    meta = api.call("GET", "/api/meta").json()
    assert meta["levels"] == ["beginner", "intermediate", "strong", "expert"]
    assert meta["games"] == {"board": ["advanced", "open_scores"], "cards": ["open_piles"]}
    assert meta["players"] == [2, 3, 4]
    maps = api.call("GET", "/api/maps").json()
    assert maps["standard"]["bordered"] == ["B2", "P2", "B8", "O9"]
    assert len(maps["advanced"]["temples"]) == 14
    assert {m["columns"] for m in maps.values()} == {16} and len(maps["standard"]["river"]) > 20
    assert api.call("GET", "/api/assets").json() == {"board": {"maps": maps}, "cards": {}}
    health = api.call("GET", "/api/health").json()
    assert health["ok"] and health["rss_mb"] > 0
    spec = api.call("GET", "/openapi.json").json()
    paths = set(spec["paths"])
    for p in [
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/chat",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/join",
    ]:
        assert p in paths


def test_storage_and_engine_failures_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """A database that refuses the write (`storage_unavailable`) or an engine that fails
    unexpectedly (`server_error`): the client is told, the game is as it was, and the
    next action goes through."""
    from euphrates.server.common.config import Settings
    from euphrates.server.store.database import StorageError
    from tests.server.conftest import sqlite_url
    from tests.server.harness import running_app

    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=0, bot_pace=0)
    with running_app(settings) as (url, app):
        api = Api(url)
        created = api.create()
        gid = created["id"]
        both = ",".join(_tokens(created))
        api.call("POST", f"/api/games/{gid}/join", both, {})
        hub = app.state.services.rooms
        store = hub.store
        before = api.call("GET", f"/api/games/{gid}", both).json()
        seat = before["views"]["0"]["decision"]["seat"]
        action = next(a for a in before["views"][str(seat)]["legal"] if a[0] in "rgk")
        body = {"version": 0, "seat": seat, "action": action}

        async def refuse(*_args: Any, **_kw: Any) -> bool:
            raise StorageError("disk full")

        real_append = store.append
        store.append = refuse
        try:
            err = _error(
                api.call("POST", f"/api/games/{gid}/actions", both, body),
                503,
                "storage_unavailable",
            )
            assert "disk full" in err["message"]
        finally:
            store.append = real_append
        assert api.call("GET", f"/api/games/{gid}", both).json() == before

        room = hub.rooms[gid]
        state_type = type(room.state)
        real_apply = state_type._apply

        def broken(self: Any, action: Any) -> Any:
            raise RuntimeError("a bug")

        state_type._apply = broken
        try:
            _error(api.call("POST", f"/api/games/{gid}/actions", both, body), 500, "server_error")
        finally:
            state_type._apply = real_apply
        assert api.call("GET", f"/api/games/{gid}", both).json() == before
        assert api.call("POST", f"/api/games/{gid}/actions", both, body).json() == {"version": 1}


def test_undo_refused_after_another_seat_answered_even_if_taken_back(api: Api) -> None:
    """B decides, A answers, A undoes its answer; B has seen it and may not undo."""
    import random

    created = api.create()
    gid = created["id"]
    both = ",".join(_tokens(created))
    for t in _tokens(created):
        api.call("POST", f"/api/games/{gid}/join", t, {})
    rng = random.Random(8)
    previous: tuple[int, bool] | None = None  # (seat, may undo) after the last action
    for _ in range(2000):
        doc = api.call("GET", f"/api/games/{gid}", both).json()
        assert doc["game"]["status"] == "active"
        seat = doc["views"]["0"]["decision"]["seat"]
        action = rng.choice(doc["views"][str(seat)]["legal"])
        body = {"version": doc["version"], "seat": seat, "action": action}
        r = api.call("POST", f"/api/games/{gid}/actions", both, body)
        assert r.status_code == 200, r.text
        after = api.call("GET", f"/api/games/{gid}", both).json()
        may = after["can_undo"][str(seat)]
        if previous is not None and previous[0] != seat and previous[1] and may:
            break
        previous = (seat, may)
    else:
        raise AssertionError("no answered action in 2000 random actions")
    first = previous[0]
    version = after["version"]
    r = api.call("POST", f"/api/games/{gid}/undo", both, {"version": version, "seat": seat})
    assert r.json() == {"version": version + 1}
    doc = api.call("GET", f"/api/games/{gid}", both).json()
    assert doc["can_undo"][str(first)] is False
    r = api.call("POST", f"/api/games/{gid}/undo", both, {"version": version + 1, "seat": first})
    _error(r, 409, "undo_refused")
