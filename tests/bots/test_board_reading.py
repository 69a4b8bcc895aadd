"""The board's reading of the table (bots.inference with bots.imagined_tiles): the other
hands imagined from every placement, commitment and swap the seat saw, its own from its
draws (G-3), and nothing else.

As in the card game, every imagined state shows the seat exactly its view, a reading is
a function of the view and the history, and a history that is not the view's game gives
none. The board's judgements (hint, review) do not read (inference.READABLE)."""

from __future__ import annotations

from typing import Any

import pytest

from euphrates.bots import GreedyBot, inference, judging
from euphrates.bots.imagined_tiles import TileHands
from euphrates.bots.levels import make_bot
from euphrates.bots.mcts import MctsBot
from euphrates.core.history import HISTORY_KEY, History, with_history, without_history
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from tests.bots.test_inference import _example, _without

BOARD = game_definition("board")
PARTICLES = 8


def _game(seed: int, stops: int, me: int = 0, after: int = 20) -> list[tuple[Any, Any]]:
    """A greedy duel from `seed`; at the first `stops` turns of `me` after the other
    player's (past `after` actions), the true state and `me`'s view with its history."""
    state, history = BOARD.new_game(2, seed), History()
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    out: list[tuple[Any, Any]] = []
    before = None
    while not state.is_over() and len(out) < stops:
        seat = state.to_move()
        view = state.view(seat)
        turn = seat == me and before not in (None, me) and state.decision().kind == "action"
        if turn and len(history) > after:
            out.append((state.copy(), with_history(view, history)))
        history.play(state, bots[seat].choose(BOARD, view))
        before = seat
    return out


def _unseen(state: Any, other: int) -> list[int]:
    """The tiles of each colour in the bag, the other hand and its swap discards."""
    return [
        state.bag.count(c) + state.hands[other][c] + state.discarded[other][c] for c in range(4)
    ]


def _fingerprint(reading: inference.Reading) -> list[Any]:
    return [
        (round(w, 12), s.hands, s.bag, s.discarded)
        for s, w in zip(reading.states, reading.weights, strict=True)
    ]


def test_every_imagined_state_shows_the_seat_its_own_view() -> None:
    inference._CACHE.clear()
    read = 0
    for seed, me in ((5101, 1), (5102, 0)):
        for truth, view in _game(seed, 3, me):
            reading = inference.read(BOARD, view, PARTICLES)
            assert reading is not None, f"game {seed}: no imagined game agrees with the view"
            assert 0 < len(reading.states) <= PARTICLES
            assert sum(reading.weights) == pytest.approx(1.0)
            for state in reading.states:
                assert _without(state.view(me)) == _without(truth.view(me))
                assert state.hands[me] == truth.hands[me]
                # the tiles the seat cannot see, as many of each colour as in truth
                assert _unseen(state, 1 - me) == _unseen(truth, 1 - me)
            world = reading.world(Rng(3))
            assert _without(world.view(me)) == _without(truth.view(me))
            read += 1
    assert read == 6


def test_a_reading_is_the_same_from_the_cache_and_from_the_deal() -> None:
    stops = _game(5103, 3)
    inference._CACHE.clear()
    for _, view in stops:
        cached = inference.read(BOARD, view, PARTICLES)
    inference._CACHE.clear()
    fresh = inference.read(BOARD, stops[-1][1], PARTICLES)
    assert cached is not None and fresh is not None
    assert _fingerprint(cached) == _fingerprint(fresh)


def test_a_history_that_is_not_the_views_gives_no_reading() -> None:
    inference._CACHE.clear()
    _, view = _game(5104, 1)[0]
    history = view[HISTORY_KEY]
    assert inference.read(BOARD, {**view, HISTORY_KEY: history[:-3]}, PARTICLES) is None
    mine = next(i for i, e in enumerate(history) if e["seat"] == view["viewer"])
    wrong = {**history[mine], "action": "pass"}
    forged = [*history[:mine], wrong, *history[mine + 1 :]]
    assert inference.read(BOARD, {**view, HISTORY_KEY: forged}, PARTICLES) is None
    assert inference.read(BOARD, without_history(view), PARTICLES) is None


def test_a_tile_played_is_a_tile_held() -> None:
    """A placement, a commitment or a swap the imagined hand cannot make is made
    possible from the bag (a colour for another), every count kept."""
    state = BOARD.new_game(2, 7)
    rng = Rng(1)
    state.hands[1] = [0, 6, 0, 0]
    total = [state.bag.count(c) + state.hands[1][c] for c in range(4)]
    TileHands.supply(state, 1, "rA1", rng)
    assert state.hands[1][0] == 1 and sum(state.hands[1]) == 6
    TileHands.supply(state, 1, "swap rrgk", rng)
    assert state.hands[1][0] >= 2 and state.hands[1][2] >= 1 and state.hands[1][3] >= 1
    assert sum(state.hands[1]) == 6
    assert [state.bag.count(c) + state.hands[1][c] for c in range(4)] == total
    # another seat's swap discards were never seen: a black tile it places, which
    # neither its imagined hand nor the bag holds, was not among them
    state.hands[1], state.discarded[1] = [3, 3, 0, 0], [0, 0, 0, 2]
    state.deal_unseen([c for c in state.bag if c != 3])
    before = [state.bag.count(c) + state.hands[1][c] + state.discarded[1][c] for c in range(4)]
    TileHands.supply(state, 1, "kA1", rng, theirs=True)
    assert state.hands[1][3] == 1 and state.discarded[1][3] == 1 and sum(state.hands[1]) == 6
    after = [state.bag.count(c) + state.hands[1][c] + state.discarded[1][c] for c in range(4)]
    assert after == before


def test_a_tile_the_seat_drew_was_in_the_bag() -> None:
    """The seat's own draw (``drew_tiles``, its to see) made the real one: where the
    imagined other hand holds the tiles it drew and the bag does not, they are taken from
    that hand for spare tiles of the bag, every count kept."""
    state = BOARD.new_game(2, 7)
    state.deal_unseen([0, 0, 1])
    state.hands[0], state.hands[1] = [2, 2, 2, 0], [0, 0, 3, 3]
    total = [state.bag.count(c) + state.hands[0][c] + state.hands[1][c] for c in range(4)]
    got = {"kind": "drew_tiles", "seat": 0, "tiles": ["red", "blue"]}
    real = {"kind": "drew_tiles", "seat": 0, "tiles": ["green", "black"]}
    assert TileHands.redraw(state, 0, got, real, Rng(5))
    assert state.hands[0] == [1, 1, 3, 1] and sum(state.hands[1]) == 6
    assert [state.bag.count(c) + state.hands[0][c] + state.hands[1][c] for c in range(4)] == total
    # a tile no hand and no bag holds was not drawn in this imagined game
    state.hands[1] = [2, 2, 2, 0]
    state.deal_unseen([0, 1, 2])
    real = {"kind": "drew_tiles", "seat": 0, "tiles": ["black", "black"]}
    assert not TileHands.redraw(state, 0, {"tiles": ["red", "blue"]}, real, Rng(5))


def test_the_tree_search_reads_when_its_spec_says() -> None:
    inference._CACHE.clear()
    _, view = _game(5105, 1)[0]
    bot = make_bot("mcts:40i:read", 3, "board")
    assert bot.reads_history and bot.describe() == "mcts:40i:read"
    choice = bot.choose(BOARD, view)
    assert choice in view["legal"] or view["legal"] == []
    assert 0 < getattr(bot, "last_reading", 0) <= inference.PARTICLES
    again = make_bot("mcts:40i:read", 3, "board").choose(BOARD, view)
    assert again == choice
    plain = make_bot("mcts:40i:read", 3, "board")
    plain.choose(BOARD, without_history(view))
    assert getattr(plain, "last_reading", 1) == 0
    # half the iterations' states from the reading, half dealt at random: the same
    # choice for the same seed
    halves = [MctsBot(3, iterations=40, reads=True, read_share=0.5) for _ in range(2)]
    assert halves[0].choose(BOARD, view) == halves[1].choose(BOARD, view)
    assert halves[0].last_reading > 0


def test_the_boards_judgements_deal_at_random_whatever_the_view_holds() -> None:
    """The board's hint and review do not read (READABLE): its worlds are the same with
    the history beside the view and without it."""
    _, view = _game(5106, 1)[0]
    read: list[Any] = judging.worlds("board", view, 5, 4)
    plain: list[Any] = judging.worlds("board", without_history(view), 5, 4)
    assert [w.hands for w in read] == [w.hands for w in plain]


def test_the_error_measure_reads_the_board() -> None:
    """examples/reading_error.py --game board, on one game: both guesses scored."""
    summary = _example(
        "examples/reading_error.py",
        *("--game", "board", "--games", "1", "--every", "8", "--particles", "4"),
    )
    assert summary["game"] == "board" and summary["readings"] >= 1
    assert summary["reading"]["no_reading"] == 0
    for guess in ("uniform", "reading"):
        assert 0 <= summary[guess]["l1"] <= 12
