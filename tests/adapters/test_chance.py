"""Draws as explicit chance nodes (adapters/chance.py), without any framework.

The model must deal as a shuffled bag deals: every chance node's probabilities are the
unseen tiles by count, a hand comes out with the frequencies of a random hand, the
dealt state is one the engine accepts, and the fixed order of the bag never shows.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from euphrates.adapters.chance import CHANCE, TERMINAL, Deal
from euphrates.board import BOARD
from euphrates.board.phases import TILE_COUNTS
from euphrates.board.state import BoardState
from euphrates.cards import CARDS
from euphrates.cards.layout import CARD_TOTALS
from euphrates.cards.state import CardsState
from euphrates.core.errors import ArgumentError, IllegalActionError
from euphrates.core.scoring import final_outcome


def _step(deal: Deal, rng: random.Random) -> None:
    """One chance outcome drawn by its probability, or a uniform legal action."""
    if deal.current() == CHANCE:
        outcomes = deal.chance_outcomes()
        numbers = [n for n, _ in outcomes]
        assert len(set(numbers)) == len(numbers)
        assert all(0 < p <= 1 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        deal.apply(rng.choices(numbers, [p for _, p in outcomes])[0])
    else:
        deal.apply(rng.choice(deal.legal_ids()))


def _deal(game: str, players: int, seed: int, options: dict[str, bool] | None = None) -> Deal:
    deal = Deal.start(game, players, options or {}, 100_000)
    rng = random.Random(seed)
    while deal.stage != 2:
        _step(deal, rng)
    return deal


def _unseen(engine: BoardState) -> list[int]:
    """The colours of the tiles no seat has seen, counted from the material: what is
    not on the board (face up or under a monument), in a hand, discarded, or out of
    the game in public (B-1)."""
    seen = [0, 0, 0, 0]
    for c in range(4):
        seen[c] += engine.tiles[c].bit_count() + engine.removed[c]
        for s in range(engine.players):
            seen[c] += engine.hands[s][c] + engine.discarded[s][c]
    for _monument, _square, colour in engine.monuments:
        seen[colour] += 4
    return [TILE_COUNTS[c] - seen[c] for c in range(4)]


def test_chance_outcomes_are_the_unseen_tiles_by_count() -> None:
    """At every chance node of a board game, the next tile is any unseen tile with
    equal chance, less the tiles already fixed for the coming draws."""
    deal = _deal("board", 3, 1)
    rng = random.Random(2)
    checked = 0
    while deal.current() != TERMINAL:
        if deal.current() == CHANCE:
            engine = deal.engine
            assert isinstance(engine, BoardState)
            unseen = _unseen(engine)
            for c in engine.bag[len(engine.bag) - deal.fixed :]:
                unseen[c] -= 1
            total = sum(unseen)
            expected = {c: n / total for c, n in enumerate(unseen) if n}
            assert dict(deal.chance_outcomes()) == pytest.approx(expected)
            checked += 1
        _step(deal, rng)
    assert checked > 50


def test_a_dealt_hand_has_the_frequencies_of_a_shuffled_bag() -> None:
    """Over many deals, seat 0's red tiles average 6 * 47/143 (the 10 temples on the map
    are not in the bag, B-1) and every seat starts as often: a biased model fails."""
    reds = 0
    firsts = [0, 0]
    n = 1500
    for seed in range(n):
        deal = _deal("board", 2, seed)
        reds += deal.engine.hands[0][0]  # type: ignore[attr-defined]
        firsts[deal.first] += 1
    mean = reds / n
    assert mean == pytest.approx(6 * 47 / 143, abs=0.15)
    assert abs(firsts[0] - n / 2) < 5 * (n / 4) ** 0.5


@pytest.mark.parametrize(
    ("game", "players"), [("board", 2), ("board", 4), ("cards", 2), ("cards", 3)]
)
def test_the_deal_is_a_state_the_engine_accepts(game: str, players: int) -> None:
    deal = _deal(game, players, players)
    definition: Any = BOARD if game == "board" else CARDS
    engine = deal.engine
    again = definition.from_position(definition.to_position(engine))
    assert definition.to_position(again) == definition.to_position(engine)
    hand = 6 if game == "board" else 8
    assert all(sum(h) == hand for h in engine.hands)  # type: ignore[attr-defined]
    assert deal.fixed == players * hand
    assert engine.to_move() == deal.first
    if game == "cards":
        assert isinstance(engine, CardsState)
        assert len(engine.removed) == (30 if players == 2 else 0)
        assert len(engine.deck) == sum(CARD_TOTALS) - players * 8 - len(engine.removed)


@pytest.mark.parametrize(
    ("game", "players"), [("board", 2), ("board", 4), ("cards", 2), ("cards", 4)]
)
def test_whole_games_end_and_replay_from_their_numbers(game: str, players: int) -> None:
    deal = Deal.start(game, players, {}, 100_000)
    rng = random.Random(players)
    snapshots: list[Any] = []
    while deal.current() != TERMINAL:
        _step(deal, rng)
        if len(snapshots) < 5 and rng.random() < 0.01:
            snapshots.append((deal.copy(), str(deal)))
    assert deal.engine.is_over()
    assert sum(deal.returns()) == pytest.approx(0.0)
    copy = pickle.loads(pickle.dumps(deal))
    assert str(copy) == str(deal)
    for snapshot, text in snapshots:  # copies went their own way untouched
        assert str(snapshot) == text


def test_a_game_cut_off_at_max_moves_is_scored_as_it_stands() -> None:
    deal = Deal.start("board", 3, {}, 40)
    rng = random.Random(5)
    while deal.current() != TERMINAL:
        _step(deal, rng)
    assert deal.moves == 40 and deal.truncated and not deal.engine.is_over()
    engine: Any = deal.engine
    places = final_outcome(engine.points, engine.held).places
    assert deal.places() == places
    assert sum(deal.returns()) == pytest.approx(0.0)
    with pytest.raises(ArgumentError, match="over"):
        deal.apply(0)


def test_a_wrong_number_changes_nothing() -> None:
    deal = Deal.start("cards", 2, {}, 1000)
    with pytest.raises(ArgumentError, match="seat"):
        deal.apply(2)  # the first player of two
    deal = _deal("cards", 2, 3)
    rng = random.Random(4)
    while deal.current() != CHANCE:
        _step(deal, rng)
    before = str(deal)
    with pytest.raises(ArgumentError):
        deal.apply(7)
    assert str(deal) == before
    while deal.current() == CHANCE:
        _step(deal, rng)
    before = str(deal)
    legal = set(deal.legal_ids())
    illegal = next(n for n in range(487) if n not in legal)
    with pytest.raises(IllegalActionError):
        deal.apply(illegal)
    assert str(deal) == before
    with pytest.raises(ArgumentError):
        deal.apply(487)
    assert str(deal) == before


def test_resampling_keeps_the_seat_s_view_and_changes_what_it_cannot_see() -> None:
    deal = _deal("board", 3, 9)
    rng = random.Random(10)
    changed = 0
    for _ in range(60):
        while deal.current() < 0:
            _step(deal, rng)
        for seat in range(3):
            twin = deal.resample(seat, rng.getrandbits(64))
            assert twin.view(seat) == deal.view(seat)
            changed += str(twin) != str(deal)
        _step(deal, rng)
    assert changed > 150


def test_numbers_and_seats_are_read_exactly() -> None:
    """A chance outcome or action number is an integer (numpy's too), not True or 2.7
    read as 1 or 2; a resample is for a seat of the game, not one past the end (which
    would deal anew every hand and pass for a seat's sample)."""
    deal = Deal.start("board", 3, {}, 1000)
    before = str(deal)
    for bad in (True, 2.7, "1", None):
        with pytest.raises(ArgumentError):
            deal.apply(bad)
    assert str(deal) == before
    deal = _deal("board", 3, 12)
    for seat in (3, -1, True, None):
        with pytest.raises(ArgumentError):
            deal.resample(seat, 1)


def test_a_resampled_game_replays_as_itself() -> None:
    """A resample is part of the record: written down and read back, a resampled game is
    the resampled one, not the game it was sampled from."""
    deal = _deal("cards", 2, 13)
    rng = random.Random(14)
    for _ in range(30):
        _step(deal, rng)
    twin = deal.resample(1, 99)
    assert str(twin) != str(deal)
    for _ in range(30):
        _step(twin, rng)
    copy = pickle.loads(pickle.dumps(twin))
    assert str(copy) == str(twin)
