"""Turn messages out of the browser, end to end against local sinks (an SMTP server and
an HTTP server): a turn-based game played through the API where each decision handed
to the other player brings exactly one e-mail and one webhook call with the game's
link and the player's name and nothing else; the address verified first; retries with
backoff; a deadline that passes while the server is stopped; two servers on
PostgreSQL sending each message once; the digest; the test message; SSRF refusals."""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, make_engine, migrate
from tests.server.harness import run_async, running_server
from tests.server.notifying import (
    PUBLIC,
    Table,
    check_turn_message,
    enrol,
    execute,
    new_game,
    rows,
    settings,
    wait_for,
)
from tests.server.people import Person, forget_accounts
from tests.server.sinks import HttpSink, SmtpSink, sinks, until


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def sink() -> Iterator[tuple[SmtpSink, HttpSink]]:
    with sinks() as both:
        yield both


def test_each_handover_brings_one_mail_and_one_webhook_call(
    db_url: str, sink: tuple[SmtpSink, HttpSink]
) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann, bob = Person(base), Person(base)
        addresses = [enrol(ann, "Ann", smtp, http), enrol(bob, "Bob", smtp, http)]
        names = ["Ann", "Bob"]
        codes = [len(smtp.to(a)) for a in addresses]  # the verification mails
        gid, tokens = new_game(ann, bob, {"mode": "turn", "days": 3})
        table = Table([ann, bob], gid, tokens)
        expected = [0, 0]
        seat = table.whose()[1]
        assert seat is not None
        expected[seat] += 1  # the first decision, when the game starts
        secrets_ = [*tokens, *addresses]
        handovers = 0
        while handovers < 6:
            for s in (0, 1):
                wait_for(smtp, http, addresses[s], names[s], codes[s] + expected[s], expected[s])
            mail, hook = smtp.to(addresses[seat])[-1], http.at(f"/{names[seat]}")[-1]
            # which table: the opponent and the decision waiting (the actions so far + 1)
            other, move = names[1 - seat], table.version + 1
            assert mail.subject == f"Your turn: Tigris & Euphrates with {other}, move {move}"
            check_turn_message(mail.text, gid, names[seat], secrets_)
            assert mail.headers["auto-submitted"] == "auto-generated"
            assert hook.json["content"] == hook.json["text"] == mail.text.strip()
            assert hook.json["allowed_mentions"] == {"parse": []}
            check_turn_message(hook.raw, gid, names[seat], secrets_)
            after: int | None = seat
            while after == seat:
                after = table.act()
            assert after is not None
            seat = after
            expected[seat] += 1
            handovers += 1
        for s in (0, 1):
            wait_for(smtp, http, addresses[s], names[s], codes[s] + expected[s], expected[s])
        query = "SELECT channel, state, attempts FROM notices"
        sent = until(
            lambda: all(r[1] == "sent" for r in rows(db_url, query)) and rows(db_url, query)
        )
        assert len(sent) == 2 * sum(expected) and {tuple(r) for r in sent} == {
            ("email", "sent", 1),
            ("webhook", "sent", 1),
        }
        for s in (0, 1):
            assert len(http.at(f"/{names[s]}")) == expected[s]
            assert len(smtp.to(addresses[s])) - codes[s] == expected[s]
        # The table's own words for whose turn it is: what the player's account opens.
        assert all(m.to == [addresses[s]] for s in (0, 1) for m in smtp.to(addresses[s]))


def test_failed_deliveries_are_tried_again_and_arrive_once(
    db_url: str, sink: tuple[SmtpSink, HttpSink]
) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann, bob = Person(base), Person(base)
        addresses = [enrol(ann, "Ann", smtp, http), enrol(bob, "Bob", smtp, http)]
        names = ["Ann", "Bob"]
        gid, tokens = new_game(ann, bob, {"mode": "turn", "days": 3})
        table = Table([ann, bob], gid, tokens)
        seat = table.whose()[1]
        assert seat is not None
        mails = 2  # its code, then the game's start
        until(lambda: http.at(f"/{names[seat]}") and len(smtp.to(addresses[seat])) == mails)
        smtp.fail_next, http.fail_next = 2, 2
        while table.whose()[1] == seat:
            table.act()
        other = 1 - seat
        until(lambda: len(http.at(f"/{names[other]}")) == 1)
        until(lambda: len(smtp.to(addresses[other])) == 2)  # its code and this turn
        assert smtp.refused == 2 and http.refused == 2
        query = (
            f"SELECT channel, state, attempts FROM notices WHERE key LIKE 'turn:{gid}:{other}:%'"
        )
        got = until(
            lambda: all(r[1] == "sent" for r in rows(db_url, query)) and rows(db_url, query)
        )
        assert sorted(tuple(r) for r in got) == [("email", "sent", 3), ("webhook", "sent", 3)]


def test_a_message_given_up_after_its_attempts(
    db_url: str, sink: tuple[SmtpSink, HttpSink], caplog: pytest.LogCaptureFixture
) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp, notify_attempts=2)) as base:
        ann, bob = Person(base), Person(base)
        addresses = [enrol(ann, "Ann", smtp, http), enrol(bob, "Bob", smtp, http)]
        smtp.fail_next, http.fail_next = 100, 100
        with caplog.at_level("WARNING", logger="euphrates.server"):
            gid, _ = new_game(ann, bob, {"mode": "turn", "days": 3})
            query = "SELECT state, attempts FROM notices WHERE state = 'failed'"
            got = until(lambda: len(rows(db_url, query)) == 2 and rows(db_url, query))
        assert {tuple(r) for r in got} == {("failed", 2)}
        given_up = [r.getMessage() for r in caplog.records if "given up" in r.getMessage()]
        assert len(given_up) == 2
        for line in given_up:  # neither the address nor the hook in the log
            assert "@" not in line and "127.0.0.1" not in line and gid not in line
            assert all(a not in line for a in addresses)


def test_turn_mail_needs_a_verified_address(db_url: str, sink: tuple[SmtpSink, HttpSink]) -> None:
    smtp, _http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann, bob = Person(base), Person(base)
        assert ann.signup("Ann").status_code == 201
        assert bob.signup("Bob").status_code == 201
        r = ann.post("/api/account/notifications", {"email_on": True})
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_address"
        bad = ann.post("/api/account/notifications/email", {"email": "not an address"})
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_email"
        header = ann.post("/api/account/notifications/email", {"email": "a@b.org\r\nBcc: x@y.org"})
        assert header.status_code == 422
        r = ann.post("/api/account/notifications/email", {"email": "ann@example.org"})
        assert r.status_code == 200 and r.json()["email_on"] is False
        code = re.search(
            r"[A-Z0-9]{4}-[A-Z0-9]{4}", until(lambda: smtp.to("ann@example.org"))[0].text
        )
        assert code is not None
        # Unverified: a game's turns send nothing to the address.
        gid, tokens = new_game(ann, bob, {"mode": "turn", "days": 3})
        table = Table([ann, bob], gid, tokens)
        for _ in range(4):
            table.act()
        assert rows(db_url, "SELECT id FROM notices") == []
        assert len(smtp.to("ann@example.org")) == 1  # the code only
        # Bob cannot see or enter Ann's code, nor read her address.
        assert "ann@" not in bob.get("/api/account/notifications").text
        wrong = ann.post("/api/account/notifications/verify", {"code": "AAAA-AAAA"})
        assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "bad_code"
        assert "ann@" not in wrong.text
        for _ in range(4):
            ann.post("/api/account/notifications/verify", {"code": "AAAA-AAAA"})
        spent = ann.post("/api/account/notifications/verify", {"code": code.group(0)})
        assert spent.status_code == 409 and spent.json()["error"]["code"] == "no_code"
        # A new code, entered right, makes the address the account's.
        assert ann.post("/api/account/notifications/email", {"email": "ann@example.org"}).is_success
        fresh = re.search(
            r"[A-Z0-9]{4}-[A-Z0-9]{4}", until(lambda: smtp.to("ann@example.org")[1:])[0].text
        )
        assert fresh is not None
        r = ann.post("/api/account/notifications/verify", {"code": fresh.group(0).lower()})
        assert r.status_code == 200 and r.json()["email"] == "ann@example.org"
        export = ann.get("/api/account/export").json()["notifications"]
        assert export["settings"]["email"] == "ann@example.org"
        assert "ann@" not in bob.get("/api/account/export").text
        # Three codes an hour to one address, whoever asks.
        third = bob.post("/api/account/notifications/email", {"email": "ann@example.org"})
        assert third.is_success
        refused = bob.post("/api/account/notifications/email", {"email": "ann@example.org"})
        assert refused.status_code == 429


def test_without_smtp_there_is_no_mail(db_url: str) -> None:
    with running_server(Settings(db_url=db_url, bot_workers=0)) as base:
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        assert ann.get("/api/account/notifications").json()["mail"] is False
        r = ann.post("/api/account/notifications/email", {"email": "ann@example.org"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "mail_unavailable"
        t = ann.post("/api/account/notifications/test", {"channel": "email"})
        assert t.status_code == 409 and t.json()["error"]["code"] == "mail_unavailable"


def test_webhooks_refuse_what_is_not_public(db_url: str) -> None:
    with running_server(Settings(db_url=db_url, bot_workers=0)) as base:
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        for url in (
            "http://hooks.example.org/x",  # https only
            "https://127.0.0.1/hook",
            "https://[::1]/hook",
            "https://10.1.2.3/hook",
            "https://192.168.1.1/hook",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/hook",
            "https://[::ffff:127.0.0.1]/hook",
            "https://[fe80::1]/hook",
            "https://0.0.0.0/hook",
            "https://224.0.0.1/hook",
            "https://user:pw@hooks.example.org/x",
            "ftp://hooks.example.org/x",
            "https://hooks.example.org:0/x",
            "https://hooks.example.org/a b",
        ):
            r = ann.post("/api/account/notifications", {"webhook": url})
            assert r.status_code == 422, url
            error = r.json()["error"]
            assert error["code"] == "bad_webhook" and url not in error["message"]
        # A name is checked when a message goes: localhost resolves to loopback.
        r = ann.post("/api/account/notifications", {"webhook": "https://localhost/hook"})
        assert r.status_code == 200, r.text
        t = ann.post("/api/account/notifications/test", {"channel": "webhook"})
        assert t.status_code == 422 and t.json()["error"]["code"] == "bad_webhook"
        cleared = ann.post("/api/account/notifications", {"webhook": None})
        assert cleared.json()["webhook"] is None and cleared.json()["webhook_on"] is False


def test_no_redirect_is_followed(db_url: str, sink: tuple[SmtpSink, HttpSink]) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        assert ann.post("/api/account/notifications", {"webhook": http.url("/a")}).is_success
        http.redirect = "https://169.254.169.254/"
        t = ann.post("/api/account/notifications/test", {"channel": "webhook"})
        assert t.status_code == 502 and t.json()["error"]["code"] == "send_failed"
        assert "302" in t.json()["error"]["message"]
        http.redirect = None
        t = ann.post("/api/account/notifications/test", {"channel": "webhook"})
        assert t.status_code == 200
        hook = http.at("/a")[-1]
        assert "Ann" in hook.json["content"] and hook.json["content"] == hook.json["text"]


def test_the_digest_lists_the_games_waiting_for_the_player(
    db_url: str, sink: tuple[SmtpSink, HttpSink]
) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann, bob = Person(base), Person(base)
        address = enrol(ann, "Ann", smtp, http)
        assert bob.signup("Bob").status_code == 201
        r = ann.post(
            "/api/account/notifications",
            {"digest": True, "digest_hour": 7, "timezone": "Europe/Berlin", "lang": "de"},
        )
        assert r.status_code == 200, r.text
        due = datetime.fromisoformat(r.json()["next_digest"])
        assert due.astimezone(ZoneInfo("Europe/Berlin")).hour == 7 and due > datetime.now(UTC)
        games = [new_game(ann, bob, {"mode": "turn", "days": 3}) for _ in range(3)]
        waiting = []
        for gid, tokens in games:
            table = Table([ann, bob], gid, tokens)
            while table.whose()[1] != 0:  # Ann's turn in every game
                table.act()
            waiting.append(gid)
        # Per turn nothing goes out (the digest was chosen); the digest is due now.
        codes = len(smtp.to(address))
        assert rows(db_url, "SELECT id FROM notices") == []
        execute(db_url, "UPDATE notify_settings SET digest_next = '2000-01-01 00:00:00+00'")
        mail = until(lambda: smtp.to(address)[codes:], why="the digest")[0]
        hook = until(lambda: http.at("/Ann"))[0]
        assert mail.subject == "Du bist in 3 Spielen am Zug"
        for gid in waiting:
            assert f"{PUBLIC}/g/{gid}" in mail.text and f"{PUBLIC}/g/{gid}" in hook.json["text"]
        # each line names its table: the opponent and the decision waiting
        assert "Ann" in mail.text
        lines = mail.text.strip().splitlines()[1:]
        assert len(lines) == 3 and all(
            re.match(r"Euphrat & Tigris mit Bob, Zug \d+: ", x) for x in lines
        )
        nxt = rows(db_url, "SELECT digest_next FROM notify_settings")[0][0]
        nxt = datetime.fromisoformat(str(nxt)) if not isinstance(nxt, datetime) else nxt
        assert nxt.year > 2000
        # Claimed once: a second look the same day finds nothing due.
        assert len(rows(db_url, "SELECT id FROM notices")) == 2


def test_a_test_message_reaches_the_player(db_url: str, sink: tuple[SmtpSink, HttpSink]) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp)) as base:
        ann = Person(base)
        address = enrol(ann, "Ann", smtp, http)
        r = ann.post("/api/account/notifications/test", {"channel": "email"})
        assert r.status_code == 200 and r.json() == {"sent": True}
        mail = until(lambda: smtp.to(address)[1:])[0]
        assert "Ann" in mail.text and mail.subject.startswith("A test message")
        assert ann.post("/api/account/notifications/test", {"channel": "webhook"}).is_success
        assert "Ann" in http.at("/Ann")[-1].json["content"]
        forbidden = ann.post("/api/account/notifications/test", {"channel": "email"}, csrf=False)
        assert forbidden.status_code == 403


def test_a_password_change_ends_the_other_sessions(db_url: str) -> None:
    with running_server(Settings(db_url=db_url, bot_workers=0)) as base:
        here, there = Person(base), Person(base)
        assert here.signup("Ann").status_code == 201
        assert there.login("Ann").status_code == 200
        wrong = here.post(
            "/api/account/password", {"old": "not it at all", "new": "a new password"}
        )
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_login"
        short = here.post("/api/account/password", {"old": "correct horse battery", "new": "x"})
        assert short.status_code == 422 and short.json()["error"]["code"] == "bad_password"
        r = here.post(
            "/api/account/password", {"old": "correct horse battery", "new": "a new password"}
        )
        assert r.status_code == 200, r.text
        here.csrf = r.json()["csrf"]
        assert here.me()["user"]["name"] == "Ann"  # this browser stays signed in
        assert there.me()["user"] is None  # the other session ended
        assert Person(base).login("Ann").status_code == 401
        assert Person(base).login("Ann", "a new password").status_code == 200


def test_a_deadline_passes_while_the_server_is_stopped(
    tmp_path: Any, sink: tuple[SmtpSink, HttpSink], db_url: str
) -> None:
    """The bot plays the stopped player's turn on the restarted server: the other
    player is told once it is theirs, the player the bot stood in for no second time."""
    smtp, http = sink
    # A day long enough that the turn after the bot's is still the first player's when
    # a loaded machine's notifier gets to it: a turn that passes before its message is
    # sent withdraws the message, and since a seat that misses two deadlines in a row
    # is forfeited (docs/fair-play.md) a duel no longer goes on to offer another turn.
    day = 20.0
    config = settings(db_url, smtp, bot_workers=1, clock_day=day)
    with running_server(config) as base:
        ann, bob = Person(base), Person(base)
        enrol(ann, "Ann", smtp, http)
        enrol(bob, "Bob", smtp, http)
        gid, tokens = new_game(ann, bob, {"mode": "turn", "days": 1, "level": "beginner"})
        table = Table([ann, bob], gid, tokens)
        first = table.whose()[1]
        assert first is not None
        while table.whose()[1] == first:
            table.act()
        second = 1 - first
        names = ["Ann", "Bob"]
        until(lambda: len(http.at(f"/{names[second]}")) == 1)
        doc = ann.get(f"/api/games/{gid}", tokens[0]).json()
        deadline = datetime.fromisoformat(doc["game"]["clock"]["deadline"]).timestamp()
        version = doc["version"]
    assert time.time() < deadline, "the server stopped after the deadline: a slow machine"
    until(lambda: time.time() > deadline + 0.2, timeout=day * 2)
    with running_server(config) as base:
        ann = Person(base)
        assert ann.login("Ann").status_code == 200
        # the first player's message of the turn after the bot's, sent (the first
        # player's message of the game's first turn may have been withdrawn: they
        # moved before it went out)
        sent_to_first = (
            "SELECT key FROM notices WHERE channel = 'webhook' AND state = 'sent' "
            f"AND key LIKE 'turn:{gid}:{first}:%'"
        )
        until(
            lambda: any(int(k.split(":")[3]) > version for (k,) in rows(db_url, sent_to_first)),
            timeout=day * 2,
            why="the turn after the bot's",
        )
        doc = ann.get(f"/api/games/{gid}", tokens[0]).json()
        assert doc["version"] > version
        # Later deadlines may pass too on a slow machine (a day is 20 s here): what
        # holds whatever happened is that each prompt has one message, that prompts
        # alternate between the seats (the turn the bot played brought its player
        # nothing), and that the first player was told of the turn after the bot's.
        queued = "SELECT id FROM notices WHERE state = 'queued'"
        until(lambda: not rows(db_url, queued))
        found = rows(db_url, "SELECT key, state FROM notices WHERE channel = 'webhook'")
        prompts = sorted((int(k.split(":")[3]), int(k.split(":")[2]), st) for k, st in found)
        seats = [seat for _, seat, _ in prompts]
        assert all(a != b for a, b in itertools.pairwise(seats)), prompts
        stopped = [p[:2] for p in prompts].index((version, second))
        assert prompts[stopped][2] == "sent", prompts  # told before the server stopped
        after = prompts[stopped + 1]
        assert after[1] == first and after[0] > version and after[2] == "sent", prompts
        for seat in (0, 1):
            told = [p for p in prompts if p[1] == seat and p[2] == "sent"]
            assert len(http.at(f"/{names[seat]}")) == len(told), prompts


def test_two_servers_send_each_message_once(
    db_url: str, pg_url: str, sink: tuple[SmtpSink, HttpSink]
) -> None:
    if db_url != pg_url:
        pytest.skip("servers share a database on PostgreSQL only (this runs once, there)")
    smtp, http = sink
    with ExitStack() as stack:
        bases = [stack.enter_context(running_server(settings(pg_url, smtp))) for _ in range(2)]
        ann, bob = Person(bases[0]), Person(bases[1])
        addresses = [enrol(ann, "Ann", smtp, http), enrol(bob, "Bob", smtp, http)]
        codes = [len(smtp.to(a)) for a in addresses]
        gid, tokens = new_game(ann, bob, {"mode": "turn", "days": 3})
        # Each player acts on the server the other is not on: moves are made on both.
        people = [ann, bob]
        table = Table(people, gid, tokens)
        expected = [0, 0]
        seat = table.whose()[1]
        assert seat is not None
        expected[seat] += 1
        names = ["Ann", "Bob"]
        for _ in range(6):
            # Each player acts once told (else an unsent message is withdrawn, rightly).
            for s in (0, 1):
                wait_for(smtp, http, addresses[s], names[s], codes[s] + expected[s], expected[s])
            after: int | None = seat
            while after == seat:
                after = table.act()
            assert after is not None
            seat = after
            expected[seat] += 1
        for s in (0, 1):
            wait_for(smtp, http, addresses[s], names[s], codes[s] + expected[s], expected[s])
        sent = until(
            lambda: (
                all(r[0] == "sent" for r in rows(pg_url, "SELECT state FROM notices"))
                and rows(pg_url, "SELECT state FROM notices")
            )
        )
        assert len(sent) == 2 * sum(expected) and {r[0] for r in sent} == {"sent"}
        for s in (0, 1):
            assert len(http.at(f"/{names[s]}")) == expected[s]
            assert len(smtp.to(addresses[s])) - codes[s] == expected[s]


def test_the_sender_leaves_a_claimed_message_to_others_when_its_lease_ends(db_url: str) -> None:
    from euphrates.server.store.database import now
    from euphrates.server.store.notices import NoticeStore

    async def scenario() -> None:
        engine = make_engine(async_db_url(db_url))
        await migrate(engine)
        try:
            async with engine.begin() as conn:
                await conn.execute(db.notices.delete())
                uid = (
                    await conn.execute(
                        db.users.insert()
                        .values(name="Lea", name_key="lea", password_hash="!", created_at=now())
                        .returning(db.users.c.id)
                    )
                ).scalar_one()
                await conn.execute(
                    db.notices.insert().values(
                        key="digest:x:1",
                        channel="webhook",
                        user_id=uid,
                        state="queued",
                        due_at=now(),
                        created_at=now(),
                    )
                )
            one = NoticeStore(Database(engine, "one"))
            two = NoticeStore(Database(engine, "two"))
            first = await one.claim(10, lease=0.3)
            assert [c.attempts for c in first] == [1]
            assert await two.claim(10, lease=0.3) == []  # held
            deadline = time.monotonic() + 30
            again: list[Any] = []
            while not again:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
                again = await two.claim(10, lease=30)
            assert again[0].id == first[0].id and again[0].attempts == 2
            await one.finish(first[0].id, "sent")  # no longer its lease: nothing changes
            async with engine.connect() as conn:
                state = (
                    await conn.execute(
                        sa.select(db.notices.c.state).where(db.notices.c.id == first[0].id)
                    )
                ).scalar()
            assert state == "queued"
        finally:
            async with engine.begin() as conn:
                await conn.execute(db.notices.delete())
            await engine.dispose()

    run_async(asyncio.wait_for(scenario(), 60))


def test_a_game_without_a_clock_tells_only_a_player_who_has_not_acted_for_a_while(
    db_url: str, sink: tuple[SmtpSink, HttpSink]
) -> None:
    smtp, http = sink
    with running_server(settings(db_url, smtp, notify_untimed_after=3600.0)) as base:
        ann, bob = Person(base), Person(base)
        enrol(ann, "Ann", smtp, http)
        enrol(bob, "Bob", smtp, http)
        gid, tokens = new_game(ann, bob, {"mode": "none"})
        table = Table([ann, bob], gid, tokens)
        for _ in range(3):  # live play: each prompt is answered before it is due
            seat = table.whose()[1]
            while table.whose()[1] == seat:
                table.act()
        states = rows(db_url, "SELECT state, due_at FROM notices")
        assert states and {r[0] for r in states} <= {"withdrawn", "queued"}
        assert [r[0] for r in states].count("queued") == 2  # the prompt waiting now
        assert http.hooks == []
    with running_server(settings(db_url, smtp, notify_untimed_after=0.2)) as base:
        ann = Person(base)
        assert ann.login("Ann").status_code == 200
        table = Table([ann, Person(base)], gid, tokens)
        bob = table.people[1]
        assert bob.login("Bob").status_code == 200
        seat = table.whose()[1]
        assert seat is not None
        while table.whose()[1] == seat:
            table.act()
        # Nobody acts now: after the short wait the player is told.
        other = 1 - seat
        until(lambda: len(http.at(f"/{['Ann', 'Bob'][other]}")) == 1)
