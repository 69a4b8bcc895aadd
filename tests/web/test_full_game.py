"""One person plays a whole game at one screen (both seats, hotseat) through the page
to the final scoring, then steps through its replay and downloads the record."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from tests.web.conftest import Pages, Server, serving, shot
from tests.web.helpers import (
    downloads_record,
    replayed_record,
    scoring_rows,
    status_has,
    step_through_replay,
    wait_version,
)
from tests.web.server_forks import ServerForks

# Each game is dealt from its seed, and with the choices below passes through these
# decisions answered on their panels (a war order, a monument, a treasure to choose:
# rare, one game in four at most from a fresh seed), and through conflicts, the first
# answered with the commit panel's own button.
GAMES = [(158, {"monument", "treasure"}), (257, {"war_order", "treasure"})]
# What a panel's first button sends: the first legal action of its kind.
CHOICE = {"war_order": "war ", "monument": "monument ", "treasure": "treasure "}


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from the seat's own view, with some big swaps so that
    the bag runs out sooner."""
    swaps: list[str] = [a for a in view["legal"] if a.startswith("swap")]
    if swaps and rng.random() < 0.35:
        return max(swaps, key=len)
    return GreedyBot(rng.randrange(1 << 30)).choose(BOARD, view)


@pytest.mark.parametrize(("seed", "panels"), GAMES, ids=[f"seed {g[0]}" for g in GAMES])
def test_whole_game_to_final_scoring(
    seed: int, panels: set[str], forks: ServerForks, tmp_path: Path, pages: Pages
) -> None:
    with serving(forks, tmp_path, 0, seed=seed) as server:
        play_whole_game(server, tmp_path / "games.db", seed, panels, pages)
        pages.close()  # before the server stops: no page tries to reconnect to it


def play_whole_game(server: Server, db: Path, seed: int, panels: set[str], pages: Pages) -> None:
    rng = random.Random(5)
    game = server.create(2)
    gid = game["id"]
    with sqlite3.connect(db) as conn:
        dealt = conn.execute("SELECT seed FROM games WHERE id = ?", (gid,)).fetchone()[0]
    assert int(dealt) == seed, "the server did not deal the game from the test's seed"
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    page = pages.open(f"{server.base}/g/{gid}#s={','.join(tokens)}", width=1280, height=860)
    page.wait_for_selector("svg.board")
    clicked_commit = False
    clicked_panels: set[str] = set()
    chosen: dict[int, str] = {}  # by version: what a panel's button should have sent
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
        if kind in CHOICE:
            # The decision's own panel: its first choice, by click.
            page.click(".decision.mine .choices button >> nth=0")
            clicked_panels.add(kind)
            chosen[view["version"]] = next(a for a in view["legal"] if a.startswith(CHOICE[kind]))
        elif kind == "commit" and not clicked_commit:
            page.click("#commit")  # the panel's own button: the chosen count, 0 by default
            clicked_commit = True
            chosen[view["version"]] = "commit 0"
        else:
            page.fill("#notation", choose(view, rng))
            page.press("#notation", "Enter")
        wait_version(page, view["version"] + 1)
    doc = server.call("GET", f"/api/games/{gid}", tokens=tokens)
    assert doc["game"]["status"] == "over"
    assert clicked_panels == panels and clicked_commit, (clicked_panels, clicked_commit)
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

    # The record replays through the engine to the same outcome, and holds what each
    # panel's button sent.
    record = replayed_record(server, gid, outcome)
    assert {v: record["actions"][v] for v in chosen} == chosen

    # The replay viewer: arrow keys step, the record downloads.
    page.click("text=Watch the replay")
    page.wait_for_selector("#next")
    steps = len(record["actions"])
    step_through_replay(page, steps)
    page.click("#prev")
    status_has(page, f"Step {steps - 1} ")
    downloads_record(page, record)
