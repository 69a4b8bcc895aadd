"""The process boundary catches a cheater: a bot that searches its own process (the
stack above it and every object the garbage collector tracks) for the true game state
or the game's seed finds both when it runs in the host's process, and nothing when it
runs in a worker, for both games (G-3: hidden information reaches nobody)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots.base import RandomBot
from euphrates.bots.remote import RemoteBot, spawn_bot
from euphrates.core.seeds import bot_seed, decision_seed, game_seed
from euphrates.games import GAMES
from euphrates.match.play import UnfinishedGame, play_game
from euphrates.match.records import GameRecord, replay
from tests.bots.cheater import REPORT_ENV, Cheater

ROOT = Path(__file__).resolve().parents[2]

# The worker, with the cheater registered before its main loop starts: the one way a
# worker can serve a bot `make_bot` does not know (see `worker.register_bot`).
BOOTSTRAP = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from euphrates.bots.worker import main, register_bot
from tests.bots.cheater import Cheater
register_bot("cheater", Cheater)
sys.exit(main(sys.argv[1:]))
"""

BASE = 4242


def _play(name: str, bots: list[Any], seed: int) -> GameRecord:
    """The first decisions of a game (the cheater searches at its first three only)."""
    try:
        return play_game(name, bots, seed, max_decisions=40).record
    except UnfinishedGame as stopped:
        return stopped.record


def _findings(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _true_hidden(record: GameRecord, version: int) -> dict[str, Any]:
    truth: Any = replay(record, upto=version)
    key = "bag" if record.game == "board" else "deck"
    return {key: list(getattr(truth, key)), "hands": [list(h) for h in truth.hands]}


def _matches_truth(found: dict[str, Any], record: GameRecord) -> bool:
    truth = _true_hidden(record, found["version"])
    return all(found.get(k) == v for k, v in truth.items())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_cheater_in_the_hosts_process_finds_the_game(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old way (the bot in the host's process): the search works, so the test below
    can fail."""
    report = tmp_path / "report.jsonl"
    monkeypatch.setenv(REPORT_ENV, str(report))
    seed = game_seed(BASE)
    record = _play(name, [Cheater(1), RandomBot(2)], seed)
    findings = _findings(report)
    assert findings, "the cheater searched"
    assert any(_matches_truth(s, record) for f in findings for s in f["states"])
    assert any(seed in f["ints"] for f in findings)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_cheater_in_a_worker_finds_nothing(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "report.jsonl"
    monkeypatch.setenv(REPORT_ENV, str(report))
    seed = game_seed(BASE)
    cheat_seed = bot_seed(BASE, 0, 0)
    cheater = RemoteBot("cheater", cheat_seed, command=[sys.executable, "-c", BOOTSTRAP])
    with cheater, spawn_bot("random", bot_seed(BASE, 0, 1)) as other:
        _play(name, [cheater, other], seed)
    findings = _findings(report)
    assert len(findings) == 3
    for f in findings:
        assert f["frames"] >= 3 and f["objects"] > 1000  # it did search its process
        assert f["states"] == []  # no game state at all, let alone the true one
        assert seed not in f["ints"]
    # ... and it finds what is there: the seed of its own first decision
    assert decision_seed(cheat_seed, 0) in findings[0]["ints"]
