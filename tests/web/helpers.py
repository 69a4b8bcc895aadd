"""Driving the board table like a player: open a seat's link, wait for a version,
pick a tile or a leader, click a square."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import Pages, Server

COLOUR_LETTER = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def open_seat(pages: Pages, server: Server, game: Any, seat: int, name: str, **kw: Any) -> Any:
    token = game["seats"][seat]["token"]
    page = pages.open(f"{server.base}/g/{game['id']}#s={token}", **kw)
    page.wait_for_selector("#your-name, svg.board")
    if page.locator("#your-name").count():
        page.fill("#your-name", name)
        page.click(".ask-name button[type=submit]")
    page.wait_for_selector("svg.board")
    return page


def version(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version ?? -1)"))


def wait_version(page: Any, v: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {v}", timeout=10000)


def place_tile(page: Any, colour: str, square: str) -> None:
    before = version(page)
    page.click(f".hand-tile[data-colour={colour}] >> nth=0")
    page.click(f"svg.board .hit rect[data-sq={square}]")
    wait_version(page, before + 1)


def place_leader(page: Any, leader: str, square: str) -> None:
    before = version(page)
    page.click(f".hand-leader[data-leader={leader}]")
    page.click(f"svg.board .hit rect[data-sq={square}]")
    wait_version(page, before + 1)


def commit(page: Any, n: int) -> None:
    before = version(page)
    page.click(f".commit-n[data-commit='{n}']")
    page.click("#commit")
    wait_version(page, before + 1)


def lit_squares(page: Any) -> set[str]:
    """The squares the page lights for the picked piece."""
    return set(
        page.evaluate(
            "() => [...document.querySelectorAll('svg.board .marks rect.target')]"
            ".map(r => r.getAttribute('data-sq'))"
        )
    )


def board_in_dom(page: Any) -> dict[str, Any]:
    """What the SVG shows: tiles by colour, leaders by seat, the other pieces."""
    return dict(
        page.evaluate(
            """() => {
            const q = (sel) => [...document.querySelectorAll('svg.board .pieces ' + sel)];
            const tiles = {red: [], blue: [], green: [], black: []};
            for (const g of q('.tile')) tiles[g.dataset.colour].push(g.dataset.sq);
            const leaders = q('.leader').map(g => [Number(g.dataset.seat), g.dataset.colour, g.dataset.sq]);
            return {tiles, leaders,
                    treasures: q('.treasure').map(g => g.dataset.sq),
                    catastrophes: q('.catastrophe').map(g => g.dataset.sq),
                    unification: q('.unification').map(g => g.dataset.sq)[0] ?? null};
        }"""
        )
    )


def board_in_view(view: Any) -> dict[str, Any]:
    colour_of = {"priest": "red", "farmer": "blue", "trader": "green", "king": "black"}
    leaders = [
        [s, colour_of[name], sq]
        for s, seat in enumerate(view["seats"])
        for name, sq in seat["leaders"].items()
        if sq
    ]
    return {
        "tiles": view["board"]["tiles"],
        "leaders": leaders,
        "treasures": view["board"]["treasures"],
        "catastrophes": view["board"]["catastrophes"],
        "unification": view["board"]["unification"],
    }


def same_board(page: Any, view: Any) -> None:
    shown = board_in_dom(page)
    wanted = board_in_view(view)
    for key in ("tiles",):
        assert {c: sorted(v) for c, v in shown[key].items()} == {
            c: sorted(v) for c, v in wanted[key].items()
        }
    assert sorted(map(tuple, shown["leaders"])) == sorted(map(tuple, wanted["leaders"]))
    assert sorted(shown["treasures"]) == sorted(wanted["treasures"])
    assert sorted(shown["catastrophes"]) == sorted(wanted["catastrophes"])
    assert shown["unification"] == wanted["unification"]


def hand_in_dom(page: Any) -> dict[str, int]:
    return dict(
        page.evaluate(
            """() => { const out = {red: 0, blue: 0, green: 0, black: 0};
            for (const b of document.querySelectorAll('.hand-tile')) out[b.dataset.colour] += 1;
            return out; }"""
        )
    )


def frames_json(pages: Pages, page: Any) -> list[dict[str, Any]]:
    return [json.loads(text) for _, text in pages.frames[page]]
