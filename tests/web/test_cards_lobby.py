"""The lobby creates card games right: the game, its seats and the open-piles option
(C-9) reach the server, the table opens at one screen behind its cover, and the game
is remembered under "my games"."""

from __future__ import annotations

from typing import Any

from tests.web.cards_helpers import finish
from tests.web.conftest import Pages, Server, shot


def test_lobby_creates_a_card_game_with_open_piles(server: Server, pages: Pages) -> None:
    lobby = pages.open(server.base + "/")
    lobby.click("button[data-game=cards]")
    # The card game has one option, and it is not the board's.
    assert lobby.locator("input[name=open_piles]").count() == 1
    assert lobby.locator("input[name=advanced], input[name=open_scores]").count() == 0
    lobby.check("input[name=open_piles]")
    lobby.fill("input[name=name0]", "Ann")
    lobby.select_option("select[name=seat1]", "here")
    lobby.fill("input[name=name1]", "Bob")
    lobby.click("#create")
    lobby.wait_for_selector(".cover")
    gid = lobby.evaluate("() => location.pathname.split('/').pop()")
    doc: Any = server.call("GET", f"/api/games/{gid}")
    assert doc["game"]["game"] == "cards" and doc["game"]["options"] == {"open_piles": True}
    assert [s["name"] for s in doc["game"]["seats"]] == ["Ann", "Bob"]
    # Covered: nothing of a hand is in the page until its player looks.
    assert lobby.locator(".hand-card, [data-hand-of]").count() == 0
    lobby.click(".reveal")
    lobby.wait_for_selector(".hand-card")
    # Open piles show every colour's count for every seat (C-9).
    assert lobby.locator(".seat .pile.open").count() == 2
    assert lobby.locator(".seat .pile.open").first.get_attribute("data-counts") == "0,0,0,0,0"
    shot(lobby, "cards-start")

    lobby.goto(server.base + "/")
    lobby.wait_for_selector(".my-games li")
    assert "Contest of Kings" in lobby.locator(".my-games li").first.inner_text()
    mine: Any = lobby.evaluate("() => JSON.parse(localStorage.getItem('euphrates.games'))")
    assert mine[0]["id"] == gid and mine[0]["game"] == "cards" and len(mine[0]["seats"]) == 2
    assert lobby.locator(".my-games a[href^='/replay/']").count() == 0

    # Once it has ended, "my games" offers its replay, which draws the card game.
    tokens = {"seats": [{"token": t} for t in mine[0]["seats"]], "id": gid}
    finish(server, tokens)
    lobby.reload()
    lobby.wait_for_selector(".my-games a[href^='/replay/']")
    lobby.click(".my-games a[href^='/replay/']")
    lobby.wait_for_selector("svg.layout .card.head")
    assert lobby.locator("svg.layout .card.head").count() == 8
