"""The statistics of a game (GET /api/games/{id}/stats): refused while it runs, served
once it is over, and the very figures `euphrates replay --stats` prints for its record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from euphrates.cli import main
from euphrates.match.records import GameRecord
from euphrates.match.stats import game_stats
from euphrates.terminal.stats import stats_lines
from euphrates.words import book
from tests.server.harness import Api


def _play_out(api: Api, game: str, most: int) -> str:
    """A game played by random legal actions to its end, or abandoned by its host after
    `most` actions (an abandoned game's record and statistics are public too)."""
    created = api.create(game=game)
    gid: str = created["id"]
    toks = [s["token"] for s in created["seats"]]
    for t in toks:
        api.call("POST", f"/api/games/{gid}/join", t, {})
    both = ",".join(toks)
    r = api.call("GET", f"/api/games/{gid}/stats")
    assert r.status_code == 403 and r.json()["error"]["code"] == "record_unavailable"
    rng = random.Random(5)
    version = 0
    while True:
        doc = api.call("GET", f"/api/games/{gid}", both).json()
        if doc["game"]["status"] == "over":
            return gid
        if version == most:
            api.call("POST", f"/api/games/{gid}/abandon", created["host"]["token"])
            return gid
        views = doc["views"]
        seat = views["0"]["decision"]["seat"]
        action = rng.choice(views[str(seat)]["legal"])
        body = {"version": version, "seat": seat, "action": action}
        r = api.call("POST", f"/api/games/{gid}/actions", both, body)
        assert r.status_code == 200, r.text
        version = r.json()["version"]


# A whole board game; a card game abandoned after 80 actions (a whole one takes 500).
@pytest.mark.parametrize(("game", "most"), [("board", -1), ("cards", 80)])
def test_server_and_terminal_give_the_same_figures(
    api: Api, game: str, most: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = _play_out(api, game, most)
    served = api.call("GET", f"/api/games/{gid}/stats").json()
    record_doc = api.call("GET", f"/api/games/{gid}/record").json()
    record = GameRecord.from_json(record_doc)
    assert served == game_stats(record)
    assert served["game"] == game and served["steps"] == len(record.actions)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_doc))
    capsys.readouterr()
    assert main(["replay", str(path), "--stats", "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    expected = "\n".join(stats_lines(book("en"), served, record.seats))
    assert printed.endswith("\n\n" + expected + "\n")
    # Figures the table shows, in the terminal's words too.
    first: dict[str, Any] = served["seats"][0]
    assert f"Catastrophes: {first['catastrophes']}" in printed
