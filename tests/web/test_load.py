"""First load of a table: what it costs to transfer, and that it works on a tablet
(touch, narrow screen) as on a laptop."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import choose_lang, first_load, lit_squares, wait_version

LIMIT = 300 * 1024


def test_first_load_is_small(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    total, sizes, frames = first_load(
        pages, f"{server.base}/g/{game['id']}#s={tokens[0]}", ".hand-tile"
    )
    print(f"first load of the table: {total / 1024:.1f} KB in {len(sizes)} files + {frames} frames")
    for url, n in sorted(sizes, key=lambda x: -x[1]):
        print(f"  {n:7d} {url.split('/static/')[-1]}")
    assert total < LIMIT, sorted(sizes, key=lambda x: -x[1])[:10]


def test_tablet_touch(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    first = server.view(game["id"], tokens[0], 0)["turn"]["active"]
    page: Any = pages.open(
        f"{server.base}/g/{game['id']}#s={tokens[first]}", width=820, height=1180, touch=True
    )
    page.wait_for_selector(".hand-tile")
    page.tap(".hand-leader[data-leader=king]")
    assert "J1" in lit_squares(page)
    # A touch screen is told to tap, not to click or use arrow keys, in both languages.
    assert page.locator(".hand .hint").inner_text() == "Now tap a lit square."
    choose_lang(page, "de")
    assert page.locator(".hand .hint").inner_text() == "Jetzt ein leuchtendes Feld antippen."
    choose_lang(page, "en")
    page.tap("svg.board .hit rect[data-sq=J1]")
    wait_version(page, 1)
    # Keyboard: pick the priest with Shift+P, walk to a lit square, Enter places it.
    page.keyboard.press("Shift+P")
    target = sorted(lit_squares(page))[0]
    page.keyboard.press("ArrowRight")  # the cursor starts on the first lit square
    page.keyboard.press("ArrowLeft")
    cursor = page.evaluate("() => document.querySelector('svg.board .marks rect.cursor') !== null")
    assert cursor
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+P")
    page.fill("#notation", f"P{target}")
    page.press("#notation", "Enter")
    wait_version(page, 2)
    shot(page, "tablet")
