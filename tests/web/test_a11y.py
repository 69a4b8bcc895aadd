"""axe-core (pinned in package.json, read from node_modules) finds no serious or
critical violation on the lobby, both tables in the middle of a game with a decision
open (on a laptop and on a phone, in English and German), both replays and both rules
references."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Pages, Server
from tests.web.screens import AXE, LAPTOP, PHONE, axe_problems, board_revolt, cards_revolt, open_on
from tests.web.test_record_download import played_and_abandoned


@pytest.fixture(autouse=True)
def _axe_installed() -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make web-setup`")


def test_lobby_has_no_serious_violations(server: Server, pages: Pages) -> None:
    problems = []
    # Each screen in one language: English on the laptop, German on the phone.
    for screen, locale in ((LAPTOP, "en-US"), (PHONE, "de-DE")):
        page: Any = open_on(pages, f"{server.base}/", screen, locale=locale)
        page.wait_for_selector("[data-game=cards]")
        problems += axe_problems(page, f"lobby {screen.name} {locale}")
        page.click("[data-game=cards]")
        problems += axe_problems(page, f"lobby (cards) {screen.name} {locale}")
    assert not problems, "\n".join(problems)


def test_the_signed_in_lobby_and_quick_match_have_no_serious_violations(
    server: Server, pages: Pages
) -> None:
    """Signed in, the lobby offers quick match; waiting, it counts the wait."""
    from tests.web.test_tables import signed_in_context

    problems = []
    for screen, name in ((LAPTOP, "Ann"), (PHONE, "Bob")):
        page: Any = signed_in_context(pages, server.base, name, screen, "/")
        page.wait_for_selector(".quick-play[data-game=board]")
        problems += axe_problems(page, f"signed-in lobby {screen.name}")
        page.click(".quick-play[data-game=board]")
        page.wait_for_selector(".quick-wait")
        problems += axe_problems(page, f"lobby, quick match waiting {screen.name}")
        page.click(".quick-cancel")
        page.wait_for_selector(".quick-play[data-game=board]")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_name", ["board", "cards"])
def test_tables_have_no_serious_violations(server: Server, pages: Pages, game_name: str) -> None:
    game, seat = board_revolt(server) if game_name == "board" else cards_revolt(server)
    problems = []
    for screen, locale in ((LAPTOP, "en-US"), (PHONE, "de-DE"), (LAPTOP, "de-DE")):
        url = f"{server.base}/g/{game['id']}#s={game['seats'][seat]['token']}"
        page: Any = open_on(pages, url, screen, locale=locale)
        page.wait_for_selector(".decision.mine #commit")
        problems += axe_problems(page, f"{game_name} table {screen.name} {locale}")
        # The move log scrolls once it is long: it is reached by keyboard too.
        assert page.locator("ol.log").first.get_attribute("tabindex") == "0"
    # A spectator's page, with the other's decision pending.
    page = open_on(pages, f"{server.base}/g/{game['id']}", LAPTOP)
    page.wait_for_selector(".decision")
    problems += axe_problems(page, f"{game_name} spectator")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_name", ["board", "cards"])
def test_replays_have_no_serious_violations(server: Server, pages: Pages, game_name: str) -> None:
    game = played_and_abandoned(server, game_name, 12)
    problems = []
    for screen in (LAPTOP, PHONE):
        page: Any = open_on(pages, f"{server.base}/replay/{game['id']}", screen)
        page.wait_for_selector("#next")
        page.click("#next")
        problems += axe_problems(page, f"{game_name} replay {screen.name}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_name", ["board", "cards"])
def test_rules_reference_has_no_serious_violations(
    server: Server, pages: Pages, game_name: str
) -> None:
    """The reference page with its drawn examples, in both languages, on both screens."""
    problems = []
    for screen, lang in ((LAPTOP, "en"), (PHONE, "de")):
        page: Any = open_on(pages, f"{server.base}/rules/{game_name}?lang={lang}", screen)
        page.wait_for_selector("#rule-war svg, #rule-war figure", state="attached")
        problems += axe_problems(page, f"{game_name} rules {screen.name} {lang}")
    assert not problems, "\n".join(problems)


def test_my_games_profile_and_leaderboard_have_no_serious_violations(
    server: Server, pages: Pages
) -> None:
    """The lobby listing a game in play ("in play" once had 4.11:1 contrast on the
    card), a profile and a leaderboard, in English on the laptop and German on the
    phone."""
    from tests.web.test_tables import signed_in_context

    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    mine = [{"id": game["id"], "game": "board", "players": 2, "seats": [game["seats"][0]["token"]]}]
    problems = []
    for screen, locale, name in ((LAPTOP, "en-US", "Ann"), (PHONE, "de-DE", "Bob")):
        page: Any = open_on(pages, f"{server.base}/rules/board", screen, locale=locale)
        page.evaluate("(m) => localStorage.setItem('euphrates.games', JSON.stringify(m))", mine)
        page.goto(f"{server.base}/")
        page.wait_for_selector(".my-games .status.active")
        problems += axe_problems(page, f"lobby with a game in play {screen.name} {locale}")
        signed: Any = signed_in_context(pages, server.base, name, screen, f"/u/{name}")
        signed.wait_for_selector("main h1")
        problems += axe_problems(signed, f"profile {screen.name}")
        signed.goto(f"{server.base}/leaderboards?game=board&players=2")
        signed.wait_for_selector("main table, main .empty, main p")
        problems += axe_problems(signed, f"leaderboard {screen.name}")
    assert not problems, "\n".join(problems)
