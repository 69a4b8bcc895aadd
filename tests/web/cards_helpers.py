"""Driving the card table like a player: open seats, pick a card or a leader, click a
spot, a column or a gap; read back what the page shows and compare it with the views."""

from __future__ import annotations

import time
import urllib.error
from typing import Any

from tests.web.conftest import Pages, Server
from tests.web.helpers import open_table, version, wait_version

LETTERS = {"red": "r", "blue": "b", "green": "g", "black": "k"}
COLOURS = {v: k for k, v in LETTERS.items()}
LEADERS = {"priest": "P", "farmer": "F", "trader": "T", "king": "K"}


def open_cards(
    pages: Pages, server: Server, game: Any, seats: list[int], name: str, **kw: Any
) -> Any:
    """A page holding `seats` (several: one screen), its layout drawn; answers the name
    prompt."""
    return open_table(pages, server, game, seats, name, "svg.layout .card", **kw)


def views(server: Server, game: Any) -> dict[int, Any]:
    """Every seat's view, and the game's meta under -1."""
    tokens = [s["token"] for s in game["seats"]]
    doc = server.call("GET", f"/api/games/{game['id']}", tokens=tokens)
    out = {int(k): v for k, v in doc["views"].items()}
    out[-1] = doc["game"]
    return out


def act(server: Server, game: Any, seat: int, action: str) -> int:
    """An action over HTTP (the approach to a position); returns the new version."""
    view = server.view(game["id"], game["seats"][seat]["token"], seat)
    body = {"version": view["version"], "seat": seat, "action": action}
    for _ in range(50):
        try:
            res = server.call(
                "POST", f"/api/games/{game['id']}/actions", body, [game["seats"][seat]["token"]]
            )
            return int(res["version"])
        except urllib.error.HTTPError as e:
            if e.code != 429:  # the server's limit on writes per address: wait, retry
                raise
            time.sleep(0.2)
    raise AssertionError("rate limited for good")


def lit(page: Any) -> set[str]:
    """The places the page lights for the picked card, leader or catastrophe."""
    return set(
        page.evaluate(
            "() => [...document.querySelectorAll('svg.layout .marks rect.target')]"
            ".map(r => r.getAttribute('data-target'))"
        )
    )


def previews(page: Any) -> set[str]:
    """The places the page outlines for a decision's choice pointed at (or a ship's four
    cards while the ship is offered)."""
    return set(
        page.evaluate(
            "() => [...document.querySelectorAll('svg.layout .marks rect.preview')]"
            ".map(r => r.getAttribute('data-target'))"
        )
    )


def pick_card(page: Any, colour: str) -> None:
    page.click(f".hand-card[data-colour={colour}] >> nth=0")


def pick_leader(page: Any, leader: str) -> None:
    page.click(f".hand-leader[data-leader={leader}]")


def click_spot(page: Any, spot: str) -> None:
    page.click(f"svg.layout .hit rect[data-spot='{spot}']")


def click_column(page: Any, col: int) -> None:
    """The free place below a column's last card."""
    page.click(f"svg.layout .hit rect[data-col='{col}']:not([data-spot])")


def click_gap(page: Any, gap: str) -> None:
    page.click(f"svg.layout .hit rect[data-gap='{gap}']")


def clicked(page: Any, do: Any, *args: Any) -> int:
    """Run `do(*args)` (clicks) and wait until the page has the next version."""
    before = version(page)
    do(*args)
    wait_version(page, before + 1)
    return before + 1


def commit(page: Any, n: int) -> None:
    page.click(f".commit-n[data-commit='{n}']")
    clicked(page, page.click, "#commit")


def commit_options(page: Any) -> list[int]:
    return [
        int(x)
        for x in page.locator(".commit-n").evaluate_all("bs => bs.map(b => b.dataset.commit)")
    ]


def layout_in_dom(page: Any) -> dict[str, Any]:
    """What the SVG shows: heads, columns top to bottom, bridges, leaders by seat."""
    return dict(
        page.evaluate(
            """() => {
            const q = (sel) => [...document.querySelectorAll('svg.layout .pieces ' + sel)];
            const heads = Array(8).fill('?');
            const columns = Array.from({length: 8}, () => []);
            const bridges = Array(7).fill(null);
            for (const g of q('.card')) {
              const spot = g.dataset.spot;
              let m = /^(\\d)\\.(\\d)$/.exec(spot);
              if (m && m[2] === '0') heads[Number(m[1]) - 1] = g.dataset.card;
              else if (m) columns[Number(m[1]) - 1][Number(m[2]) - 1] = g.dataset.card;
              else if ((m = /^(\\d)-(\\d)$/.exec(spot))) bridges[Number(m[1]) - 1] = g.dataset.card;
            }
            const leaders = q('.leader').map(g => [Number(g.dataset.seat), g.dataset.leader, g.dataset.spot]);
            return {heads: heads.join(''), columns, bridges, leaders};
        }"""
        )
    )


def layout_in_view(view: Any) -> dict[str, Any]:
    lay = view["layout"]
    leaders = [
        [seat, letter, spot]
        for seat, by in enumerate(view["leaders"])
        for letter, spot in by.items()
        if spot
    ]
    return {
        "heads": lay["heads"],
        "columns": lay["columns"],
        "bridges": lay["bridges"],
        "leaders": leaders,
    }


def hand_in_dom(page: Any) -> str:
    colours = page.locator(".hand-card").evaluate_all("bs => bs.map(b => b.dataset.colour)")
    return "".join(sorted(LETTERS[c] for c in colours))


def same_table(page: Any, view: Any) -> None:
    """The page shows exactly the view: layout, leaders, own hand, deck and piles."""
    wait_version(page, view["version"])
    shown = layout_in_dom(page)
    wanted = layout_in_view(view)
    assert shown["heads"] == wanted["heads"]
    assert shown["columns"] == wanted["columns"]
    assert shown["bridges"] == wanted["bridges"]
    assert sorted(map(tuple, shown["leaders"])) == sorted(map(tuple, wanted["leaders"]))
    if view.get("hand") is not None and page.locator("[data-hand-of]").count():
        assert hand_in_dom(page) == "".join(sorted(view["hand"]))
    assert page.locator("#deck-count").inner_text() == str(view["deck_count"])
    piles = page.locator(".seat .pile").evaluate_all(
        "xs => xs.map(x => [x.dataset.top ?? null, x.dataset.height ?? null, x.dataset.counts ?? null])"
    )
    for seat, pile in enumerate(view["piles"]):
        top, height, counts = piles[seat]
        if "height" in pile:
            assert (top or None, int(height)) == (pile["top"], pile["height"]), (seat, piles[seat])
        else:
            assert counts == ",".join(str(pile[k]) for k in "rbgkt"), (seat, piles[seat])


def settle(server: Server, game: Any, keep: tuple[str, ...] = ()) -> dict[int, Any]:
    """Answer every pending decision but an action with its plain "no" over HTTP (the
    approach to a position), except kinds in `keep`; returns the views."""
    for _ in range(50):
        vs = views(server, game)
        d = vs[0]["decision"]
        if d is None or d["kind"] == "action" or d["kind"] in keep:
            return vs
        legal = vs[d["seat"]]["legal"]
        answer = next(
            (a for a in ("point none", "exchange none", "decline", "commit 0") if a in legal),
            legal[0],
        )
        act(server, game, d["seat"], answer)
    raise AssertionError("decisions did not settle")


def approach_war(server: Server, game: Any, layer: int) -> dict[int, Any]:
    """Over HTTP: seat 0's trader on head 3, seat 1's on head 4, three cards under
    each, until `layer` may lay a bridge in gap 3-4 (its wars are the traders')."""
    for _ in range(80):
        vs = settle(server, game)
        seat = int(vs[0]["active"])
        lay = vs[0]["layout"]
        legal = vs[seat]["legal"]
        short = [c for c in (3, 4) if len(lay["columns"][c - 1]) < 3]
        own = 3 + seat
        if vs[seat]["leaders"][seat]["T"] is None and f"T{own}.0" in legal:
            act(server, game, seat, f"T{own}.0")
        elif short and vs[seat]["hand"]:
            letter = next(x for x in "bkrg" if x in vs[seat]["hand"])
            act(server, game, seat, f"{letter}{short[0]}")
        elif (
            not short and seat == layer and any(x.endswith("3-4") and x[0] in "rbgk" for x in legal)
        ):
            if all(vs[s]["leaders"][s]["T"] for s in (0, 1)):
                return vs
            act(server, game, seat, "pass")
        else:
            act(server, game, seat, "pass")
    raise AssertionError("no war could be set up")


def finish(server: Server, game: Any, seed: int = 3) -> dict[int, Any]:
    """Play the game to its end over HTTP with random legal actions (cards rather than
    passes, so that the deck runs out)."""
    import random

    rng = random.Random(seed)
    for _ in range(3000):
        vs = views(server, game)
        if vs[-1]["status"] == "over":
            return vs
        seat = vs[0]["decision"]["seat"]
        legal = vs[seat]["legal"]
        cards = [a for a in legal if a[0] in "rbgk" and a[1:].isdigit()]
        paid = [a for a in legal if a.startswith("point ") and a != "point none"]
        moves = cards or paid or [a for a in legal if a != "pass"] or legal
        act(server, game, seat, rng.choice(moves))
    raise AssertionError("the game did not end")
