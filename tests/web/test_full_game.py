"""One person plays a whole game at one screen (both seats, hotseat) through the page
to the final scoring, then steps through its replay and downloads the record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from euphrates.match.records import GameRecord, replay
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import wait_version


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from the seat's own view, with some big swaps so that
    the bag runs out sooner."""
    swaps = [a for a in view["legal"] if a.startswith("swap")]
    if swaps and rng.random() < 0.35:
        return max(swaps, key=len)
    return GreedyBot(rng.randrange(1 << 30)).choose(BOARD, view)


def test_whole_game_to_final_scoring(server: Server, pages: Pages) -> None:
    rng = random.Random(5)
    game = server.create(2)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    for seat, name in enumerate(("Ann", "Bob")):
        server.call("POST", f"/api/games/{gid}/join", {"name": name}, [tokens[seat]])
    page = pages.open(f"{server.base}/g/{gid}#s={','.join(tokens)}", width=1280, height=860)
    page.wait_for_selector("svg.board")
    clicked_commit = False
    clicked_panels: set[str] = set()
    for _ in range(400):
        doc = server.call("GET", f"/api/games/{gid}", tokens=tokens)
        if doc["game"]["status"] == "over":
            break
        view0 = doc["views"]["0"]
        seat = view0["decision"]["seat"]
        view = doc["views"][str(seat)]
        wait_version(page, view["version"])
        if page.locator(".reveal").count():
            assert page.locator(".hand-tile").count() == 0
            page.click(f".reveal[data-reveal='{seat}']")
        kind = view["decision"]["kind"]
        if kind in ("war_order", "monument", "treasure"):
            # The decision's own panel: its first choice, by click.
            page.click(".decision.mine .choices button >> nth=0")
            clicked_panels.add(kind)
        elif kind == "commit" and not clicked_commit:
            page.click("#commit")  # the panel's own button: the chosen count, 0 by default
            clicked_commit = True
        else:
            page.fill("#notation", choose(view, rng))
            page.press("#notation", "Enter")
        wait_version(page, view["version"] + 1)
    doc = server.call("GET", f"/api/games/{gid}", tokens=tokens)
    assert doc["game"]["status"] == "over"
    print("decision panels clicked:", sorted(clicked_panels))
    outcome = doc["views"]["0"]["outcome"]
    page.wait_for_selector(".scoring")
    shot(page, "scoring")
    rows = page.locator(".scoring tbody tr")
    assert rows.count() == 2
    for i in range(2):
        seat = int(rows.nth(i).get_attribute("data-seat") or -1)
        cells = rows.nth(i).locator("td.num strong").all_inner_texts()
        assert [int(c) for c in cells] == outcome["totals"][seat]
    winners = " and ".join(["Ann", "Bob"][w] for w in outcome["winners"])
    assert winners in page.locator(".winner-line").inner_text()

    # The record replays through the engine to the same outcome.
    record = server.call("GET", f"/api/games/{gid}/record")
    state = replay(GameRecord.from_json(record))
    assert state.outcome() is not None and state.outcome().to_json() == outcome

    # The replay viewer: arrow keys step, the record downloads.
    page.click("text=Watch the replay")
    page.wait_for_selector("#next")
    steps = len(record["actions"])
    assert f"Step 0 of {steps}" in page.locator("header .status").inner_text()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('header .status').textContent.includes('Step 1 ')"
    )
    page.keyboard.press("End")
    page.wait_for_function(
        f"() => document.querySelector('header .status').textContent.includes('Step {steps} ')"
    )
    page.wait_for_selector(".scoring")
    page.click("#prev")
    page.wait_for_function(
        f"() => document.querySelector('header .status').textContent.includes('Step {steps - 1} ')"
    )
    with page.expect_download() as download:
        page.click("text=Download the record")
    path = download.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8"))["actions"] == record["actions"]
