"""Quick match in the browser: Ann and Bob, each signed in in a browser of their own,
press "Play a 2-player game now" in the lobby; Ann's lobby shows her wait ticking and
the window of ratings; both are taken to the same table, each at a seat of their own,
and the first move works. Then the waiting state at the three screens (no sideways
scroll, the cancel in view, axe-core), in English and German, and cancelling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import place_leader, wait_version
from tests.web.screens import (
    LAPTOP,
    SCREENS,
    Screen,
    axe_problems,
    doc_shot,
    no_sideways_scroll,
)
from tests.web.test_tables import signed_in_context


def game_doc(page: Any, game_id: str) -> dict[str, Any]:
    """The game as this browser's account may see it (its cookie, no token)."""
    doc: dict[str, Any] = page.evaluate(
        "async (id) => (await fetch(`/api/games/${id}`)).json()", game_id
    )
    return doc


def test_two_players_press_quick_match_land_at_one_table_and_play(
    server: Server, pages: Pages
) -> None:
    ann = signed_in_context(pages, server.base, "Ann", LAPTOP, "/")
    bob = signed_in_context(pages, server.base, "Bob", LAPTOP, "/")
    for page in (ann, bob):
        page.wait_for_selector(".quick-play[data-game=board]")
    ann.click(".quick-play[data-game=board]")
    ann.wait_for_selector(".quick-wait")
    assert "Looking for an opponent for Tigris & Euphrates" in ann.inner_text(".quick-looking")
    assert ann.inner_text(".quick-window") == "ratings within ±100"
    assert "your rating 1000" in ann.inner_text(".quick-meta")
    ann.wait_for_function(
        "() => /Waiting 0:0[1-9]/.test(document.querySelector('.quick-timer')?.textContent)"
    )
    bob.click(".quick-play[data-game=board]")
    for page in (ann, bob):
        page.wait_for_url("**/g/*")
        page.wait_for_selector("svg.board")
    game_id = ann.url.rsplit("/g/", 1)[1]
    assert "#" not in game_id and bob.url.rsplit("/g/", 1)[1] == game_id
    docs = {name: game_doc(page, game_id) for name, page in (("Ann", ann), ("Bob", bob))}
    seats = {name: doc["you"]["seats"] for name, doc in docs.items()}
    assert sorted(seats["Ann"] + seats["Bob"]) == [0, 1], seats
    game = docs["Ann"]["game"]
    assert game["status"] == "active" and game["clock"]["preset"] == "medium"
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Bob"]
    first = int(docs["Ann"]["views"][str(seats["Ann"][0])]["turn"]["active"])
    mover, other = (ann, bob) if seats["Ann"] == [first] else (bob, ann)
    mover.wait_for_selector(f".seat[data-seat='{first}'] .clock.running")
    place_leader(mover, "king", "J1")
    wait_version(other, 1)
    shot(other, "quickmatch-first-move")


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_the_wait_on_every_screen(server: Server, pages: Pages, screen: Screen) -> None:
    page = signed_in_context(pages, server.base, "Cara", screen, "/")
    page.wait_for_selector(".quick-play[data-game=cards]")
    no_sideways_scroll(page)
    page.locator(".quick-match").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, f"quickmatch-idle-{screen.name}")
    page.click(".quick-play[data-game=cards]")
    page.wait_for_selector(".quick-wait")
    page.wait_for_function(
        "() => /0:0[1-9]/.test(document.querySelector('.quick-timer')?.textContent)"
    )
    problems: list[str] = []
    for lang in ("en", "de"):
        if lang == "de":
            page.click(".lang button[lang='de']")
            page.wait_for_function(
                "() => document.querySelector('.quick-cancel')?.textContent === 'Abbrechen'"
            )
            assert "Wertung ±" in page.inner_text(".quick-window")
        no_sideways_scroll(page)
        cancel = page.locator(".quick-cancel").bounding_box()
        assert cancel is not None and cancel["x"] + cancel["width"] <= screen.width, cancel
        page.locator(".quick-match").evaluate("e => e.scrollIntoView({block: 'start'})")
        shot(page, f"quickmatch-waiting-{screen.name}-{lang}")
        if lang == "en":
            doc_shot(page, f"quickmatch-{screen.name}")
        problems += axe_problems(page, f"lobby, quick match waiting {screen.name} {lang}")
    page.click(".quick-cancel")
    page.wait_for_selector(".quick-play[data-game=cards]")
    assert page.locator(".quick-wait").count() == 0
    state = page.evaluate("async () => (await fetch('/api/quickmatch')).json()")
    assert state == {"state": "idle"}
    assert not problems, "\n".join(problems)
