"""The review's judgement of one move (bots/review.py), its rows (match/reviewdoc.py),
the hints it checks (bots/hinting.py) and its benchmark (match/reviewbench.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots.levels import make_bot
from euphrates.bots.review import review_move
from euphrates.cli import main
from euphrates.core.history import HISTORY_KEY, History, replayed, with_history, without_history
from euphrates.core.protocol import GameState
from euphrates.games import game_definition
from euphrates.match.records import GameRecord, replay
from euphrates.match.review import render, review
from euphrates.match.reviewbench import figures, referee_worlds
from euphrates.match.reviewdoc import moves
from euphrates.words.advice import in_every_language
from euphrates.words.book import LANGS

DATA = Path(__file__).parent / "data"

# Notation a player should never read in a hint: a tile or card and its place (`rF4`,
# `g3`, `K3-4`), a spot (`3.2`), a decision's own words (`war r`, `commit 2`), a number
# with a point (`1.0`).
NOTATION = re.compile(
    r"\b[rbgkPFTKx][A-P]?\d|\b\d\.\d|\bwar [rbgk]\b|\bcommit \d|\bpoint [rbgk]\b|"
    r"\bship b[rgk]\b|\bswap [rbgk]+\b|\bmonument [rbgk]{2}\b|\bexchange \d"
)


def _state(game: str, name: str) -> GameState[Any]:
    doc = json.loads((DATA / name).read_text())
    state: GameState[Any] = game_definition(game).from_position(doc)
    return state


def test_a_revolt_won_by_committing_is_never_flagged() -> None:
    """Base 0 against 1, the attacker holding seven red cards, the defender two: the
    commitment of six wins the revolt 6-1 (as a player's game did). Committing nothing
    loses it, and is the move flagged, with a commitment that wins as the better."""
    state = _state("cards", "revolt_0_against_1.json")
    view = state.view(1)
    context = view["decision"]["context"]
    assert (context["role"], context["attacker_strength"], context["defender_strength"]) == (
        "attacker",
        0,
        1,
    )
    for seed in range(3):
        for winning in ("commit 4", "commit 5", "commit 6", "commit 7"):
            assert review_move("cards", view, winning, seed)["best"] is None, (winning, seed)
        lost = review_move("cards", view, "commit 0", seed)
        assert lost["best"] is not None
        assert int(lost["best"]["action"].split()[1]) >= 3
        assert lost["best"]["after"] > lost["after"]
        assert lost["why"]["key"] == "review.why.revolt_lost"


def test_a_defence_that_cannot_change_the_result_is_never_flagged() -> None:
    """A war of traders, 6 + 1 against 4, the defender holding two green tiles: at most 6
    against 7, so no commitment changes the result."""
    state = _state("board", "defence_cannot_hold.json")
    seat = state.to_move()
    assert seat is not None
    view = state.view(seat)
    c = view["decision"]["context"]
    assert c["role"] == "defender"
    assert c["defender_strength"] + 2 < c["attacker_strength"] + c["attacker_commit"]
    for seed in range(3):
        for action in view["legal"]:
            assert review_move("board", view, action, seed)["best"] is None


def test_a_forced_move_is_never_flagged() -> None:
    state = game_definition("cards").new_game(2, 3)
    rng_bot = make_bot("random", 1)
    for _ in range(400):
        if state.is_over():
            break
        seat = state.to_move()
        assert seat is not None
        view = state.view(seat)
        if len(view["legal"]) == 1:
            judged = review_move("cards", view, view["legal"][0], 0)
            assert judged["forced"] and judged["best"] is None
            return
        state.apply(rng_bot.choose(game_definition("cards"), view))
    pytest.fail("no forced move in the game")


def test_rows_name_the_mover_and_give_both_chances_in_words() -> None:
    """A record whose one move was a planted blunder (committing nothing in the revolt
    above): its row names the mover, the move, the better move, both chances and why, in
    English and German; the terminal prints them."""
    record = _record_to_revolt()
    judged = review(record, "quick")
    flagged = [m for m in judged["moves"] if m["best"] is not None]
    assert judged["flagged"] == len(flagged) >= 1
    last = judged["moves"][-1]
    assert last["action"] == "commit 0" and last["best"] is not None
    assert last["seat"] == 0 and last["name"] == "Ann"
    assert 0 <= last["after"] < last["best"]["after"] <= 1
    for lang, said in (("en", "revolt"), ("de", "Revolte")):
        words = last["words"][lang]
        assert said in words["why"]
        assert not NOTATION.search(words["move"]) and not NOTATION.search(words["better"])
    shown = render(judged)
    assert "Ann" in shown and "Commit nothing" in shown and "%" in shown


def _record_to_revolt() -> GameRecord:
    """A greedy game (seed 504) to its first revolt, at move 14, base 0 against 1, the
    attacker holding five red cards: the attacker commits nothing instead."""
    definition = game_definition("cards")
    state = definition.new_game(2, 504)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    actions: list[str] = []
    while True:
        d = state.decision()
        assert d is not None
        c = d.context
        strengths = (c.get("attacker_strength"), c.get("defender_strength"))
        attacking = d.kind == "commit" and c.get("role") == "attacker"
        if attacking and c.get("conflict") == "revolt" and strengths == (0, 1):
            actions.append("commit 0")
            return GameRecord("cards", 2, 504, {}, ["Ann", "Bea"], actions)
        action = bots[d.seat].choose(definition, state.view(d.seat))
        actions.append(action)
        state.apply(action)


@pytest.mark.parametrize(
    "game, spec", [("cards", "hint:30ms"), ("board", "hint:30ms"), ("cards", "hint:30ms:read")]
)
def test_hints_are_in_words_and_never_a_move_the_review_flags(game: str, spec: str) -> None:
    """The hint bot's move at positions of a greedy game, of every kind met: the review
    never flags it (same seed), and its advice in both languages holds no notation. A
    hint that reads the table is judged by a review that reads it, as a server's."""
    definition = game_definition(game)
    state = definition.new_game(2, 41)
    history = History()
    bots = [make_bot("greedy", 3), make_bot("greedy", 4)]
    checked: set[str] = set()
    step = 0
    while not state.is_over() and step < 400:
        d = state.decision()
        assert d is not None
        view = state.view(d.seat)
        if len(view["legal"]) > 1 and (d.kind not in checked or step % 37 == 0):
            checked.add(d.kind)
            shown = with_history(view, history) if spec.endswith(":read") else view
            hint = make_bot(spec, step, game).choose(definition, shown)
            assert hint in view["legal"]
            assert review_move(game, shown, hint, step)["best"] is None
            for lang, words in in_every_language(game, hint, d.context).items():
                assert words and not NOTATION.search(words), (lang, hint, words)
        history.play(state, bots[d.seat].choose(definition, view))
        step += 1
    assert "action" in checked and len(checked) >= 2


def test_every_legal_action_of_every_kind_has_advice_in_words() -> None:
    """Every legal action of six random games, each (action, decision's context) said
    once: the words depend on nothing else, and the games' 780 000 legal actions are
    some 6 000 such pairs."""
    pairs: set[tuple[str, str, str]] = set()
    for game in ("board", "cards"):
        definition = game_definition(game)
        for seed in range(3):
            state = definition.new_game(2 + seed, 60 + seed)
            bot = make_bot("random", seed)
            while not state.is_over():
                d = state.decision()
                assert d is not None
                context = json.dumps(d.context, sort_keys=True)
                for action in state.legal_texts():
                    if (game, action, context) in pairs:
                        continue
                    pairs.add((game, action, context))
                    for words in in_every_language(game, action, d.context).values():
                        assert not NOTATION.search(words), (game, action, words)
                state.apply(bot.choose(definition, state.view(d.seat)))
    assert len(pairs) > 5000
    said = in_every_language("board", "war r")
    assert set(said) == set(LANGS)
    assert said["en"] == "Fight the war of the priests first"
    assert said["de"] == "Führe zuerst den Krieg der Priester"
    assert in_every_language("cards", "r2")["en"] == "Play a red card on column 2"


def test_the_benchmark_figures() -> None:
    rows: list[dict[str, Any]] = [
        {"planted": "a", "planted_flagged": True, "planted_agree": [True, True], "expert": "x"},
        {"planted": "b", "planted_flagged": True, "planted_agree": [False, True], "expert": "y"},
        {"planted": "c", "planted_flagged": False, "expert": "z", "expert_flagged": True,
         "expert_agree": [False, False], "expert_confirmed": True},
        {"expert": "w", "expert_flagged": False},
    ]  # fmt: skip
    got = figures(rows)
    assert got["planted_flagged"]["hits"] == 2 and got["planted_flagged"]["of"] == 3
    assert got["expert_flagged"]["hits"] == 1 and got["expert_flagged"]["of"] == 4
    assert (got["agreement"]["hits"], got["agreement"]["of"]) == (1, 3)
    assert got["agreement_within_noise"]["hits"] == 2
    assert (got["expert_flags_upheld"]["hits"], got["expert_flags_upheld"]["of"]) == (1, 1)
    assert (got["expert_flagged_not_upheld"]["hits"], got["expert_flagged_not_upheld"]["of"]) == (
        0,
        4,
    )
    lo, hi = got["planted_flagged"]["wilson95"]
    assert lo < 2 / 3 < hi


def test_the_benchmark_command_runs_on_a_tiny_budget(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["review-bench", "--game", "cards", "--positions", "2", "--seed", "12"]
    args += ["--strong", "greedy", "--expert", "greedy", "--referee-worlds", "4"]
    assert main(args) == 0
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert doc["positions"] == 2 and doc["game"] == "cards"
    figures_named = ("planted_flagged", "expert_flagged", "expert_flags_upheld", "agreement")
    for figure in (*figures_named, "expert_flagged_not_upheld", "agreement_within_noise"):
        assert set(doc[figure]) == {"hits", "of", "rate", "wilson95"}
    assert doc["expert_flagged"]["of"] == 2


def test_a_card_games_review_hands_each_mover_its_history_and_the_boards_none() -> None:
    """The history beside each move's view is the one the game's replay shows that
    mover, computed here anew for each move from the record (core.history); the board,
    whose table the review does not read, gets none."""
    for game in ("cards", "board"):
        definition = game_definition(game)
        state = definition.new_game(2, 77)
        bot = make_bot("random", 5)
        actions: list[str] = []
        for _ in range(60):
            d = state.decision()
            assert d is not None
            actions.append(bot.choose(definition, state.view(d.seat)))
            state.apply(actions[-1])
        record = GameRecord(game, 2, 77, {}, ["Ann", "Bea"], actions)
        for i, seat, view, _text in moves(record):
            if game == "board":
                assert HISTORY_KEY not in view
                continue
            seen = replayed(definition.new_game(2, 77), actions[:i]).seen_by(seat)
            assert view[HISTORY_KEY] == seen
            assert without_history(view) == replay(record, i).view(seat)


def test_the_review_bench_compares_the_reading_against_the_real_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["review-bench", "--game", "cards", "--positions", "2", "--seed", "12", "--read"]
    args += ["--referee-knows-hands", "--strong", "greedy", "--expert", "greedy"]
    assert main([*args, "--referee-worlds", "4"]) == 0
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert doc["review_reads"] is True and doc["referee"]["knows_the_hands"] is True
    assert doc["expert_flagged"]["of"] == 2
    bench = ["review-bench", "--game", "board", "--positions", "2", "--seed", "1", "--read"]
    assert main(bench) == 2
    assert "card game only" in capsys.readouterr().err


def test_a_referee_that_knows_the_hands_deals_only_the_unseen_cards() -> None:
    definition = game_definition("cards")
    truth: Any = definition.new_game(2, 31)
    worlds: list[Any] = referee_worlds("cards", truth.view(0), truth, 5, 6)
    assert all(w.hands == truth.hands for w in worlds)
    assert all(sorted(w.deck + w.removed) == sorted(truth.deck + truth.removed) for w in worlds)
    assert len({tuple(w.deck) for w in worlds}) > 1
