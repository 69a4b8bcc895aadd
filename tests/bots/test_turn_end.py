"""The end of turn is credited to every action that leaves the turn open, not to a pass
alone (`bots.greedy.turn_end`).

`monument_stall.json` is a board duel between two greedy bots (self-play seed 28, game
22) that never ended before: both players' monuments scored at the end of every turn
(B-17), one ply credited those points to a pass and not to a tile, so both passed for
ever with 29 tiles in the bag (no tile drawn, no end, B-19).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from euphrates.board import BOARD
from euphrates.bots.evaluation import evaluator_for
from euphrates.bots.greedy import GreedyBot, judge, turn_end
from euphrates.cards import CARDS
from euphrates.core.protocol import GameState

STALL = Path(__file__).with_name("data") / "monument_stall.json"


def _stall() -> GameState[Any]:
    return BOARD.from_position(json.loads(STALL.read_text(encoding="utf-8")))


def _best(state: GameState[Any], seat: int, end: float) -> str:
    evaluator = evaluator_for("board")
    judged = [(judge(state, a, seat, evaluator, end), str(a)) for a in state.legal_actions()]
    return max(judged, key=lambda t: (t[0], t[1] == "pass"))[1]


def test_without_the_turns_end_both_players_pass_with_it_both_place_a_tile() -> None:
    state = _stall()
    evaluator = evaluator_for("board")
    for _ in range(2):
        decision = state.decision()
        assert decision is not None and decision.kind == "action"
        seat = decision.seat
        assert _best(state, seat, 0.0) == "pass"  # one ply as it was: the stall
        end = turn_end(state, seat, evaluator)
        assert end > 0.0  # the monuments' points
        assert _best(state, seat, end) != "pass"
        state.apply("pass")  # the next seat, in the same stall


def test_greedy_bots_play_on_from_the_stall_and_tiles_are_drawn() -> None:
    state = _stall()
    bag = state.view(None)["bag"]["count"]
    bots = [GreedyBot(1), GreedyBot(2)]
    for _ in range(12):
        decision = state.decision()
        assert decision is not None
        seat = decision.seat
        state.apply(bots[seat].choose(BOARD, state.view(seat)), seat=seat)
    assert state.view(None)["bag"]["count"] < bag


def test_the_turns_end_is_credited_only_at_the_movers_action_on_the_board() -> None:
    state = _stall()
    decision = state.decision()
    assert decision is not None
    evaluator = evaluator_for("board")
    assert turn_end(state, 1 - decision.seat, evaluator) == 0.0
    end = turn_end(state, decision.seat, evaluator)
    for action in state.legal_actions()[:20]:
        plain = judge(state, action, decision.seat, evaluator)
        credited = judge(state, action, decision.seat, evaluator, end)
        # Credited once, and only where the turn is still open after the action.
        assert credited == plain or math.isclose(credited, plain + end)


def test_the_card_game_credits_no_turn_end() -> None:
    """Measured in the card game, crediting the turn's end cost the rollout search games
    against the greedy bot and no stall was seen there (docs/bots.md): not used."""
    state = CARDS.new_game(2, 5)
    decision = state.decision()
    assert decision is not None and decision.kind == "action"
    assert turn_end(state, decision.seat, evaluator_for("cards")) == 0.0
