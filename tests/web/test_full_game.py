"""One person plays a whole game at one screen (both seats, hotseat) through the page
to the final scoring, then steps through its replay and downloads the record."""

from __future__ import annotations

import random
from typing import Any

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import (
    downloads_record,
    replayed_record,
    scoring_rows,
    status_has,
    step_through_replay,
    wait_version,
)


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from the seat's own view, with some big swaps so that
    the bag runs out sooner."""
    swaps: list[str] = [a for a in view["legal"] if a.startswith("swap")]
    if swaps and rng.random() < 0.35:
        return max(swaps, key=len)
    return GreedyBot(rng.randrange(1 << 30)).choose(BOARD, view)


def test_whole_game_to_final_scoring(server: Server, pages: Pages) -> None:
    rng = random.Random(5)
    game = server.create(2)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
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
    scoring_rows(page, outcome, 2)
    winners = " and ".join(["Ann", "Bob"][w] for w in outcome["winners"])
    assert winners in page.locator(".winner-line").inner_text()
    # The header says who won, not only that the game is over.
    status = page.locator("#status").inner_text()
    assert status.startswith("Game over: ") and winners in status, status
    assert page.title().startswith(status)

    # The record replays through the engine to the same outcome.
    record = replayed_record(server, gid, outcome)

    # The replay viewer: arrow keys step, the record downloads.
    page.click("text=Watch the replay")
    page.wait_for_selector("#next")
    steps = len(record["actions"])
    step_through_replay(page, steps)
    page.click("#prev")
    status_has(page, f"Step {steps - 1} ")
    downloads_record(page, record)
