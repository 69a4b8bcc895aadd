"""The German card table: no English word of the page's texts is left on the table
with a pending revolt, the kingdom shown on hover, the chat, the final scoring and the
replay; both languages have the same texts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.web.cards_helpers import act, finish, open_cards, settle, views
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import wait_version
from tests.web.test_german import VISIBLE_WORDS

STRINGS = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web" / "js" / "strings"


def english_words(page: Any) -> set[str]:
    """Words of the English texts (shared and the card game's) that no German text has."""
    texts = page.evaluate(
        """async () => {
        const en = (await import('/static/js/strings/en.js')).EN;
        const de = (await import('/static/js/strings/de.js')).DE;
        const cen = (await import('/static/js/strings/cards.en.js')).CARDS_EN;
        const cde = (await import('/static/js/strings/cards.de.js')).CARDS_DE;
        return [[...Object.values(en), ...Object.values(cen)], [...Object.values(de), ...Object.values(cde)]];
    }"""
    )

    def words(values: list[str]) -> set[str]:
        return {
            w.lower()
            for v in values
            for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", re.sub(r"\{\w+\}", " ", v))
        }

    return words(texts[0]) - words(texts[1])


def assert_german(page: Any, where: str, english: set[str]) -> None:
    assert page.evaluate("() => document.documentElement.lang") == "de"
    text = page.evaluate(VISIBLE_WORDS)
    found = sorted({w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text) if w.lower() in english})
    assert not found, f"English on the German {where}: {found}"


def _keys(path: Path) -> set[str]:
    text = path.read_text()
    body = text[text.index("= {") : text.index("\n};")]
    return set(re.findall(r'"([a-z_0-9]+(?:\.[a-z_0-9]+)+)":', body))


def test_card_texts_in_both_languages() -> None:
    en = _keys(STRINGS / "cards.en.js")
    de = _keys(STRINGS / "cards.de.js")
    assert len(en) > 100
    assert en - de == set(), f"missing in German: {sorted(en - de)}"
    assert de - en == set(), f"missing in English: {sorted(de - en)}"
    shared = _keys(STRINGS / "en.js")
    assert not en & shared, f"card texts hiding shared ones: {sorted(en & shared)}"


def test_german_card_table(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    gid = game["id"]
    for seat, name in enumerate(("Anna", "Bernd")):
        server.call(
            "POST", f"/api/games/{gid}/join", {"name": name}, [game["seats"][seat]["token"]]
        )
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
    english = english_words(table)
    assert {"card", "cards", "revolt", "bridge", "ship", "treasure", "deck"} <= english
    assert_german(table, "card table", english)
    shot(table, "cards-conflict-de")
    table.click(".tablist [data-tab=chat]")
    assert_german(table, "chat", english)
    table.click(".tablist [data-tab=log]")

    vs = finish(server, game)
    wait_version(table, vs[0]["version"])
    table.wait_for_selector(".scoring")
    assert "Schlusswertung" in table.locator(".scoring").inner_text()
    assert_german(table, "final scoring", english)
    shot(table, "cards-scoring-de")
    table.click("text=Partie nachspielen")
    table.wait_for_selector("#next")
    table.keyboard.press("End")
    table.wait_for_selector(".scoring")
    assert_german(table, "replay", english)
    # Switching the language back shows English at once.
    table.click(".lang button[lang=en]")
    assert "Final scoring" in table.locator(".scoring").inner_text()
