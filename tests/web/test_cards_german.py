"""The German card table: no English word of the page's texts is left on the table
with a pending revolt, the kingdom shown on hover, the chat, the final scoring and the
replay; both languages have the same texts."""

from __future__ import annotations

from tests.web.cards_helpers import act, finish, open_cards, settle, views
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import (
    assert_german,
    english_words,
    german_end,
    text_keys,
    wait_version,
)


def test_card_texts_hide_no_shared_one() -> None:
    en = text_keys("pages-cards")
    assert len(en) > 40
    shared = text_keys("pages")
    assert not en & shared, f"card texts hiding shared ones: {sorted(en & shared)}"


def test_german_card_table(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, ["Anna", "Bernd"])
    first = int(views(server, game)[0]["active"])
    second = 1 - first
    # Over HTTP: a king on head 1 and a card under it, then the other king beside it.
    act(server, game, first, "K1.0")
    act(server, game, first, f"{views(server, game)[first]['hand'][0]}1")
    settle(server, game)
    act(server, game, second, "K1.1")
    table = open_cards(pages, server, game, [second], "Bernd", locale="de-DE")
    table.wait_for_selector("#commit")
    assert "Revolte der Könige" in table.locator("div.conflict").inner_text()
    table.hover("svg.layout .hit rect[data-spot='1.1']")
    assert "Königreich" in table.locator(".kingdom-info").inner_text()
    english = english_words(table, cards=True)
    assert {"card", "cards", "revolt", "bridge", "ship", "treasure", "deck"} <= english
    assert_german(table, "card table", english)
    shot(table, "cards-conflict-de")
    table.click(".tablist [data-tab=chat]")
    assert_german(table, "chat", english)
    table.click(".tablist [data-tab=log]")

    vs = finish(server, game)
    wait_version(table, vs[0]["version"])
    german_end(table, english, "cards-scoring-de")
