"""The open tables filtered in the lobby: three hosts open tables of different games,
sizes and clocks; Dora filters them by size and speed, the list and its count follow
at once, the filters live in the address (a reload keeps them), a rating range no
seated player is in shows none, and "Show all" brings every table back. At the three
screens (no sideways scroll, axe-core), in English and Dutch."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import Pages, Server, shot
from tests.web.screens import SCREENS, Screen, axe_problems, doc_shot, no_sideways_scroll
from tests.web.test_tables import PASSWORD, signed_in_context

HUMAN = {"kind": "human"}


def open_tables(base: str) -> dict[str, str]:
    """Three open tables, each by a host of its own: their ids by what they are."""
    kinds: dict[str, dict[str, Any]] = {
        "duel": {"game": "board", "players": 2, "seats": [HUMAN] * 2},
        "three-turn": {
            "game": "cards",
            "players": 3,
            "seats": [HUMAN] * 3,
            "clock": {"mode": "turn", "days": 1},
            "options": {"open_piles": True},
        },
        "four-fast": {
            "game": "board",
            "players": 4,
            "seats": [HUMAN] * 4,
            "clock": {"mode": "realtime", "preset": "fast"},
        },
    }
    ids = {}
    for i, (name, body) in enumerate(kinds.items()):
        with httpx.Client(base_url=base) as http:
            r = http.post("/api/account/signup", json={"name": f"Host{i}", "password": PASSWORD})
            assert r.status_code == 201, r.text
            csrf = r.json()["csrf"]
            r = http.post("/api/games", json={**body, "open": True}, headers={"x-csrf-token": csrf})
            assert r.status_code == 201, r.text
            ids[name] = r.json()["id"]
    return ids


def until_shown(page: Any, ids: list[str]) -> None:
    """Wait until the list shows exactly these tables (a filter redraws it at once, but
    after the control's event)."""
    page.wait_for_function(
        "(ids) => JSON.stringify([...document.querySelectorAll('.open-table')]"
        ".map(e => e.dataset.id)) === JSON.stringify(ids)",
        arg=ids,
    )


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_filtering_the_open_tables(server: Server, pages: Pages, screen: Screen) -> None:
    ids = open_tables(server.base)
    page = signed_in_context(pages, server.base, "Dora", screen, "/")
    page.wait_for_function("() => document.querySelectorAll('.open-table').length === 3")
    assert page.locator(".filter-count").count() == 0, "nothing filtered: no count"
    # The lobby is drawn again once the account arrives: focus after that, as a person
    # would reach for the control on the page they see.
    page.wait_for_selector("#open-table:enabled")
    page.focus("#filter-players")  # as a keyboard would: the control in hand
    page.select_option("#filter-players", "3")
    until_shown(page, [ids["three-turn"]])
    assert page.inner_text(".filter-count") == "1 of 3 open tables shown"
    assert page.evaluate("() => document.activeElement?.id") == "filter-players", "focus kept"
    page.select_option("#filter-players", "")
    page.select_option("#filter-speed", "realtime")
    until_shown(page, [ids["four-fast"]])
    page.select_option("#filter-speed", "none")
    until_shown(page, [ids["duel"]])
    page.select_option("#filter-speed", "turn")
    page.select_option("#filter-game", "cards")
    page.wait_for_function("() => location.search.includes('speed=turn')")
    assert "game=cards" in page.evaluate("() => location.search")
    # The address keeps the filters: a reload (or a shared link) shows the same.
    page.reload()
    until_shown(page, [ids["three-turn"]])
    assert page.input_value("#filter-speed") == "turn"
    assert page.input_value("#filter-game") == "cards"
    rules = page.inner_text(f".open-table[data-id='{ids['three-turn']}'] .open-rules")
    assert "Open point piles" in rules and "Turn-based" in rules, rules
    seat = page.inner_text(f".open-table[data-id='{ids['three-turn']}'] .table-seat[data-seat='0']")
    assert "Host1" in seat and "1000" in seat, seat
    no_sideways_scroll(page)
    page.locator(".open-tables").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, f"tables-filtered-{screen.name}")
    doc_shot(page, f"tables-filtered-{screen.name}")
    problems = axe_problems(page, f"lobby, open tables filtered {screen.name}")
    # A rating range nobody seated is in: none, and why.
    page.fill("#filter-rating_min", "1500")
    page.press("#filter-rating_min", "Enter")
    page.wait_for_selector("#no-tables")
    assert "No open table matches" in page.inner_text("#no-tables")
    assert "rating_min=1500" in page.evaluate("() => location.search")
    page.click(".lang button[lang='nl']")
    page.wait_for_function(
        "() => document.querySelector('.table-filter legend')?.textContent === 'Alleen tonen'"
    )
    no_sideways_scroll(page)
    page.locator(".open-tables").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, f"tables-filtered-none-{screen.name}-nl")
    problems += axe_problems(page, f"lobby, open tables none match {screen.name} nl")
    page.click("#filter-clear")
    page.wait_for_function("() => document.querySelectorAll('.open-table').length === 3")
    assert page.evaluate("() => location.search") == ""
    assert not problems, "\n".join(problems)
