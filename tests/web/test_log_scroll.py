"""The table's move log follows the game while its reader is at its end, and stays where
the reader scrolled back to while moves keep coming: a player reading an earlier turn
is not thrown to the bottom by the next move. The log notes where its reader is as they
scroll (js/shared/logtabs.js), never by measuring itself while the table is drawn."""

from __future__ import annotations

import random
from typing import Any

from tests.web.conftest import Pages, Server
from tests.web.helpers import wait_version

AT_END = "el => el.scrollHeight - el.scrollTop - el.clientHeight < 40"


def _move(server: Server, gid: str, tokens: list[str], rng: random.Random) -> int:
    """One legal move of whoever decides (a tile or a leader where it can, to keep the
    game going); returns the version after it."""
    doc = server.call("GET", f"/api/games/{gid}", tokens=tokens)
    seat = doc["views"]["0"]["decision"]["seat"]
    view = doc["views"][str(seat)]
    legal = view["legal"]
    placing = [a for a in legal if a[:1] in "rbgk" and a != "pass"]
    action = rng.choice(placing or legal)
    body = {"version": view["version"], "seat": seat, "action": action}
    server.call("POST", f"/api/games/{gid}/actions", body, [tokens[seat]])
    return int(view["version"]) + 1


def _log(page: Any) -> Any:
    return page.locator("ol.log")


def test_the_log_follows_the_game_unless_its_reader_scrolled_back(
    server: Server, pages: Pages
) -> None:
    rng = random.Random(3)
    game = server.create(2)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    page = pages.open(f"{server.base}/g/{gid}#s={tokens[0]}")
    page.wait_for_selector("svg.board")
    log = _log(page)

    # Moves until the log holds more than it shows.
    for _ in range(60):
        wait_version(page, _move(server, gid, tokens, rng))
        if log.evaluate("el => el.scrollHeight > el.clientHeight + 120"):
            break
    else:
        raise AssertionError("60 moves did not fill the log")
    page.wait_for_function(f"() => ({AT_END})(document.querySelector('ol.log'))")

    # The reader scrolls back to the first turn: the next moves leave them there.
    log.evaluate("el => { el.scrollTop = 0; }")
    page.wait_for_function("() => document.querySelector('ol.log').scrollTop === 0")
    lines = log.locator("li").count()
    for _ in range(2):
        wait_version(page, _move(server, gid, tokens, rng))
    page.wait_for_function(f"() => document.querySelectorAll('ol.log li').length > {lines}")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert log.evaluate("el => el.scrollTop") == 0

    # Back at the end, the log follows the game again.
    log.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_function(f"() => ({AT_END})(document.querySelector('ol.log'))")
    lines = log.locator("li").count()
    wait_version(page, _move(server, gid, tokens, rng))
    page.wait_for_function(f"() => document.querySelectorAll('ol.log li').length > {lines}")
    page.wait_for_function(f"() => ({AT_END})(document.querySelector('ol.log'))")
    assert log.evaluate("el => el.scrollHeight - el.clientHeight") > 120
