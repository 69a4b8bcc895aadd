"""Open tables in the browser: Ann opens a table in the lobby; Bob, in another browser
with his lobby open, sees it appear by itself, sits at the free seat and is taken to
the table; Ann, at her table, sees him sit down and starts early with a bot for the
third seat; both are then at the table, playing, each seat with its presence dot.
Then the lobby, a waiting table and its host's view at the three screens (no
sideways scroll, the controls in view, axe-core), in English and German."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web import helpers
from tests.web.conftest import Pages, Server, shot
from tests.web.screens import SCREENS, Screen, axe_problems, no_sideways_scroll, open_on

PASSWORD = "a long secret"


def sign_up(page: Any, name: str) -> None:
    helpers.sign_up(page, name, PASSWORD)


def presences(page: Any) -> list[str]:
    """The presence of each seat as the table's players panel shows it."""
    found: list[str] = page.locator(".seats .seat-head").evaluate_all(
        "heads => heads.map(h => h.querySelector('.dot')?.dataset.presence ?? 'none')"
    )
    return found


def test_open_a_table_find_it_sit_and_start_early_with_a_bot(
    bot_server: Server, pages: Pages
) -> None:
    ann = pages.open(bot_server.base + "/")
    sign_up(ann, "Ann")
    bob = pages.open(bot_server.base + "/")
    sign_up(bob, "Bob")
    bob.wait_for_selector("#no-tables")

    # Ann opens a table for three: seats 2 and 3 free.
    ann.click("button[data-players='3']")
    ann.check("#open-table")
    ann.select_option("select[name=seat1]", "invite")
    ann.select_option("select[name=seat2]", "invite")
    shot(ann, "tables-create")
    ann.click("#create")
    ann.wait_for_selector(".waiting-banner")
    game_id = ann.url.rsplit("/g/", 1)[1]
    assert "#" not in game_id
    ann.wait_for_selector("#start-now")
    shot(ann, "tables-waiting-host")

    # Bob's lobby shows it by itself: no reload.
    table = bob.locator(f".open-table[data-id='{game_id}']")
    table.wait_for()
    text = table.inner_text()
    assert "Ann" in text and "3 players" in text and "No clock" in text, text
    assert table.locator("button.sit").count() == 2
    ann_dot = table.locator(".table-seat[data-seat='0'] .dot")
    assert ann_dot.get_attribute("data-presence") == "here"  # Ann is at her table
    shot(bob, "tables-lobby")
    table.locator("button.sit[data-seat='1']").click()
    bob.wait_for_url(f"**/g/{game_id}")
    bob.wait_for_selector(".waiting-banner")
    assert bob.locator("#leave").count() == 1 and bob.locator("#start-now").count() == 0

    # Ann sees Bob sit down, at the table now; she starts with a bot for seat 3.
    ann.wait_for_function(
        "() => document.querySelector(\".waiting-seats li[data-seat='1'] .dot\")"
        "?.dataset.presence === 'here'"
    )
    assert "Bob" in ann.locator(".waiting-seats").inner_text()
    ann.select_option("#start-level", "beginner")
    ann.click("#start-now")
    for page in (ann, bob):
        page.wait_for_selector(".waiting-banner", state="detached")
        page.wait_for_selector("svg.board")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.seats .seat-name')].length === 3"
        )
        names = page.locator(".seats .seat-name").all_inner_texts()
        assert names[:2] == ["Ann", "Bob"] and "(bot, beginner)" in names[2], names
        page.wait_for_function(
            "() => [...document.querySelectorAll('.seats .dot')]"
            ".filter(d => d.dataset.presence === 'here').length === 2"
        )
        assert presences(page) == ["here", "here", "none"]
    shot(ann, "tables-started-ann")
    shot(bob, "tables-started-bob")
    # The game is Bob's on any browser: his account lists it, with Ann online.
    bob.goto(bot_server.base + "/")
    mine = bob.locator(f".my-games li[data-id='{game_id}']")
    mine.wait_for()
    bob.wait_for_function(
        f"() => document.querySelector(\".my-games li[data-id='{game_id}'] .opponent .dot\")"
        "?.dataset.presence === 'here'"
    )
    assert "Ann" in mine.locator(".opponents").inner_text()
    assert bob.locator(f".open-table[data-id='{game_id}']").count() == 0


def signed_in_context(pages: Pages, base: str, name: str, screen: Screen, url: str) -> Any:
    """A browser signed in as `name` (signed up over HTTP) showing `url`."""
    with httpx.Client(base_url=base) as http:
        r = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        if r.status_code == 409:
            r = http.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert r.status_code in (200, 201), r.text
        session = http.cookies["euphrates_session"]
    return open_on(pages, base + url, screen, session=session)


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_open_tables_on_every_screen(server: Server, pages: Pages, screen: Screen) -> None:
    host = signed_in_context(pages, server.base, "Ann", screen, "/")
    # Drawn signed out first, then again when the account arrives: wait for that, so
    # the click below does not land between the two drawings.
    host.wait_for_selector("#open-table:enabled")
    host.click("button[data-players='4']")
    host.check("#open-table")
    for seat in (1, 2):
        host.select_option(f"select[name=seat{seat}]", "invite")
    host.click("#create")
    host.wait_for_selector("#start-now")
    game_id = host.url.rsplit("/g/", 1)[1]
    problems: list[str] = []
    for lang in ("en", "de"):
        if lang == "de":
            host.click(".lang button[lang='de']")
            host.wait_for_function(
                "() => document.querySelector('#start-now')?.textContent.includes('Bots beginnen')"
            )
        no_sideways_scroll(host)
        start = host.locator("#start-now").bounding_box()
        assert start is not None and start["y"] + start["height"] <= screen.height, start
        assert start["x"] + start["width"] <= screen.width, start
        shot(host, f"tables-host-{screen.name}-{lang}")
        problems += axe_problems(host, f"waiting table (host) {screen.name} {lang}")

    guest = signed_in_context(pages, server.base, "Bob", screen, "/")
    entry = guest.locator(f".open-table[data-id='{game_id}']")
    entry.wait_for()
    no_sideways_scroll(guest)
    # In one step in the page: the list may be drawn again between two of Playwright's.
    entry.evaluate("e => e.scrollIntoView({block: 'center'})")
    sit = entry.locator("button.sit").first.bounding_box()
    assert sit is not None and sit["x"] + sit["width"] <= screen.width, sit
    shot(guest, f"tables-lobby-{screen.name}")
    problems += axe_problems(guest, f"lobby with an open table {screen.name}")
    entry.locator("button.sit").first.click()
    guest.wait_for_selector("#leave")
    no_sideways_scroll(guest)
    shot(guest, f"tables-seated-{screen.name}")
    problems += axe_problems(guest, f"waiting table (seated) {screen.name}")
    assert not problems, "\n".join(problems)
