"""The board's tree search: how wide its root is in a duel and at four players."""

from __future__ import annotations

from typing import Any

import pytest

from euphrates.bots import GreedyBot, MctsBot
from euphrates.bots.mcts import DUEL_SETTINGS
from euphrates.games import game_definition


def _positions(count: int, players: int) -> list[tuple[Any, int]]:
    """Decisions of a greedy game on the board, every few moves."""
    g = game_definition("board")
    s = g.new_game(players, 11, None)
    bots = [GreedyBot(1 + seat) for seat in range(players)]
    found: list[tuple[Any, int]] = []
    for step in range(400):
        d = s.decision()
        if d is None or len(found) == count:
            break
        if step % 7 == 3 and d.kind == "action":
            found.append((s.copy(), d.seat))
        s.apply(bots[d.seat].choose(g, s.view(d.seat)), seat=d.seat)
    return found


@pytest.mark.parametrize(("players", "width"), [(2, 16), (4, 8)])
def test_the_root_holds_the_greedy_bots_best_actions(players: int, width: int) -> None:
    """A duel's root takes the greedy bot's sixteen best actions (measured there); four
    players keep the eight they were measured with."""
    g = game_definition("board")
    for state, seat in _positions(4, players):
        view = state.view(seat)
        bot = MctsBot(3, iterations=60)
        action = bot.choose(g, view)
        root = bot.last_root
        assert root is not None and root.ranked is not None
        assert len(root.ranked) == min(width, len(view["legal"]))
        assert action in {str(a) for a in root.ranked}


def test_the_duel_width_reaches_beyond_the_greedy_bots_eight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Somewhere the duel's search plays an action the eight-wide root never saw."""
    g = game_definition("board")
    beyond = 0
    for state, seat in _positions(12, 2):
        view = state.view(seat)
        bot = MctsBot(3, iterations=300)
        action = bot.choose(g, view)
        root = bot.last_root
        assert root is not None and root.ranked is not None
        beyond += action not in {str(a) for a in root.ranked[:8]}
    monkeypatch.setitem(DUEL_SETTINGS, "board", {})
    for state, seat in _positions(3, 2):
        bot = MctsBot(3, iterations=60)
        bot.choose(g, state.view(seat))
        assert bot.last_root is not None and len(bot.last_root.ranked or ()) == 8
    assert beyond >= 1
