"""The WebSocket protocol: hello, updates, errors, reconnects, spectators, hotseat,
undo, chat, limits."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from euphrates.match.games import game_definition
from euphrates.server.common.config import Settings
from tests.server.harness import Api, Client, running_server
from tests.server.test_leaks import secret_seed


def _started(
    api: Api, base: str, game: str = "board", players: int = 2
) -> tuple[str, list[str], list[Client]]:
    """A game with one client per human seat, all joined."""
    created = api.create(game, [{"kind": "human"}] * players)
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    clients = [Client(base, gid, [t], name=f"P{i}") for i, t in enumerate(tokens)]
    for c in clients:
        while c.status != "active":  # the last one to join starts the game
            c.next("game", "sync", "update")
    return gid, tokens, clients


def _decider(clients: list[Client]) -> int:
    d = clients[0].view(0)["decision"]
    assert d is not None
    return int(d["seat"])


def _safe_action(view: dict[str, Any]) -> str:
    """A tile placement if there is one (it reveals nothing), else the first legal."""
    legal: list[str] = view["legal"]
    return next((a for a in legal if a[0] in "rgkb" and a[1:2].isupper()), legal[0])


def test_hello_welcome_and_start(api: Api, base: str) -> None:
    created = api.create()
    gid = created["id"]
    t0, t1 = (s["token"] for s in created["seats"])
    a = Client(base, gid, [t0], name="Ann")
    assert a.welcome["type"] == "welcome"
    assert a.welcome["you"] == {"seats": [0], "host": False}
    assert list(a.welcome["views"]) == ["0"] and a.welcome["game"]["status"] == "waiting"
    assert a.welcome["history"] == [] and a.welcome["chat"] == []
    b = Client(base, gid, [t1], name="Bob")
    assert b.welcome["game"]["status"] == "active"
    msg = a.next("game")
    while msg["game"]["status"] != "active" or not all(
        s["connected"] for s in msg["game"]["seats"]
    ):
        msg = a.next("game")
    names = [s["name"] for s in msg["game"]["seats"]]
    assert names == ["Ann", "Bob"]
    assert all(s["connected"] for s in msg["game"]["seats"])
    for c in (a, b):
        c.close()


def test_every_client_gets_every_version_and_only_its_events(api: Api, base: str) -> None:
    gid, tokens, clients = _started(api, base)
    spectator = Client(base, gid, [])
    assert list(spectator.welcome["views"]) == ["spectator"]
    import random

    rng = random.Random(7)
    for _ in range(30):
        seat = _decider(clients)
        ack = clients[seat].act(seat, rng.choice(clients[seat].view(seat)["legal"]))
        assert ack["type"] == "ack", ack
        for c in (*clients, spectator):
            c.until_version(ack["version"])
    views = api.call("GET", f"/api/games/{gid}", ",".join(tokens)).json()["views"]
    for seat, c in enumerate(clients):
        assert c.view(seat) == views[str(seat)]
        assert all(e.get("audience", seat) == seat for e in c.events)
    assert spectator.view(None) == api.call("GET", f"/api/games/{gid}").json()["views"]["spectator"]
    assert all("audience" not in e for e in spectator.events)
    private = [e for e in clients[0].events if "audience" in e]
    assert private, "a seat sees its own draws"


def test_refusals_have_codes_and_change_nothing(api: Api, base: str) -> None:
    _gid, _tokens, clients = _started(api, base)
    seat = _decider(clients)
    me, other = clients[seat], clients[1 - seat]
    before = me.view(seat)
    hand = before["seats"][seat]["hand"]
    cases: list[tuple[Client, dict[str, Any], str]] = [
        (
            me,
            {"type": "action", "id": 1, "version": 99, "seat": seat, "action": "pass"},
            "stale_version",
        ),
        (
            me,
            {"type": "action", "id": 2, "version": 0, "seat": 1 - seat, "action": "pass"},
            "not_your_seat",
        ),
        (
            other,
            {"type": "action", "id": 3, "version": 0, "seat": 1 - seat, "action": "pass"},
            "wrong_seat",
        ),
        (
            me,
            {"type": "action", "id": 4, "version": 0, "seat": seat, "action": "hop"},
            "invalid_action",
        ),
        (
            me,
            {
                "type": "action",
                "id": 5,
                "version": 0,
                "seat": seat,
                "action": "bF10" if hand["blue"] else "KA4",
            },
            "illegal_action",
        ),
        (
            me,
            {"type": "action", "id": 6, "version": 0, "seat": "0", "action": "pass"},
            "bad_request",
        ),
        (me, {"type": "action", "id": 7, "version": 0, "seat": seat}, "bad_request"),
        (me, {"type": "launch", "id": 8}, "unknown_type"),
        (me, {"type": "hello", "id": 9}, "bad_message"),
        (me, {"type": "undo", "id": 10, "version": 0, "seat": seat}, "undo_refused"),
        (
            me,
            {"type": "action", "id": {"x": 1}, "version": 0, "seat": seat, "action": "pass"},
            "bad_message",
        ),
    ]
    for client, msg, code in cases:
        client.send(msg)
        err = client.next("error")
        assert err["code"] == code, (msg, err)
        if isinstance(msg["id"], int):
            assert err["id"] == msg["id"]
        if code == "illegal_action":
            assert err["ruling"] and f"({err['ruling']})" in err["message"]
    me.send("{not json")
    assert me.next("error")["code"] == "bad_json"
    me.send("[1, 2]")
    assert me.next("error")["code"] == "bad_message"
    me.ws.send(b"\x00\x01")
    assert me.next("error")["code"] == "bad_json"
    me.send(json.dumps({"type": "chat", "text": "x" * 5000}))
    assert me.next("error")["code"] == "too_large"
    me.send({"type": "ping", "id": "p"})
    assert me.next("pong")["id"] == "p"
    assert me.view(seat) == before and me.version == 0


def test_first_message_must_be_hello_and_tokens_must_fit(api: Api, base: str) -> None:
    created = api.create()
    gid = created["id"]
    url = base.replace("http", "ws") + f"/api/games/{gid}/ws"
    cases: list[tuple[Any, str]] = [
        ({"type": "action"}, "hello_required"),
        ({"type": "hello", "tokens": ["not-a-token-of-this-game-xxxxxxxx"]}, "bad_token"),
        ({"type": "hello", "tokens": ["bad token!"]}, "bad_token"),
        ({"type": "hello", "tokens": "abc"}, "bad_request"),
        ({"type": "hello", "tokens": [api.create()["seats"][0]["token"]]}, "bad_token"),
    ]
    for hello, code in cases:
        with connect(url, proxy=None) as ws:
            ws.send(json.dumps(hello))
            err = json.loads(ws.recv(timeout=5))
            assert err["type"] == "error" and err["code"] == code, err
            closed = json.loads(ws.recv(timeout=5))
            assert closed["type"] == "closed"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
    with connect(base.replace("http", "ws") + "/api/games/nosuch/ws", proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=5))["code"] == "unknown_game"


def test_other_origin_is_refused(api: Api, base: str) -> None:
    gid = api.create()["id"]
    with pytest.raises(InvalidStatus) as e:
        Client(base, gid, [], origin="http://evil.example")
    assert e.value.response.status_code == 403
    ok = Client(base, gid, [], origin=base)
    assert ok.welcome["type"] == "welcome"


def test_the_public_urls_origin_is_ours_behind_a_proxy(tmp_path: Path) -> None:
    """A proxy may pass the public name without its port (nginx's `$host`): a page
    served from `--public-url` is then still this server's, over WebSocket as over
    HTTP; any other origin is still refused."""
    public = "https://play.example.org:8443"
    settings = Settings(db_url=f"sqlite:///{tmp_path}/g.db", bot_workers=0, public_url=public)
    with running_server(settings) as url:
        gid = Api(url).create()["id"]
        assert Client(url, gid, [], origin=public).welcome["type"] == "welcome"
        with pytest.raises(InvalidStatus) as e:
            Client(url, gid, [], origin="https://play.example.org:9999")
        assert e.value.response.status_code == 403


def test_reconnect_gets_what_it_missed_or_full_views(api: Api, base: str) -> None:
    gid, tokens, clients = _started(api, base)
    seat = _decider(clients)
    other = 1 - seat
    clients[other].close()
    seen = clients[other].version
    for _ in range(2):
        s = _decider(clients)
        if s != seat:
            break
        ack = clients[seat].act(seat, _safe_action(clients[seat].view(seat)))
        assert ack["type"] == "ack"
    back = Client(base, gid, [tokens[other]], version=seen)
    assert back.welcome.get("resumed_from") == seen and "views" not in back.welcome
    back.views = {str(other): json.loads(json.dumps(clients[other].view(other)))}
    back.version = seen
    back.until_version(clients[seat].version)
    assert (
        back.view(other)
        == api.call("GET", f"/api/games/{gid}", tokens[other]).json()["views"][str(other)]
    )
    # A client from before the server's memory (version 0 after many versions) or
    # with nonsense gets full views.
    fresh = Client(base, gid, [tokens[other]], version=10_000)
    assert "views" in fresh.welcome and fresh.welcome["version"] == clients[seat].version


def test_sync_and_the_http_read_are_one_snapshot(api: Api, base: str) -> None:
    """`sync`, `welcome` and `GET /api/games/{id}` are built by one builder: for the
    same seats at the same version they say the same, `you` included."""
    gid, tokens, clients = _started(api, base)
    seat = _decider(clients)
    assert clients[seat].act(seat, _safe_action(clients[seat].view(seat)))["type"] == "ack"
    clients[1 - seat].until_version(clients[seat].version)
    host = api.call("GET", f"/api/games/{gid}").json()  # a spectator's read
    for c, token in zip(clients, tokens, strict=True):
        c.send({"type": "sync", "id": 7})
        synced = c.next("sync")
        read = api.call("GET", f"/api/games/{gid}", token).json()
        assert synced["id"] == 7 and len(synced["history"]) == synced["version"] == 1
        assert {k: synced[k] for k in read} == read
    assert host["you"] == {"seats": [], "host": False} and list(host["views"]) == ["spectator"]


def test_spectator_sees_public_view_and_cannot_act(api: Api, base: str) -> None:
    gid, _tokens, _clients = _started(api, base)
    watcher = Client(base, gid, [])
    view = watcher.view(None)
    assert all(set(s["hand"]) == {"count"} for s in view["seats"])
    assert view["legal"] == [] and "bag" in view and set(view["bag"]) == {"count"}
    watcher.send(
        {"type": "action", "id": 1, "version": watcher.version, "seat": 0, "action": "pass"}
    )
    assert watcher.next("error")["code"] == "not_your_seat"
    watcher.send({"type": "undo", "id": 2, "version": watcher.version, "seat": 0})
    assert watcher.next("error")["code"] == "not_your_seat"


def test_hotseat_one_client_holds_both_seats(api: Api, base: str, db_url: str) -> None:
    """The table holding both seats gets both seats' private events, a client of one
    seat exactly its own, a spectator only the public ones: each client's events are
    the engine's, dealt from the game's seed, filtered by who may see them."""
    created = api.create()
    gid = created["id"]
    both = [s["token"] for s in created["seats"]]
    table = Client(base, gid, both, name="Family")
    assert table.welcome["you"]["seats"] == [0, 1] and table.welcome["game"]["status"] == "active"
    assert set(table.welcome["views"]) == {"0", "1"}
    watchers = {
        frozenset({0}): Client(base, gid, [both[0]]),
        frozenset({1}): Client(base, gid, [both[1]]),
        frozenset(): Client(base, gid, []),
    }
    clients = {frozenset({0, 1}): table, **watchers}
    shadow = game_definition("board").new_game(2, secret_seed(db_url, gid), {})
    expected: dict[frozenset[int], list[dict[str, Any]]] = {seats: [] for seats in clients}
    import random

    rng = random.Random(1)
    # At least a dozen actions, and on until each seat has had a private event.
    for step in range(200):
        private = {e["audience"] for e in expected[frozenset({0, 1})] if "audience" in e}
        if step >= 12 and private == {0, 1}:
            break
        seat = table.view(0)["decision"]["seat"]
        action = rng.choice(table.view(seat)["legal"])
        ack = table.act(seat, action)
        assert ack["type"] == "ack"
        events_now = shadow.apply(action)
        for seats, events in expected.items():
            events.extend(e.to_json() for e in events_now if e.audience in (None, *seats))
        for c in clients.values():
            c.until_version(ack["version"])
    for seats, c in clients.items():
        assert c.events == expected[seats], sorted(seats)
    # Both seats' private events were there to be kept apart.
    assert {e["audience"] for e in table.events if "audience" in e} == {0, 1}
    for c in watchers.values():
        c.close()


def test_undo_allowed_refused_and_seen_by_everyone(api: Api, base: str) -> None:
    _gid, _tokens, clients = _started(api, base)
    seat = _decider(clients)
    me, other = clients[seat], clients[1 - seat]
    start = me.view(seat)
    ack = me.act(seat, _safe_action(start))
    v1 = ack["version"]
    other.until_version(v1)
    other.send({"type": "undo", "id": 1, "version": v1, "seat": 1 - seat})
    assert other.next("error")["code"] == "undo_refused"
    me.send({"type": "undo", "id": 2, "version": v1, "seat": seat})
    assert me.next("ack")["version"] == v1 + 1
    other.until_version(v1 + 1)
    assert other.events[-1] == {"kind": "undo", "seat": seat, "undone": v1}
    assert me.view(seat)["board"] == start["board"]
    assert me.view(seat)["seats"] == start["seats"]
    # Nothing left to take back.
    me.send({"type": "undo", "id": 3, "version": v1 + 1, "seat": seat})
    assert me.next("error")["code"] == "undo_refused"
    # An action that drew tiles (the turn's end) cannot be taken back (G-3).
    while True:
        s = _decider(clients)
        ack = clients[s].act(s, _safe_action(clients[s].view(s)))
        last = ack["version"]
        clients[s].until_version(last)
        drew = any(e["kind"] == "drew" for e in clients[s].events[-6:])
        if drew and clients[s].events[-1]["kind"] != "undo":
            clients[s].send({"type": "undo", "id": 4, "version": last, "seat": s})
            err = clients[s].next("error")
            assert err["code"] == "undo_refused" and "G-3" in err["message"]
            break


def test_racing_actions_for_one_version_one_wins(api: Api, base: str) -> None:
    gid, tokens, clients = _started(api, base)
    seat = _decider(clients)
    twin = Client(base, gid, [tokens[seat]])
    action = _safe_action(clients[seat].view(seat))
    results: list[dict[str, Any]] = []

    def fire(c: Client) -> None:
        c.send({"type": "action", "id": 1, "version": 0, "seat": seat, "action": action})
        results.append(c.next("ack", "error"))

    threads = [threading.Thread(target=fire, args=(c,)) for c in (clients[seat], twin)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kinds = sorted(r["type"] for r in results)
    assert kinds == ["ack", "error"], results
    assert next(r for r in results if r["type"] == "error")["code"] == "stale_version"
    log = api.call("GET", f"/api/games/{gid}/log", tokens[seat]).json()
    assert log["version"] == 1


def test_chat_reaches_everyone_as_text(api: Api, base: str) -> None:
    gid, tokens, clients = _started(api, base)
    watcher = Client(base, gid, [])
    clients[0].send({"type": "chat", "id": 1, "text": "<img src=x onerror=alert(1)>"})
    assert clients[0].next("ack")["seq"] == 1
    for c in (clients[1], watcher):
        c.next("chat")
    for c in (*clients, watcher):
        chats = [json.loads(t) for t in c.raw if json.loads(t)["type"] == "chat"]
        msg = chats[-1]["message"]
        assert msg["text"] == "<img src=x onerror=alert(1)>" and msg["author"] == "P0"
    watcher.send({"type": "chat", "id": 2, "text": "hello from the rail"})
    assert clients[1].next("chat")["message"]["author"] == "spectator"
    for bad in ["", "\x1b[31mred", "x" * 501]:
        clients[1].send({"type": "chat", "id": 3, "text": bad})
        assert clients[1].next("error")["code"] == "chat_refused"
    late = Client(base, gid, [tokens[1]])
    assert [m["seq"] for m in late.welcome["chat"]] == [1, 2]


def test_floods_are_limited_and_others_keep_playing(strict_base: str) -> None:
    base = strict_base
    api = Api(base)
    gid, _tokens, clients = _started(api, base)
    flooder = Client(base, gid, [])
    for i in range(80):
        try:
            flooder.send({"type": "ping", "id": i})
        except ConnectionClosed:
            # The server may cut the flooder off before it has sent all 80 (how soon
            # depends on how the two interleave on a loaded machine): what it answered
            # before is still read below.
            break
    codes = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            msg = flooder.recv(2)
        except (TimeoutError, ConnectionClosed):
            break
        codes.append(msg.get("code") or msg["type"])
    assert "rate_limited" in codes and "pong" in codes
    seat = _decider(clients)
    assert clients[seat].act(seat, _safe_action(clients[seat].view(seat)))["type"] == "ack"


def test_huge_frames_close_only_that_connection(api: Api, base: str) -> None:
    gid, _tokens, clients = _started(api, base)
    url = base.replace("http", "ws") + f"/api/games/{gid}/ws"
    with connect(url, proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        ws.recv(timeout=5)
        ws.send("x" * 200_000)
        with pytest.raises(ConnectionClosed):
            for _ in range(10):
                ws.recv(timeout=5)
    seat = _decider(clients)
    assert clients[seat].act(seat, _safe_action(clients[seat].view(seat)))["type"] == "ack"


def test_views_say_whether_undo_is_allowed_and_names_per_seat(api: Api, base: str) -> None:
    created = api.create()
    gid = created["id"]
    both = [s["token"] for s in created["seats"]]
    table = Client(base, gid, [])
    table.close()
    table = Client(base, gid, both, name="Family")
    table.close()
    named = Client(base, gid, both, name=None)
    named.send({"type": "ping", "id": 0})
    named.next("pong")
    doc = api.call(
        "POST", f"/api/games/{gid}/join", ",".join(both), {"names": {"0": "Ann", "1": "Bob"}}
    ).json()
    assert [s["name"] for s in doc["game"]["seats"]] == ["Ann", "Bob"]
    bad = api.call("POST", f"/api/games/{gid}/join", ",".join(both), {"names": {"x": "Ann"}})
    assert bad.status_code == 400
    seat = named.view(0)["decision"]["seat"]
    assert named.can_undo == {"0": False, "1": False}
    ack = named.act(seat, _safe_action(named.view(seat)))
    named.until_version(ack["version"])
    assert named.can_undo[str(seat)] is True and named.can_undo[str(1 - seat)] is False


def test_undo_refused_after_another_seat_answered_even_if_taken_back(api: Api, base: str) -> None:
    """The same rule over the WebSocket: a taken-back answer was still seen."""
    import random

    created = api.create()
    table = Client(base, created["id"], [s["token"] for s in created["seats"]])
    rng = random.Random(9)
    previous: tuple[int, bool] | None = None
    for _ in range(2000):
        seat = table.view(0)["decision"]["seat"]
        ack = table.act(seat, rng.choice(table.view(seat)["legal"]))
        assert ack["type"] == "ack", ack
        table.until_version(ack["version"])
        may = table.can_undo[str(seat)]
        if previous is not None and previous[0] != seat and previous[1] and may:
            break
        previous = (seat, may)
    else:
        raise AssertionError("no answered action in 2000 random actions")
    first = previous[0]
    version = table.version
    table.send({"type": "undo", "id": 1, "version": version, "seat": seat})
    assert table.next("ack")["version"] == version + 1
    table.until_version(version + 1)
    assert table.can_undo[str(first)] is False
    table.send({"type": "undo", "id": 2, "version": table.version, "seat": first})
    assert table.next("error")["code"] == "undo_refused"


@pytest.mark.parametrize("frame", [b"\x00\x01", "x" * 5000], ids=["binary", "oversized"])
def test_refused_frames_are_charged_and_a_flood_disconnects(
    strict_base: str, frame: bytes | str
) -> None:
    """Frames refused before parsing (binary, over 4 KiB) count against the rate limit
    like any other: a flood of them is throttled, then disconnected."""
    gid = Api(strict_base).create()["id"]
    url = strict_base.replace("http", "ws") + f"/api/games/{gid}/ws"
    codes: list[str] = []
    with connect(url, proxy=None, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        with contextlib.suppress(ConnectionClosed):
            for _ in range(2000):
                ws.send(frame)
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while True:
                msg = json.loads(ws.recv(timeout=5))
                codes.append(msg.get("code") or msg["type"])
    assert "rate_limited" in codes, codes[-5:]
    assert codes[-1] == "rate_limited" and codes.count("rate_limited") < 100, codes[-5:]
