"""Hostile input: malformed or impossible notation, positions, views and API arguments are
refused with the project's own error naming what is wrong (and the ruling where one
applies): never a raw traceback, never a hang, never an impossible state accepted."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.board import BOARD
from euphrates.board.actions import (
    BuildMonument,
    ChooseWar,
    Commit,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    WithdrawLeader,
    parse_action,
)
from euphrates.board.geometry import parse_square
from euphrates.board.position import from_position, to_position
from euphrates.core.errors import (
    ArgumentError,
    GameOverError,
    InvalidActionError,
    RecordError,
)
from euphrates.core.rng import Rng
from tests.board.pending import PENDING
from tests.board.scenario import scenario

Doc = dict[str, Any]


# ---------------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    [
        "commit ²",
        "commit ٣",
        "commit ３",
        "treasure B²",
        "rF⁴",
        "xH٣",
        "KG٥",
        "monument rb F³",
        "rı5",  # 'ı'.upper() is 'I'
        "Kı5",
        "commit " + "9" * 5000,
        "rF" + "4" * 5000,
        "treasure B" + "1" * 4300,
        "commit 1000",
        "rF0",
        "rF12",
        "rF007",
        "x" * 10_000,
        "",
        "   ",
    ],
)
def test_bad_numbers_and_non_ascii_notation_are_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)
    game = BOARD.new_game(2, 1)
    before = to_position(game)
    with pytest.raises(InvalidActionError):
        game.apply(text)
    assert to_position(game) == before


@pytest.mark.parametrize("text", ["F٣", "F²", "ı5", "F" + "1" * 5000, "F-1", "F 4", "Q1", 7])
def test_parse_square_reads_ascii_squares_only(text: Any) -> None:
    with pytest.raises(InvalidActionError):
        parse_square(text)


@pytest.mark.parametrize("value", [None, 7, b"rF4", ["rF4"]])
def test_parse_action_refuses_what_is_not_text(value: Any) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(value)


@pytest.mark.parametrize(
    "action",
    [
        PlaceTile(True, 40),
        PlaceTile(7, 40),
        PlaceTile(0, 176),
        PlaceTile(0, -1),
        PlaceTile(1.0, 40),  # type: ignore[arg-type]
        PlaceLeader(3, 10**9),
        WithdrawLeader(-1),
        PlaceCatastrophe(2**70),
        Swap((0.5, 0, 0, 0)),  # type: ignore[arg-type]
        Swap((1, 0, 0)),  # type: ignore[arg-type]
        Swap((-1, 0, 0, 2)),
        Commit(-1),
        Commit(True),
        ChooseWar(9),
        BuildMonument(6, 0),
        TakeTreasure("B2"),  # type: ignore[arg-type]
        b"rF4 ",
        42,
        None,
        object.__new__(PlaceTile),  # fields never set
        object.__new__(Swap),
    ],
)
def test_action_objects_with_bad_fields_are_invalid(action: Any) -> None:
    """Objects built by hand are checked before any rule reads them (and before an error
    message formats them), by `apply` and `is_legal` alike (`Swap((0.5, 0, 0, 0))` was
    legal, `PlaceTile(0, -1)` a ValueError); the state is unchanged."""
    game = BOARD.new_game(3, 4)
    before = to_position(game)
    with pytest.raises(InvalidActionError):
        game.apply(action)
    with pytest.raises(InvalidActionError):
        game.is_legal(action)
    assert to_position(game) == before


# ---------------------------------------------------------------------- API arguments
@pytest.mark.parametrize("seat", [True, False, 1.0, "0", 7, -1, [0], 2**64])
def test_view_refuses_a_seat_that_is_not_a_seat_number(seat: Any) -> None:
    game = BOARD.new_game(3, 2)
    with pytest.raises(ArgumentError) as err:
        game.view(seat)
    assert "seat" in str(err.value)
    with pytest.raises(ArgumentError):
        BOARD.render(game, seat)


def test_view_true_is_not_seat_one() -> None:
    game = BOARD.new_game(2, 2)
    assert game.view(1)["seats"][1]["hand"] != {"count": 6}
    with pytest.raises(ArgumentError):
        game.view(True)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"seed": "abc"}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": None}, "seed"),
        ({"seed": 2**64 + 5}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"options": ["advanced"]}, "options"),
        ({"options": "advanced"}, "options"),
        ({"options": {"advanced": "no"}}, "advanced"),
        ({"options": {"advanced": 1}}, "advanced"),
        ({"options": {"colour": True}}, "colour"),
        ({"players": 3.0}, "players"),
        ({"players": True}, "players"),
        ({"players": 5}, "players"),
        ({"players": "3"}, "players"),
    ],
)
def test_new_game_refuses_bad_arguments(kwargs: dict[str, Any], name: str) -> None:
    args: dict[str, Any] = {"players": 3, "seed": 1, "options": None} | kwargs
    with pytest.raises(ArgumentError) as err:
        BOARD.new_game(args["players"], args["seed"], args["options"])
    assert name in str(err.value)


def test_the_game_definition_refuses_what_is_not_its_own() -> None:
    from euphrates.cards import CARDS

    card_state = CARDS.new_game(2, 1)
    for call in (
        lambda: BOARD.to_position(card_state),  # type: ignore[arg-type]
        lambda: BOARD.render(card_state, 0),  # type: ignore[arg-type]
        lambda: BOARD.sample_from_view(BOARD.new_game(2, 1).view(0), 7),  # type: ignore[arg-type]
    ):
        with pytest.raises(ArgumentError):
            call()


def test_apply_refuses_seat_and_version_of_the_wrong_type() -> None:
    game = BOARD.new_game(2, 8)
    action = game.legal_actions()[0]
    for kwargs in ({"seat": True}, {"seat": "0"}, {"version": 0.0}, {"version": False}):
        with pytest.raises(ArgumentError):
            game.apply(action, **kwargs)
    assert game.version == 0


def test_actions_after_the_end_cite_the_board_ruling_only() -> None:
    game = BOARD.new_game(2, 9)
    rng = Rng(9)
    while not game.is_over():
        game.apply(game.random_action(rng))
    for attempt in (lambda: game.apply("pass"), lambda: game.random_action(rng)):
        with pytest.raises(GameOverError) as err:
            attempt()
        assert err.value.ruling == "B-31" and "C-" not in str(err.value)


# ---------------------------------------------------------------------- positions


def _doc(kind: str = "action") -> Doc:
    if kind == "action":
        return to_position(BOARD.new_game(3, 11))
    st = PENDING[kind]()
    assert to_position(st)["pending"]["phase"] == kind
    return to_position(st)


def _refused(doc: Doc, *needles: str) -> str:
    with pytest.raises(RecordError) as err:
        from_position(doc)
    text = str(err.value)
    for needle in needles:
        assert needle in text, text
    return text


def test_every_pending_phase_round_trips() -> None:
    for kind in ["action", *PENDING]:
        doc = _doc(kind)
        assert to_position(from_position(json.loads(json.dumps(doc)))) == doc


def _set(doc: Doc, path: str, value: Any) -> Doc:
    target: Any = doc
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return doc


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "needles"),
    [
        ("format", True, ("format",)),
        ("format", 1.0, ("format",)),
        ("game", "cards", ("game",)),
        ("players", 3.0, ("players",)),
        ("players", True, ("players",)),
        ("seed", 2**64 + 5, ("seed",)),
        ("seed", -1, ("seed",)),
        ("options.advanced", 1, ("options.advanced",)),
        ("options.open_scores", "no", ("options.open_scores",)),
        ("options.colour", True, ("unknown field",)),
        ("seats.0.hand.red", 10**6, ("seats[0].hand.red",)),
        ("seats.0.hand.red", 2**63, ("seats[0].hand.red",)),
        ("seats.0.hand.red", -1, ("seats[0].hand.red",)),
        ("seats.0.hand.red", True, ("seats[0].hand.red",)),
        ("seats.0.hand.red", 1.0, ("seats[0].hand.red",)),
        ("seats.0.hand.red", "2", ("seats[0].hand.red",)),
        ("seats.0.catastrophes", -1, ("seats[0].catastrophes",)),
        ("seats.0.catastrophes", 3, ("seats[0].catastrophes",)),
        ("seats.0.treasures", -2, ("seats[0].treasures",)),
        ("seats.1.discarded.blue", -1, ("seats[1].discarded.blue",)),
        ("seats.1.leaders.king", "Z1", ("seats[1].leaders.king",)),
        ("seats.1.leaders.king", "f4", ("seats[1].leaders.king",)),
        ("seats.1.points.green", -3, ("seats[1].points.green",)),
        ("removed.red", -1, ("removed.red",)),
        ("turn.version", -1, ("turn.version",)),
        ("turn.version", 2**70, ("turn.version",)),
        ("turn.actions_done", 3, ("turn.actions_done",)),
        ("turn.active", 3, ("turn.active",)),
        ("turn.first", None, ("turn.first",)),
        ("bag", {"count": 3}, ("bag",)),
        ("bag.0", "purple", ("bag[0]",)),
        ("score_log", [[0, "red", 1, "tile", 9]], ("score_log[0]",)),
        ("pending.phase", "dancing", ("pending.phase",)),
        ("pending.owner", 0, ("unknown field",)),
        ("board.tiles.red.0", "K01", ("board.tiles.red[0]",)),
        ("board.unification", 5, ("board.unification",)),
        ("board.monuments", "none", ("board.monuments",)),
        ("board.catastrophes", ["A1"] * 1000, ("board.catastrophes",)),
        ("seats.0", _DELETE, ("seats",)),
        ("seats.0.hand", _DELETE, ("seats[0]", "hand")),
        ("turn", _DELETE, ("turn",)),
        ("board.tiles.black", _DELETE, ("board.tiles", "black")),
    ],
)
def test_malformed_fields_are_named(path: str, value: Any, needles: tuple[str, ...]) -> None:
    _refused(_set(_doc(), path, value), *needles)


def test_a_document_that_is_not_an_object_is_refused() -> None:
    for doc in (None, [], "position", 3, [("format", 1)]):
        with pytest.raises(RecordError):
            from_position(doc)  # type: ignore[arg-type]


def _move(doc: Doc, colour: str, frm: str, to: str) -> None:
    tiles = doc["board"]["tiles"][colour]
    tiles.remove(frm)
    tiles.append(to)
    tiles.sort(key=parse_square)


def test_impossible_material_is_refused() -> None:
    doc = _doc()
    doc["bag"] = ["red" for _ in doc["bag"]]  # far more red tiles than the 57 (B-1)
    _refused(doc, "red tiles are accounted for", "B-1")
    doc = _doc()
    doc["seats"][0]["hand"] = {"red": 6, "blue": 6, "green": 6, "black": 6}
    _refused(doc, "seats[0].hand holds 24", "B-6")
    doc = _doc()
    doc["seats"][0]["catastrophes"] = 1
    _refused(doc, "catastrophes", "B-1")
    doc = _doc()
    doc["board"]["treasures"].pop()
    _refused(doc, "treasures", "B-2")
    doc = _doc()
    doc["seats"][1]["treasures"] = 1
    _refused(doc, "treasures", "B-2")


def test_tiles_on_the_wrong_terrain_are_refused() -> None:
    st = scenario(tiles="b: D4; r: F5")
    doc = to_position(st)
    _move(doc, "blue", "D4", "F6")  # a blue tile on land
    _refused(doc, "board.tiles.blue", "F6", "B-12")
    doc = to_position(st)
    _move(doc, "red", "F5", "D4")  # a red tile on the river
    _refused(doc, "board.tiles.red", "D4", "B-12")
    doc = to_position(st)
    doc["board"]["tiles"]["green"] = ["F5"]
    _refused(doc, "F5 holds two tiles", "B-12")


def test_impossible_leaders_are_refused() -> None:
    doc = to_position(scenario(tiles="r: F5", leaders="0K: F6"))
    doc["seats"][0]["leaders"]["king"] = "H8"
    _refused(doc, "seats[0].leaders.king", "touches no temple", "B-8")
    doc["seats"][0]["leaders"]["king"] = "D4"
    _refused(doc, "river", "B-8")
    doc["seats"][0]["leaders"]["king"] = "F5"
    _refused(doc, "not empty", "B-8")
    doc["seats"][0]["leaders"]["king"] = "F6"
    doc["seats"][1]["leaders"]["priest"] = "F6"
    _refused(doc, "seats[1].leaders.priest", "not empty")
    # Two farmers in one kingdom with nothing pending (G-5).
    doc = to_position(scenario(tiles="r: F5 G5", leaders="0F: F6"))
    doc["seats"][1]["leaders"]["farmer"] = "G6"
    _refused(doc, "farmers of seats 0, 1", "G-5")


def test_points_must_be_their_scoring_events() -> None:
    doc = _doc()
    doc["seats"][2]["points"]["black"] = 5
    _refused(doc, "seats[2].points", "B-14")
    doc = _doc()
    doc["score_log"] = [[0, "red", 1, "bribe"]]
    doc["seats"][0]["points"]["red"] = 1
    _refused(doc, "score_log[0]", "unknown reason")
    doc["score_log"] = [[0, "blue", 1, "revolt"]]
    doc["seats"][0]["points"] = {"red": 0, "blue": 1, "green": 0, "black": 0}
    _refused(doc, "score_log[0]", "B-21")
    doc["score_log"] = [[0, "blue", 3, "tile"]]
    doc["seats"][0]["points"]["blue"] = 3
    _refused(doc, "score_log[0]", "one at a time")
    doc["score_log"] = [[0, "blue", 1, "monument"]]
    doc["seats"][0]["points"]["blue"] = 1
    _refused(doc, "score_log[0]", "B-17")
    doc["score_log"] = [[True, "blue", 1, "tile"]]
    _refused(doc, "score_log[0] seat")
    doc["score_log"] = [[0, "blue", 0, "tile"]]
    _refused(doc, "score_log[0] points")


def test_a_pending_monument_needs_its_block_on_the_board() -> None:
    doc = _doc("monument")
    doc["board"]["tiles"]["red"] = [s for s in doc["board"]["tiles"]["red"] if s != "G10"]
    doc["removed"]["red"] += 1
    _refused(doc, "pending.options", "B-28")
    # A monument offered on an empty block, or for a placed tile that is not there.
    doc = _doc("monument")
    doc["pending"]["options"] = [{"monument": "rb", "square": "A10"}]
    _refused(doc, "pending.options", "B-28")
    doc = _doc("monument")
    doc["pending"]["placed"] = "M10"
    _refused(doc, "pending.placed", "M10", "B-28")
    # A monument that is already built cannot be offered.
    doc = _doc("monument")
    doc["board"]["monuments"] = [{"monument": "rk", "square": "A10", "colour": "black"}]
    for _ in range(4):
        doc["bag"].remove("black")
    _refused(doc, "pending.options", "B-28")


def test_a_pending_revolt_must_match_the_board() -> None:
    doc = _doc("revolt")
    doc["pending"]["attacker_strength"] = 5
    _refused(doc, "attacker_strength", "B-20")
    doc = _doc("revolt")
    doc["pending"]["defender"] = doc["pending"]["attacker"]
    _refused(doc, "G-5")
    doc = _doc("revolt")
    doc["pending"]["colour"] = "black"
    _refused(doc, "kings", "B-20")
    doc = _doc("revolt")
    doc["pending"]["attacker_commit"] = 2
    _refused(doc, "attacker_commit", "B-21")
    doc = _doc("revolt")
    doc["pending"]["attacker_commit"] = True
    _refused(doc, "pending.attacker_commit")
    # The two priests in two kingdoms: no revolt.
    doc = _doc("revolt")
    doc["seats"][1]["leaders"]["priest"] = "H6"
    _refused(doc, "one kingdom", "B-11")


def test_a_pending_war_must_match_the_board() -> None:
    doc = _doc("war")
    doc["pending"]["defender_strength"] += 1
    _refused(doc, "defender_strength", "B-24")
    doc = _doc("war")
    doc["pending"]["attacker"], doc["pending"]["defender"] = 1, 0
    _refused(doc, "B-23")
    doc = _doc("war")
    doc["pending"]["wars"] = ["green"]  # the kings would share a kingdom for nothing
    _refused(doc, "pending.wars", "B-22")
    doc = _doc("war")
    doc["pending"]["wars"] = ["black", "green"]
    _refused(doc, "pending.wars", "B-22")
    doc = _doc("war_order")
    doc["pending"]["wars"] = ["green", "black", "green"]
    _refused(doc, "twice")
    doc = _doc("war_order")
    doc["board"]["unification"] = None
    _refused(doc, "unification", "B-22")
    doc = _doc("war_order")
    doc["pending"]["placed"] = "F5"
    _refused(doc, "pending.placed", "B-22")


def test_the_unification_tile_lies_on_the_board_only_during_wars() -> None:
    doc = to_position(scenario(tiles="r: F5"))
    doc["board"]["unification"] = "F5"
    _refused(doc, "unification", "B-22")


def test_a_pending_treasure_must_be_takeable_by_its_owner() -> None:
    doc = _doc("treasure")
    doc["pending"]["owner"] = 1
    _refused(doc, "pending.owner", "B-30")
    doc = _doc("treasure")
    doc["pending"]["choices"] = ["F10"]
    _refused(doc, "pending.choices", "B-30")
    doc = _doc("treasure")
    doc["seats"][0]["leaders"]["trader"] = None  # no trader: no kingdom gives treasures
    _refused(doc, "no kingdom must give", "B-30")


def test_a_treasure_left_unsettled_between_actions_is_refused() -> None:
    doc = _doc("treasure")
    doc["pending"] = {"phase": "action"}
    _refused(doc, "B-30")


def test_bordered_treasures_are_listed_and_checked() -> None:
    doc = _doc()
    assert doc["board"]["bordered_treasures"] == ["B2", "P2", "B8", "O9"]
    assert set(doc["board"]["bordered_treasures"]) <= set(doc["board"]["treasures"])
    adv = to_position(BOARD.new_game(2, 1, {"advanced": True}))
    assert adv["board"]["bordered_treasures"] == ["B3", "P6", "A8", "E10", "J11", "O11"]
    doc["board"]["bordered_treasures"] = ["B2"]
    _refused(doc, "bordered_treasures", "B-30")
    del doc["board"]["bordered_treasures"]  # derived, so it may be left out
    assert "bordered_treasures" in to_position(from_position(doc))["board"]
    text = BOARD.render(BOARD.new_game(2, 3), None)
    assert "bordered, taken first (B-30): B2 P2 B8 O9" in text


def test_the_game_ends_only_by_its_rules() -> None:
    doc = _doc()
    doc["pending"] = {"phase": "over"}
    _refused(doc, "B-31")
