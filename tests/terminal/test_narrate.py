"""Events in words (match/narrate.py): every event kind of both engines has words, and a
seat's narration never depends on another seat's private events (G-3, C-11, C-19)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from euphrates.core.protocol import Event
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.narrate import FALLBACK_PREFIX, NARRATORS, describe, narrate

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _random_games(game: str, games: int):  # type: ignore[no-untyped-def]
    """(players, events of one action) for every action of `games` random games."""
    definition = game_definition(game)
    for g in range(games):
        players = 2 + g % 3
        state = definition.new_game(players, 1000 + g, None)
        rng = Rng(g)
        while not state.is_over():
            yield players, state.apply(state.random_action(rng))


def test_the_board_events_documented_are_the_ones_with_words() -> None:
    text = (DOCS / "board.md").read_text(encoding="utf-8")
    listed = text.split("Kinds:", 1)[1].split(".", 1)[0]
    kinds = set(re.findall(r"[a-z_]+", listed))
    assert kinds == set(NARRATORS["board"])


@pytest.mark.parametrize(("game", "limit"), [("board", 80), ("cards", 150)])
def test_every_event_of_many_random_games_is_told_in_words(game: str, limit: int) -> None:
    seen: set[str] = set()
    games = 0
    for players, events in _random_games(game, limit):
        for event in events:
            seen.add(event.kind)
            for viewer in [None, *range(players)]:
                text = describe(game, event, viewer)
                if text is None:
                    assert not event.visible_to(viewer)
                    continue
                assert text and not text.startswith(FALLBACK_PREFIX), (event, text)
                assert "{" not in text and "None" not in text, (event, text)
        if seen == set(NARRATORS[game]):
            games += 1
            if games > 3:
                break
    assert seen == set(NARRATORS[game]), f"never produced: {set(NARRATORS[game]) - seen}"


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_seat_is_told_nothing_from_another_seats_private_events(game: str) -> None:
    private_seen = 0
    for players, events in _random_games(game, 6):
        for viewer in [None, *range(players)]:
            told = narrate(game, events, viewer)
            public = [e for e in events if e.audience is None or e.audience == viewer]
            assert told == narrate(game, public, viewer)
            for e in events:
                if e.audience is not None and e.audience != viewer:
                    private_seen += 1
                    assert describe(game, e, viewer) is None
    assert private_seen > 100


def test_a_swap_is_told_as_a_count_and_the_own_discards_in_colours() -> None:
    events = [
        Event("swapped", {"seat": 1, "count": 3}),
        Event("discarded", {"seat": 1, "tiles": ["red", "red", "blue"]}, 1),
    ]
    assert narrate("board", events, 0) == ["seat 1 swapped 3 tiles"]
    assert narrate("board", events, 1) == ["you discarded 2 red and 1 blue tiles"]
    assert narrate("board", events, None) == ["seat 1 swapped 3 tiles"]


def test_a_face_down_bridge_is_told_without_its_colour_until_turned_up() -> None:
    events = [
        Event("bridge", {"seat": 1, "gap": "3-4"}),
        Event("bridge_colour", {"gap": "3-4", "card": "g"}, 1),
        Event("war", {"attacker": 1, "defender": 0, "colour": "k", "strength": [2, 1]}),
    ]
    assert narrate("cards", events, 0) == [
        "seat 1 laid a face-down bridge between columns 3 and 4",
        "black war: seat 1 attacks you; black cards on their sides 2 against 1",
    ]
    assert "green" in narrate("cards", events, 1)[0]
    up = Event("bridge_up", {"gap": "3-4", "card": "g"})
    assert (
        describe("cards", up, 0) == "the bridge between columns 3 and 4 was turned face up: green"
    )


def test_conflicts_points_and_the_end_are_told_with_sides_strengths_and_winners() -> None:
    revolt = Event(
        "revolt",
        {
            "leader": "priest",
            "attacker": 1,
            "defender": 0,
            "attacker_square": "O2",
            "defender_square": "P3",
            "attacker_strength": 1,
            "defender_strength": 2,
        },
    )
    assert describe("board", revolt, 0) == (
        "revolt: seat 1's priest on O2 against your priest on P3; temples beside them 1 against 2"
    )
    resolved = Event(
        "conflict_resolved",
        {
            "conflict": "revolt",
            "colour": "red",
            "attacker_total": 3,
            "defender_total": 3,
            "winner": 0,
            "loser": 1,
        },
    )
    assert describe("board", resolved, 0) == (
        "you won the revolt of the priests against seat 1, 3 to 3 (a tie goes to the defender)"
    )
    scored = Event("scored", {"seat": 2, "colour": "green", "points": 4, "reason": "war"})
    assert describe("board", scored, 0) == "seat 2 scored 4 green for the war"
    point = Event("point", {"seat": 1, "card": "t", "reason": "exchange"})
    assert describe("cards", point, 0) == "seat 1 scored a treasure card for a treasure exchange"
    over = Event("game_over", {"reason": "deck", "places": [2, 1]})
    assert describe("cards", over, 0) == (
        "the game is over: seat 1 won; the deck could not refill every hand (C-17)"
    )


def test_an_unknown_event_is_shown_by_its_public_data_not_lost() -> None:
    text = describe("board", Event("comet", {"square": "A1"}), 0)
    assert text == f"{FALLBACK_PREFIX}comet: square A1"
    assert describe("board", Event("comet", {}, 1), 0) is None
