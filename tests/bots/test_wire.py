"""The client's half of the worker protocol (bots/wire.py): every malformed reply is a
WireError naming what was wrong, a refusal carries the worker's words, and the lines
it encodes are the ones the real worker answers."""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from euphrates.bots.wire import (
    MAX_LINE,
    Alternative,
    RefusedError,
    Review,
    WireError,
    action_of,
    decision_request,
    decode,
    dump_line,
    encode,
    load_object,
    review_of,
    review_request,
)
from euphrates.bots.worker import handle
from euphrates.core.errors import ArgumentError, EuphratesError
from euphrates.core.rng import Rng
from euphrates.games import game_definition

MALFORMED = [
    (b"[]", "not an object but a list"),
    (b"[1, 2]\n", "not an object but a list"),
    (b"null", "not an object but null"),
    (b"3", "not an object but a number"),
    (b"-2.5e3", "not an object but a number"),
    (b'"x"', "not an object but a string"),
    (b"true", "not an object but a boolean"),
    (b"", "an empty line"),
    (b"\n", "an empty line"),
    (b"  \r\n", "an empty line"),
    (b"hello", "not JSON"),
    (b"{", "not JSON"),
    (b'{"id": 1', "not JSON"),
    (b"[" * 100_000, "not JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"id": 1, "action": "\xc3"}', "not UTF-8"),
    (b"{}", "no 'id'"),
    (b'{"action": "rF4"}', "no 'id'"),
    (b'{"id": 2, "action": "rF4"}', "answered request 2, not 1"),
    (b'{"id": 0}', "answered request 0, not 1"),
    (b'{"id": "1", "action": "rF4"}', "'id' is not an integer but '1'"),
    (b'{"id": 1.0, "action": "rF4"}', "'id' is not an integer but 1.0"),
    (b'{"id": true, "action": "rF4"}', "'id' is not an integer but True"),
    (b'{"id": null, "action": "rF4"}', "'id' is not an integer but None"),
    (b'{"id": [1]}', "'id' is not an integer"),
    (b'{"id": null, "error": "the request is not JSON"}', "could not read request 1"),
    (b'{"id": 1, "error": 5}', "'error' is not text but 5"),
    (b'{"id": 1, "error": null}', "'error' is not text but None"),
]


@pytest.mark.parametrize(("line", "words"), MALFORMED)
def test_a_malformed_reply_is_a_wire_error_naming_what_is_wrong(line: bytes, words: str) -> None:
    with pytest.raises(WireError) as caught:
        decode(line, 1)
    assert words in str(caught.value)
    assert not isinstance(caught.value, RefusedError)
    assert isinstance(caught.value, EuphratesError) and isinstance(caught.value, ValueError)


def test_a_reply_longer_than_the_limit_is_refused_before_it_is_parsed() -> None:
    fits = b'{"id":1,"action":"' + b"a" * (MAX_LINE - 20) + b'"}'
    assert len(fits) <= MAX_LINE
    assert decode(fits + b"\n", 1)["id"] == 1
    long = b'{"id":1,"action":"' + b"a" * MAX_LINE + b'"}'
    with pytest.raises(WireError, match="bytes long, more than the"):
        decode(long, 1)
    assert load_object(long, limit=None)["id"] == 1  # the jobs' lines have no bound


def test_an_error_member_is_a_refusal_carrying_the_workers_words() -> None:
    with pytest.raises(RefusedError) as caught:
        decode(b'{"id": 7, "error": "unknown bot \'wizard\'", "action": "rF4"}\n', 7)
    assert caught.value.reason == "unknown bot 'wizard'"
    assert "unknown bot 'wizard'" in str(caught.value)
    assert isinstance(caught.value, WireError)
    with pytest.raises(WireError, match="answered request 7, not 8"):  # the id comes first
        decode(b'{"id": 7, "error": "no idea"}', 8)


def test_a_good_reply_comes_back_whole() -> None:
    reply = decode(b'{"id":3,"action":"rF4","iterations":40}\n', 3)
    assert reply == {"id": 3, "action": "rF4", "iterations": 40}
    assert action_of(reply) == "rF4"


@pytest.mark.parametrize(
    "reply",
    [{"id": 1}, {"id": 1, "action": 5}, {"id": 1, "action": None}, {"id": 1, "action": ["rF4"]}],
)
def test_an_action_that_is_not_text_is_a_wire_error(reply: dict[str, Any]) -> None:
    with pytest.raises(WireError, match="'action' is not text"):
        action_of(reply)


def test_the_id_is_the_clients_to_attach() -> None:
    line = encode({"game": "board", "bot": "greedy"}, 5)
    assert line == b'{"id":5,"game":"board","bot":"greedy"}\n'
    assert line.count(b"\n") == 1 and line.isascii()
    assert encode({"text": "line\nbreak é"}, 1).count(b"\n") == 1
    with pytest.raises(ArgumentError, match="already holds an 'id'"):
        encode({"id": 4, "game": "board"}, 5)
    for bad in (True, 1.0, "5", None):
        with pytest.raises(ArgumentError, match="request id is an integer"):
            encode({}, bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="request id is an integer"):
            decode(b'{"id": 1}', bad)  # type: ignore[arg-type]
    assert dump_line({"a": 1}) == b'{"a":1}\n'


GOOD_REVIEWS = [
    (
        {"id": 1, "before": 0.5, "after": 0.25, "best": None, "estimate": "model"},
        Review(0.5, 0.25, None, "model"),
    ),
    (
        {
            "kind": "commit",
            "before": 1,
            "after": 0,
            "best": {"action": "rF4", "after": 0.75, "error": 0.01},
            "why": {"key": "review.why.war_lost", "params": {}},
            "estimate": "x",
        },
        Review(
            1,
            0,
            Alternative("rF4", 0.75, 0.01),
            "x",
            "commit",
            why={"key": "review.why.war_lost", "params": {}},
        ),
    ),
    ({"before": 0.1, "after": 0.2, "estimate": "evaluation"}, Review(0.1, 0.2, None, "evaluation")),
]


@pytest.mark.parametrize(("reply", "review"), GOOD_REVIEWS)
def test_a_review_reply_is_read_into_a_review(reply: dict[str, Any], review: Review) -> None:
    assert review_of(reply) == review
    doc = review.to_json()
    best = reply.get("best")
    assert doc == {
        "kind": reply.get("kind", "action"),
        "forced": False,
        "before": reply["before"],
        "after": reply["after"],
        "best": best and {"error": 0.0, **best},
        "why": reply.get("why"),
        "estimate": reply["estimate"],
    }


BASE = {"id": 1, "before": 0.5, "after": 0.4, "best": None, "estimate": "model"}
BAD_REVIEWS = [
    ({"before": None}, "chances are not numbers"),
    ({"before": "0.5"}, "chances are not numbers"),
    ({"after": True}, "chances are not numbers"),
    ({"after": math.nan}, "chances are not numbers"),
    ({"before": math.inf}, "chances are not numbers"),
    ({"after": [0.4]}, "chances are not numbers"),
    ({"best": []}, "'best' is neither null nor"),
    ({"best": "rF4"}, "'best' is neither null nor"),
    ({"best": {"action": 1, "after": 0.5}}, "'best' is neither null nor"),
    ({"best": {"action": "rF4"}}, "'best' is neither null nor"),
    ({"best": {"action": "rF4", "after": "0.5"}}, "'best' is neither null nor"),
    ({"best": {"action": "rF4", "after": False}}, "'best' is neither null nor"),
    ({"estimate": None}, "'estimate' is not text"),
    ({"estimate": 3}, "'estimate' is not text"),
    ({"why": {"key": "log.turn"}}, "kind, forced or why are malformed"),
    ({"forced": 1}, "kind, forced or why are malformed"),
]


@pytest.mark.parametrize(("change", "words"), BAD_REVIEWS)
def test_a_malformed_review_is_a_wire_error(change: dict[str, Any], words: str) -> None:
    with pytest.raises(WireError, match=words):
        review_of({**BASE, **change})
    with pytest.raises(WireError, match="chances are not numbers"):
        review_of({"id": 1})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["id", "action", "error", "before", "after", "best", "estimate", "x"]),
            inner,
            max_size=6,
        )
    ),
    max_leaves=12,
)


@given(st.binary(max_size=64))
def test_any_bytes_are_a_reply_or_a_wire_error(line: bytes) -> None:
    try:
        reply = decode(line, 1)
    except WireError:
        return
    assert reply["id"] == 1 and "error" not in reply


@given(JSON)
def test_any_json_is_a_reply_or_a_wire_error(doc: Any) -> None:
    """Whatever a worker sends, the checks fail in their own words, never with the
    AttributeError or KeyError of a look-up made on the wrong shape."""
    try:
        reply = decode(json.dumps(doc).encode(), 1)
    except WireError:
        return
    for extract in (action_of, review_of):
        with contextlib.suppress(WireError):
            extract(reply)


def _view(name: str) -> dict[str, Any]:
    state = game_definition(name).new_game(2, 4)
    rng = Rng(4)
    for _ in range(6):
        state.apply(state.random_action(rng))
    decision = state.decision()
    assert decision is not None
    view: dict[str, Any] = json.loads(json.dumps(state.view(decision.seat)))
    return view


def test_the_lines_encoded_are_the_ones_the_worker_answers() -> None:
    """Both halves in one process: the worker's `handle` reads what `encode` writes,
    and `decode` and the extractors read what it answers."""
    view = _view("cards")
    line = encode(decision_request("cards", "greedy", 3, view), 41)
    action = action_of(decode(dump_line(handle(line)), 41))
    assert action in view["legal"]
    line = encode(review_request("cards", 3, view, action), 42)
    review = review_of(decode(dump_line(handle(line)), 42))
    assert 0 <= review.before <= 1 and 0 <= review.after <= 1 and review.estimate
    refused = encode(decision_request("cards", "wizard", 3, view), 43)
    with pytest.raises(RefusedError, match="unknown bot 'wizard'"):
        decode(dump_line(handle(refused)), 43)
