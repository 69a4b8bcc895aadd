"""The pictures of docs/screenshots/ for the states the table gained with the rules
reference, the guided first game and the end-of-game statistics, at the three screens
every table is tried on. Taken only with EUPHRATES_DOC_SHOTS=1 (the chosen pictures
change only when someone means to change them); each asserts what it shows is there."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web.conftest import Pages, Server
from tests.web.screens import SCREENS, Screen, doc_shot, open_on
from tests.web.test_record_download import played_and_abandoned

pytestmark = pytest.mark.skipif(
    not os.environ.get("EUPHRATES_DOC_SHOTS"), reason="pictures for docs: EUPHRATES_DOC_SHOTS=1"
)


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_rules_tour_and_statistics_pictures(server: Server, pages: Pages, screen: Screen) -> None:
    page: Any = open_on(pages, f"{server.base}/rules/board", screen)
    page.wait_for_selector("#rule-war svg", state="attached")
    doc_shot(page, f"rules-{screen.name}")

    page = open_on(pages, f"{server.base}/", screen)
    page.click(".learn-game[data-game=board]")
    page.wait_for_selector(".tour[data-step='intro.1']")
    page.click(".tour button:has-text('Next')")
    page.wait_for_selector(".tour[data-step='intro.2']")
    doc_shot(page, f"tour-{screen.name}")

    game = played_and_abandoned(server, "board", 24)
    page = open_on(pages, f"{server.base}/replay/{game['id']}", screen)
    page.wait_for_selector("#next")
    page.keyboard.press("End")
    page.wait_for_selector("table.stats")
    page.locator("table.stats").scroll_into_view_if_needed()
    doc_shot(page, f"statistics-{screen.name}")
