"""One person plays a whole card game against two bots through the page, to the final
scoring (piles per colour, treasure cards as wildcards, the weakest colours compared,
the winner, why the game ended); then the record replays to the same outcome and the
replay viewer steps through it. The bots play in the server's worker processes
(`python -m euphrates.bots.worker`)."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots.greedy import GreedyBot
from euphrates.cards import CARDS
from euphrates.match.records import GameRecord, replay
from tests.web.cards_helpers import click_column, clicked, pick_card
from tests.web.conftest import SERVE, Pages, Server, _free_port, shot
from tests.web.helpers import wait_version

WORKER = importlib.util.find_spec("euphrates.bots.worker") is not None
pytestmark = pytest.mark.skipif(
    not WORKER, reason="the bot worker (euphrates.bots.worker) is not here"
)


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[Server]:
    """A server as in conftest, with one bot worker process."""
    port = _free_port()
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port), str(tmp_path / "games.db"), "1"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "server did not start: " + (tmp_path / "server.log").read_text()
                    ) from None
                time.sleep(0.1)
        yield Server(base)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from Ann's own view, with cards laid rather than a pass
    now and then, so that the deck runs out sooner."""
    cards = [a for a in view["legal"] if a[0] in "rbgk" and a[1:].isdigit()]
    if cards and rng.random() < 0.3:
        return rng.choice(cards)
    return GreedyBot(rng.randrange(1 << 30)).choose(CARDS, view)


def test_cards_whole_game_against_bots(bot_server: Server, pages: Pages) -> None:
    server = bot_server
    rng = random.Random(11)
    game = server.call(
        "POST",
        "/api/games",
        {
            "game": "cards",
            "players": 3,
            "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "intermediate"}] * 2],
            "options": {"open_piles": False},
        },
    )
    gid = game["id"]
    token = game["seats"][0]["token"]
    page = pages.open(f"{server.base}/g/{gid}#s={token}", width=1280, height=1000)
    page.fill("#your-name", "Ann")
    page.click(".ask-name button[type=submit]")
    page.wait_for_selector("svg.layout .card")
    by_click = 0
    midgame = False
    for _ in range(600):
        deadline = time.monotonic() + 30
        while True:  # the bots move by themselves; wait for Ann's decision
            doc = server.call("GET", f"/api/games/{gid}", tokens=[token])
            view = doc["views"]["0"]
            if view["decision"] is None or view["decision"]["seat"] == 0:
                break
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
        if view["decision"] is None:
            break
        wait_version(page, view["version"])
        if not midgame and view["deck_count"] <= 80 and view["decision"]["kind"] == "action":
            page.evaluate("() => window.scrollTo(0, 0)")
            shot(page, "cards-midgame")
            midgame = True
        action = choose(view, rng)
        if by_click < 5 and action[0] in "rbgk" and action[1:].isdigit():
            # Some cards by clicks: the card, then its column.
            colour = {"r": "red", "b": "blue", "g": "green", "k": "black"}[action[0]]
            pick_card(page, colour)
            clicked(page, click_column, page, int(action[1:]))
            by_click += 1
        else:
            page.fill("#notation", action)
            page.press("#notation", "Enter")
            wait_version(page, view["version"] + 1)
    for _ in range(50):  # the game's status follows its last step
        doc = server.call("GET", f"/api/games/{gid}", tokens=[token])
        if doc["game"]["status"] == "over":
            break
        time.sleep(0.1)
    assert doc["game"]["status"] == "over"
    final = doc["views"]["0"]
    outcome = final["outcome"]
    wait_version(page, final["version"])
    page.wait_for_selector(".scoring")
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "cards-scoring")
    rows = page.locator(".scoring tbody tr")
    assert rows.count() == 3
    for i in range(3):
        seat = int(rows.nth(i).get_attribute("data-seat") or -1)
        cells = rows.nth(i).locator("td.num strong").all_inner_texts()
        assert [int(c) for c in cells] == outcome["totals"][seat]
        treasures = rows.nth(i).locator("td.num.treasure").inner_text()
        assert int(treasures) == sum(outcome["wildcards"][seat])
    winner = page.locator(f".seat[data-seat='{outcome['winners'][0]}'] .seat-name").inner_text()
    assert winner in page.locator(".winner-line").inner_text()
    assert (
        page.locator(".seat[data-seat='1'] .seat-name").inner_text() == "Bull (bot, intermediate)"
    )
    assert page.locator(".end-reason").count() == 1

    # The record replays through the engine to the same outcome.
    record = server.call("GET", f"/api/games/{gid}/record")
    state = replay(GameRecord.from_json(record))
    assert state.outcome() is not None and state.outcome().to_json() == outcome

    # The replay viewer draws the card game: arrow keys step, the record downloads.
    page.click("text=Watch the replay")
    page.wait_for_selector("svg.layout")
    steps = len(record["actions"])
    assert f"Step 0 of {steps}" in page.locator("header .status").inner_text()
    assert page.locator("svg.layout .card.head").count() == 8
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('header .status').textContent.includes('Step 1 ')"
    )
    page.keyboard.press("End")
    page.wait_for_function(
        f"() => document.querySelector('header .status').textContent.includes('Step {steps} ')"
    )
    page.wait_for_selector(".scoring")
    shown = page.evaluate(
        "() => [...document.querySelectorAll('svg.layout .pieces .card')].filter(c => !c.classList.contains('head')).length"
    )
    lay = final["layout"]
    bridges = sum(b is not None for b in lay["bridges"])
    assert shown == sum(len(c) for c in lay["columns"]) + bridges
    with page.expect_download() as download:
        page.click("text=Download the record")
    path = download.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8"))["actions"] == record["actions"]
