"""Both tables on a laptop (1400×900), a landscape tablet (1024×768, touch) and a
portrait phone (390×844, touch), in English and German: the board (or layout), the
hand and the decision open are inside the viewport together, unscrolled; a tap on a
square with nothing picked shows its kingdom and strengths; on the phone the zoom
control makes squares (cards) at least 32 px wide."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Pages, Server
from tests.web.screens import (
    PHONE,
    SCREENS,
    Screen,
    assert_inside,
    board_revolt,
    box,
    cards_revolt,
    doc_shot,
    no_sideways_scroll,
    open_on,
)

CASES = [(s, "en") for s in SCREENS] + [(PHONE, "de")]
IDS = [f"{s.name}-{lang}" for s, lang in CASES]


def locale(lang: str) -> str:
    return "de-DE" if lang == "de" else "en-US"


def zoomed(page: Any, square: str, least: float) -> None:
    """The zoom control enlarges the drawing: `square` is at least `least` px wide, the
    page still does not scroll sideways, and the control zooms back out."""
    before = box(page, square)["width"]
    button = page.locator(".zoom-toggle")
    assert button.is_visible() and button.get_attribute("aria-pressed") == "false"
    button.tap()
    page.wait_for_function(
        "([sel, w]) => document.querySelector(sel).getBoundingClientRect().width >= w",
        arg=[square, least],
    )
    assert button.get_attribute("aria-pressed") == "true"
    no_sideways_scroll(page)
    wrap = box(page, ".zoomable")
    assert wrap["x"] >= 0 and wrap["x"] + wrap["width"] <= PHONE.width + 0.5
    button.tap()
    page.wait_for_function(
        "([sel, w]) => document.querySelector(sel).getBoundingClientRect().width <= w + 0.5",
        arg=[square, before],
    )


@pytest.mark.parametrize(("screen", "lang"), CASES, ids=IDS)
def test_board_table_screens(server: Server, pages: Pages, screen: Screen, lang: str) -> None:
    game, seat = board_revolt(server)
    url = f"{server.base}/g/{game['id']}#s={game['seats'][seat]['token']}"
    page: Any = open_on(pages, url, screen, locale=locale(lang))
    page.wait_for_selector(".decision.mine #commit")
    assert_inside(page, screen, "svg.board", ".panel.hand", ".decision.mine")
    no_sideways_scroll(page)
    if lang == "en":
        doc_shot(page, f"board-{screen.name}")
    # Nothing picked: a tap (a click on the laptop) on a square of the king's kingdom
    # shows it and the leaders' strengths, where no pointer hovers.
    square = "svg.board .hit rect[data-sq=J1]"
    if screen.touch:
        page.tap(square)
    else:
        page.click(square)
    info = page.locator(".square-info")
    info.locator(".strengths li").first.wait_for()
    kingdom = "Königreich" if lang == "de" else "Kingdom"
    assert kingdom in info.inner_text(), info.inner_text()
    assert page.locator("svg.board .marks .region").count() > 0
    if screen is PHONE and lang == "en":
        doc_shot(page, "board-phone-tap")
    if screen is PHONE:
        zoomed(page, "svg.board .hit rect[data-sq=A1]", 32)
        if lang == "en":
            page.locator(".zoom-toggle").tap()
            doc_shot(page, "board-phone-zoomed")


@pytest.mark.parametrize(("screen", "lang"), CASES, ids=IDS)
def test_card_table_screens(server: Server, pages: Pages, screen: Screen, lang: str) -> None:
    game, seat = cards_revolt(server)
    url = f"{server.base}/g/{game['id']}#s={game['seats'][seat]['token']}"
    page: Any = open_on(pages, url, screen, locale=locale(lang))
    page.wait_for_selector(".decision.mine #commit")
    assert_inside(page, screen, "svg.layout", ".panel.hand", ".decision.mine")
    no_sideways_scroll(page)
    if lang == "en":
        doc_shot(page, f"cards-{screen.name}")
    spot = "svg.layout .hit rect[data-spot='1.0']"
    if screen.touch:
        page.tap(spot)
    else:
        page.click(spot)
    info = page.locator(".kingdom-info")
    info.locator(".strengths li").first.wait_for()
    kingdom = "Königreich" if lang == "de" else "Kingdom"
    assert kingdom in info.inner_text(), info.inner_text()
    if screen is PHONE:
        zoomed(page, "svg.layout .hit rect[data-spot='2.0']", 40)
        if lang == "en":
            page.locator(".zoom-toggle").tap()
            doc_shot(page, "cards-phone-zoomed")


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_lobby_screens(server: Server, pages: Pages, screen: Screen) -> None:
    page: Any = open_on(pages, f"{server.base}/", screen)
    page.wait_for_selector("[data-game=cards]")
    no_sideways_scroll(page)
    assert_inside(page, screen, "[data-game=board]", "[data-game=cards]", name="lobby")
    doc_shot(page, f"lobby-{screen.name}")
