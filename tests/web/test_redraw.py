"""Both tables draw once per animation frame: updates that arrive between two frames
(bots moving fast, a reconnect catching up) cost one drawing, of the latest version,
not one each.

The page's animation frames are held from its start (`requestAnimationFrame` queues
its callbacks until the test lets the frames due run), so that the updates surely
arrive within one frame.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.cards_helpers import act
from tests.web.conftest import Pages, Server

# Before the page's modules: count the updates each WebSocket hears and the drawings
# (each sets the body's data-version), and keep the animation frames until
# `nextFrame()` runs the ones due.
FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.updatesHeard = 0;
  window.WebSocket = class extends Native {
    /** @param {any[]} args */
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (JSON.parse(String(e.data)).type === "update") window.updatesHeard++;
      });
    }
  };
  window.paints = 0;
  new MutationObserver((records) => {
    window.paints += records.filter((r) => r.target === document.body).length;
  }).observe(document, { attributes: true, attributeFilter: ["data-version"], subtree: true });
  const due = new Map();
  let next = 1e9;
  window.requestAnimationFrame = (cb) => { due.set(++next, cb); return next; };
  window.cancelAnimationFrame = (id) => { due.delete(id); };
  window.framesDue = () => due.size;
  window.nextFrame = () => {
    const now = performance.now();
    const run = [...due.values()];
    due.clear();
    for (const cb of run) cb(now);
  };
})();
"""

GAMES = {
    # the game, what shows once its table is drawn, a placement by the active seat
    "board": ("svg.board", r"^[rbgk][A-P]\d{1,2}$"),
    "cards": ("svg.layout .card", r"^[rbgk][1-8]$"),
}


def active_seat(server: Server, game: Any) -> int:
    view = server.view(game["id"], game["seats"][0]["token"], 0)
    return int(view["turn"]["active"] if "turn" in view else view["active"])


def place(server: Server, game: Any, seat: int, pattern: str) -> None:
    legal = server.view(game["id"], game["seats"][seat]["token"], seat)["legal"]
    act(server, game, seat, next(a for a in legal if re.match(pattern, a)))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_updates_within_one_frame_draw_once(server: Server, pages: Pages, kind: str) -> None:
    ready, placement = GAMES[kind]
    game = server.create(2, game=kind)
    server.join(game, ["Ann", "Bob"])
    active = active_seat(server, game)
    token = game["seats"][1 - active]["token"]
    page = pages.open(f"{server.base}/g/{game['id']}#s={token}", init=FRAMES)
    # Frames run only when the test says so: until the table shows the game, then until
    # none is due.
    page.wait_for_function(
        "() => { window.nextFrame(); return document.body.dataset.version === '0'; }",
        polling=20,
        timeout=10000,
    )
    page.wait_for_selector(ready)
    page.evaluate(
        "() => { for (let i = 0; i < 10 && window.framesDue(); i++) window.nextFrame(); }"
    )
    # Apart: the drawings just made are counted after the script that made them.
    page.evaluate("() => { window.paints = 0; window.updatesHeard = 0; }")
    # The other player's two actions: two updates, while no frame runs.
    place(server, game, active, placement)
    place(server, game, active, placement)
    page.wait_for_function("() => window.updatesHeard >= 2", polling=20, timeout=10000)
    assert page.evaluate("() => [window.paints, window.framesDue()]") == [0, 1]
    page.evaluate("() => window.nextFrame()")
    drawn = page.evaluate("() => [window.paints, document.body.dataset.version]")
    assert drawn == [1, "2"]
