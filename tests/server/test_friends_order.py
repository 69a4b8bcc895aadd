"""What a lobby is told is never overwritten by an older read (its friends panel, its
quick match). A lobby's greeting
reads its panel while a burst's refresh may read it too; on a slow database the
greeting's read, begun before a follow was written, can finish after the refresh's,
begun after it. Sent last, it took the followed player off the panel until the next
change or the safety net, half a minute later."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from euphrates.server.features.friends.friends import Panel
from euphrates.server.features.friends.live import FriendsLive
from euphrates.server.features.quickmatch.quickmatch import send
from euphrates.server.features.tables.lobby import Watcher, read_number


class Pushed:
    def __init__(self) -> None:
        self.pushed: list[str] = []

    def push(self, text: str) -> None:
        self.pushed.append(text)


class SlowFirstRead:
    """The first read waits until let go and returns the panel as it was then (no one
    followed); every later read returns at once with the follow."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.reads = 0
        self.let_go = asyncio.Event()
        self.first_reading = asyncio.Event()

    async def panels(self, ids: list[int]) -> dict[int, Panel]:
        self.reads += 1
        if self.reads == 1:
            self.first_reading.set()
            await self.let_go.wait()
            return {i: Panel({"players": []}, set(), set()) for i in ids}
        return {i: Panel({"players": [{"name": "Ann"}]}, {2}, set()) for i in ids}


def test_a_panel_read_before_the_one_sent_is_dropped() -> None:
    async def run() -> None:
        friends = SlowFirstRead()
        lobby = SimpleNamespace(greeters=[], watching=set())
        live = FriendsLive(
            friends,  # type: ignore[arg-type]
            lobby,  # type: ignore[arg-type]
            SimpleNamespace(watchers=[]),  # type: ignore[arg-type]
            SimpleNamespace(observers=[]),  # type: ignore[arg-type]
        )
        conn = Pushed()
        w = Watcher(conn, SimpleNamespace(id=1))  # type: ignore[arg-type]
        lobby.watching.add(w)
        greeting = asyncio.create_task(live.tell([w]))
        await friends.first_reading.wait()
        await live.tell([w])  # the refresh after the follow: read and sent first
        friends.let_go.set()
        await greeting
        assert len(conn.pushed) == 1, conn.pushed
        assert '"Ann"' in conn.pushed[0]
        assert live.shown[w] == ({2}, set())

    asyncio.run(run())


def test_a_quick_match_state_read_before_the_one_sent_is_dropped() -> None:
    conn = Pushed()
    w = Watcher(conn, SimpleNamespace(id=1))  # type: ignore[arg-type]
    greeting, refresh = read_number(), read_number()
    send(w, {"waiting": True}, refresh)  # read after the player joined, sent first
    send(w, {"waiting": False}, greeting)  # read before, finished after
    assert conn.pushed == ['{"type":"quickmatch","quickmatch":{"waiting":true}}']
    send(w, {"waiting": False}, read_number())  # a later read is sent
    assert len(conn.pushed) == 2
