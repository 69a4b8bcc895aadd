"""First load of a table: what it costs to transfer, and that it works on a tablet
(touch, narrow screen) as on a laptop."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import choose_lang, first_load, lit_squares, print_load, wait_version

LIMIT = 300 * 1024
# What a first load may send, gzipped as the server sends it (GZipMiddleware): the
# rules reference and the guided first game are loaded only when opened.
LIMIT_SENT = 120 * 1024


def test_first_load_is_small(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    load = first_load(pages, f"{server.base}/g/{game['id']}#s={tokens[0]}", ".hand-tile")
    print_load("board table", load)
    assert load.total < LIMIT, sorted(load.files, key=lambda x: -x[1])[:10]
    assert load.wire < LIMIT_SENT, sorted(load.files, key=lambda x: -x[2])[:10]
    # The server gzips what is worth it: no file of over 2 KB arrives as it is.
    assert all(sent < n for _, n, sent in load.files if n > 2048), load.files


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
    assert server.view(game["id"], tokens[first], first)["seats"][first]["leaders"]["king"] == "J1"
    # Keyboard: pick the priest with Shift+P; the first arrow puts the cursor on a lit
    # square, the arrows walk it away and back, and Enter places the priest there.
    page.keyboard.press("Shift+P")
    lit = lit_squares(page)
    assert lit
    page.keyboard.press("ArrowRight")
    target = cursor_square(page)
    assert target in lit
    page.keyboard.press("ArrowRight")
    assert cursor_square(page) != target
    page.keyboard.press("ArrowLeft")
    assert cursor_square(page) == target
    page.keyboard.press("Enter")
    wait_version(page, 2)
    view = server.view(game["id"], tokens[first], first)
    assert view["seats"][first]["leaders"]["priest"] == target
    assert page.locator("#notation").input_value() == ""  # the notation box was not used
    shot(page, "tablet")


def cursor_square(page: Any) -> str | None:
    """The square under the keyboard cursor (the grid square its middle lies in), if the
    cursor is shown."""
    sq = page.evaluate(
        """() => {
        const c = document.querySelector('svg.board .marks rect.cursor');
        if (!c) return null;
        const box = c.getBBox();
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        for (const r of document.querySelectorAll('svg.board .hit rect[data-sq]')) {
            const b = r.getBBox();
            if (b.x <= x && x < b.x + b.width && b.y <= y && y < b.y + b.height)
                return r.getAttribute('data-sq');
        }
        return null;
    }"""
    )
    return None if sq is None else str(sq)
