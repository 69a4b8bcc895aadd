"""Fair play at the table (docs/fair-play.md), in the browser: a deserter's seat
counting down to a bot and then lost to it; a vacation from the settings page, seen at
the table; the end of a rated duel left by resigning, with each player's rating change
equal to the profile's and to OpenSkill's, the resigner's name kept; an aborted game;
a rated table offering only the bots' levels with a measured rating; the players'
page of the rules stating the server's own figures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from euphrates.bots.levels import LEVELS
from euphrates.match.ladder import shipped
from euphrates.match.ratings import Rating, display, rate_game
from euphrates.server.common.clock import MISSES
from euphrates.server.common.config import Settings
from euphrates.server.features.fairplay.fairplay import ABORT_LIMIT, VACATION_DAYS
from euphrates.server.game.lifecycle import MIN_DECISIONS
from euphrates.server.store.fairplay import MARKS_KEPT
from euphrates.server.store.ratings import PAIR_LIMIT
from tests.server.people import Person
from tests.web.conftest import Pages, Server
from tests.web.fairplay_helpers import (
    accounts,
    browser,
    club,
    forget_refusals,
    game_doc,
    play_decisions,
    table,
)
from tests.web.screens import LAPTOP
from tests.web.test_tables import signed_in_context

GRACE = 8.0
"""The forfeit grace of the deserter's test: long enough to see it count down."""


def countdown(page: Any, seat: int) -> int:
    """The seconds a forfeit notice of `seat` shows left."""
    text = page.locator(f".fair-notice.forfeit[data-seat='{seat}'] .countdown").inner_text()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_deserters_seat_counts_down_and_goes_to_a_bot(pages: Pages, tmp_path: Path) -> None:
    """Three players on a real-time clock: the first to move runs out of time and stays
    away. Everyone sees the calm notice with its countdown; the deserter's own page is
    told urgently to move. When the grace has passed, the seat is a bot's for good: the
    log says so, the seat keeps its player's name with a bot marked, the notice is gone
    and the game goes on."""
    with club(pages, tmp_path, bot_workers=1, forfeit_grace=GRACE) as base:
        people = accounts(base, "Ann", "Bob", "Cy")
        clock = {"mode": "realtime", "bank": 2, "increment": 60}
        gid = table(people, game="board", clock=clock)
        first = game_doc(people[0], gid)["game"]["clock"]["seat"]
        other = (first + 1) % 3
        names = ["Ann", "Bob", "Cy"]
        deserter = browser(pages, people[first], f"/g/{gid}")
        watcher = browser(pages, people[other], f"/g/{gid}")
        calm = watcher.locator(f".fair-notice.forfeit[data-seat='{first}']")
        calm.wait_for(timeout=15000)
        assert "urgent" not in (calm.get_attribute("class") or "")
        text = calm.inner_text()
        assert text.startswith(
            f"{names[first]}’s time ran out — the seat goes to a bot for good in "
        )
        assert text.endswith(f"unless {names[first]} moves."), text
        left = countdown(watcher, first)
        assert 0 < left <= GRACE
        watcher.wait_for_function(  # it ticks down
            f"(n) => {{ const e = document.querySelector(\".fair-notice[data-seat='{first}'] .countdown\");"
            " if (!e) return false; const [m, s] = e.textContent.split(':'); return Number(m) * 60 + Number(s) < n; }",
            arg=left,
        )
        urgent = deserter.locator(f".fair-notice.forfeit.urgent[data-seat='{first}']")
        urgent.wait_for()
        assert urgent.locator("[role=alert]").count() == 1
        assert "Move now to keep your seat" in urgent.inner_text()
        # The grace passes: the seat is forfeited and a bot plays it for the others.
        watcher.wait_for_selector("ol.log li.note[data-note='forfeited']", timeout=30000)
        note = watcher.locator("ol.log li.note[data-note='forfeited']").inner_text()
        assert (
            note
            == f"{names[first]} was gone too long: the seat is forfeited and a bot (intermediate) plays it to the end"
        )
        head = watcher.locator(f".seat[data-seat='{first}'] .seat-head")
        head.locator(".tag.bot-plays").wait_for()
        assert head.locator(".seat-name").inner_text() == names[first]
        assert watcher.locator(f".fair-notice.forfeit[data-seat='{first}']").count() == 0
        doc = game_doc(people[other], gid)
        assert doc["game"]["status"] == "active"
        assert doc["game"]["seats"][first]["kind"] == "bot"
        assert doc["game"]["seats"][first]["name"] == names[first]


def test_a_vacation_from_the_settings_stops_the_clock_at_the_table(
    pages: Pages, tmp_path: Path
) -> None:
    """Ann starts a vacation on her settings page: the days left this year shrink, the
    page says until when. At the turn-based table Bob sees that she is away until then,
    her clock paused, the log's note. Ann ends it early: the notice goes, her clock
    runs again. A number of days beyond the year's is refused, said with role=alert."""
    with club(pages, tmp_path) as base:
        ann, bob = accounts(base, "Ann", "Bob")
        gid = table([ann, bob], clock={"mode": "turn", "days": 1, "level": "beginner"})
        settings = browser(pages, ann, "/account/notifications")
        settings.wait_for_selector("#vacation-title")
        left = settings.locator("#vacation-left")
        assert (
            left.inner_text()
            == f"Days of vacation left this year: {VACATION_DAYS} of {VACATION_DAYS}"
        )
        assert settings.locator("#vacation-days").get_attribute("max") == str(VACATION_DAYS)
        settings.fill("#vacation-days", "3")
        settings.click("#start-vacation")
        settings.wait_for_selector("#vacation-until")
        state = ann.get("/api/account/vacation").json()
        assert state["on_vacation"] and state["ends"]
        assert (
            left.inner_text()
            == f"Days of vacation left this year: {VACATION_DAYS - 3} of {VACATION_DAYS}"
        )
        assert (
            settings.locator("#vacation-done").inner_text().startswith("Your vacation has started")
        )

        page = browser(pages, bob, f"/g/{gid}")
        notice = page.locator(".fair-notice.vacation[data-seat='0']")
        notice.wait_for()
        assert re.fullmatch(
            r"Ann is on vacation until .+: their turns wait, no deadline passes\.",
            notice.inner_text(),
        )
        assert (
            page.locator(".seat[data-seat='0'] .clock-note.paused").inner_text()
            == "paused (vacation)"
        )
        page.wait_for_selector("ol.log li.note[data-note='vacation']")
        assert page.locator("ol.log li.note[data-note='vacation']").inner_text() == (
            "Ann is on vacation: their turn-based clock stands still"
        )
        mine = browser(pages, ann, f"/g/{gid}")
        assert (
            mine.locator(".fair-notice.vacation")
            .inner_text()
            .startswith("You are on vacation until ")
        )

        settings.click("#end-vacation")
        settings.wait_for_selector("#start-vacation")
        assert (
            settings.locator("#vacation-done").inner_text()
            == "Welcome back: your clocks run again."
        )
        notice.wait_for(state="detached")
        assert page.locator(".seat[data-seat='0'] .clock-note.paused").count() == 0
        assert game_doc(bob, gid)["game"]["clock"]["paused"] == [None, None]

        settings.fill("#vacation-days", str(VACATION_DAYS + 1))
        settings.click("#start-vacation")
        error = settings.locator("#vacation-error")
        error.wait_for()
        assert error.get_attribute("role") == "alert"
        assert not ann.get("/api/account/vacation").json()["on_vacation"]
        forget_refusals(pages, 400)


def change_text(before: int, after: int) -> str:
    diff = after - before
    return f"{before} → {after} ({'+' if diff > 0 else '−' if diff < 0 else '±'}{abs(diff)})"


def test_the_end_of_a_rated_duel_left_by_resigning(pages: Pages, tmp_path: Path) -> None:
    """Both players made the decisions that make the game count; then Ann resigns at the
    table. The duel ends at once (the engine has no result): the banner names Bob the
    winner, Ann second and marked as resigned — under her own name, not the bot's that
    took her seat — and each player's rating change, equal to the profile's history and
    to OpenSkill's for that order. The replay's last step shows the same banner."""
    with club(pages, tmp_path) as base:
        ann, bob = accounts(base, "Ann", "Bob")
        gid = table([ann, bob], rated=True)
        made = play_decisions(gid, {0: ann, 1: bob})
        assert min(made.values()) >= MIN_DECISIONS
        resigner = browser(pages, ann, f"/g/{gid}")
        winner = browser(pages, bob, f"/g/{gid}")
        resigner.once("dialog", lambda d: d.accept())
        resigner.click(".rated-panel button.resign")
        winner.wait_for_selector(".end-banner", timeout=20000)
        expected = [display(r.mu, r.sigma) for r in rate_game([Rating(), Rating()], [2, 1])]
        start = display(Rating().mu, Rating().sigma)
        history = {name: profile_change(base, name, gid) for name in ("Ann", "Bob")}
        assert history == {"Ann": (start, expected[0]), "Bob": (start, expected[1])}
        for page in (resigner, winner):
            page.wait_for_selector(".end-banner", timeout=20000)
            assert page.locator(".end-winner").inner_text() == "Bob wins!"
            assert page.locator("#status").inner_text() == "Game over: Bob wins"
            places = page.locator(".end-places li")
            assert places.evaluate_all(
                "els => els.map(e => [e.dataset.seat, e.dataset.place, e.dataset.left ?? null])"
            ) == [["1", "1", None], ["0", "2", "resigned"]]
            ann_row = page.locator(".end-places li[data-seat='0']")
            assert ann_row.locator(".end-name").inner_text() == "2. Ann"
            assert ann_row.locator(".left-tag").inner_text() == "resigned"
            for seat, name in ((0, "Ann"), (1, "Bob")):
                shown = page.locator(f".end-places li[data-seat='{seat}'] .rating-change")
                assert shown.inner_text() == change_text(*history[name]), name
            assert page.locator(".seat[data-seat='0'] .seat-name").inner_text() == "Ann"
        note = winner.locator("ol.log li.note[data-note='resigned']").inner_text()
        assert note == "Ann resigned: the game ends, Bob wins"
        replay = browser(pages, bob, f"/replay/{gid}")
        replay.wait_for_selector("#next")
        replay.keyboard.press("End")
        replay.wait_for_selector(".end-banner")
        assert replay.locator(".end-places li[data-seat='0'] .end-name").inner_text() == "2. Ann"
        assert replay.locator(".end-places li[data-seat='1'] .rating-change").inner_text() == (
            change_text(*history["Bob"])
        )


def profile_change(base: str, name: str, game_id: str) -> tuple[int, int]:
    """The rating before and after `game_id` on `name`'s profile (GET /api/users/NAME)."""
    rated = Person(base).get(f"/api/users/{name}").json()["rated"]
    entry = next(r for r in rated if r["id"] == game_id)
    return int(entry["before"]), int(entry["after"])


def test_a_rated_game_left_before_it_was_played_shows_aborted(pages: Pages, tmp_path: Path) -> None:
    """Ann resigns a rated duel before anyone moved: the game is aborted, rated for
    nobody. The table's header, its banner and its log say so, and so does Bob's list
    of games in the lobby."""
    with club(pages, tmp_path) as base:
        ann, bob = accounts(base, "Ann", "Bob")
        gid = table([ann, bob], rated=True)
        resigner = browser(pages, ann, f"/g/{gid}")
        other = browser(pages, bob, f"/g/{gid}")
        resigner.once("dialog", lambda d: d.accept())
        resigner.click(".rated-panel button.resign")
        for page in (resigner, other):
            banner = page.locator(".end-banner.aborted")
            banner.wait_for(timeout=20000)
            assert banner.locator("h2").inner_text() == "Aborted — not rated"
            assert banner.locator(".end-why").inner_text() == (
                "Ann left before the game was played: it counts for nobody."
            )
            assert page.locator("#status").inner_text() == "aborted — not rated"
            assert page.locator(".rated-panel button.resign").count() == 0
        assert other.locator("ol.log li.note[data-note='aborted']").inner_text() == (
            "Ann left before the game was played: it is aborted and rated for nobody"
        )
        assert game_doc(bob, gid)["game"]["status"] == "aborted"
        other.goto(base + "/")
        row = other.locator(f".my-games li[data-id='{gid}']")
        row.wait_for()
        assert row.locator(".status.aborted").inner_text() == "aborted — not rated"
        assert row.locator("a[href='/replay/" + gid + "']").count() == 1


def measured(game: str, group: str) -> list[str]:
    """The levels the ladder measured, in the server's order (match/ladder.py)."""
    return [lv for lv in LEVELS if lv in shipped()[game][group]]


def options(page: Any, select: str) -> list[str]:
    found: list[str] = page.locator(f"{select} option").evaluate_all("xs => xs.map(x => x.value)")
    return found


def test_a_rated_table_offers_only_the_measured_levels(server: Server, pages: Pages) -> None:
    """An open table offers every level; made rated, only those with a measured rating
    for its number of players (a duel has strong, three or four players not), a level
    chosen before becoming the nearest offered below it. The table is created with it,
    and its host's "Start now with bots" offers the same levels."""
    page = signed_in_context(pages, server.base, "Ann", LAPTOP, "/")
    page.wait_for_selector("#open-table:enabled")
    page.check("#open-table")
    assert options(page, "select[name=seat1]") == ["invite", *[f"bot:{lv}" for lv in LEVELS]]
    page.select_option("select[name=seat1]", "bot:expert")
    page.check("#rated-table")
    two = measured("board", "2")
    assert two == ["beginner", "intermediate", "strong"]
    assert options(page, "select[name=seat1]") == ["invite", *[f"bot:{lv}" for lv in two]]
    assert page.locator("select[name=seat1]").input_value() == "bot:strong"
    assert page.locator("#rated-rules").get_attribute("href") == "/fair-play"
    page.click("button[data-players='3']")
    more = measured("board", "3-4")
    assert more == ["beginner", "intermediate", "strong"]
    for seat in (1, 2):
        assert options(page, f"select[name=seat{seat}]") == [
            "invite",
            *[f"bot:{lv}" for lv in more],
        ]
    assert page.locator("select[name=seat1]").input_value() == "bot:strong"
    page.select_option("select[name=seat2]", "invite")
    page.click("#create")
    page.wait_for_url("**/g/*")
    page.wait_for_selector("#start-level option", state="attached")
    assert options(page, "#start-level") == more
    game = server.call("GET", "/api/games/" + page.url.rsplit("/", 1)[1])["game"]
    assert game["rated"] is True
    assert [(s["kind"], s["level"]) for s in game["seats"]] == [
        ("human", None),
        ("bot", "strong"),
        ("human", None),
    ]


def figures(page: Any) -> dict[str, str]:
    page.wait_for_selector("#fair-title")
    found: dict[str, str] = page.locator("[data-figure]").evaluate_all(
        "xs => Object.fromEntries(xs.map(x => [x.dataset.figure, x.textContent]))"
    )
    return found


def test_the_fair_play_page_states_the_servers_figures(
    server: Server, pages: Pages, tmp_path: Path
) -> None:
    """/fair-play, from the lobby's header: every figure of the rules as the server
    keeps it (its constants, its settings), in both languages; a server with another
    grace and hint budget is stated as it is."""
    page = pages.open(server.base + "/")
    page.wait_for_selector("[data-game=cards]")  # drawn again once the server's offer came
    page.click("#fair-play")
    page.wait_for_url("**/fair-play")
    defaults = Settings()
    assert figures(page) == {
        "levels-2": "beginner, intermediate and strong",
        "levels-3-4": "beginner, intermediate and strong",
        "min_decisions": str(MIN_DECISIONS),
        "abort_limit": str(ABORT_LIMIT),
        "pair_limit": str(PAIR_LIMIT),
        "marks_days": str(MARKS_KEPT.days),
        "forfeit_grace": f"{defaults.forfeit_grace:g}",
        "misses": str(MISSES),
        "vacation_days": str(VACATION_DAYS),
        "hints_per_minute": f"{defaults.hints_per_minute:g}",
    }
    text = page.locator("main").inner_text()
    assert f"Each person’s seat must make {MIN_DECISIONS} decisions of its own" in text
    assert f"within {defaults.forfeit_grace:g} seconds" in text
    page.click(".lang button[lang=de]")
    page.wait_for_selector("h1:text('Fairplay')")
    assert figures(page)["levels-3-4"] == "Anfänger, Fortgeschritten und Stark"
    assert f"binnen {defaults.forfeit_grace:g} Sekunden" in page.locator("main").inner_text()

    # A server whose ratings measure a level in one game only says which.
    def one_game_only(route: Any) -> None:
        offer = route.fetch().json()
        offer["rated_levels"]["board"]["3-4"].remove("strong")
        route.fulfill(json=offer)

    page.route("**/api/meta", one_game_only)
    page.reload()
    assert figures(page)["levels-3-4"] == "Anfänger, Fortgeschritten und Stark (nur im Kartenspiel)"
    page.click(".lang button[lang=en]")
    page.wait_for_selector("h1:text('Fair play')")
    assert figures(page)["levels-3-4"] == "beginner, intermediate and strong (card game only)"
    page.unroute("**/api/meta")

    with club(pages, tmp_path, forfeit_grace=45.0, hints_per_minute=6.0) as base:
        other = pages.open(base + "/fair-play")
        shown = figures(other)
        assert (shown["forfeit_grace"], shown["hints_per_minute"]) == ("45", "6")


def test_missed_deadlines_are_counted_then_the_seat_is_forfeited(
    pages: Pages, tmp_path: Path
) -> None:
    """A turn-based duel whose players never move (a day is three seconds here): the
    first to move misses a deadline, a bot plays that turn, and the table counts it —
    "missed 1 of 2" — for everyone, and tells its own player what a second miss does.
    The second miss in a row forfeits the seat: the duel ends, the deserter marked."""
    with club(pages, tmp_path, bot_workers=1, clock_day=3.0) as base:
        ann, bob = accounts(base, "Ann", "Bob")
        gid = table(
            [ann, bob], game="board", clock={"mode": "turn", "days": 1, "level": "beginner"}
        )
        first = game_doc(ann, gid)["game"]["clock"]["seat"]
        names = ("Ann", "Bob")
        own = browser(pages, (ann, bob)[first], f"/g/{gid}")
        other = browser(pages, (ann, bob)[1 - first], f"/g/{gid}")
        notice = other.locator(f".fair-notice.missed[data-seat='{first}']")
        notice.wait_for(timeout=30000)
        assert notice.inner_text() == (
            f"{names[first]} missed 1 of {MISSES} deadlines in a row: at {MISSES} the seat goes to a bot for good."
        )
        assert (
            other.locator(f".seat[data-seat='{first}'] .clock-note.missed").inner_text()
            == f"missed 1 of {MISSES}"
        )
        mine = own.locator(f".fair-notice.missed.urgent[data-seat='{first}']")
        mine.wait_for()
        assert mine.inner_text().startswith(f"You missed 1 of {MISSES} deadlines in a row")
        banner = other.locator(".end-banner")
        banner.wait_for(timeout=60000)
        row = banner.locator(f".end-places li[data-seat='{first}']")
        assert row.get_attribute("data-left") == "forfeited"
        assert row.locator(".end-name").inner_text() == f"2. {names[first]}"
        assert other.locator(".end-winner").inner_text() == f"{names[1 - first]} wins!"
        assert other.locator(".fair-notice").count() == 0
        assert other.locator("ol.log li.note[data-note='forfeited']").inner_text() == (
            f"{names[first]} was gone too long: the seat is forfeited, the game ends and {names[1 - first]} wins"
        )
