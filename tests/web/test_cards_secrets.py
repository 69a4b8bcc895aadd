"""Hidden information stays hidden at the card table (C-19, G-3): at one screen the
covered hand is not in the DOM; no page's DOM or WebSocket frames hold another hand,
the deck, the 30 removed cards, the seed or another player's face-down bridge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.web.cards_helpers import act, approach_war, open_cards, settle, views
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import covered_after_pass, objects, views_from_frames, wait_version

SECRET_KEYS = {"seed", "rng", "hands"}
CONTENTS = {"deck", "removed"}  # as counts they are public (a refill's "deck": 138)


def hand_nodes(page: Any) -> int:
    return int(
        page.evaluate("() => document.querySelectorAll('.hand-card, [data-hand-of]').length")
    )


def bridge_shown(page: Any) -> str | None:
    node = page.locator("svg.layout .card.bridge[data-spot='3-4']")
    return node.get_attribute("data-card") if node.count() else None


def secret_free(doc: Any, seat: int, where: str) -> None:
    """No seed, deck or removed cards, no other hand, no event for another seat."""
    for at, d in objects(doc, where):
        assert not SECRET_KEYS & set(d), f"{at}: {SECRET_KEYS & set(d)}"
        for key in CONTENTS & set(d):
            assert isinstance(d[key], int), f"{at}: the {key}'s cards"
        if "audience" in d:
            assert d["audience"] == seat, at
        if d.get("viewer") is not None:
            assert d["viewer"] == seat, at


def commitments(server: Server, game: Any, page: Any) -> Iterator[tuple[int, Any]]:
    """The war's commitments one by one (the version, the decision), each once the page
    shows it, for the caller to answer; at the end, the page shows the settled game."""
    for _ in range(4):
        vs = settle(server, game, keep=("commit",))
        d = vs[0]["decision"]
        if d["kind"] != "commit":
            break
        wait_version(page, vs[0]["version"])
        yield vs[0]["version"], d
    wait_version(page, settle(server, game)[0]["version"])


def test_cards_hotseat_covers_hand_and_bridge(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, ["Ann", "Bob"])
    page = open_cards(pages, server, game, [0, 1], "Ann")
    page.wait_for_selector(".cover")
    first = int(views(server, game)[0]["active"])
    assert hand_nodes(page) == 0 and "hand-card" not in page.content()
    assert ["Ann", "Bob"][first] in page.locator(".cover").inner_text()
    shot(page, "cards-hotseat-cover")
    page.click(".reveal")
    assert page.locator(f"[data-hand-of='{first}']").count() == 1
    hand = views(server, game)[first]["hand"]
    assert page.locator(".hand-card").count() == len(hand)
    # The other seat's turn: covered again, nothing of either hand rendered, and the
    # cards the first seat just drew are not in the log.
    covered_after_pass(page, "hand-card")
    assert " draws " not in page.locator("ol.log").inner_text().replace("draws 0", "")

    # A war at one screen: while the defender decides, the page is covered and the
    # bridge its opponent laid shows only its back — also once the defender looks.
    layer = 1 - first
    vs = approach_war(server, game, layer)
    colour = vs[layer]["hand"][0]
    act(server, game, layer, f"{colour}3-4")
    for _, d in commitments(server, game, page):
        if d["seat"] == layer:
            if page.locator(f".reveal[data-reveal='{layer}']").count():
                page.click(f".reveal[data-reveal='{layer}']")
            assert bridge_shown(page) == colour
            act(server, game, layer, "commit 0")
        else:
            page.wait_for_selector(".cover")
            assert bridge_shown(page) == "?" and hand_nodes(page) == 0
            page.click(f".reveal[data-reveal='{d['seat']}']")
            assert bridge_shown(page) == "?"
            assert page.locator(f"[data-hand-of='{d['seat']}']").count() == 1
            act(server, game, d["seat"], "commit 0")
    assert bridge_shown(page) == colour


def test_cards_no_frame_or_node_holds_secrets(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, [None, "Bob"])
    page = open_cards(pages, server, game, [0], "Ann")
    # Both seats play over HTTP while the page watches seat 0: seat 1 lays a bridge
    # that starts a war, so it lies face down while seat 0 decides.
    vs = approach_war(server, game, 1)
    colour = vs[1]["hand"][0]
    act(server, game, 1, f"{colour}3-4")
    vs = settle(server, game, keep=("commit",))
    wait_version(page, vs[0]["version"])
    assert bridge_shown(page) == "?"
    assert "face-down bridge between 3 and 4" in page.locator("ol.log").inner_text()
    for v, d in commitments(server, game, page):
        assert bridge_shown(page) == "?"
        if d["seat"] == 0:
            page.click("#commit")
            wait_version(page, v + 1)
        else:
            act(server, game, 1, "commit 0")
    assert bridge_shown(page) == colour

    frames = [json.loads(text) for _, text in pages.frames[page]]
    view = None
    up = False
    for i, f, view in views_from_frames(frames, 0):
        secret_free(f, 0, f"frame {i} ({f['type']})")
        if f["type"] == "update":
            up = up or any(e["kind"] == "bridge_up" for e in f["events"])
            # Until it is turned up the bridge reads "?" in every view seat 0 gets.
            bridge = view["layout"]["bridges"][2]
            assert bridge in (None, "?") or up, f"frame {i} shows the face-down bridge"
            assert all(e["kind"] != "bridge_colour" for e in f["events"])
            assert set(view) >= {"hand", "hand_counts", "deck_count", "removed_count"}
    assert up
    # The views rebuilt from the frames are exactly the server's view of seat 0.
    assert view == views(server, game)[0]
    assert view["removed_count"] == 30
    # The DOM shows seat 0's hand only.
    assert page.locator("[data-hand-of]").evaluate_all("xs => xs.map(x => x.dataset.handOf)") == [
        "0"
    ]
    assert page.locator(".hand-card").count() == len(view["hand"])
