"""What the fair-play browser tests share: a server with the settings a test needs
(a short forfeit grace, bots that move at once), accounts signed up over HTTP and
browsers signed in as them, games between them, and the moves that make a rated game
count (docs/fair-play.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from euphrates.server.common.config import Settings
from tests.server.harness import running_server
from tests.server.people import Person
from tests.server.playing import game_doc, play_decisions
from tests.web.conftest import Pages
from tests.web.screens import LAPTOP, Screen, open_on

__all__ = ["game_doc", "play_decisions"]


@contextmanager
def club(pages: Pages, tmp_path: Path, bot_workers: int = 0, **settings: Any) -> Iterator[str]:
    """A server of its own with `settings` (a forfeit grace, a hint budget), its bots
    moving at once; yields its base URL. `pages` close before the server stops: a page
    left open would log its refused reconnection as a browser error."""
    with running_server(
        Settings(
            db_url=f"sqlite:///{tmp_path}/games.db",
            bot_workers=bot_workers,
            bot_pace=0,
            requests_per_s=1e5,
            **settings,
        )
    ) as base:
        try:
            yield base
        finally:
            pages.close()


def accounts(base: str, *names: str) -> list[Person]:
    people = [Person(base) for _ in names]
    for person, name in zip(people, names, strict=True):
        assert person.signup(name).status_code == 201
    return people


def browser(
    pages: Pages, person: Person, url: str, screen: Screen = LAPTOP, locale: str = "en-US"
) -> Any:
    """A page signed in as `person` (its session cookie), showing `url`."""
    return open_on(pages, person.base + url, screen, locale=locale, session=person.session)


def table(
    people: list[Person],
    game: str = "cards",
    rated: bool = False,
    clock: dict[str, Any] | None = None,
) -> str:
    """A game of `people`'s accounts, each at the seat of its place in the list (the
    first created it); it starts, every seat taken."""
    body: dict[str, Any] = {
        "game": game,
        "players": len(people),
        "seats": [{"kind": "human"}] * len(people),
        "rated": rated,
    }
    if clock is not None:
        body["clock"] = clock
    r = people[0].post("/api/games", body)
    assert r.status_code == 201, r.text
    created = r.json()
    for i, person in enumerate(people):
        token = created["seats"][i]["token"]
        assert person.post(f"/api/games/{created['id']}/join", {}, token=token).is_success
    return str(created["id"])


def forget_refusals(pages: Pages, *statuses: int) -> None:
    """The browser logs a refused request as a console error: those the test made on
    purpose are no error of the page's."""
    pages.errors[:] = [e for e in pages.errors if not any(str(s) in e for s in statuses)]
