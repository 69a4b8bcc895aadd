"""One person plays a whole game of Tigris & Euphrates against two bots through the
page, to the final scoring: the bots move by themselves in the server's worker
processes, the person by clicks now and then and by the notation box otherwise."""

from __future__ import annotations

import random
import time
from typing import Any

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from euphrates.match.records import GameRecord, replay
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import place_tile, wait_version
from tests.web.test_cards_bots import bot_server  # noqa: F401 - the fixture

COLOURS = {"r": "red", "b": "blue", "g": "green", "k": "black"}


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from the person's own view, with big swaps now and then,
    so that the bag runs out sooner."""
    swaps = [a for a in view["legal"] if a.startswith("swap")]
    if swaps and rng.random() < 0.3:
        return max(swaps, key=len)
    return GreedyBot(rng.randrange(1 << 30)).choose(BOARD, view)


def test_board_whole_game_against_bots(bot_server: Server, pages: Pages) -> None:  # noqa: F811
    server = bot_server
    rng = random.Random(3)
    game = server.call(
        "POST",
        "/api/games",
        {
            "game": "board",
            "players": 3,
            "seats": [{"kind": "human"}, *[{"kind": "bot", "level": "intermediate"}] * 2],
        },
    )
    gid = game["id"]
    token = game["seats"][0]["token"]
    page = pages.open(f"{server.base}/g/{gid}#s={token}", width=1280, height=860)
    page.fill("#your-name", "Ann")
    page.click(".ask-name button[type=submit]")
    page.wait_for_selector("svg.board")
    by_click = 0
    for _ in range(400):
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
        action = choose(view, rng)
        tile = action[0] in COLOURS and action[1:2].isupper() and action[2:].isdigit()
        if by_click < 6 and tile:
            place_tile(page, COLOURS[action[0]], action[1:])  # the tile, then its square
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
    assert by_click == 6
    outcome = doc["views"]["0"]["outcome"]
    page.wait_for_selector(".scoring")
    shot(page, "scoring-bots")
    rows = page.locator(".scoring tbody tr")
    assert rows.count() == 3
    for i in range(3):
        seat = int(rows.nth(i).get_attribute("data-seat") or -1)
        cells = rows.nth(i).locator("td.num strong").all_inner_texts()
        assert [int(c) for c in cells] == outcome["totals"][seat]
    record = server.call("GET", f"/api/games/{gid}/record")
    assert record["seats"] == ["Ann", "bot:intermediate", "bot:intermediate"]
    state = replay(GameRecord.from_json(record))
    assert state.outcome() is not None and state.outcome().to_json() == outcome
