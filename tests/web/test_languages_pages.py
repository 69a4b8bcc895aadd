"""The pages in Dutch and Hungarian, as a browser set to either language opens them, on
a laptop (1400×900) and a phone (390×844, touch), and in Hungarian on a landscape
tablet (1024×768, touch): the lobby (its language switch
offering all four), both tables in a revolt, both rules references and the guided
game's first lesson. No English word of the pages' texts is left on any of them, no
page scrolls sideways (long Hungarian words must not break the layout), each table's
board, hand and decision are in view together, and axe-core finds no serious problem
on the phone. The screenshots are kept in
tests/web/screenshots/ (`lang-<lang>-<page>-<screen>`)."""

from __future__ import annotations

from typing import Any

import pytest

from euphrates.words.book import LANGUAGES, read_part
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import assert_german, english_words
from tests.web.screens import (
    LAPTOP,
    PHONE,
    TABLET,
    Screen,
    assert_inside,
    axe_problems,
    board_revolt,
    cards_revolt,
    doc_shot,
    no_sideways_scroll,
    open_on,
)

LOCALES = {"nl": "nl-NL", "hu": "hu-HU"}
CASES = [(lang, screen) for lang in LOCALES for screen in (LAPTOP, PHONE)] + [("hu", TABLET)]
"""The landscape tablet in Hungarian, the language of the longest words."""
IDS = [f"{lang}-{screen.name}" for lang, screen in CASES]
KINGDOM = {"nl": "Koninkrijk", "hu": "Királyság"}
DOCS = {("nl", "board-revolt", LAPTOP), ("hu", "cards-revolt", PHONE), ("hu", "tour-lesson", PHONE)}
"""The pictures the README shows (with EUPHRATES_DOC_SHOTS set, tests/web/screens.py)."""


def look(page: Any, lang: str, where: str, english: set[str], screen: Screen) -> None:
    no_sideways_scroll(page)
    assert_german(page, where, english, lang)
    shot(page, f"lang-{lang}-{where}-{screen.name}")
    if (lang, where, screen) in DOCS:
        doc_shot(page, f"{where}-{screen.name}-{lang}")
    if screen is PHONE:  # axe-core on the narrowest screen, where long words break first
        assert axe_problems(page, f"{lang} {where}") == []


@pytest.mark.parametrize(("lang", "screen"), CASES, ids=IDS)
def test_lobby_rules_and_tables(server: Server, pages: Pages, lang: str, screen: Screen) -> None:
    english = english_words(lang=lang) | english_words(cards=True, lang=lang)
    lobby = open_on(pages, server.base + "/", screen, locale=LOCALES[lang])
    lobby.wait_for_selector("[data-game=cards]")
    # the browser's language chose the page's; the switch offers every language by name
    assert lobby.evaluate("() => document.documentElement.lang") == lang
    buttons = lobby.locator(".lang button")
    assert [buttons.nth(i).get_attribute("title") for i in range(buttons.count())] == list(
        LANGUAGES.values()
    )
    assert lobby.locator(f".lang button[lang={lang}]").get_attribute("aria-pressed") == "true"
    look(lobby, lang, "lobby", english, screen)

    for game in ("board", "cards"):
        rules = open_on(pages, f"{server.base}/rules/{game}", screen, locale=LOCALES[lang])
        rules.wait_for_selector("article.rules")
        assert rules.locator("article.rules").get_attribute("lang") == lang
        look(rules, lang, f"rules-{game}", english, screen)

    for game, opened in (("board", board_revolt(server)), ("cards", cards_revolt(server))):
        record, seat = opened
        url = f"{server.base}/g/{record['id']}#s={record['seats'][seat]['token']}"
        table = open_on(pages, url, screen, locale=LOCALES[lang])
        table.wait_for_selector(".decision.mine #commit")
        drawing = "svg.board" if game == "board" else "svg.layout"
        assert_inside(table, screen, drawing, ".panel.hand", ".decision.mine")
        look(table, lang, f"{game}-revolt", english, screen)
        # the kingdom under a tap, in the rulebook's word
        spot = (
            "svg.board .hit rect[data-sq=J1]"
            if game == "board"
            else "svg.layout .hit rect[data-spot='1.0']"
        )
        if screen.touch:
            table.tap(spot)
        else:
            table.click(spot)
        info = table.locator(".square-info, .kingdom-info").first
        info.locator(".strengths li").first.wait_for()
        assert KINGDOM[lang] in info.inner_text(), info.inner_text()
        # a move typed that is not one: refused in the page's words
        table.fill("#notation", "xyz")
        table.press("#notation", "Enter")
        refused = read_part(lang, "pages")["err.invalid_action"]
        table.wait_for_selector(f".notice:has-text({refused!r})")


@pytest.mark.parametrize(("lang", "screen"), CASES, ids=IDS)
def test_the_guided_game_speaks_it(server: Server, pages: Pages, lang: str, screen: Screen) -> None:
    page = open_on(pages, server.base + "/", screen, locale=LOCALES[lang])
    english = english_words(lang=lang)
    page.click(".learn-game[data-game=board]")
    page.wait_for_selector(".tour[data-step='intro.1']")
    # the table's header names the game and its turn in the page's language, and the
    # browser's title with it; the tour's box may come first (under a full run's load
    # the words were read while the title was still the page's own, "Euphrates")
    page.wait_for_selector("#status", state="attached")
    look(page, lang, "tour-intro", english, screen)
    # on to the first lesson: the introductions' primary button, step by step
    for _ in range(6):
        if page.locator(".tour").get_attribute("data-action"):
            break
        step = page.locator(".tour").get_attribute("data-step")
        page.click(".tour-buttons .primary")
        page.wait_for_function(f"() => document.querySelector('.tour')?.dataset.step !== {step!r}")
    assert page.locator(".tour").get_attribute("data-action")
    look(page, lang, "tour-lesson", english, screen)


def test_texts_begun_in_one_language_while_another_is_chosen(server: Server, pages: Pages) -> None:
    """A part a module starts to use while the page switches language is loaded in the
    new language too (a guided game started right after choosing German once showed its
    keys, `tour.you`, the tour's lobby module having loaded its texts in English)."""
    page = pages.open(server.base + "/")
    page.wait_for_selector("[data-game=cards]")
    said = page.evaluate(
        """async () => {
        const i18n = await import('/static/js/shared/i18n.js');
        const switched = new Promise((done) => i18n.onLang(done));
        document.querySelector('.lang button[lang=de]').click();  // loads what is in use
        await i18n.useTexts('fairplay');  // begun while that loads, in English
        await switched;
        return [i18n.currentLang(), i18n.t('fairplay.rated.title')];
    }"""
    )
    assert said == ["de", read_part("de", "fairplay")["fairplay.rated.title"]]
