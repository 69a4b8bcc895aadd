"""Random games: invariants at every step, legal-action counts, hidden information.

Random play chooses uniformly among all legal actions (the bench's player), so it
reaches every decision kind; the invariants below are those RULINGS.md asks for.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from euphrates.cards import CARDS, CardsState
from euphrates.cards.actions import (
    CARD_ACTIONS,
    CATASTROPHES,
    COMMITS,
    DECLINE,
    EXCHANGE_NONE,
    EXCHANGES,
    LEADER_ACTIONS,
    PASS,
    POINT_NONE,
    POINTS,
    SHIP_ACTIONS,
    WARS,
    CardsAction,
)
from euphrates.cards.layout import kingdoms, spot_column
from euphrates.cards.position import census, from_position, to_position
from euphrates.core.errors import IllegalActionError
from euphrates.core.protocol import Event
from euphrates.core.rng import Rng
from euphrates.match.records import GameRecord, replay

from .helpers import LETTERS

EVERY_ACTION: list[CardsAction] = [
    *(a for table in LEADER_ACTIONS for a in table.values()),
    *(a for table in CARD_ACTIONS for a in table.values()),
    *CATASTROPHES.values(),
    *COMMITS[:12],
    *WARS,
    *POINTS,
    POINT_NONE,
    *EXCHANGES,
    EXCHANGE_NONE,
    *SHIP_ACTIONS.values(),
    PASS,
    DECLINE,
]


def steps(
    players: int, seed: int, limit: int = 100_000
) -> Iterator[tuple[CardsState, CardsAction]]:
    """Yield (state before, action) along a random game; the state is then advanced."""
    s = CARDS.new_game(players, seed)
    rng = Rng(seed * 7919 + players)
    n = 0
    while not s.is_over() and n < limit:
        a = s.random_action(rng)
        yield s, a
        s.apply(a)
        n += 1


def no_double_leaders(s: CardsState) -> None:
    for lo, hi in kingdoms(s.gaps):
        colours = [lid & 3 for lid, p in enumerate(s.lpos) if p >= 0 and lo <= spot_column(p) <= hi]
        assert len(colours) == len(set(colours)), (lo, hi, colours)


def play_checked(players: int, seed: int, every: int = 1) -> CardsState:
    s = CARDS.new_game(players, seed)
    rng = Rng(seed * 7919 + players)
    scored: list[str] = [""] * players
    i = 0
    while not s.is_over():
        if i % every == 0:
            assert census(s) == ([65, 40, 40, 40], 8)
            assert s.legal_action_count() == len(s.legal_actions())
        a = s.random_action(rng)
        events = s.apply(a)
        for e in events:
            if e.kind == "point":
                scored[e.data["seat"]] += e.data["card"]
        if s.kind == 0:  # no conflict pending between actions
            no_double_leaders(s)
        i += 1
    assert census(s) == ([65, 40, 40, 40], 8)
    piles = ["".join("t" if c == 4 else LETTERS[c] for c in p) for p in s.piles]
    assert piles == scored  # every card in a pile is a scoring event, in order
    assert s.outcome() is not None
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    play_checked(players, seed, every=3)


@pytest.mark.parametrize("chunk", range(10))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_games_finish(players: int, chunk: int) -> None:
    """3,000 seeded complete random games (1,000 per player count), in chunks so that
    parallel test workers share them."""
    rng = Rng(players * 10 + chunk)
    for seed in range(100 + 100 * chunk, 200 + 100 * chunk):
        s = CARDS.new_game(players, seed)
        while not s.is_over():
            s.legal_action_count()
            s.apply(s.random_action(rng))
        assert s.outcome() is not None


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_random_games(players: int) -> None:
    for seed in range(1000, 1300):
        play_checked(players, seed, every=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_action_is_legal_and_counts_match(players: int) -> None:
    for k, (s, a) in enumerate(steps(players, 42)):
        legal = s.legal_actions()
        assert s.legal_action_count() == len(legal)
        assert len(set(legal)) == len(legal)
        assert a in legal
        if k > 1500:
            break


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_illegal_action_is_refused_and_changes_nothing(players: int) -> None:
    """Each action not listed as legal raises IllegalActionError naming a ruling and leaves
    the position unchanged; each listed one applies (so the list is exact); `is_legal`
    agrees with the list, also after a re-deal of the hidden cards."""
    for k, (s, _) in enumerate(steps(players, 5)):
        if k % 25:
            continue
        legal = set(s.legal_actions())
        before = to_position(s)
        assert [a for a in EVERY_ACTION if s.is_legal(a)] == [a for a in EVERY_ACTION if a in legal]
        redealt = s.copy()
        redealt.is_legal(EVERY_ACTION[0])  # the legal set is now kept for this version
        redealt.redeal(None, Rng(k))  # every hand may change, so the legal set may too
        again = set(redealt.legal_actions())
        assert all(redealt.is_legal(a) == (a in again) for a in EVERY_ACTION)
        for a in EVERY_ACTION:
            if a in legal:
                s.copy().apply(a)
                continue
            with pytest.raises(IllegalActionError) as e:
                s.apply(a)
            assert e.value.ruling
        assert to_position(s) == before
        if k > 900:
            break


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_round_trip_and_replay_reproduces_the_state(players: int) -> None:
    s = CARDS.new_game(players, 9)
    rng = Rng(3)
    texts: list[str] = []
    for _ in range(400):
        if s.is_over():
            break
        a = s.random_action(rng)
        assert s.parse_action(str(a)) == a
        texts.append(str(a))
        s.apply(str(a))
        assert from_position(to_position(s)) == s
    assert replay(GameRecord("cards", players, 9, {}, actions=texts)) == s
    assert CARDS.from_position(CARDS.to_position(s.copy())) == s


def _private(e: Event) -> bool:
    return e.audience is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_events_hide_what_c19_hides(players: int) -> None:
    s = CARDS.new_game(players, 13)
    rng = Rng(13)
    n = 0
    while not s.is_over() and n < 1500:
        a = s.random_action(rng)
        events = s.apply(a)
        for e in events:
            if e.kind in ("draw", "bridge_colour"):
                assert _private(e)  # cards drawn and a face-down colour: one seat only
            else:
                assert not _private(e)
                assert "cards" not in e.data and "deck_order" not in e.data
        if n % 5 == 0:
            for seat in [*range(players), None]:
                v = s.view(seat)
                assert "deck" not in v and "hands" not in v and "removed" not in v
                assert "rng" not in v
                assert v["hand"] == (None if seat is None else s.view(seat)["hand"])
                if s.down >= 0 and seat != s.active:
                    assert v["layout"]["bridges"][s.down] == "?"
                # sampling rebuilds a state with this very view
                t = CARDS.sample_from_view(v, Rng(n))
                assert t.view(seat) == v
                if seat is not None:
                    assert t.hands[seat] == s.hands[seat]
        n += 1


def test_sampling_shuffles_what_is_unseen() -> None:
    s = CARDS.new_game(4, 21)
    v = s.view(0)
    samples = [CARDS.sample_from_view(v, Rng(i)) for i in range(5)]
    assert len({tuple(t.deck) for t in samples}) == 5
    assert all(t.hands[0] == s.hands[0] for t in samples)
    assert all(sum(t.hands[1]) == 8 for t in samples)


GOLDEN = {
    (2, 1): [
        65,
        61,
        49,
        46,
        67,
        63,
        55,
        52,
        64,
        61,
        58,
        53,
        60,
        56,
        1,
        53,
        48,
        43,
        48,
        45,
        49,
        61,
        61,
        61,
        61,
        67,
        66,
        1,
        65,
        65,
        71,
        71,
        65,
        1,
        61,
        76,
        65,
        65,
        65,
        2,
        77,
        81,
        65,
        61,
        2,
        81,
        2,
        85,
        77,
        77,
        1,
        3,
        89,
        89,
        2,
        1,
        85,
        1,
        1,
        1,
    ],
    (2, 2): [
        65,
        62,
        75,
        71,
        76,
        69,
        76,
        76,
        65,
        61,
        67,
        64,
        65,
        61,
        72,
        67,
        61,
        61,
        73,
        78,
        1,
        69,
        69,
        1,
        4,
        2,
        80,
        85,
        77,
        2,
        81,
        85,
        73,
        5,
        2,
        73,
        73,
        73,
        77,
        77,
        77,
        2,
        81,
        81,
        89,
        89,
        81,
        81,
        89,
        85,
        77,
        4,
        2,
        2,
        77,
        73,
        73,
        73,
        77,
        73,
    ],
    (2, 3): [
        57,
        62,
        66,
        71,
        68,
        65,
        76,
        71,
        1,
        60,
        65,
        68,
        2,
        73,
        74,
        79,
        78,
        83,
        96,
        97,
        89,
        85,
        93,
        93,
        80,
        75,
        73,
        69,
        69,
        2,
        73,
        85,
        81,
        85,
        85,
        93,
        3,
        4,
        89,
        97,
        97,
        93,
        97,
        101,
        101,
        93,
        93,
        101,
        101,
        97,
        2,
        101,
        109,
        117,
        3,
        4,
        2,
        112,
        112,
        121,
    ],
    (3, 1): [
        65,
        61,
        49,
        46,
        67,
        63,
        63,
        63,
        43,
        39,
        50,
        46,
        1,
        51,
        51,
        40,
        2,
        45,
        57,
        52,
        2,
        57,
        56,
        45,
        2,
        50,
        61,
        60,
        60,
        4,
        2,
        2,
        66,
        63,
        68,
        75,
        70,
        67,
        66,
        66,
        71,
        71,
        72,
        77,
        76,
        72,
        71,
        76,
        65,
        71,
        72,
        71,
        71,
        61,
        61,
        72,
        72,
        1,
        80,
        85,
    ],
    (3, 2): [
        65,
        62,
        75,
        71,
        76,
        69,
        68,
        65,
        78,
        73,
        81,
        85,
        88,
        84,
        71,
        71,
        77,
        2,
        73,
        92,
        69,
        5,
        2,
        69,
        81,
        77,
        1,
        80,
        1,
        77,
        65,
        61,
        77,
        77,
        3,
        2,
        69,
        69,
        65,
        65,
        85,
        81,
        3,
        5,
        81,
        2,
        5,
        77,
        73,
        5,
        2,
        73,
        4,
        3,
        77,
        77,
        81,
        2,
        77,
        77,
    ],
    (3, 3): [
        57,
        62,
        66,
        71,
        76,
        73,
        68,
        73,
        86,
        77,
        69,
        4,
        3,
        74,
        79,
        78,
        85,
        81,
        79,
        5,
        3,
        70,
        73,
        74,
        81,
        77,
        82,
        83,
        71,
        76,
        73,
        2,
        3,
        77,
        2,
        90,
        89,
        76,
        71,
        77,
        2,
        81,
        85,
        85,
        99,
        99,
        89,
        85,
        97,
        101,
        119,
        2,
        128,
        109,
        2,
        2,
        109,
        2,
        107,
        105,
    ],
    (4, 1): [
        65,
        61,
        49,
        46,
        67,
        63,
        47,
        43,
        54,
        59,
        51,
        56,
        69,
        64,
        45,
        49,
        69,
        66,
        79,
        75,
        80,
        79,
        53,
        57,
        71,
        70,
        73,
        2,
        78,
        77,
        77,
        73,
        73,
        76,
        84,
        83,
        2,
        81,
        81,
        73,
        77,
        80,
        88,
        83,
        77,
        73,
        65,
        69,
        71,
        72,
        79,
        80,
        73,
        2,
        77,
        77,
        77,
        76,
        77,
        85,
    ],
    (4, 2): [
        65,
        62,
        75,
        71,
        76,
        69,
        68,
        73,
        70,
        66,
        79,
        69,
        81,
        77,
        71,
        66,
        71,
        68,
        73,
        1,
        69,
        77,
        81,
        87,
        82,
        82,
        2,
        79,
        1,
        4,
        81,
        77,
        73,
        2,
        1,
        65,
        82,
        87,
        74,
        73,
        69,
        73,
        1,
        69,
        65,
        82,
        82,
        79,
        74,
        85,
        81,
        65,
        65,
        89,
        90,
        82,
        82,
        81,
        2,
        85,
    ],
    (4, 3): [
        57,
        62,
        66,
        71,
        76,
        73,
        68,
        73,
        78,
        74,
        77,
        73,
        70,
        65,
        5,
        5,
        73,
        70,
        83,
        84,
        89,
        2,
        86,
        81,
        82,
        95,
        90,
        86,
        73,
        69,
        65,
        78,
        65,
        80,
        75,
        69,
        69,
        61,
        1,
        57,
        65,
        65,
        79,
        84,
        2,
        81,
        3,
        5,
        81,
        2,
        77,
        84,
        1,
        88,
        83,
        104,
        109,
        2,
        5,
        109,
    ],
}


@pytest.mark.parametrize(("players", "seed"), sorted(GOLDEN))
def test_golden_legal_action_counts(players: int, seed: int) -> None:
    """Like perft: the number of legal actions at each of the first 60 decisions."""
    s = CARDS.new_game(players, seed)
    rng = Rng(1000 + seed)
    counts = []
    for _ in range(60):
        counts.append(s.legal_action_count())
        s.apply(s.random_action(rng))
    assert counts == GOLDEN[(players, seed)]
