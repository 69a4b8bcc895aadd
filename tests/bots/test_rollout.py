"""The rollout search of the card game's strong and expert levels: legal, reproducible
with a seed and an iteration budget, its rollouts played as the greedy bot plays (that
it decides from its view alone is in test_honesty)."""

from __future__ import annotations

import pytest

from euphrates.bots import GreedyBot, RandomBot, make_bot
from euphrates.bots.evaluation import evaluator_for
from euphrates.bots.rollout import RolloutBot, _surely_better, greedy_step
from euphrates.bots.value import ValueModel, load
from euphrates.games import GAMES, game_definition


@pytest.mark.parametrize("name", sorted(GAMES))
def test_its_choices_are_legal_in_both_games(name: str) -> None:
    """A rollout on the board is dear (a quarter of a second): a few decisions of a
    greedy game, two candidates each, not a whole game."""
    definition = game_definition(name)
    state = definition.new_game(3, 21)
    greedy = GreedyBot(2)
    bot = RolloutBot(1, iterations=2, width=2)
    asked = 0
    while asked < 2:
        seat = state.to_move()
        view = state.view(seat)
        if state.version % 9 == 4 and len(view["legal"]) > 1:
            assert bot.choose(definition, view) in view["legal"]
            assert bot.last_iterations == 2
            asked += 1
        state.apply(greedy.choose(definition, view), seat=seat)


def test_an_iteration_budget_is_reproducible_and_spent() -> None:
    definition = game_definition("cards")
    state = definition.new_game(2, 4)
    view = state.view(state.decision().seat)
    a, b = RolloutBot(5, iterations=24), RolloutBot(5, iterations=24)
    assert a.choose(definition, view) == b.choose(definition, view)
    assert a.last_iterations == 24 and a.last_estimates == b.last_estimates
    assert a.choose(definition, view) in view["legal"]


def test_with_a_value_model_the_rollouts_ends_are_judged_by_it() -> None:
    """`rollout:Ni:value` loads the shipped model at its first decision and values
    each rollout's end by it: a model that favours every seat alike (all weights 0)
    leaves only the margin share to tell the candidates apart, so the estimates
    differ from the shipped model's on the same deals."""
    definition = game_definition("cards")
    state = definition.new_game(2, 4)
    view = state.view(state.decision().seat)
    lazy = make_bot("rollout:24i:value", 5)
    assert isinstance(lazy, RolloutBot) and lazy.value is None
    shipped = RolloutBot(5, iterations=24, value=load("cards"))
    assert lazy.choose(definition, view) == shipped.choose(definition, view)
    assert lazy.value is not None and lazy.value.weights == load("cards").weights
    assert lazy.last_estimates == shipped.last_estimates
    flat = RolloutBot(
        5, iterations=24, value=ValueModel("cards", [0.0] * len(load("cards").weights))
    )
    plain = RolloutBot(5, iterations=24)
    flat.choose(definition, view)
    plain.choose(definition, view)
    for estimates in (flat.last_estimates, plain.last_estimates):
        assert estimates.keys() == shipped.last_estimates.keys()
        assert estimates != shipped.last_estimates
    # an even model: the chance part is a half for each seat, the margin share remains
    assert all(0.4 <= e <= 0.6 for e in flat.last_estimates.values())


def test_its_rollouts_follow_the_greedy_judgement() -> None:
    """`greedy_step` is the intermediate bot's choice (without its tie-breaking), the
    model of every player in a rollout: checked on the positions of a seeded game."""
    definition = game_definition("cards")
    evaluator = evaluator_for("cards")
    state = definition.new_game(2, 3)
    rnd = RandomBot(4)
    checked = 0
    while not state.is_over() and checked < 25:
        seat = state.to_move()
        view = state.view(seat)
        ranked = GreedyBot(7).ranked(definition, view)
        ties = {text for v, text in ranked if v == ranked[0][0]}
        if state.decision().kind == "action":
            assert str(greedy_step(state, evaluator)) in ties
            checked += 1
        state.apply(rnd.choose(definition, view), seat=seat)
    assert checked == 25


def test_a_level_names_the_game_search() -> None:
    assert isinstance(make_bot("strong", 0, "cards"), RolloutBot)
    definition = game_definition("cards")
    state = definition.new_game(2, 4)
    view = state.view(state.decision().seat)
    bot = make_bot("search:12i", 5)
    assert bot.choose(definition, view) == RolloutBot(5, iterations=12).choose(definition, view)
    # Whole rounds of the candidates only, within the budget.
    assert 0 < bot.last_iterations <= 12  # type: ignore[attr-defined]


def test_it_leaves_the_greedy_choice_only_on_evidence() -> None:
    """Paired by imagined deal: ahead on every deal by a steady margin is evidence; ahead
    on average through one lucky deal, or on a single deal, is not."""
    base = {0: 0.5, 1: 0.4, 2: 0.6, 3: 0.5}
    steady = {k: r + 0.02 for k, r in base.items()}
    lucky = {0: 0.5, 1: 0.4, 2: 0.6, 3: 0.9}
    single = {0: 0.9}
    assert _surely_better(steady, base, 1.0)
    assert not _surely_better(base, steady, 1.0)
    assert not _surely_better(lucky, base, 1.0)
    assert _surely_better(lucky, base, 0.5)
    assert not _surely_better(single, base, 1.0)


def test_a_rollout_stops_after_the_turns_of_others_it_is_given() -> None:
    """One turn of others: a duel's rollout stops as the bot's own next turn begins.
    Two: it plays that turn too and stops as the opponent's following one begins."""
    definition = game_definition("cards")
    evaluator = evaluator_for("cards")
    greedy = GreedyBot(2)
    state = definition.new_game(2, 8)
    checked = 0
    while checked < 6 and not state.is_over():
        d = state.decision()
        seat = d.seat
        if d.kind == "action" and state.version % 5 == 0:
            stops = []
            for turns in (1, 2):
                rolled = state.copy()
                rolled.apply(greedy_step(rolled, evaluator))
                RolloutBot._roll(rolled, seat, evaluator, turns)
                stops.append(rolled)
            one, two = stops
            if not two.is_over():
                assert one.decision().seat == seat and one.decision().kind == "action"
                assert two.decision().seat == 1 - seat and two.decision().kind == "action"
                assert two.version > one.version
                checked += 1
        state.apply(greedy.choose(definition, state.view(seat)), seat=seat)
    assert checked == 6
