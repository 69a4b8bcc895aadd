"""The Hint button at both tables, in an unrated game against a bot: pressed, it says
the strong bot's move for the seat as advice in words (never notation), lights its
places on the board, and the move log notes that a hint was taken."""

from __future__ import annotations

import re
from typing import Any

import pytest

from euphrates.words.advice import in_every_language
from tests.web.cards_helpers import open_cards
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import Watch, lit_squares, open_seat, wait_version

SIZES = {"desk": (1400, 900, False), "tablet": (1024, 768, True), "phone": (390, 844, True)}


def press_hint(page: Any, view: Any) -> str:
    """Press Hint at the seat's decision; the suggested action, once shown."""
    wait_version(page, view["version"])
    page.click("#hint")
    shown = page.wait_for_selector(".hint-move", timeout=60000)
    assert shown is not None
    action = str(shown.get_attribute("data-action"))
    assert action in view["legal"]
    assert page.locator("#hint").is_disabled()  # one hint a decision
    return action


@pytest.mark.parametrize("size", list(SIZES))
def test_board_hint_shows_the_bots_move(bot_server: Server, pages: Pages, size: str) -> None:
    width, height, touch = SIZES[size]
    game = bot_server.create(2, bots=["beginner"])
    page = open_seat(pages, bot_server, game, 0, "Ann", width=width, height=height, touch=touch)
    view = Watch(bot_server, game["id"], game["seats"][0]["token"]).own_decision()
    action = press_hint(page, view)
    text = page.inner_text(".hint-move")
    # the move in words, as advice (words/advice.py), never in notation
    assert text == "Hint: " + in_every_language("board", action, view["decision"]["context"])["en"]
    square = re.search(r"[A-P](?:1[01]|[1-9])(?!\d)", action)
    if square:  # a piece placed: "the marked square", and the square is lit
        assert "the marked square" in text and square.group(0) not in text, text
        assert square.group(0) in lit_squares(page)
    page.locator("#hint").scroll_into_view_if_needed()
    shot(page, f"hint-board-{size}")
    page.wait_for_function(
        "() => document.querySelector('.tabs-slot').textContent.includes('Ann took a hint')"
    )
    page.fill("#notation", action)
    page.press("#notation", "Enter")
    wait_version(page, view["version"] + 1)
    assert page.locator(".hint-move").count() == 0  # the hint belonged to its decision


def test_cards_hint_in_german(bot_server: Server, pages: Pages) -> None:
    game = bot_server.create(2, game="cards", bots=["beginner"])
    page = open_cards(pages, bot_server, game, [0], "Ann", width=1400, height=900)
    page.click(".lang button[lang=de]")
    page.wait_for_selector("#hint:has-text('Tipp')")
    view = Watch(bot_server, game["id"], game["seats"][0]["token"]).own_decision()
    action = press_hint(page, view)
    said = in_every_language("cards", action, view["decision"]["context"])["de"]
    assert page.inner_text(".hint-move") == f"Tipp: {said}"
    shot(page, "hint-cards-de")
