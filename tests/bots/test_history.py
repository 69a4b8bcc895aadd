"""The public history a bot reads beside its view (core.history) holds every action and
event its seat saw, in order, and nothing hidden from it (G-3): a snooping bot finds no
other hand, no bag or deck, no seed in it, and two games that differ only in what a
seat cannot see give that seat the same history."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots.base import Bot
from euphrates.bots.remote import RemoteBot, spawn_bot
from euphrates.bots.worker import handle
from euphrates.core.history import HISTORY_KEY, Follower, History, replayed, with_history
from euphrates.core.protocol import GameDefinition, GameState, View
from euphrates.core.rng import Rng
from euphrates.core.seeds import bot_seed, game_seed
from euphrates.games import GAMES, game_definition
from euphrates.match.play import UnfinishedGame, play_game
from euphrates.match.records import GameRecord, replay

GAME_NAMES = sorted(GAMES)
ROOT = Path(__file__).resolve().parents[2]
BIG = 1 << 20


class Snoop(Bot):
    """Keeps every view it is handed, history included, as the worker would get it."""

    name = "snoop"
    reads_history = True

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.views: list[View] = []

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        self.views.append(json.loads(json.dumps(view)))
        legal = view["legal"]
        return str(legal[self.rng.below(len(legal))])


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ints(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def _play(name: str, bots: list[Bot], seed: int, decisions: int) -> GameRecord:
    try:
        return play_game(name, bots, seed, max_decisions=decisions).record
    except UnfinishedGame as stopped:
        return stopped.record


def _hidden_from(record: GameRecord, seat: int, version: int) -> dict[str, Any]:
    """What `seat` could not see at `version`: the other hands, the bag or deck."""
    truth: Any = replay(record, upto=version)
    key = "bag" if record.game == "board" else "deck"
    others = [list(h) for s, h in enumerate(truth.hands) if s != seat]
    return {"pile": list(getattr(truth, key)), "others": others}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_snoop_finds_nothing_hidden_in_its_history(name: str) -> None:
    seed = game_seed(97)
    snoops = [Snoop(1), Snoop(2)]
    record = _play(name, list(snoops), seed, 400)
    start = game_definition(name).new_game(2, seed, record.options)
    for seat, snoop in enumerate(snoops):
        assert len(snoop.views) > 20
        for view in snoop.views:
            history: list[Any] = view[HISTORY_KEY]
            version = view["version"]
            # every action so far, in order, each by its mover
            assert len(history) == version
            truth = replayed(start, record.actions[:version]).seen_by(seat)
            assert history == truth
            state = start.copy()
            for i, entry in enumerate(history):
                mover = state.to_move()
                events = state.apply(record.actions[i])
                assert entry["seat"] == mover
                text = record.actions[i]
                assert entry["action"] == (text if mover == seat else state.public_text(text))
                seen = [e.to_json() for e in events if e.visible_to(seat)]
                assert entry["events"] == seen
                hidden = [e for e in events if not e.visible_to(seat)]
                assert all(e.to_json() not in entry["events"] for e in hidden)
            # the seed is nowhere, and no event is addressed to another seat
            assert seed not in _ints(history) and not any(n >= BIG for n in _ints(history))
            for entry in history:
                assert all(e.get("audience", seat) == seat for e in entry["events"])
        # it does see its own private events (its draws), so the filter is no blindfold,
        # and what it could not see was there to find: the other hand, the bag or deck
        middle: dict[str, Any] = snoop.views[len(snoop.views) // 2]
        assert any("audience" in e for entry in middle[HISTORY_KEY] for e in entry["events"])
        unseen = _hidden_from(record, seat, middle["version"])
        assert any(unseen["others"][0]) and unseen["pile"]


def _board_swap_twins() -> tuple[GameState[Any], GameState[Any], History, History]:
    """A board position where seat 1 may swap, and its twin with everything seat 0
    cannot see dealt anew; each with the history so far."""
    definition = game_definition("board")
    for seed in range(1, 60):
        state = definition.new_game(2, seed)
        rng = Rng(seed)
        history = History()
        for _ in range(30):
            if state.is_over():
                break
            history.play(state, str(state.random_action(rng)))
        d = state.decision()
        if d is None or d.seat != 1 or d.kind != "action":
            continue
        twin = state.copy()
        twin.redeal(0, Rng(seed + 1000))
        if twin.view(0) != state.view(0) or twin.view(1) == state.view(1):
            continue
        return state, twin, history, replayed(definition.new_game(2, seed), [])
    raise AssertionError("no board position with seat 1 to act")  # pragma: no cover


def test_twins_give_the_seat_the_same_history_board() -> None:
    state, twin, history, _ = _board_swap_twins()
    other = History()
    for entry_state, h in ((state, history), (twin, other)):
        swaps = [t for t in entry_state.legal_texts() if t.startswith("swap ") and len(t) == 7]
        assert swaps
        h.play(entry_state, swaps[-1], 1)
        if entry_state.to_move() == 1 and "pass" in entry_state.legal_texts():
            h.play(entry_state, "pass", 1)  # the refill: draws seat 0 does not see
    tail = len(other)
    mine, theirs = history.seen_by(0)[-tail:], other.seen_by(0)
    assert mine == theirs  # seat 0 saw the same: a swap of two, a draw of its count
    assert mine[0]["action"] == "swap 2"
    assert history.seen_by(1)[-tail:] != other.seen_by(1)  # seat 1 knows its tiles
    assert state.view(0) == twin.view(0)


def test_twins_give_the_seat_the_same_history_cards() -> None:
    """A face-down bridge (C-11): the other seats see a bridge in that gap, not its
    colour, until it is turned up."""
    definition = game_definition("cards")
    for seed in range(1, 200):
        state = definition.new_game(2, seed)
        rng = Rng(seed)
        for _ in range(rng.below(80)):
            if state.is_over():
                break
            state.apply(state.random_action(rng))
        d = state.decision()
        if d is None or d.seat != 1 or d.kind != "action":
            continue
        bridges = [t for t in state.legal_texts() if t[0] in "rbgk" and "-" in t]
        if not bridges:
            continue
        text = bridges[0]
        twin = state.copy()
        twin.redeal(0, Rng(seed))
        other = [t for t in twin.legal_texts() if t[1:] == text[1:] and t != text]
        if not other:
            continue
        a, b = History(), History()
        a.play(state, text, 1)
        b.play(twin, other[0], 1)
        seen_a, seen_b = a.seen_by(0), b.seen_by(0)
        if any(e["kind"] == "bridge_up" for e in seen_a[0]["events"] + seen_b[0]["events"]):
            continue  # no war: the bridge turned up at once, public in both
        assert seen_a == seen_b
        assert seen_a[0]["action"] == "bridge " + text[1:]
        assert a.seen_by(1)[0]["action"] == text and b.seen_by(1)[0]["action"] == other[0]
        return
    raise AssertionError("no card position with a bridge for seat 1")  # pragma: no cover


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_follower_keeps_up_and_starts_again_after_an_undo(name: str) -> None:
    definition = game_definition(name)
    start = definition.new_game(3, 5)
    state, rng, actions = start.copy(), Rng(5), []
    for _ in range(50):
        actions.append(str(state.random_action(rng)))
        state.apply(actions[-1])
    follower = Follower(start)
    assert follower.update(actions[:30]).seen_by(2) == replayed(start, actions[:30]).seen_by(2)
    assert follower.update(actions).seen_by(1) == replayed(start, actions).seen_by(1)
    assert follower.update(actions[:20]).seen_by(0) == replayed(start, actions[:20]).seen_by(0)
    assert start.version == 0  # the start is copied, never played on


def test_the_worker_refuses_a_history_that_is_not_a_list() -> None:
    state = game_definition("board").new_game(2, 3)
    seat = state.to_move()
    view = with_history(state.view(seat), History())
    assert view[HISTORY_KEY] == []
    ok = {"id": 1, "game": "board", "bot": "random", "seed": 1, "view": view}
    assert "action" in handle(json.dumps(ok).encode())
    bad = {**ok, "view": {**view, HISTORY_KEY: "rF4"}}
    assert "history" in handle(json.dumps(bad).encode())["error"]


BOOTSTRAP = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from euphrates.bots.worker import main, register_bot
from tests.bots.test_history import Reporter
register_bot("reporter", Reporter)
sys.exit(main(sys.argv[1:]))
"""


class Reporter(Bot):
    """In a worker: writes what it received, history included, for the test to read."""

    name = "reporter"
    reads_history = True

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        import os

        with open(os.environ["HISTORY_REPORT"], "a", encoding="utf-8") as f:
            f.write(json.dumps(view) + "\n")
        legal = view["legal"]
        return str(legal[self.rng.below(len(legal))])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_bot_in_its_worker_gets_its_seats_history(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "views.jsonl"
    monkeypatch.setenv("HISTORY_REPORT", str(report))
    seed = game_seed(31)
    reporter = RemoteBot("reporter", bot_seed(31, 0, 0), command=[sys.executable, "-c", BOOTSTRAP])
    with reporter, spawn_bot("random", bot_seed(31, 0, 1)) as other:
        record = _play(name, [reporter, other], seed, 60)
    views = [json.loads(line) for line in report.read_text().splitlines()]
    assert views
    start = game_definition(name).new_game(2, seed)
    for view in views:
        assert view[HISTORY_KEY] == replayed(start, record.actions[: view["version"]]).seen_by(0)
        assert seed not in _ints(view)
