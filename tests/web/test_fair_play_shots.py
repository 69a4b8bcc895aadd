"""Fair play as it looks, on the three screens every table is tried on (1400×900,
1024×768 touch, 390×844 touch) in English and German (tests/web/screenshots/fair-*):
the forfeit notice (calm for the others, urgent for the deserter), the vacation
setting and the table's vacation notice, the end banner of a rated duel with its
rating changes, and the fair-play page. Nothing spills sideways, and axe-core finds no
serious violation on the new parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import SCREENSHOTS, Pages, shot
from tests.web.fairplay_helpers import accounts, browser, club, game_doc, play_decisions, table
from tests.web.screens import SCREENS, axe_problems, no_sideways_scroll, open_on

LANGS = (("en", "en-US"), ("de", "de-DE"))


def test_the_forfeit_notice_on_every_screen(pages: Pages, tmp_path: Path) -> None:
    with club(pages, tmp_path, forfeit_grace=600.0) as base:
        people = accounts(base, "Ann", "Bob")
        gid = table(people, game="board", clock={"mode": "realtime", "bank": 1, "increment": 30})
        first = game_doc(people[0], gid)["game"]["clock"]["seat"]
        problems: list[str] = []
        for screen in SCREENS:
            for lang, locale in LANGS:
                for who, seat in (("deserter", first), ("other", 1 - first)):
                    page = browser(pages, people[seat], f"/g/{gid}", screen, locale)
                    page.wait_for_selector(
                        f".fair-notice.forfeit[data-seat='{first}']", timeout=15000
                    )
                    no_sideways_scroll(page)
                    shot(page, f"fair-forfeit-{who}-{screen.name}-{lang}")
                    problems += axe_problems(page, f"forfeit {who} {screen.name} {lang}")
                    page.context.close()
        assert not problems, "\n".join(problems)


def test_the_vacation_setting_on_every_screen(pages: Pages, tmp_path: Path) -> None:
    with club(pages, tmp_path) as base:
        ann, bob, cy = accounts(base, "Ann", "Bob", "Cy")
        gid = table([ann, bob], clock={"mode": "turn", "days": 1, "level": "beginner"})
        assert bob.post("/api/account/vacation", {"days": 5}).is_success
        problems: list[str] = []
        for screen in SCREENS:
            for lang, locale in LANGS:
                for who, person in (("idle", cy), ("away", bob)):
                    page = browser(pages, person, "/account/notifications", screen, locale)
                    page.wait_for_selector("#vacation-left")
                    page.locator("section.vacation").evaluate(
                        "e => e.scrollIntoView({block: 'center'})"
                    )
                    no_sideways_scroll(page)
                    page.screenshot(
                        path=str(SCREENSHOTS / f"fair-vacation-{who}-{screen.name}-{lang}.png")
                    )
                    problems += axe_problems(page, f"vacation {who} {screen.name} {lang}")
                    page.context.close()
                page = browser(pages, ann, f"/g/{gid}", screen, locale)
                page.wait_for_selector(".fair-notice.vacation")
                no_sideways_scroll(page)
                shot(page, f"fair-vacation-table-{screen.name}-{lang}")
                page.context.close()
        assert not problems, "\n".join(problems)


def test_the_end_banner_with_rating_changes_on_every_screen(pages: Pages, tmp_path: Path) -> None:
    with club(pages, tmp_path) as base:
        ann, bob = accounts(base, "Ann", "Bob")
        gid = table([ann, bob], game="board", rated=True)
        play_decisions(gid, {0: ann, 1: bob})
        assert ann.post(f"/api/games/{gid}/seats/0/resign").json()["status"] == "over"
        problems: list[str] = []
        for screen in SCREENS:
            for lang, locale in LANGS:
                page = browser(pages, bob, f"/g/{gid}", screen, locale)
                page.wait_for_selector(".end-banner .rating-change")
                no_sideways_scroll(page)
                shot(page, f"fair-end-banner-{screen.name}-{lang}")
                problems += axe_problems(page, f"end banner {screen.name} {lang}")
                page.context.close()
        assert not problems, "\n".join(problems)


def test_the_fair_play_page_on_every_screen(pages: Pages, tmp_path: Path) -> None:
    with club(pages, tmp_path) as base:
        problems: list[str] = []
        for screen in SCREENS:
            for lang, locale in LANGS:
                page: Any = open_on(pages, base + "/fair-play", screen, locale=locale)
                page.wait_for_selector("#fair-title")
                no_sideways_scroll(page)
                shot(page, f"fair-page-{screen.name}-{lang}")
                page.screenshot(
                    path=str(SCREENSHOTS / f"fair-page-whole-{screen.name}-{lang}.png"),
                    full_page=True,
                )
                problems += axe_problems(page, f"fair-play page {screen.name} {lang}")
                page.context.close()
        assert not problems, "\n".join(problems)
