"""What each game's definition tells a host in place of its name: what a lobby offers
(`describe`), how options are read, the keys of its own words, the ruling of its
scoring, the words of its statistics, and the view a search evaluates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from euphrates.board.game import read_options as board_options
from euphrates.cards.game import read_options as cards_options
from euphrates.core.errors import ArgumentError, EuphratesError
from euphrates.core.protocol import GameDefinition
from euphrates.core.rng import Rng
from euphrates.games import GAMES, game_definition
from euphrates.match.stats import COUNTS
from euphrates.words import LANGS, book

WORDS = Path(__file__).resolve().parent.parent / "src" / "euphrates" / "web" / "words"
DEFINITIONS = sorted(GAMES)
DECISION_FIELDS = ("version", "decision", "legal")


@pytest.fixture(params=DEFINITIONS)
def definition(request: pytest.FixtureRequest) -> GameDefinition[Any]:
    return game_definition(request.param)


def test_describe_is_what_a_lobby_offers(definition: GameDefinition[Any]) -> None:
    described = definition.describe()
    assert json.loads(json.dumps(described)) == described
    assert set(described) == {"title", "options", "players", "seats"}
    assert described["title"] == definition.title
    assert described["options"] == dict(definition.options)
    assert list(described["options"]) == list(definition.options)
    assert described["players"] == list(definition.players)
    assert described["seats"] in ("dynasty", "number")
    # The options described are exactly those a new game takes, with those defaults.
    assert definition.read_options(None) == described["options"]


def test_describe_gives_each_game_its_own() -> None:
    assert game_definition("board").describe() == {
        "title": "Tigris & Euphrates",
        "options": {"advanced": False, "open_scores": False},
        "players": [2, 3, 4],
        "seats": "dynasty",
    }
    assert game_definition("cards").describe() == {
        "title": "Contest of Kings",
        "options": {"open_piles": False},
        "players": [2, 3, 4],
        "seats": "number",
    }


def test_describe_hands_out_copies(definition: GameDefinition[Any]) -> None:
    described = definition.describe()
    described["options"].clear()
    described["players"].append(9)
    assert definition.describe()["options"] == dict(definition.options)
    assert 9 not in definition.describe()["players"]


def test_read_options_is_the_engines_reader() -> None:
    board, cards = game_definition("board"), game_definition("cards")
    assert board.read_options({"advanced": True}) == board_options({"advanced": True})
    assert cards.read_options({"open_piles": True}) == cards_options({"open_piles": True})
    with pytest.raises(ArgumentError, match="unknown"):
        board.read_options({"open_piles": True})
    with pytest.raises(ArgumentError, match="true or false"):
        cards.read_options({"open_piles": "no"})


@pytest.mark.parametrize("lang", LANGS)
def test_the_words_named_are_in_the_book(definition: GameDefinition[Any], lang: str) -> None:
    words = book(lang)
    prefix = definition.words_prefix
    for key in ("score.wild", "note.pass", "note.commit"):
        assert f"{prefix}{key}" in words, f"{prefix}{key}"
    for figure, key in definition.stats_words.items():
        assert figure in COUNTS and key in words, (figure, key)


def test_the_prefixes_tell_the_games_apart() -> None:
    prefixes = [game_definition(name).words_prefix for name in DEFINITIONS]
    assert len(set(prefixes)) == len(prefixes)
    built = {game_definition(name).stats_words["monuments"] for name in DEFINITIONS}
    assert built == {"stats.monuments", "stats.ships"}


def test_the_scoring_ruling_is_in_the_games_rules(definition: GameDefinition[Any]) -> None:
    rules = json.loads((WORDS / "en" / f"rules-{definition.name}.json").read_text(encoding="utf-8"))
    cited = {
        block["rule"]
        for section in rules["sections"]
        for block in section["blocks"]
        if "rule" in block
    }
    assert definition.scoring_ruling in cited
    assert (
        definition.scoring_ruling
        != game_definition(next(n for n in DEFINITIONS if n != definition.name)).scoring_ruling
    )


def test_search_view_is_the_view_without_its_decision(definition: GameDefinition[Any]) -> None:
    """The view a search evaluates is the seat's view less what only the seat to move
    needs (the legal actions above all), at the start, along a game and at its end."""
    state = definition.new_game(3, 11)
    rng = Rng(5)
    checked = 0
    while True:
        if state.version % 17 == 0 or state.is_over():
            for seat in range(state.players):
                full = state.view(seat)
                bare = definition.search_view(state, seat)
                assert "legal" not in bare and "decision" not in bare
                assert set(full) - set(bare) <= set(DECISION_FIELDS)
                assert bare == {k: full[k] for k in bare}
                checked += 1
        if state.is_over() or state.version > 400:
            break
        state.apply(state.random_action(rng))
    assert checked > 3


def test_search_view_refuses_the_other_games_state() -> None:
    board, cards = game_definition("board"), game_definition("cards")
    with pytest.raises(EuphratesError, match="not a"):
        board.search_view(cards.new_game(2, 1), 0)
    with pytest.raises(EuphratesError, match="not a"):
        cards.search_view(board.new_game(2, 1), 0)
