"""At the end of a card game on a phone, the final scoring is the first thing under the
result banner: not at the foot of the page under the statistics, the hand and the
players, where it once sat (y ≈ 2,710 of 3,184 px)."""

from __future__ import annotations

from typing import Any

from tests.web.cards_helpers import finish, open_cards
from tests.web.conftest import Pages, Server, shot
from tests.web.screens import PHONE


def test_the_final_scoring_comes_first_on_a_phone(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, ["Ann", "Bob"])
    finish(server, game)
    page: Any = open_cards(
        pages, server, game, [0], "Ann", width=PHONE.width, height=PHONE.height, touch=True
    )
    page.wait_for_selector(".final-slot .scoring")
    scoring = page.locator(".final-slot").bounding_box()
    layout = page.locator("svg.layout").bounding_box()
    hand = page.locator(".hand-slot").bounding_box()
    assert scoring["y"] < layout["y"] and scoring["y"] < hand["y"], (scoring, layout, hand)
    assert scoring["y"] < PHONE.height  # on the first screen, under the banner
    shot(page, "cards-scoring-phone")
