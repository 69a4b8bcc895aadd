"""The messages' language is one of the book's (euphrates.words.book.LANGS): each is
accepted and kept, the code's mail is written in the language it was asked in, and a
language the book does not have is refused with the ones it has, nothing changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from euphrates.words.book import LANGS, format, read_part
from tests.server.harness import running_server
from tests.server.notifying import settings
from tests.server.people import Person
from tests.server.sinks import SmtpSink, sinks, until


@pytest.fixture
def smtp() -> Iterator[SmtpSink]:
    with sinks() as (mail, _http):
        yield mail


def test_every_language_of_the_book_and_no_other(tmp_path: Path, smtp: SmtpSink) -> None:
    with running_server(settings(f"sqlite:///{tmp_path}/games.db", smtp)) as base:
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        for lang in LANGS:
            r = ann.post("/api/account/notifications", {"lang": lang})
            assert r.status_code == 200 and r.json()["lang"] == lang, r.text
        refused = ann.post("/api/account/notifications", {"lang": "xx"})
        assert refused.status_code == 400
        message = refused.json()["error"]["message"]
        assert all(lang in message for lang in LANGS), message
        assert ann.get("/api/account/notifications").json()["lang"] == LANGS[-1]
        # the code's mail in the language the page asked in, for each language
        for i, lang in enumerate(LANGS):
            address = f"ann{i}@example.org"
            r = ann.post("/api/account/notifications/email", {"email": address, "lang": lang})
            assert r.status_code == 200, r.text
            mail = until(partial(smtp.to, address), why="the code")[-1]
            subject = read_part(lang, "mail")["mail.verify.subject"]
            server = mail.subject[len(subject.split("{server}")[0]) :]
            server = server[: len(server) - len(subject.split("{server}")[1])]
            assert mail.subject == format(subject, {"server": server}, lang), mail.subject
            assert re.search(r"[A-Z0-9]{4}-[A-Z0-9]{4}", mail.text), mail.text
