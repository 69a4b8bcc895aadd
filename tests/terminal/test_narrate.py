"""Events in words (euphrates.words), in English and German: every event kind of both
engines has words, and a seat's narration never depends on another seat's private
events (G-3, C-11, C-19)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.words import KINDS, LANGS, Voice, book, describe, tell

DOCS = Path(__file__).resolve().parents[2] / "docs"
# Told with others or not at all, never alone: the turn and points (`tell` has them),
# the public count of a draw its own seat reads in tiles, a refill in which no one drew.
ELSEWHERE = {"turn_started", "scored", "turn", "point", "drew", "refill"}

Events = list[Mapping[str, Any]]


def _random_games(game: str, games: int) -> Iterator[tuple[int, Events]]:
    """(players, events of one action as JSON) for every action of `games` random games."""
    definition = game_definition(game)
    for g in range(games):
        players = 2 + g % 3
        state = definition.new_game(players, 1000 + g, None)
        rng = Rng(g)
        while not state.is_over():
            yield players, [e.to_json() for e in state.apply(state.random_action(rng))]


def _voice(lang: str, viewer: int | None) -> Voice:
    return Voice(book(lang), viewer)


def test_the_board_events_documented_are_the_ones_with_words() -> None:
    text = (DOCS / "board.md").read_text(encoding="utf-8")
    listed = text.split("Kinds:", 1)[1].split(".", 1)[0]
    kinds = set(re.findall(r"[a-z_]+", listed))
    assert kinds == KINDS["board"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "limit"), [("board", 80), ("cards", 150)])
def test_every_event_of_many_random_games_is_told_in_words(
    game: str, limit: int, lang: str
) -> None:
    seen: set[str] = set()
    games = 0
    voices = {viewer: _voice(lang, viewer) for viewer in [None, 0, 1, 2, 3]}
    for players, events in _random_games(game, limit):
        for event in events:
            kind = event["kind"]
            seen.add(kind)
            for viewer in [None, *range(players)]:
                text = describe(game, event, voices[viewer])
                if text is None:
                    private = event.get("audience") not in (None, viewer)
                    assert private or kind in ELSEWHERE, (event, viewer)
                    continue
                assert text and text != kind, (event, text)
                for word in ("{", "None", "null", "undefined", f"{kind}."):
                    assert word not in text, (event, text)
            for viewer in range(players):
                told = tell(game, events, voices[viewer])
                assert all(told.scores) and all(told.lines)
        if seen == KINDS[game]:
            games += 1
            if games > 3:
                break
    assert seen == KINDS[game], f"never produced: {KINDS[game] - seen}"
    # Whatever was said to a seat about itself had its words for "you" in the book.
    assert set().union(*(v.missing for v in voices.values())) == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_seat_is_told_nothing_from_another_seats_private_events(game: str, lang: str) -> None:
    private_seen = 0
    for players, events in _random_games(game, 6):
        for viewer in [None, *range(players)]:
            v = _voice(lang, viewer)
            public = [e for e in events if e.get("audience") in (None, viewer)]
            assert tell(game, events, v) == tell(game, public, v)
            for e in events:
                if e.get("audience") not in (None, viewer):
                    private_seen += 1
                    assert describe(game, e, v) is None
    assert private_seen > 100


SWAP = [
    {"kind": "swapped", "seat": 1, "count": 3},
    {"kind": "discarded", "seat": 1, "tiles": ["red", "red", "blue"], "audience": 1},
]


def test_a_swap_is_told_as_a_count_and_the_own_discards_as_tiles() -> None:
    assert tell("board", SWAP, _voice("en", 0)).lines == ["seat 1 swaps 3 tiles"]
    assert tell("board", SWAP, _voice("en", None)).lines == ["seat 1 swaps 3 tiles"]
    assert tell("board", SWAP, _voice("en", 1)).lines == [
        "you swap 3 tiles",
        "discarded: 2 temples, 1 farm",
    ]
    assert tell("board", SWAP, _voice("de", 0)).lines == ["Platz 1 tauscht 3 Plättchen"]
    assert tell("board", SWAP, _voice("de", 1)).lines == [
        "Du tauschst 3 Plättchen",
        "abgelegt: 2 Tempel, 1 Landwirtschaft",
    ]


BRIDGE = [
    {"kind": "bridge", "seat": 1, "gap": "3-4"},
    {"kind": "bridge_colour", "gap": "3-4", "card": "g", "audience": 1},
    {"kind": "war", "attacker": 1, "defender": 0, "colour": "k", "strength": [2, 1]},
]


def test_a_face_down_bridge_is_told_without_its_colour_until_turned_up() -> None:
    assert tell("cards", BRIDGE, _voice("en", 0)).lines == [
        "seat 1 lays a face-down bridge between 3 and 4",
        "War of the kings: seat 1 attacks you, 2 against 1 in the layout",
    ]
    assert tell("cards", BRIDGE, _voice("de", 1)).lines == [
        "Du legst eine verdeckte Brücke zwischen 3 und 4",
        "(deine Brücke: eine grüne Karte (Markt))",
        "Krieg der Könige: du greifst Platz 0 an, 2 gegen 1 in der Auslage",
    ]
    up = {"kind": "bridge_up", "gap": "3-4", "card": "g"}
    assert describe("cards", up, _voice("en", 0)) == (
        "The bridge between 3 and 4 is turned up: a green card (market)"
    )


def test_conflicts_points_and_the_end_are_told_with_sides_strengths_and_winners() -> None:
    revolt = {
        "kind": "revolt",
        "leader": "priest",
        "attacker": 1,
        "defender": 0,
        "attacker_square": "O2",
        "defender_square": "P3",
        "attacker_strength": 1,
        "defender_strength": 2,
    }
    resolved = {
        "kind": "conflict_resolved",
        "conflict": "revolt",
        "colour": "red",
        "attacker_total": 3,
        "defender_total": 3,
        "winner": 0,
        "loser": 1,
    }
    scored = {"kind": "scored", "seat": 0, "colour": "red", "points": 1, "reason": "revolt"}
    turn = {"kind": "turn_started", "seat": 1}
    step = [revolt, resolved, scored, turn]
    en = tell("board", step, _voice("en", 0))
    assert en.lines == [
        "Revolt (priest): seat 1 attacks you, 1 against 2 on the board",
        "you win, 3 against 3",
    ]
    assert (en.scores, en.turn) == (["+1 red for you"], "seat 1's turn")
    de = tell("board", step, _voice("de", 1))
    assert de.lines == [
        "Revolte (Priester): du greifst Platz 0 an, 1 gegen 2 auf dem Spielplan",
        "Platz 0 gewinnt, 3 gegen 3",
    ]
    assert (de.scores, de.turn) == (["+1 rot für Platz 0"], "Du bist am Zug")
    points = [
        {"kind": "point", "seat": 1, "card": "t", "reason": "exchange"},
        {"kind": "point", "seat": 1, "card": "t", "reason": "exchange"},
        {"kind": "point", "seat": 0, "card": "r", "reason": "column"},
    ]
    assert tell("cards", points, _voice("en", 0)).scores == [
        "+2 treasure card for seat 1",
        "+1 red for you",
    ]
    over = {"kind": "game_over", "reason": "deck", "places": [2, 1]}
    assert describe("cards", over, _voice("de", 0)) == (
        "Der Nachziehstapel reicht nicht mehr für alle Hände: das Spiel endet (C-17)"
    )


def test_an_unknown_event_is_shown_by_its_kind_not_lost() -> None:
    assert describe("board", {"kind": "comet", "square": "A1"}, _voice("en", 0)) == "comet"
    assert describe("board", {"kind": "comet", "audience": 1}, _voice("en", 0)) is None
    with pytest.raises(ValueError, match="board or cards"):
        describe("chess", {"kind": "check"}, _voice("en", 0))
