"""Friends with two servers sharing one PostgreSQL database: a lobby on one server is
told live of a followed player coming, playing and going on the other, of an
invitation made on the other (and taken there), and of a block made there.

Skipped (with the reason) where PostgreSQL does not answer; under `CI=true` it must run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from euphrates.server.common.config import Settings
from tests.server.harness import running_server
from tests.server.people import Person, forget_accounts
from tests.server.test_friends import entry, follow, seen
from tests.server.test_invitations import accept, invite
from tests.server.test_tables import GRACE, HUMAN, open_table, person


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[str, str]]:
    forget_accounts(pg_url)
    settings = Settings(
        db_url=pg_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_server(settings) as a, running_server(settings) as b:
        yield a, b


def on(server: str, p: Person) -> Person:
    """The same browser's session, its requests sent to `server`."""
    moved = Person(server)
    moved.http.cookies.update(p.http.cookies)
    moved.csrf = p.csrf
    return moved


def test_presence_games_invitations_and_blocks_are_heard_across_servers(
    two: tuple[str, str],
) -> None:
    a, b = two
    ann = person(a, "Ann")
    bob = on(b, person(a, "Bob"))
    assert follow(ann, "Bob").status_code == 200
    ann_lobby = ann.lobby()  # on A
    bob_lobby = bob.lobby()  # on B
    try:
        # Bob's lobby on B makes him online in Ann's on A.
        ann_lobby.until(lambda lb: seen(lb, "Bob", True, 0))
        # A table Bob opens on B shows on A, with its link.
        bobs = open_table(bob, [HUMAN, HUMAN])
        ann_lobby.until(lambda lb: seen(lb, "Bob", True, 1))
        assert entry(ann_lobby, "Bob")["games"][0]["link"] == f"/g/{bobs['id']}"  # type: ignore[index]
        # Ann invites Bob on A to her table; his lobby on B shows it at once.
        table = open_table(ann, [HUMAN, HUMAN, HUMAN])
        made = invite(ann, table["id"], "Bob", 2)
        assert made.status_code == 201, made.text
        bob_lobby.until(
            lambda lb: (
                [i["id"] for i in (lb.friends or {}).get("received", [])] == [made.json()["id"]]
            )
        )
        assert bob_lobby.friends["received"][0]["host"] == "Ann"  # type: ignore[index]
        ann_lobby.until(lambda lb: len((lb.friends or {}).get("sent", [])) == 1)
        # He takes it on B: seated, and Ann's list on A empties.
        assert accept(bob, made.json()["id"]).json()["seats"] == [2]
        ann_lobby.until(lambda lb: (lb.friends or {}).get("sent") == [])
        bob_lobby.until(lambda lb: (lb.friends or {}).get("received") == [])
        seats = on(a, ann).get(f"/api/games/{table['id']}").json()["game"]["seats"]
        assert seats[2]["name"] == "Bob" and seats[2]["taken"]
        # His block, made on B, hides him from her follow on A at once.
        assert bob.post("/api/users/Ann/block").status_code == 200
        ann_lobby.until(lambda lb: seen(lb, "Bob", False, 0))
        assert bob.http.delete(
            "/api/users/Ann/block", headers={"x-csrf-token": bob.csrf or ""}
        ).is_success
        ann_lobby.until(lambda lb: seen(lb, "Bob", True))
        # He goes (his lobby on B closed, the grace passed): away on A.
        bob_lobby.close()
        ann_lobby.until(lambda lb: seen(lb, "Bob", False))
    finally:
        ann_lobby.close()
        bob_lobby.close()
