"""The replay viewer's download is the server's record, byte for byte, and `euphrates
replay` replays it: the seed (0 … 2**64-1) never passes through a JavaScript number,
which would round it. The viewer's step buttons draw their symbols themselves."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.cards_helpers import act
from tests.web.conftest import Pages, Server, shot


def played_and_abandoned(server: Server, game_name: str, actions: int) -> Any:
    """A two-player game with `actions` random actions (pieces and cards laid rather
    than passes, so that the record depends on the deal), then abandoned by its host:
    its record and replay are public from then on."""
    game = server.create(2, game=game_name)
    server.join(game, ["Ann", "Bob"])
    rng = random.Random(7)
    for _ in range(actions):
        view0 = server.view(game["id"], game["seats"][0]["token"], 0)
        seat = view0["decision"]["seat"]
        legal = server.view(game["id"], game["seats"][seat]["token"], seat)["legal"]
        laid = [a for a in legal if a[0] in "rbgk" and a[1:2].isalnum()]
        act(server, game, seat, rng.choice(laid) if laid else legal[0])
    server.call("POST", f"/api/games/{game['id']}/abandon", {}, [game["host"]["token"]])
    return game


@pytest.mark.parametrize("game_name", ["board", "cards"])
def test_downloaded_record_replays(
    server: Server, pages: Pages, tmp_path: Path, game_name: str
) -> None:
    game = played_and_abandoned(server, game_name, 24)
    with urllib.request.urlopen(f"{server.base}/api/games/{game['id']}/record") as res:
        served = res.read()
    record = json.loads(served)
    # Above 2**53 a JavaScript number cannot hold every integer (the server's seeds
    # are drawn from 0 … 2**64-1, so nearly all are).
    assert record["seed"] > 2**53, record["seed"]
    page = pages.open(f"{server.base}/replay/{game['id']}")
    page.wait_for_selector("#next")
    with page.expect_download() as download:
        page.click("text=Download the record")
    path = tmp_path / "downloaded.json"
    download.value.save_as(path)
    assert path.read_bytes() == served
    done = subprocess.run(
        [sys.executable, "-m", "euphrates", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # What the page reads from the server keeps the seed's every digit.
    read = page.evaluate(
        "async (text) => (await import('/static/js/shared/json.js')).parseJson(text)",
        served.decode(),
    )
    assert read["seed"] == str(record["seed"])
    assert {k: v for k, v in read.items() if k != "seed"} == {
        k: v for k, v in record.items() if k != "seed"
    }


def test_replay_buttons_draw_their_symbols(server: Server, pages: Pages) -> None:
    """⏮ and ⏭ are missing from many fonts: the buttons draw all four symbols as SVG."""
    game = played_and_abandoned(server, "board", 2)
    page = pages.open(f"{server.base}/replay/{game['id']}", width=390, height=844)
    page.wait_for_selector("#next")
    for button in ("#first", "#prev", "#next", "#last"):
        assert page.locator(f"{button} svg").count() == 1, button
        text = page.locator(button).inner_text()
        assert not set(text) & set("⏮◀▶⏭"), text
    shot(page, "replay-buttons-phone")
    # End steps to the end of the game and leaves the page where it is.
    page.set_viewport_size({"width": 390, "height": 500})
    assert page.evaluate("() => document.documentElement.scrollHeight") > 600
    page.keyboard.press("End")
    page.wait_for_function(
        "() => document.querySelector('header .status').textContent.includes('Step 2 of 2')"
    )
    assert page.evaluate("() => window.scrollY") == 0
