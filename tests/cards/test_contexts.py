"""Decision contexts in the vocabulary both games share, the answers that say no, and
errors that cite the card game's own rulings."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from euphrates.cards import CARDS, CardsState
from euphrates.cards.actions import COMMITS, DECLINE, EXCHANGE_NONE, POINT_NONE
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES
from euphrates.core.errors import GameOverError, IllegalActionError
from euphrates.core.rng import Rng

from .helpers import find, kind_is, play, state

COLS3 = ["rgb", "kkb", "bgr", "ggk", "rbk", "kgb", "bbr", "grk"]
SPOT = re.compile(r"^[1-8]\.[0-8]$|^[1-7]-[2-8]$")
KEYS = {
    "action": {"action", "actions_left"},
    "commit": {
        "conflict",
        "colour",
        "commit_colour",
        "attacker",
        "defender",
        "role",
        "attacker_leader",
        "defender_leader",
        "attacker_strength",
        "defender_strength",
        "attacker_commit",
    },
    "war_order": {"wars"},
    "point": {"colour", "reason"},
    "ship_point": {"colour", "reason", "leader"},
    "exchange": {"kingdom", "treasures"},
    "ship": {"column", "ships"},
}


def check_context(s: CardsState) -> str:
    """The pending decision's context has exactly the shared keys, in the shared forms."""
    d = s.decision()
    assert d is not None
    ctx: dict[str, Any] = dict(d.context)
    assert set(ctx) == KEYS[d.kind], d.kind
    for key in ("colour", "commit_colour"):
        if key in ctx:
            assert ctx[key] in COLOUR_NAMES
    if "wars" in ctx:
        assert ctx["wars"] and all(w in COLOUR_NAMES for w in ctx["wars"])
    if "leader" in ctx:
        assert ctx["leader"] == LEADER_NAMES[COLOUR_NAMES.index(ctx["colour"])]
    if d.kind == "action":
        assert ctx["action"] + ctx["actions_left"] == 3 and ctx["action"] in (1, 2)
    if d.kind == "commit":
        assert ctx["conflict"] in ("revolt", "war")
        assert type(ctx["attacker"]) is int and type(ctx["defender"]) is int
        assert ctx["role"] == ("attacker" if ctx["attacker_commit"] is None else "defender")
        assert SPOT.match(ctx["attacker_leader"]) and SPOT.match(ctx["defender_leader"])
        if ctx["conflict"] == "revolt":
            assert ctx["commit_colour"] == "red"  # C-10
        else:
            assert ctx["commit_colour"] == ctx["colour"]  # C-12
    if d.kind in ("point", "ship_point"):
        assert ctx["reason"] in (("column", "revolt", "war") if d.kind == "point" else ("ship",))
    # the view carries the very same context
    assert s.view(d.seat)["decision"]["context"] == ctx
    assert s.view(None)["pending"]["context"] == ctx
    return d.kind


def test_every_context_of_random_games_uses_the_shared_vocabulary() -> None:
    seen: set[str] = set()
    for players, seed in [(2, 1), (3, 2), (4, 3), (3, 40)]:
        s = CARDS.new_game(players, seed)
        rng = Rng(seed)
        step = 0
        while not s.is_over():
            if step % 3 == 0 or s.kind != 0:
                seen.add(check_context(s))
            s.apply(s.random_action(rng))
            step += 1
    assert {"action", "commit", "point", "ship_point", "exchange", "ship"} <= seen


def test_rare_kinds_use_the_shared_vocabulary_too() -> None:
    for pred in (kind_is("war_order"), kind_is("ship"), kind_is("ship_point")):
        check_context(find(pred))


def test_a_revolt_of_kings_commits_red_cards() -> None:
    s = state(leaders={(1, "K"): "1.1"}, columns=COLS3, hands=["rr", "r", ""])
    play(s, "K1.0")
    d = s.decision()
    assert d is not None and d.kind == "commit"
    assert d.context == {
        "conflict": "revolt",
        "colour": "black",
        "commit_colour": "red",
        "attacker": 0,
        "defender": 1,
        "role": "attacker",
        "attacker_leader": "1.0",
        "defender_leader": "1.1",
        "attacker_strength": 1,
        "defender_strength": 1,  # on a red card (C-10)
        "attacker_commit": None,
    }
    play(s, "commit 2")
    d = s.decision()
    assert d is not None and d.context["role"] == "defender"
    assert d.context["attacker_commit"] == 2
    assert "commit red cards as the defender" in CARDS.render(s, 1)


def test_action_context_counts_the_actions_of_the_turn() -> None:
    s = state(columns=COLS3, hands=["rr", "", ""])
    d = s.decision()
    assert d is not None and dict(d.context) == {"action": 1, "actions_left": 2}
    play(s, "r1")
    d = s.decision()
    assert d is not None and dict(d.context) == {"action": 2, "actions_left": 1}


# --- saying no ---------------------------------------------------------------------------------
def _point_state() -> CardsState:
    s = state(leaders={(1, "T"): "1.0"}, hands=["g", "", ""])
    s.apply("g1")
    return s


def _refused(s: CardsState, text: str, ruling: str, *needles: str) -> None:
    before = CARDS.to_position(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply(text)
    assert e.value.ruling == ruling
    for needle in needles:
        assert needle in str(e.value)
    assert CARDS.to_position(s) == before


def test_decline_answers_the_ship_decision_only() -> None:
    s = _point_state()
    assert s.parse_action("decline") == DECLINE
    _refused(s, "decline", "C-15", "point none")
    s = find(kind_is("exchange"))
    _refused(s, "decline", "C-15", "exchange none")
    s = find(kind_is("commit"))
    _refused(s, "decline", "C-15", "commit 0")
    s = CARDS.new_game(3, 1)
    _refused(s, "decline", "C-15", "pass")
    s = find(kind_is("ship"))
    s.apply("decline")
    d = s.decision()
    assert d is None or d.kind != "ship"


def test_a_bare_none_is_the_no_of_the_pending_decision() -> None:
    assert _point_state().parse_action("none") == POINT_NONE
    assert find(kind_is("ship_point")).parse_action("No") == POINT_NONE
    assert find(kind_is("exchange")).parse_action("none") == EXCHANGE_NONE
    assert find(kind_is("commit")).parse_action("none") == COMMITS[0]
    assert find(kind_is("ship")).parse_action(" none ") == DECLINE
    s = CARDS.new_game(3, 1)
    with pytest.raises(IllegalActionError) as e:
        s.apply("none")
    assert e.value.ruling == "G-2" and "pass" in str(e.value)
    s = find(kind_is("war_order"))
    with pytest.raises(IllegalActionError) as e:
        s.apply("none")
    assert e.value.ruling == "C-11"
    s = find(kind_is("over"))
    with pytest.raises(GameOverError):
        s.parse_action("none")


def test_the_long_forms_of_no_are_read_everywhere() -> None:
    s = _point_state()
    assert s.parse_action("point none") == POINT_NONE
    assert s.parse_action("point decline") == POINT_NONE


# --- rulings ------------------------------------------------------------------------------------
SRC = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "cards"


def test_card_code_cites_no_board_game_ruling() -> None:
    for path in sorted(SRC.glob("*.py")):
        assert not re.search(r"\bB-\d", path.read_text()), path.name


def test_every_refusal_cites_a_card_game_ruling() -> None:
    """Every action the rules refuse names C-n or G-n, the game-over error included
    (C-17: each game cites its own ruling for its end)."""
    from .test_random_games import EVERY_ACTION

    rulings: set[str] = set()
    s = CARDS.new_game(3, 12)
    rng = Rng(12)
    step = 0
    while not s.is_over():
        if step % 9 == 0:
            legal = set(s.legal_actions())
            for a in EVERY_ACTION[::7]:
                if a in legal:
                    continue
                with pytest.raises(IllegalActionError) as e:
                    s.apply(a)
                assert e.value.ruling is not None
                assert re.fullmatch(r"[CG]-\d+", e.value.ruling), e.value.ruling
                rulings.add(e.value.ruling)
        s.apply(s.random_action(rng))
        step += 1
    with pytest.raises(GameOverError) as over:
        s.apply("pass")
    assert over.value.ruling == "C-17"
    assert {"C-5", "C-6", "G-1", "G-2"} <= rulings
