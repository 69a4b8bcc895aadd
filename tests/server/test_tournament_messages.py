"""An entrant's word that their game of a tournament's round has begun, by mail and by
webhook: once per entrant and game (queued in the transaction that starts the round),
naming the tournament, the round and the opponents (a bot by its level), with the
table's page and no token — and nothing for a game no longer being played."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.harness import running_app
from tests.server.notifying import PUBLIC, enrol, settings
from tests.server.people import Person, forget_accounts
from tests.server.sinks import HttpSink, SmtpSink, sinks, until
from tests.server.test_tournaments import create


@pytest.fixture
def mailing(db_url: str) -> Iterator[tuple[str, SmtpSink, HttpSink]]:
    forget_accounts(db_url)
    with sinks() as (smtp, http):
        extra = {"logins_per_minute": 1000, "signups_per_hour": 1000, "bot_workers": 1}
        with running_app(settings(db_url, smtp, **extra)) as (url, _app):
            yield url, smtp, http


def test_each_entrant_hears_that_their_game_began(
    mailing: tuple[str, SmtpSink, HttpSink],
) -> None:
    url, smtp, http = mailing
    people = {name: Person(url) for name in ("Ann", "Bob", "Cy")}
    addresses = {name: enrol(p, name, smtp, http) for name, p in people.items()}
    t = create(people["Ann"], rounds=1, bots="beginner", clock={"mode": "turn", "days": 5})
    for name in ("Bob", "Cy"):
        assert people[name].post(f"/api/tournaments/{t['id']}/join").status_code == 200
    doc = people["Ann"].post(f"/api/tournaments/{t['id']}/start").json()
    tables = doc["rounds_played"][0]["tables"]
    for name, address in addresses.items():
        table = next(tb for tb in tables if name in tb["seats"])
        mails = until(functools.partial(mails_to, smtp, address), why=f"{name}'s mail")
        assert len(mails) == 1, mails
        text = mails[0].text
        assert "round 1 of Club night" in text and f"{PUBLIC}/g/{table['game_id']}" in text
        others = [s for s in table["seats"] if s != name]
        for other in others:
            assert (other or "a bot (beginner)") in text, text
        hooks = until(functools.partial(hooks_at, http, name), why="hook")
        assert len(hooks) == 1
        body = hooks[0].json
        assert table["game_id"] in json.dumps(body)
        for secret in ("token", "seed", "Bearer"):
            assert secret not in text and secret not in hooks[0].raw


def mails_to(smtp: SmtpSink, address: str) -> list[Any]:
    return [m for m in smtp.to(address) if "Club night" in m.subject]


def hooks_at(http: HttpSink, name: str) -> list[Any]:
    return [h for h in http.at(f"/{name}") if "Club night" in h.raw]
