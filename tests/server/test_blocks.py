"""Blocks: a player blocks another, and neither is sent the other's chat lines — not
as they are said (WebSocket), not in a table's welcome, not over HTTP — while everyone
else hears both; nothing sent names an account's id. The block is the blocker's to
see (profile, export); quick match reads the blocked pairs (`blocked_pairs`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.server.common.config import async_db_url
from euphrates.server.store.accounts import AccountStore
from euphrates.server.store.database import Database, make_engine, migrate
from euphrates.server.store.moderation import ModerationStore, blocked_pairs
from tests.server.harness import Client, run_async
from tests.server.people import Person, forget_accounts
from tests.server.test_account_data import table


@pytest.fixture
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def said_until(reader: Client, text: str) -> list[str]:
    """The chat lines `reader` is sent up to the one saying `text`."""
    heard = []
    while True:
        msg = reader.next("chat")
        heard.append(msg["message"]["text"])
        if msg["message"]["text"] == text:
            return heard


def chat_of(who: Person, gid: str) -> list[str]:
    r = who.get(f"/api/games/{gid}/chat")
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


@pytest.mark.usefixtures("no_accounts")
def test_a_block_keeps_two_players_chat_apart_both_ways(base: str) -> None:
    game, ann, bob = table(base)  # "ann says hello", "bob whispers zebra"
    gid = game["id"]
    dan = Person(base)
    dan.signup("Dan")
    assert ann.post("/api/users/bob/block").json() == {"blocked": True}
    assert ann.post("/api/users/Bob/block").json() == {"blocked": True}  # again: the same
    sockets: dict[str, Any] = {n: p.socket(gid) for n, p in (("ann", ann), ("bob", bob))}
    sockets["dan"] = dan.socket(gid)
    welcome = {n: [c["text"] for c in s.welcome["chat"]] for n, s in sockets.items()}
    assert welcome == {
        "ann": ["ann says hello"],
        "bob": ["bob whispers zebra"],
        "dan": ["ann says hello", "bob whispers zebra"],
    }
    # Said now, over HTTP and the socket: each is heard by Dan and not by the other.
    assert bob.post(f"/api/games/{gid}/chat", {"text": "bob again"}).is_success
    assert ann.post(f"/api/games/{gid}/chat", {"text": "ann again"}).is_success
    sockets["dan"].send({"type": "chat", "id": 2, "text": "dan to all"})
    assert said_until(sockets["ann"], "dan to all") == ["ann again", "dan to all"]
    assert said_until(sockets["bob"], "dan to all") == ["bob again", "dan to all"]
    assert said_until(sockets["dan"], "dan to all") == ["bob again", "ann again", "dan to all"]
    assert chat_of(ann, gid) == ["ann says hello", "ann again", "dan to all"]
    assert chat_of(bob, gid) == ["bob whispers zebra", "bob again", "dan to all"]
    assert len(chat_of(dan, gid)) == len(chat_of(Person(base), gid)) == 5
    raw = "".join(m for s in sockets.values() for m in s.raw)
    assert "user_id" not in raw and "hidden" not in raw
    # The blocker sees the block; the blocked is not told.
    assert ann.get("/api/users/Bob").json()["blocked"] is True
    assert bob.get("/api/users/Ann").json()["blocked"] is False
    assert Person(base).get("/api/users/Bob").json()["blocked"] is None
    assert ann.get("/api/users/Ann").json()["blocked"] is None
    export = ann.get("/api/account/export").json()
    assert [b["name"] for b in export["blocked"]] == ["Bob"]
    assert bob.get("/api/account/export").json()["blocked"] == []
    assert "Ann" not in json.dumps(bob.get("/api/account/export").json()["blocked"])
    # Unblocked: their lines reach each other again, from the next one on.
    assert ann.http.delete(
        "/api/users/Bob/block", headers={"x-csrf-token": ann.csrf or ""}
    ).json() == {"blocked": False}
    assert bob.post(f"/api/games/{gid}/chat", {"text": "bob after"}).is_success
    assert said_until(sockets["ann"], "bob after") == ["bob after"]
    assert "bob again" in chat_of(ann, gid)
    for s in sockets.values():
        s.close()


@pytest.mark.usefixtures("no_accounts")
def test_blocking_is_refused_without_a_session_or_its_token(base: str) -> None:
    _game, ann, _bob = table(base)
    assert Person(base).post("/api/users/Bob/block").status_code == 401
    assert ann.post("/api/users/Bob/block", csrf=False).json()["error"]["code"] == "csrf_failed"
    r = ann.http.delete("/api/users/Bob/block")
    assert r.json()["error"]["code"] == "csrf_failed"
    assert ann.post("/api/users/Ann/block").status_code == 400
    assert ann.post("/api/users/Nobody/block").json()["error"]["code"] == "unknown_user"
    assert ann.get("/api/users/Bob").json()["blocked"] is False


def test_blocked_pairs_are_every_pair_blocked_either_way(db_url: str) -> None:
    forget_accounts(db_url)

    async def main() -> None:
        engine = make_engine(async_db_url(db_url))
        await migrate(engine)
        database = Database(engine, "test")
        try:
            accounts, moderation = AccountStore(database), ModerationStore(database)
            a, b, c, d = [(await accounts.create(n, "!")).id for n in ("A1", "B2", "C3", "D4")]
            assert await blocked_pairs(database, [a, b, c, d]) == set()
            await moderation.block(a, b)
            await moderation.block(c, a)
            await moderation.block(b, a)  # both ways: still one pair
            assert await blocked_pairs(database, [a, b, c, d]) == {
                frozenset((a, b)),
                frozenset((a, c)),
            }
            assert await blocked_pairs(database, [b, c, d]) == set()  # only among those asked
            assert await blocked_pairs(database, [c, a]) == {frozenset((a, c))}
            assert await blocked_pairs(database, [a]) == set()
            await moderation.unblock(a, b)
            assert await blocked_pairs(database, (a, b)) == {frozenset((a, b))}  # b still blocks a
            await moderation.unblock(b, a)
            assert await blocked_pairs(database, {a, b, c}) == {frozenset((a, c))}
        finally:
            await engine.dispose()

    run_async(main())


def test_a_block_holds_for_lines_heard_from_another_server(pg_url: str) -> None:
    """A line said on one server reaches the other server's tables by its signal, read
    there with its speaker's blocks: the blocker's table there never gets it."""
    from euphrates.server.serve import spawn
    from tests.server.harness import Api, stop_processes

    forget_accounts(pg_url)
    procs = []
    try:
        for _ in range(2):
            procs.append(spawn(pg_url, "--bot-workers", "0"))
        (_a, here), (_b, there) = procs
        ann, bob, dan = Person(there), Person(here), Person(there)
        for person, name in ((ann, "Ann"), (bob, "Bob"), (dan, "Dan")):
            assert person.signup(name).status_code == 201
        assert ann.post("/api/users/Bob/block").json() == {"blocked": True}
        gid = Api(here).create("cards", [{"kind": "human"}, {"kind": "human"}])["id"]
        ann_there, dan_there = ann.socket(gid), dan.socket(gid)
        assert bob.post(f"/api/games/{gid}/chat", {"text": "bob here"}).is_success
        assert said_until(dan_there, "bob here") == ["bob here"]
        assert dan.post(f"/api/games/{gid}/chat", {"text": "dan there"}).is_success
        assert said_until(ann_there, "dan there") == ["dan there"]
        ann_there.close()
        dan_there.close()
    finally:
        stop_processes([p for p, _u in procs])
