"""First load of a table: what it costs to transfer, and that it works on a tablet
(touch, narrow screen) as on a laptop."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import lit_squares, wait_version

LIMIT = 300 * 1024


def test_first_load_is_small(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.call("POST", f"/api/games/{game['id']}/join", {"name": "Ann"}, [tokens[0]])
    server.call("POST", f"/api/games/{game['id']}/join", {"name": "Bob"}, [tokens[1]])
    sizes: list[tuple[str, int]] = []
    ctx = pages.browser.new_context(viewport={"width": 1400, "height": 900})
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("console", lambda m: pages.errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: sizes.append((r.url, len(r.body()))))
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(len(f))))
    page.goto(f"{server.base}/g/{game['id']}#s={tokens[0]}")
    page.wait_for_selector(".hand-tile")
    page.wait_for_load_state("networkidle")
    total = sum(n for _, n in sizes) + sum(frames)
    print(
        f"first load of the table: {total / 1024:.1f} KB in {len(sizes)} files + {len(frames)} frames"
    )
    assert total < LIMIT, sorted(sizes, key=lambda x: -x[1])[:10]


def test_tablet_touch(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    for seat, name in enumerate(("Ann", "Bob")):
        server.call("POST", f"/api/games/{game['id']}/join", {"name": name}, [tokens[seat]])
    first = server.view(game["id"], tokens[0], 0)["turn"]["active"]
    page: Any = pages.open(
        f"{server.base}/g/{game['id']}#s={tokens[first]}", width=820, height=1180, touch=True
    )
    page.wait_for_selector(".hand-tile")
    page.tap(".hand-leader[data-leader=king]")
    assert "J1" in lit_squares(page)
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
