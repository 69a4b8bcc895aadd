"""One person plays a whole game of Tigris & Euphrates against two bots through the
page, to the final scoring: the bots move by themselves in the server's worker
processes, the person by clicks now and then and by the notation box otherwise."""

from __future__ import annotations

import random
from typing import Any

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import (
    Watch,
    open_seat,
    place_tile,
    replayed_record,
    scoring_rows,
    wait_version,
)

COLOURS = {"r": "red", "b": "blue", "g": "green", "k": "black"}


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from the person's own view, with big swaps now and then,
    so that the bag runs out sooner."""
    swaps: list[str] = [a for a in view["legal"] if a.startswith("swap")]
    if swaps and rng.random() < 0.3:
        return max(swaps, key=len)
    return GreedyBot(rng.randrange(1 << 30)).choose(BOARD, view)


def test_board_whole_game_against_bots(bot_server: Server, pages: Pages) -> None:
    server = bot_server
    rng = random.Random(3)
    game = server.create(3, bots=["intermediate"] * 2)
    gid = game["id"]
    token = game["seats"][0]["token"]
    page = open_seat(pages, server, game, 0, "Ann", width=1280, height=860)
    by_click = placed = 0
    watch = Watch(server, gid, token)
    for _ in range(400):
        view = watch.own_decision()
        if view["decision"] is None:
            break
        wait_version(page, view["version"])
        action = choose(view, rng)
        tile = action[0] in COLOURS and action[1:2].isupper() and action[2:].isdigit()
        placed += tile
        if by_click < 6 and tile:
            place_tile(page, COLOURS[action[0]], action[1:])  # the tile, then its square
            by_click += 1
        else:
            page.fill("#notation", action)
            page.press("#notation", "Enter")
        wait_version(page, view["version"] + 1)
    outcome = watch.game_over()["outcome"]
    # the first six tiles placed by click; a deal may end the game before Ann placed six
    # (the server deals at random: once she placed four)
    assert by_click == min(6, placed) and by_click > 0, (by_click, placed)
    page.wait_for_selector(".scoring")
    shot(page, "scoring-bots")
    scoring_rows(page, outcome, 3)
    record = replayed_record(server, gid, outcome)
    assert record["seats"] == ["Ann", "bot:intermediate", "bot:intermediate"]
