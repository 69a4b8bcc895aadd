"""The audience of one game on its own: what a client joining, leaving, coming back
or being evicted is sent, with the room it watches built in memory (no server)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from euphrates.core import Rng
from euphrates.games import game_definition
from euphrates.server.game.audience import RECONNECT_GRACE
from euphrates.server.game.patch import apply_patch
from euphrates.server.game.room import Room
from euphrates.server.store.rows import ChatRow, GameRow, LogRow, SeatRow


class Fake:
    """A client that keeps what it is sent."""

    def __init__(self, *seats: int) -> None:
        self.seats = frozenset(seats)
        self.sent: list[dict[str, Any]] = []
        self.closed: tuple[str, str] | None = None

    def push(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close_soon(self, code: str, message: str) -> None:
        self.closed = (code, message)


def _room(game: str = "board", players: int = 2, seed: int = 9) -> Room:
    seats = [SeatRow(s, "human", taken=True) for s in range(players)]
    row = GameRow("g", game, players, {}, seed, "active", "h", seats)
    definition = game_definition(game)
    store: Any = None  # entries applied from the log never touch the store
    return Room(row, definition, definition.new_game(players, seed, {}), store, replay_buffer=8)


def _advance(room: Room, rng: Rng, times: int = 1) -> None:
    """Versions as another server appends them: applied and published."""
    for _ in range(times):
        seat = room.state.to_move()
        text = str(room.state.random_action(rng))
        room._apply_entry(LogRow(room.version + 1, seat, "action", text))


def test_a_joining_client_gets_its_welcome_then_each_version_as_a_patch() -> None:
    room, rng = _room(), Rng(1)
    _advance(room, rng, 3)
    client = Fake(0)
    chat = [ChatRow(1, 0, "Ann", "hi", "2026-01-01T00:00:00+00:00")]
    room.audience.join(client, chat=chat)
    (welcome,) = client.sent
    assert welcome["type"] == "welcome" and welcome["version"] == 3
    assert welcome["you"] == {"seats": [0], "host": False}
    assert [h["version"] for h in welcome["history"]] == [1, 2, 3]
    assert welcome["chat"][0]["text"] == "hi"
    view = welcome["views"]["0"]
    _advance(room, rng, 5)
    updates = client.sent[1:]
    assert [u["version"] for u in updates] == [4, 5, 6, 7, 8]
    for u in updates:
        view = apply_patch(view, u["views"]["0"]["patch"])
    assert view == room.view_for(0)


def test_the_snapshot_is_what_a_welcome_holds() -> None:
    room, rng = _room("cards", 3), Rng(2)
    _advance(room, rng, 4)
    client = Fake(1, 2)
    room.audience.join(client, host=True, history=False)
    welcome = client.sent[0]
    snapshot = room.audience.snapshot(frozenset({1, 2}), True)
    # The same but for the seats' `connected`: the welcome is built just before it joins.
    assert {k: welcome[k] for k in snapshot if k != "game"} == {
        k: v for k, v in snapshot.items() if k != "game"
    }
    assert set(snapshot["views"]) == {"1", "2"} and snapshot["you"]["host"] is True
    assert "history" not in welcome
    log = room.audience.snapshot(frozenset({1}), views=False, history=True)
    assert "views" not in log and len(log["history"]) == 4


def test_a_client_back_within_the_grace_gets_what_it_missed_and_later_full_views() -> None:
    room, rng = _room("cards"), Rng(3)
    _advance(room, rng, 20)
    first = Fake(1)
    room.audience.join(first)
    _advance(room, rng, 2)
    assert room.audience.leave(first) and not room.audience.leave(first)
    _advance(room, rng, 1)
    back = Fake(1)
    room.audience.join(back, since=22)  # one patch is shorter than the full view here
    assert back.sent[0]["resumed_from"] == 22 and "views" not in back.sent[0]
    assert [u["version"] for u in back.sent[1:]] == [23]
    patch = back.sent[1]["views"]["1"]["patch"]
    assert apply_patch(_view_at(first, 22), patch) == room.view_for(1)
    assert room.audience.leave(back)
    room.audience.forget_views(now=time.monotonic() + RECONNECT_GRACE + 1)
    _advance(room, rng, 1)
    late = Fake(1)
    room.audience.join(late, since=23)  # its patches are gone: full views
    assert "resumed_from" not in late.sent[0] and late.sent[0]["views"]["1"] == room.view_for(1)


def _view_at(client: Fake, version: int) -> dict[str, Any]:
    """The client's view of its seat at `version`, from its welcome and updates."""
    view: dict[str, Any] = client.sent[0]["views"]["1"]
    for m in client.sent[1:]:
        if m["version"] <= version:
            view = apply_patch(view, m["views"]["1"]["patch"])
    return view


def test_an_evicted_client_loses_the_seat_and_is_closed_and_others_stay() -> None:
    room = _room("board", 3)
    both, other, spectator = Fake(0, 1), Fake(2), Fake()
    for c in (both, other, spectator):
        room.audience.join(c)
    room.audience.evict("seat_replaced", "seat 1 is a bot now", seat=1)
    assert both.closed == ("seat_replaced", "seat 1 is a bot now") and both.seats == {0}
    assert other.closed is None and spectator.closed is None
    assert room.audience.count == 2 and not room.audience.leave(both)
    assert [s["connected"] for s in room.audience.meta()["seats"]] == [False, False, True]
    room.audience.evict("expired", "gone")
    assert other.closed == spectator.closed == ("expired", "gone")
    assert room.audience.count == 0


@pytest.mark.parametrize("game", ["board", "cards"])
def test_every_client_is_sent_only_its_own_audiences(game: str) -> None:
    room, rng = _room(game), Rng(4)
    clients = [Fake(0), Fake(1), Fake()]
    for c in clients:
        room.audience.join(c)
    _advance(room, rng, 6)
    for c, keys in zip(clients, (["0"], ["1"], ["spectator"]), strict=True):
        assert all(list(m["views"]) == keys for m in c.sent)
        for m in c.sent[1:]:
            seen = {e.get("audience") for e in m["events"]} - {None}
            assert seen <= set(c.seats)
