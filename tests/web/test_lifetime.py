"""The profile's lifetime statistics and rating chart in a browser: Ann plays two rated
card duels against a bot (resigned once they count) and a whole board game against
Bob; her profile shows the figures, the head-to-head table with Bob linked, the summed
statistics, and the rating chart with its axes (dates, ratings), its title and
description and the table beside it. Then the profile on every screen in every
language: screenshots (tests/web/screenshots/lifetime-<screen>-<lang>.png), no sideways
scroll, no English left in the other languages, axe-core finds nothing serious."""

from __future__ import annotations

import re
from typing import Any

from euphrates.server.game.lifecycle import MIN_DECISIONS
from tests.server.lifetimes import Seat, create, play_out
from tests.server.people import Person
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import english_words
from tests.web.screens import SCREENS, axe_problems, no_sideways_scroll, open_on

LOCALES = {"en": "en-US", "de": "de-DE", "nl": "nl-NL", "hu": "hu-HU"}


def played(base: str) -> None:
    """Ann's games: two rated card duels against an intermediate bot, each resigned once
    it counts (she is last, her rating moves), and a whole board game against Bob."""
    ann, bob = Person(base), Person(base)
    assert ann.signup("Ann").status_code == 201
    assert bob.signup("Bob").status_code == 201
    for seed in (1, 2):
        seats = [
            Seat(person=ann, account="Ann", resign_after=MIN_DECISIONS),
            Seat(bot="intermediate"),
        ]
        game = create(ann, "cards", seats, rated=True)
        play_out(game, seed)
        assert game.status == "over"
    game = create(ann, "board", [Seat(person=ann, account="Ann"), Seat(person=bob, account="Bob")])
    play_out(game, 3)
    assert game.status == "over"


def check_profile(page: Any) -> None:
    """What the profile shows of Ann's games, in any language."""
    page.wait_for_selector(".lifetime .life-figures")
    life = page.locator(".lifetime")
    assert life.get_attribute("data-set") == "all"
    games = life.locator(".figure[data-figure='games'] dd").inner_text()
    assert games == "3"
    assert life.locator(".figure[data-figure='rated'] dd").inner_text() == "2"
    bob = life.locator(".head-to-head tr[data-kind='account'][data-name='Bob']")
    assert bob.locator("a").get_attribute("href") == "/u/Bob"
    assert bob.locator("td[data-col='games']").inner_text() == "1"
    assert life.locator(".head-to-head tr[data-kind='bot'][data-name='intermediate']").count() == 1
    assert life.locator(".life-stats tbody tr").count() == 16
    # the rating chart: its axes, their labels, a title and a description, a table
    chart = page.locator(".ratings li.rating[data-game='cards'][data-group='2'] svg.history")
    assert chart.get_attribute("data-points") == "3"
    assert chart.locator(".axis-x").count() == 1 and chart.locator(".axis-y").count() == 1
    assert chart.locator(".tick-x").count() in (1, 2) and chart.locator(".tick-y").count() >= 2
    assert (chart.locator(".tick-x").first.text_content() or "").strip()
    assert chart.locator("title").count() == 1 and chart.locator("desc").count() == 1
    labelled = chart.get_attribute("aria-labelledby") or ""
    assert len(labelled.split()) == 2
    table = page.locator(".ratings li.rating[data-game='cards'] .rating-table")
    assert table.locator("tbody tr").count() == 2


def test_the_profile_shows_lifetime_figures_and_the_rating_chart(
    bot_server: Server, pages: Pages
) -> None:
    base = bot_server.base
    played(base)
    page = pages.open(f"{base}/u/Ann")
    check_profile(page)
    # one game and number of players chosen: its figures alone
    page.select_option("#life-set", "board:2")
    page.wait_for_selector(".lifetime[data-set='board:2']")
    life = page.locator(".lifetime")
    assert life.locator(".figure[data-figure='games'] dd").inner_text() == "1"
    assert life.locator(".head-to-head tbody tr").count() == 1
    assert page.evaluate("() => document.activeElement.id") == "life-set"
    # the chart's table opens, and a click on Bob's name opens his profile
    page.locator(".rating-table summary").first.click()
    assert page.locator(".rating-table table").first.is_visible()
    life.locator(".head-to-head a").click()
    page.wait_for_url("**/u/Bob")
    page.wait_for_selector(".lifetime .head-to-head tr[data-name='Ann'] a")

    problems: list[str] = []
    for screen in SCREENS:
        for lang, locale in LOCALES.items():
            view = open_on(pages, f"{base}/u/Ann", screen, locale=locale)
            check_profile(view)
            assert view.evaluate("() => document.documentElement.lang") == lang
            no_sideways_scroll(view)
            if lang != "en":
                english = english_words(lang=lang) | english_words(cards=True, lang=lang)
                text = view.locator("main").inner_text()
                found = sorted(
                    {w for w in re.findall(r"[^\W\d_]{3,}", text) if w.lower() in english}
                )
                assert not found, (lang, screen.name, found)
            view.evaluate("() => document.querySelector('.lifetime').scrollIntoView()")
            shot(view, f"lifetime-{screen.name}-{lang}")
            view.evaluate("() => window.scrollTo(0, 0)")
            shot(view, f"lifetime-top-{screen.name}-{lang}")
            problems += axe_problems(view, f"profile {screen.name} {lang}")
            view.context.close()
    assert not problems, "\n".join(problems)
