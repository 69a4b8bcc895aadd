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


@pytest.mark.parametrize(
    "chunk", [c if c < 2 else pytest.param(c, marks=pytest.mark.soak) for c in range(10)]
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_games_finish(players: int, chunk: int) -> None:
    """3,000 seeded complete random games (1,000 per player count) in chunks of a
    hundred: two chunks a player count here (600 games), the other eight with --soak."""
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
