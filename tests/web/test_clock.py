"""Players' clocks at the table: shown for every seat, ticking for the one to decide,
and moving on to the next when it has moved; the lobby offers the clocks."""

from __future__ import annotations

from typing import Any

from tests.web.cards_helpers import open_cards
from tests.web.conftest import Pages, Server
from tests.web.helpers import open_seat, place_leader


def _clocked(server: Server, game: str) -> tuple[Any, int]:
    """A two-player game on a fast real-time clock, and the seat to move first: the
    other seat is taken."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    clock = {"mode": "realtime", "preset": "fast"}
    doc = server.call(
        "POST", "/api/games", {"game": game, "players": 2, "seats": seats, "clock": clock}
    )
    view = server.view(doc["id"], doc["seats"][0]["token"], 0)
    first = int(view["turn"]["active"] if game == "board" else view["active"])
    server.join(doc, ["Bob" if s != first else None for s in range(2)])
    return doc, first


def _running(page: Any, seat: int) -> None:
    page.wait_for_selector(f".seat[data-seat='{seat}'] .clock.running", timeout=10000)


def _ticks(page: Any, seat: int) -> None:
    sel = f".seat[data-seat='{seat}'] .clock.running .clock-left"
    first = page.locator(sel).text_content()
    page.wait_for_function(
        f'(t) => {{ const e = document.querySelector("{sel}"); return e && e.textContent !== t; }}',
        arg=first,
        timeout=5000,
    )


def test_the_clock_shows_and_ticks_for_the_player_to_act(server: Server, pages: Pages) -> None:
    game, first = _clocked(server, "board")
    page = open_seat(pages, server, game, first, "Ann")
    _running(page, first)
    other = page.locator(f".seat[data-seat='{1 - first}'] .clock")
    assert other.count() == 1 and "running" not in (other.get_attribute("class") or "")
    assert other.locator(".clock-left").text_content() == "5:00"
    _ticks(page, first)
    place_leader(page, "king", "J1")
    token = game["seats"][first]["token"]
    view = server.view(game["id"], token, first)
    body = {"version": view["version"], "seat": first, "action": view["legal"][0]}
    server.call("POST", f"/api/games/{game['id']}/actions", body, [token])
    _running(page, 1 - first)  # the turn is over: the other player's clock runs now


def test_the_card_table_shows_the_clocks(server: Server, pages: Pages) -> None:
    game, first = _clocked(server, "cards")
    page = open_cards(pages, server, game, [first], "Ann")
    page.wait_for_selector(".seat .clock.running", timeout=10000)
    assert page.locator(".seat .clock").count() == 2


def test_the_lobby_offers_the_clocks(server: Server, pages: Pages) -> None:
    page = pages.open(server.base + "/")
    page.wait_for_selector("select#clock")
    options = page.locator("select#clock option").evaluate_all("els => els.map(e => e.value)")
    assert options == [
        "none",
        "realtime:fast",
        "realtime:medium",
        "realtime:slow",
        "turn:1",
        "turn:2",
        "turn:3",
        "turn:5",
    ]


def test_another_player_lets_a_bot_play_a_seat_out_of_time(
    bot_server: Server, pages: Pages
) -> None:
    server = bot_server
    seats = [{"kind": "human"}, {"kind": "human"}]
    clock = {"mode": "realtime", "bank": 1, "increment": 0}
    game = server.call(
        "POST", "/api/games", {"game": "board", "players": 2, "seats": seats, "clock": clock}
    )
    first = int(server.view(game["id"], game["seats"][0]["token"], 0)["turn"]["active"])
    server.join(game, ["Ann" if s == first else None for s in range(2)])
    page = open_seat(pages, server, game, 1 - first, "Bob")  # the game starts: Ann's 1 s runs
    button = page.locator(f".seat[data-seat='{first}'] .clock-standin")
    button.wait_for(timeout=10000)  # Ann is out of time: the others may let a bot play
    page.locator(f".seat[data-seat='{first}'] .clock-level").select_option("beginner")
    button.click()
    page.wait_for_selector("ol.log .by-bot", timeout=20000)
    assert "beginner" in (page.locator("ol.log .by-bot").first.text_content() or "")
    note = page.locator(f".seat[data-seat='{first}'] .clock-note")
    assert "bot" in (note.text_content() or "")
    # The move log tells what happened between the moves (server/notes.py): Ann's time
    # ran out, then Bob let a bot play for her.
    page.wait_for_selector("ol.log li.note[data-note='standin']", timeout=10000)
    told = page.locator("ol.log li.note").all_text_contents()
    assert told[0] == "Ann’s time ran out: the others may let a bot play", told
    assert told[1] == "Bob let a bot (beginner) play for Ann", told
