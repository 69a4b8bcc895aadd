"""Hidden information stays hidden: at one screen the covered hand is not in the DOM
at all, and no page's DOM or WebSocket frames hold another seat's tiles, the bag or
the seed (G-3)."""

from __future__ import annotations

import json
from typing import Any

from euphrates.words.book import read_part
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import (
    covered_after_pass,
    objects,
    place_tile,
    version,
    views_from_frames,
    wait_version,
)

COLOURS = {"r": "red", "b": "blue", "g": "green", "k": "black"}


def hand_nodes(page: Any) -> int:
    return int(
        page.evaluate("() => document.querySelectorAll('.hand-tile, [data-hand-of]').length")
    )


def test_hotseat_covers_the_hand(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    page = pages.open(f"{server.base}/g/{game['id']}#s={','.join(tokens)}")
    page.wait_for_selector(".cover")
    first = server.view(game["id"], tokens[0], 0)["turn"]["active"]
    names = ["Ann", "Bob"]
    assert hand_nodes(page) == 0
    assert names[first] in page.locator(".cover").inner_text()
    shot(page, "hotseat-cover")
    page.click(".reveal")
    assert page.locator(f"[data-hand-of='{first}']").count() == 1
    own = server.view(game["id"], tokens[first], first)
    hand = own["seats"][first]["hand"]
    assert page.locator(".hand-tile").count() == sum(hand.values()) == 6
    # A tile from the hand (the board holds no leader yet: nothing follows from it), so
    # that the end of the turn draws one.
    tile = next(a for a in own["legal"] if a[0] in COLOURS and a[1:2].isupper())
    colour = COLOURS[tile[0]]
    place_tile(page, colour, tile[1:])
    assert hand_nodes(page) > 0  # the same seat's second action: still shown
    # The seat passes and draws; the other seat's turn: covered, no hand in the page.
    covered_after_pass(page, "hand-tile")
    after = server.view(game["id"], tokens[first], first)["seats"][first]["hand"]
    assert sum(after.values()) == 6
    drawn = [c for c in after for _ in range(after[c] - hand[c] + (c == colour))]
    assert len(drawn) == 1, (hand, colour, after)
    # The log says that the seat drew, not what: its drawn tile is not in the page.
    words = read_part("en", "board")
    page.wait_for_function(
        "(t) => document.querySelector('ol.log').innerText.includes(t)",
        arg=words["log.drew"].format(who=names[first], n=1),
    )
    secret = words["log.drew_tiles"].format(
        who=names[first], tiles=f"1 {words['tile.' + drawn[0]]}"
    )
    assert secret not in page.content()
    # Uncovered for the other seat: still only that seat's hand, and not the tile drawn.
    page.click(".reveal")
    other = 1 - first
    assert page.locator(f"[data-hand-of='{other}']").count() == 1
    assert page.locator(f"[data-hand-of='{first}']").count() == 0
    assert secret not in page.content()


def secret_free(doc: Any, seat: int, where: str) -> None:
    """No seed, no bag contents, no other seat's hand or discards, no private event."""
    for at, d in objects(doc, where):
        assert "seed" not in d, at
        if "audience" in d:
            assert d["audience"] == seat, at
        if isinstance(d.get("bag"), (list, str)):
            raise AssertionError(f"{at}: the bag's contents")


def test_no_frame_or_node_holds_secrets(server: Server, pages: Pages) -> None:
    game = server.create(2)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, [None, "Bob"])
    page = pages.open(f"{server.base}/g/{gid}#s={tokens[0]}")
    page.fill("#your-name", "Ann")
    page.click(".ask-name button[type=submit]")
    page.wait_for_selector("svg.board")
    # Both seats play a few turns with swaps (private discards and draws): seat 0
    # through the notation box, seat 1 over HTTP.
    for _ in range(8):
        view = server.view(gid, tokens[0], 0)
        d = view["decision"]
        if d["seat"] == 0:
            swaps = [a for a in view["legal"] if a.startswith("swap")]
            page.fill("#notation", max(swaps, key=len) if swaps else "pass")
            page.press("#notation", "Enter")
            wait_version(page, view["version"] + 1)
        else:
            other = server.view(gid, tokens[1], 1)
            swaps = [a for a in other["legal"] if a.startswith("swap")]
            server.call(
                "POST",
                f"/api/games/{gid}/actions",
                {"version": other["version"], "seat": 1, "action": swaps[0] if swaps else "pass"},
                [tokens[1]],
            )
            wait_version(page, other["version"] + 1)
    frames = [json.loads(text) for _, text in pages.frames[page]]
    assert any(f["type"] == "update" for f in frames)
    view = None
    for i, f, view in views_from_frames(frames, 0):
        secret_free(f, 0, f"frame {i} ({f['type']})")
        if f["type"] == "update":
            other = view["seats"][1]
            assert set(other["hand"]) == {"count"} and set(other["discarded"]) == {"count"}
            assert set(view["bag"]) == {"count"}
    # The views rebuilt from the frames are exactly the server's view of seat 0.
    assert view == server.view(gid, tokens[0], 0)
    # The DOM shows seat 0's hand only, and nothing of seat 1's beyond counts.
    assert page.locator("[data-hand-of]").evaluate_all("xs => xs.map(x => x.dataset.handOf)") == [
        "0"
    ]
    own = server.view(gid, tokens[0], 0)["seats"][0]["hand"]
    assert page.locator(".hand-tile").count() == sum(own.values())
    log = page.locator("ol.log").inner_text()
    assert "discarded" in log  # seat 0's own discards are shown to seat 0 …
    assert log.count("discarded") == sum(
        1 for f in frames if f["type"] == "update" for e in f["events"] if e["kind"] == "discarded"
    ) + sum(
        1
        for f in frames
        if f["type"] == "welcome"
        for s in f.get("history", [])
        for e in s["events"]
        if e["kind"] == "discarded"
    )
    assert version(page) == server.view(gid, tokens[0], 0)["version"]
