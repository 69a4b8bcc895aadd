"""Invariants checked after every action of random games (RULINGS.md, notes for tests)."""

from __future__ import annotations

import json
from typing import Any

from euphrates.board.geometry import FULL, NEIGHBOURS, expand
from euphrates.board.kingdoms import kingdoms_of
from euphrates.board.monuments import block_mask
from euphrates.board.phases import ACTION, MONUMENT, TILE_COUNTS, TREASURE
from euphrates.board.position import from_position, to_position
from euphrates.board.state import BoardState
from euphrates.board.views import sample_from_view
from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.protocol import Event
from euphrates.core.rng import Rng


def check_conservation(st: BoardState) -> None:
    """Assert all 153 tiles and the catastrophes and treasures are accounted for."""
    total = [0, 0, 0, 0]
    for c in range(4):
        total[c] += st.tiles[c].bit_count() + st.removed[c] + st.bag.count(c)
        total[c] += sum(h[c] for h in st.hands) + sum(d[c] for d in st.discarded)
    blocks = 0
    for _, tl, c in st.monuments:
        total[c] += 4
        blocks |= block_mask(tl)
    assert tuple(total) == TILE_COUNTS, (total, TILE_COUNTS)
    assert st.flipped == blocks
    assert not (st.catas & st.occupied) and st.catas & ~FULL == 0
    catas_used = st.catas.bit_count()
    assert catas_used + sum(st.catas_left) == 2 * st.players
    assert st.treasures.bit_count() + sum(st.held) == st.map.temples.bit_count()
    assert all(sum(hand) <= 6 for hand in st.hands)


def check_state(st: BoardState) -> None:
    # All 153 tiles, the catastrophes and the treasures are accounted for (B-1).
    check_conservation(st)
    # The incrementally kept kingdoms equal a fresh computation.
    fresh = kingdoms_of(st.occupied, st.leader_bits)
    assert sorted(st.kingdoms()) == sorted(fresh)
    assert st.kingdom_neighbourhoods() == [expand(k) for k in st.kingdoms()]
    # No kingdom holds two leaders of one colour while no conflict is pending.
    if st.phase in (ACTION, MONUMENT, TREASURE) or st.is_over():
        for k in fresh:
            for colour in range(4):
                assert len(st.leaders_in(k, colour)) <= 1, f"two {COLOUR_NAMES[colour]} leaders"
    # Every leader on the board touches a temple (B-8, B-10).
    for row in st.leader_sq:
        for sq in row:
            if sq >= 0:
                assert NEIGHBOURS[sq] & st.tiles[0], "a leader without a temple"
    # Legal actions: the count, the list and the random choice agree.
    if not st.is_over():
        acts = st.legal_actions()
        assert st.legal_action_count() == len(acts)
        assert len(set(acts)) == len(acts)
        assert acts, "a pending decision with no legal action"


def check_points(st: BoardState, events: list[Event], tally: list[list[int]]) -> None:
    """Every player's points equal the sum of their scoring events."""
    for e in events:
        if e.kind == "scored":
            tally[e.data["seat"]][COLOUR_NAMES.index(e.data["colour"])] += e.data["points"]
    assert tally == st.points


def check_views(st: BoardState, rng: Rng, sample: bool = True) -> None:
    """No view holds anything B-33/G-3 hides, and a state sampled from a view shows
    that seat the same view."""
    for seat in [*range(st.players), None]:
        view = st.view(seat)
        text = json.dumps(view)
        assert "seed" not in view
        assert view["bag"] == {"count": len(st.bag)}
        for s, entry in enumerate(view["seats"]):
            if s != seat:
                assert entry["hand"] == {"count": sum(st.hands[s])}
                assert entry["discarded"] == {"count": sum(st.discarded[s])}
                if not st.open_scores and not st.is_over():
                    assert "points" not in entry
        if seat is not None and sample:
            resampled = sample_from_view(view, rng)
            assert resampled.view(seat) == view
        assert json.loads(text) == view


def check_events(events: list[Event], st: BoardState) -> None:
    """Private events go to one seat only; public ones name no hidden tile."""
    for e in events:
        if e.kind in ("drew_tiles", "discarded"):
            assert e.audience == e.data["seat"]
        else:
            assert e.audience is None
            assert "tiles" not in e.data


def check_round_trip(st: BoardState) -> None:
    doc = to_position(st)
    again = from_position(json.loads(json.dumps(doc)))
    assert to_position(again) == doc


def play_checked(st: BoardState, rng: Rng, full: bool = True) -> list[str]:
    """Play `st` to the end with random actions, checking everything after each."""
    tally = [[0, 0, 0, 0] for _ in range(st.players)]
    texts: list[str] = []
    check_state(st)
    while not st.is_over():
        action = st.random_action(rng)
        assert action in st.legal_actions()
        texts.append(str(action))
        events = st.apply(action)
        check_state(st)
        check_points(st, events, tally)
        check_events(events, st)
        if full:
            check_round_trip(st)
            check_views(st, rng)
    return texts


def summary(st: BoardState) -> dict[str, Any]:
    return to_position(st)
