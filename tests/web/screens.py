"""The three screens every table is tried on, positions with a decision open in each
game (reached over HTTP), what a page shows inside its viewport, and the checks of
axe-core (pinned in package.json) that the browser tests run on every page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from tests.web.cards_helpers import act, settle, views
from tests.web.conftest import Pages, Server, shot

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DOCS_SHOTS = ROOT / "docs" / "screenshots"


class Screen(NamedTuple):
    name: str
    width: int
    height: int
    touch: bool


LAPTOP = Screen("laptop", 1400, 900, False)
TABLET = Screen("tablet", 1024, 768, True)
PHONE = Screen("phone", 390, 844, True)
SCREENS = (LAPTOP, TABLET, PHONE)


def open_on(pages: Pages, url: str, screen: Screen, **kw: Any) -> Any:
    return pages.open(url, width=screen.width, height=screen.height, touch=screen.touch, **kw)


def box(page: Any, selector: str) -> dict[str, float]:
    """The first element's box, as the page lays it out (scrolled to the top)."""
    first = page.locator(selector).first
    # A redraw replaces a panel: the box of the one drawn last, once it is shown.
    first.wait_for(state="visible")
    found: dict[str, float] | None = first.bounding_box()
    assert found is not None, f"{selector} is not laid out"
    return found


def assert_inside(page: Any, screen: Screen, *selectors: str, name: str = "") -> None:
    """Each element lies wholly inside the viewport, the page unscrolled (the page is
    kept in tests/web/screenshots/, to see what went wrong)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"screen-{name or selectors[0].split()[0]}-{screen.name}")
    for sel in selectors:
        b = box(page, sel)
        right, bottom = b["x"] + b["width"], b["y"] + b["height"]
        assert b["x"] >= -0.5 and b["y"] >= -0.5, (screen.name, sel, b)
        assert right <= screen.width + 0.5 and bottom <= screen.height + 0.5, (
            screen.name,
            sel,
            b,
            shown_notices(page),
        )


def shown_notices(page: Any) -> list[str]:
    """The table's notices and banners then shown: what pushed a panel down, if any."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.notice, .banner, [role=alert]')]
          .filter((e) => !e.hidden && e.offsetHeight > 0).map((e) => e.textContent.trim())"""
    )
    return found


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    inner = page.evaluate("() => window.innerWidth")
    assert width <= inner, (width, inner)


def board_revolt(server: Server) -> tuple[Any, int]:
    """A board game in which a king beside the first player's king starts a revolt
    (B-11, B-20): the attacker (returned) decides its commitment."""
    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    first = int(server.view(game["id"], game["seats"][0]["token"], 0)["turn"]["active"])
    second = 1 - first
    act(server, game, first, "KJ1")
    act(server, game, first, "PH7")
    act(server, game, second, "KL1")
    return game, second


def cards_revolt(server: Server) -> tuple[Any, int]:
    """A card game in which the second king goes into the first king's column: a revolt
    (C-10); the attacker (returned) decides its commitment."""
    game = server.create(2, game="cards")
    server.join(game, ["Ann", "Bob"])
    vs = views(server, game)
    a = int(vs[0]["active"])
    act(server, game, a, "K1.0")
    letter = next(x for x in "bgkr" if x in vs[a]["hand"])
    act(server, game, a, f"{letter}1")
    vs = settle(server, game)
    b = int(vs[0]["active"])
    assert b != a, vs[0]["decision"]
    act(server, game, b, "K1.1")
    assert views(server, game)[0]["decision"]["kind"] == "commit"
    return game, b


def axe_problems(page: Any, where: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.impact} ${v.id}: ${v.help} — ` +
            v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | '));
    }"""
    )
    return [f"{where}: {x}" for x in found]


def doc_shot(page: Any, name: str) -> None:
    """A screenshot for docs/screenshots/, taken only where EUPHRATES_DOC_SHOTS is set
    (the chosen pictures change only when someone means to change them)."""
    if os.environ.get("EUPHRATES_DOC_SHOTS"):
        DOCS_SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(DOCS_SHOTS / f"{name}.png"))
