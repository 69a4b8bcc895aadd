"""The replay shows the game's review: a chart of each seat's chance over the game, the
step shown marked, and each move's chance before → after in the move list, once the
server's bot workers have worked it out (a note says so until then)."""

from __future__ import annotations

import re
import time

from tests.bots.test_review import NOTATION
from tests.web.conftest import Pages, Server, shot
from tests.web.screens import PHONE, SCREENS, axe_problems, no_sideways_scroll, open_on


def ended_bot_game(server: Server, game: str = "cards") -> str:
    created = server.create(2, game=game, bots=["beginner", "beginner"])
    gid = str(created["id"])
    deadline = time.monotonic() + 120
    while server.call("GET", f"/api/games/{gid}")["game"]["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return gid


REVIEWED_WITHIN = 600.0
"""Seconds the one bot worker may take to review a game: under a whole suite on two
cores a card game's review took over a minute."""


def reviewed(server: Server, gid: str) -> None:
    """Return once the server says the game's review is done."""
    deadline = time.monotonic() + REVIEWED_WITHIN
    while server.call("GET", f"/api/games/{gid}/review").get("status") == "pending":
        assert time.monotonic() < deadline, "the review was not done in time"
        time.sleep(0.5)


def test_the_replay_shows_the_review_on_every_screen(bot_server: Server, pages: Pages) -> None:
    gid = ended_bot_game(bot_server)
    problems: list[str] = []
    for n, screen in enumerate(SCREENS):
        page = open_on(pages, f"{bot_server.base}/replay/{gid}?step=12", screen)
        if n == 0:
            # The review is worked out after the end: the first page, opened before it
            # is done, asks again until it is there.
            reviewed(bot_server, gid)
        page.wait_for_selector(".review-chart", timeout=60_000)
        page.wait_for_selector(".moves.reviewed .chance")
        assert page.locator(".review-line").count() == 2
        assert page.locator(".review-step").count() == 1
        twelfth = page.locator(".moves.reviewed li").nth(11)
        assert re.fullmatch(r"\d+\s%", twelfth.locator(".chance").inner_text())
        assert "→" in page.locator(".review-now").inner_text()
        # a flagged move names its mover, the better move in words with its chance, why
        flagged = page.locator(".moves.reviewed li.flagged").first
        names = page.locator(".review-key li").all_inner_texts()
        assert flagged.locator(".mover").inner_text() in [n.strip() for n in names]
        better = flagged.locator(".better").inner_text()
        assert re.fullmatch(r"better: .+ \(\d+\s%\)", better), better
        assert not NOTATION.search(better.removeprefix("better: ")), better
        assert flagged.locator(".why").inner_text().endswith(".")
        flagged.scroll_into_view_if_needed()
        shot(page, f"review-flagged-{screen.name}")
        page.locator(".review-panel").scroll_into_view_if_needed()
        shot(page, f"review-{screen.name}")
        no_sideways_scroll(page)
        problems += axe_problems(page, f"review {screen.name}")
        page.close()
    # in German on a phone: the flagged rows in German words, the page as accessible
    page = open_on(pages, f"{bot_server.base}/replay/{gid}?step=12", PHONE, locale="de-DE")
    page.wait_for_selector(".moves.reviewed li.flagged .better")
    better = page.locator(".moves.reviewed li.flagged .better").first.inner_text()
    assert re.fullmatch(r"besser: .+ \(\d+\s%\)", better), better
    assert not NOTATION.search(better.removeprefix("besser: ")), better
    problems += axe_problems(page, "review phone de-DE")
    assert not problems, "\n".join(problems)
