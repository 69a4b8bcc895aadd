"""Quick match in the browser. Ann and Bob, each signed in in a browser of their own,
press "Find a table now" for a duel; Ann's lobby shows her wait ticking and the window
of ratings; both are taken to the same table and the first move works. Ann, Bob and Cy,
each in a browser context of their own, choose a 3-player game at the fast clock from
the lobby and all three land at the same table, each at a seat of their own. Then the
panel at the three screens — the choice of a table for the card game with its options,
the wait with how many wait for the same table — (no sideways scroll, the cancel in
view, axe-core), in the four languages, and cancelling."""

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


def choose(page: Any, game: str, players: int, clock: str) -> None:
    """Choose the table in the quick match panel (as a player would, by clicking)."""
    page.click(f"#quick-game-{game}")
    page.wait_for_selector(f"#quick-game-{game}[aria-checked=true]")
    page.click(f"#quick-players-{players}")
    page.wait_for_selector(f"#quick-players-{players}[aria-checked=true]")
    page.select_option("#quick-clock", clock)


def test_two_players_press_quick_match_land_at_one_table_and_play(
    server: Server, pages: Pages
) -> None:
    ann = signed_in_context(pages, server.base, "Ann", LAPTOP, "/")
    bob = signed_in_context(pages, server.base, "Bob", LAPTOP, "/")
    for page in (ann, bob):
        page.wait_for_selector("#quick-play")
        choose(page, "board", 2, "medium")
    ann.click("#quick-play")
    ann.wait_for_selector(".quick-wait")
    assert "Looking for a table of 2 for Tigris & Euphrates" in ann.inner_text(".quick-looking")
    assert ann.inner_text(".quick-window") == "ratings within ±100"
    assert "your rating 1000" in ann.inner_text(".quick-meta")
    assert ann.inner_text(".quick-alike") == "1 player waits for this table, you included"
    ann.wait_for_function(
        "() => /Waiting 0:0[1-9]/.test(document.querySelector('.quick-timer')?.textContent)"
    )
    bob.click("#quick-play")
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


def test_three_players_make_a_table_of_three_from_the_lobby(server: Server, pages: Pages) -> None:
    """Three accounts, each in a browser context of its own, ask for a 3-player board
    game at the fast clock: the first two wait (the second sees two waiting), the third
    fills the table, and all three land at it, one seat each."""
    names = ["Ann", "Bob", "Cy"]
    people = [signed_in_context(pages, server.base, n, LAPTOP, "/") for n in names]
    for page in people:
        page.wait_for_selector("#quick-play")
        choose(page, "board", 3, "fast")
    people[0].click("#quick-play")
    people[0].wait_for_selector(".quick-wait")
    people[1].click("#quick-play")
    people[1].wait_for_selector(".quick-wait")
    for page in people[:2]:
        page.wait_for_function(
            "() => document.querySelector('.quick-alike')?.textContent"
            " === '2 players wait for this table, you included'"
        )
    kind = people[1].inner_text(".quick-kind")
    assert "3 players" in kind and "fast" in kind, kind
    shot(people[1], "quickmatch-three-waiting")
    people[2].click("#quick-play")
    for page in people:
        page.wait_for_url("**/g/*")
        page.wait_for_selector("svg.board")
    ids = {page.url.rsplit("/g/", 1)[1] for page in people}
    assert len(ids) == 1, ids
    game_id = ids.pop()
    docs = [game_doc(page, game_id) for page in people]
    game = docs[0]["game"]
    assert game["players"] == 3 and game["status"] == "active" and game["rated"]
    assert game["clock"]["preset"] == "fast"
    assert sorted(s["name"] for s in game["seats"]) == names
    assert sorted(seat for doc in docs for seat in doc["you"]["seats"]) == [0, 1, 2]
    shot(people[2], "quickmatch-three-at-the-table")


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_the_panel_and_the_wait_on_every_screen(
    server: Server, pages: Pages, screen: Screen
) -> None:
    page = signed_in_context(pages, server.base, "Cara", screen, "/")
    page.wait_for_selector("#quick-play")
    choose(page, "cards", 3, "turn:2")
    page.check("#quick-opt-open_piles")
    no_sideways_scroll(page)
    page.locator(".quick-match").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, f"quickmatch-choose-{screen.name}")
    doc_shot(page, f"quickmatch-choose-{screen.name}")
    problems = axe_problems(page, f"lobby, quick match choosing {screen.name}")
    page.click("#quick-play")
    page.wait_for_selector(".quick-wait")
    page.wait_for_function(
        "() => /0:0[1-9]/.test(document.querySelector('.quick-timer')?.textContent)"
    )
    kind = page.inner_text(".quick-kind")
    assert kind == "3 players · Turn-based, days a move: 2 · Open point piles", kind
    texts = {
        "en": ("Cancel", "ratings within ±"),
        "de": ("Abbrechen", "Wertung ±"),
        "nl": ("Annuleren", "ratings binnen ±"),
        "hu": ("Mégse", "értékszám ±"),
    }
    for lang, (cancel_text, window_text) in texts.items():
        if lang != "en":
            page.click(f".lang button[lang='{lang}']")
            page.wait_for_function(
                "(t) => document.querySelector('.quick-cancel')?.textContent === t", arg=cancel_text
            )
        assert window_text in page.inner_text(".quick-window")
        assert page.inner_text(".quick-alike").startswith("1 ")
        no_sideways_scroll(page)
        cancel = page.locator(".quick-cancel").bounding_box()
        assert cancel is not None and cancel["x"] + cancel["width"] <= screen.width, cancel
        page.locator(".quick-match").evaluate("e => e.scrollIntoView({block: 'start'})")
        shot(page, f"quickmatch-waiting-{screen.name}-{lang}")
        if lang == "en":
            doc_shot(page, f"quickmatch-{screen.name}")
        problems += axe_problems(page, f"lobby, quick match waiting {screen.name} {lang}")
    page.click(".lang button[lang='en']")
    page.click(".quick-cancel")
    page.wait_for_selector("#quick-play")
    assert page.locator(".quick-wait").count() == 0
    state = page.evaluate("async () => (await fetch('/api/quickmatch')).json()")
    assert state == {"state": "idle"}
    # The choice is remembered by this browser.
    page.reload()
    page.wait_for_selector("#quick-game-cards[aria-checked=true]")
    assert page.locator("#quick-players-3").get_attribute("aria-checked") == "true"
    assert page.input_value("#quick-clock") == "turn:2"
    assert page.is_checked("#quick-opt-open_piles")
    assert not problems, "\n".join(problems)
