"""What the search's reward and its handling of small decisions promise."""

from __future__ import annotations

import math
from typing import Any

from euphrates.bots import GreedyBot, MctsBot
from euphrates.bots.cards_eval import remaining
from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.bots.greedy import best_answer
from euphrates.cards.actions import PayPoint
from euphrates.cards.state import CardsState
from euphrates.core.actions import Commit, Decline
from euphrates.core.protocol import Outcome
from euphrates.games import game_definition


class _Stub:
    """Just enough of a state for `Evaluator.rewards`: two players, a fixed result."""

    players = 2

    def __init__(self, result: Outcome | None = None) -> None:
        self.result = result

    def outcome(self) -> Outcome | None:
        return self.result


def _evaluator(lead: float, left: float | None) -> Evaluator:
    return Evaluator(
        scores=lambda state, viewer: [lead, 0.0],
        prior=lambda state, action, seat: 0.0,
        remaining=None if left is None else (lambda state: left),
    )


def _reward(lead: float, left: float | None, by_progress: bool = True) -> float:
    state: Any = _Stub()
    return _evaluator(lead, left).rewards(state, 0, 4.0, by_progress)[0]


def test_a_lead_counts_for_more_as_the_game_nears_its_end() -> None:
    early, late = _reward(3.0, 0.9), _reward(3.0, 0.05)
    assert 0.5 < early < late < 1.0
    assert _reward(-3.0, 0.05) < _reward(-3.0, 0.9) < 0.5
    assert _reward(0.0, 0.05) == 0.5


def test_a_finished_game_rewards_its_result() -> None:
    won = Outcome(((3, 3, 3, 3), (1, 1, 1, 1)), ((0,) * 4,) * 2, ((3,) * 4, (1,) * 4), (1, 2))
    state: Any = _Stub(won)
    rewards = _evaluator(2.0, 0.5).rewards(state, 0, 4.0, True)
    assert rewards[0] > 0.8 > 0.2 > rewards[1]
    # A player far behind before the end is rewarded more than after losing: the search
    # cannot gain by putting off an end it cannot change.
    assert _reward(-2.0, 0.02) > rewards[1]


def test_without_progress_the_reward_is_the_margins_logistic() -> None:
    # The board game's setting: the reward it was measured with.
    for left in (None, 0.1):
        assert math.isclose(_reward(2.0, left, by_progress=False), 1 / (1 + math.exp(-0.5)))


def test_card_game_progress_runs_from_one_to_zero_with_the_deck_and_the_treasures() -> None:
    s = game_definition("cards").new_game(2, 3, None)
    assert isinstance(s, CardsState)
    assert remaining(s) == 1.0
    half = s.copy()
    del half.deck[: len(half.deck) // 2]
    assert 0.45 < remaining(half) < 0.55
    empty = s.copy()
    empty.deck = []
    assert remaining(empty) == 0.0
    one_treasure = s.copy()
    one_treasure.orig = [True] + [False] * 7
    assert remaining(one_treasure) == 0.0
    assert evaluator_for("cards").remaining is remaining
    assert evaluator_for("board").remaining is None


def _first(kind: str, players: int = 2) -> CardsState:
    """A greedy game's first pending decision of `kind` whose answers include a payment."""
    g = game_definition("cards")
    for seed in range(20):
        s = g.new_game(players, seed, None)
        bots = [GreedyBot(seed + i) for i in range(players)]
        for _ in range(600):
            d = s.decision()
            if d is None:
                break
            if d.kind == kind and len(s.legal_actions()) > 1:
                assert isinstance(s, CardsState)
                return s
            s.apply(bots[d.seat].choose(g, s.view(d.seat)), seat=d.seat)
    raise AssertionError(f"no {kind} decision found")


def test_the_best_answer_to_a_point_is_to_pay_it() -> None:
    s = _first("point")
    answer = best_answer(s, evaluator_for("cards"))
    assert isinstance(answer, PayPoint) and answer.colour >= 0


def _answers_below_root(node: Any, depth: int = 0) -> list[Any]:
    found = []
    for action, child in node.children.items():
        if depth and isinstance(action, PayPoint | Commit | Decline):
            found.append(action)
        found.extend(_answers_below_root(child, depth + 1))
    return found


def test_card_search_answers_small_decisions_below_the_root_without_branching() -> None:
    s = _first("action")
    g = game_definition("cards")
    seat = s.to_move()
    assert seat is not None
    bot = MctsBot(5, iterations=150)
    bot.choose(g, s.view(seat))
    root = bot.last_root
    assert root is not None and any(child.children for child in root.children.values())
    assert _answers_below_root(root) == []
