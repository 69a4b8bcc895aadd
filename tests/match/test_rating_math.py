"""The rating of one game: OpenSkill Plackett–Luce over the full finishing order, ties
shared (B-32/C-18), those who resigned last, bots fixed from the shipped ladder."""

from __future__ import annotations

import pytest

from euphrates.match.hosting import GameResult
from euphrates.match.ladder import fit, lineups, shipped
from euphrates.match.ratings import (
    PROVISIONAL_GAMES,
    Rating,
    display,
    group_of,
    places_with_abandons,
    rate_game,
)


def test_a_newcomer_shows_1000_and_the_winner_of_a_duel_gains_what_the_loser_loses() -> None:
    new = Rating()
    assert new.display == 1000 and display(25.0, 25 / 3) == 1000
    win, loss = rate_game([new, new], [1, 2])
    assert win.mu > new.mu > loss.mu
    assert win.mu - new.mu == pytest.approx(new.mu - loss.mu)
    assert win.sigma < new.sigma and loss.sigma < new.sigma
    assert win.display > 1000 > loss.display or loss.display < win.display


def test_four_players_move_in_the_order_they_finished() -> None:
    before = [Rating()] * 4
    after = rate_game(before, [3, 1, 4, 2])
    order = sorted(range(4), key=lambda s: -after[s].mu)
    assert order == [1, 3, 0, 2]


def test_a_shared_place_moves_equal_players_equally() -> None:
    before = [Rating()] * 3
    after = rate_game(before, [1, 1, 3])  # two seats tied for first (B-32, C-18)
    assert after[0] == after[1]
    assert after[0].mu > 25 > after[2].mu


def test_those_who_resigned_come_last_the_earliest_lowest() -> None:
    # the engine says seat 0 won and seat 2 came last; seats 0 then 3 resigned
    assert places_with_abandons([1, 2, 4, 3], [0, 3]) == [4, 1, 2, 3]
    assert places_with_abandons([1, 1, 3], []) == [1, 1, 3]  # ties kept
    assert places_with_abandons([2, 1], [1]) == [1, 2]  # the winner who resigned is last


def test_a_bots_rating_stands_and_a_newcomer_against_it_moves_a_long_way() -> None:
    ladder = shipped()
    bot = ladder["cards"]["2"]["intermediate"]
    fixed = Rating(bot["mu"], bot["sigma"])
    newcomer, bot_after = rate_game([Rating(), fixed], [2, 1])
    assert newcomer.mu < 25 - 1  # one loss to a bot is a real step down
    # the server never writes a bot's rating: what it reads next time is the file's
    assert shipped()["cards"]["2"]["intermediate"] == bot
    assert bot_after != fixed


def test_groups_and_provisional() -> None:
    assert group_of(2) == "2" and group_of(3) == group_of(4) == "3-4"
    assert PROVISIONAL_GAMES == 10


def test_a_ladder_plays_every_pair_and_fits_the_stronger_level_higher() -> None:
    assert lineups(["beginner", "intermediate", "strong"], 2) == [
        ["beginner", "intermediate"],
        ["beginner", "strong"],
        ["intermediate", "strong"],
    ]
    assert lineups(["beginner", "intermediate"], 4) == [
        ["beginner", "intermediate", "beginner", "beginner"],
        ["beginner", "intermediate", "intermediate", "intermediate"],
    ]

    def result(i: int, entrants: list[str], places: list[int]) -> GameResult:
        n = len(entrants)
        return GameResult(i, entrants, places, [0] * n, [0.0] * n, [0] * n, None, [0] * n)

    games = [
        [result(i, ["beginner", "intermediate"], [2, 1] if i % 3 else [1, 2]) for i in range(9)]
    ]
    fitted = fit(games)
    assert fitted["intermediate"]["mu"] > fitted["beginner"]["mu"]
    assert fitted["beginner"]["games"] == 9
