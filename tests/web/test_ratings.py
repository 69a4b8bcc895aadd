"""A rated game from sign-up to the leaderboard, in two browsers: Ann and Bob sign up;
Ann opens a rated card table on a five-second real-time clock; Bob finds it in his
lobby, marked rated, and sits; the game starts. Whoever must move first runs out of
time and the other lets a bot play for them; then the other runs out too and the first
lets a bot play for them, so bots finish the game. Both ratings changed: each profile
shows its rating, its chart and the rated game with a working replay link, and the
leaderboard lists both among the bots. Then the leaderboard and a profile at the three
screens (screenshots, no sideways scroll, axe-core)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from euphrates.server.game.lifecycle import MIN_DECISIONS
from tests.web.conftest import Pages, Server, serving, shot
from tests.web.screens import SCREENS, Screen, axe_problems, no_sideways_scroll
from tests.web.server_forks import ServerForks
from tests.web.test_tables import sign_up, signed_in_context


def csrf(page: Any, base: str) -> str:
    """The CSRF token of the page's session, as its scripts read it."""
    token: str = page.request.get(base + "/api/account").json()["csrf"]
    return token


def rated_open_table(page: Any, base: str) -> str:
    """A rated open card table for two, on a five-second clock, opened by the signed-in
    page's account (the lobby's clocks are the presets: the API takes any bank)."""
    body = {
        "game": "cards",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "open": True,
        "rated": True,
        "clock": {"mode": "realtime", "bank": 5, "increment": 0},
    }
    r = page.request.post(
        base + "/api/games", data=body, headers={"x-csrf-token": csrf(page, base)}
    )
    assert r.status == 201, r.text()
    game_id: str = r.json()["id"]
    return game_id


def let_a_bot_play(page: Any, seat: int) -> None:
    """On `page`, wait until `seat` is out of time, then let a beginner bot play it."""
    button = page.locator(f".seat[data-seat='{seat}'] .clock-standin")
    button.wait_for(timeout=30000)
    page.locator(f".seat[data-seat='{seat}'] .clock-level").select_option("beginner")
    button.click()
    page.wait_for_selector(f".seat[data-seat='{seat}'] .clock-note", timeout=15000)


def rating_of(page: Any, base: str, name: str, game_id: str) -> int:
    """The cards two-player rating `name`'s profile shows, once it shows the game."""
    # The ratings are written just after the game's end (a follow-up of its last
    # write): a profile opened at the end banner may come before them, and a profile
    # is drawn once, so it is opened again, as a player would, until it has them.
    row = page.locator(".ratings li.rating[data-game='cards'][data-group='2']")
    deadline = time.monotonic() + 90
    while True:
        page.goto(f"{base}/u/{name}")
        page.wait_for_selector("#profile-name")
        try:
            row.wait_for(timeout=3000)
            break
        except PlaywrightTimeout:
            assert time.monotonic() < deadline, f"{name}'s profile never showed the rating"
    value = int(row.locator(".value").inner_text())
    assert "provisional" in row.inner_text()
    assert page.locator(".ratings svg.history polyline").count() == 1
    rated = page.locator(".rated-games li")
    assert rated.count() == 1
    assert rated.locator(".change").inner_text() == f"1000 → {value}"
    assert rated.locator("a").get_attribute("href") == f"/replay/{game_id}"
    return value


@pytest.fixture
def patient_server(forks: ServerForks, tmp_path: Path) -> Iterator[Server]:
    """A bot server whose out-of-time seats are forfeited only after ten minutes. Here
    both players run out of time at once and bots play the whole game for them: with
    the usual 60 s grace (docs/fair-play.md) a loaded machine's bots had not finished
    when it ran out, the seats were forfeited, and the unplayed rated game was aborted,
    rated for nobody. The forfeit has tests of its own; this one is about ratings."""
    with serving(forks, tmp_path, 1, forfeit_grace=600) as s:
        yield s


def test_a_rated_game_on_the_clock_ends_with_bots_and_both_ratings_show(
    patient_server: Server, pages: Pages
) -> None:
    base = patient_server.base
    # Two pages follow a whole bot game move by move while the bot worker plays it; on
    # two loaded cores a navigation after it once took longer than Playwright's default
    # 30 s. Every wait is still on what the page shows, only bounded later.
    ann = pages.open(base + "/")
    ann.set_default_timeout(90_000)
    sign_up(ann, "Ann")
    bob = pages.open(base + "/")
    bob.set_default_timeout(90_000)
    sign_up(bob, "Bob")
    # the lobby offers "rated" with an open table, to a signed-in player
    ann.check("#open-table")
    ann.check("#rated-table")
    shot(ann, "ratings-lobby-rated")
    game_id = rated_open_table(ann, base)
    ann.goto(f"{base}/g/{game_id}")
    ann.wait_for_selector(".waiting-banner")

    table = bob.locator(f".open-table[data-id='{game_id}']")
    table.wait_for()
    assert table.locator(".tag.rated").inner_text() == "Rated"
    shot(bob, "ratings-lobby-table")
    table.locator("button.sit[data-seat='1']").click()
    bob.wait_for_url(f"**/g/{game_id}")
    for page in (ann, bob):
        page.wait_for_selector(".seat .clock.running", timeout=20000)
        page.wait_for_selector(".rated-panel .tag.rated")
        assert page.locator(".rated-panel button.resign").count() == 1
    shot(bob, "ratings-table")
    first = int(ann.locator(".seat:has(.clock.running)").first.get_attribute("data-seat"))
    pages_by_seat = {0: ann, 1: bob}
    # the first to move runs out of time: the other lets a bot play for them
    let_a_bot_play(pages_by_seat[1 - first], first)
    # then the other runs out too, and the first lets a bot play for them
    let_a_bot_play(pages_by_seat[first], 1 - first)
    for page in (ann, bob):
        page.wait_for_selector(".end-banner", timeout=180000)
        assert page.locator(".rated-panel button.resign").count() == 0
    ann_rating = rating_of(ann, base, "Ann", game_id)
    bob_rating = rating_of(bob, base, "Bob", game_id)
    assert ann_rating != 1000 and bob_rating != 1000  # both ratings changed

    # the leaderboard, from the lobby's link
    bob.goto(base + "/")
    # drawn signed out first, then again once the account arrives: a click between the
    # two drawings lands on a link already replaced
    bob.wait_for_selector("#open-table:enabled")
    bob.click("#leaderboards")
    bob.wait_for_url("**/leaderboards")
    bob.click("button[data-game='cards']")
    bob.click("button[data-players='2']")
    rows = bob.locator("table.board-table[data-game='cards'][data-players='2'] tr.person")
    rows.nth(1).wait_for()
    shown = {
        r.get_attribute("data-name"): int(r.locator(".number").inner_text()) for r in rows.all()
    }
    assert shown == {"Ann": ann_rating, "Bob": bob_rating}
    assert bob.locator("table.board-table tr.bot").count() >= 2  # the bots, marked
    # the replay the profile links to
    ann.click(".rated-games a")
    ann.wait_for_url(f"**/replay/{game_id}")
    ann.wait_for_selector("#next")
    ann.wait_for_selector("svg.layout")


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_leaderboard_and_profile_on_every_screen(
    bot_server: Server, pages: Pages, screen: Screen
) -> None:
    base = bot_server.base
    page = signed_in_context(pages, base, "Ann", screen, "/")
    game_id = rated_table_lost_to_a_bot(page, base)
    problems: list[str] = []
    for lang in ("en", "de"):
        page.goto(f"{base}/u/Ann")
        if lang == "de":
            page.click(".lang button[lang='de']")
        page.wait_for_selector(".rated-games li a")
        page.wait_for_selector("svg.history")
        assert page.locator(".rated-games a").get_attribute("href") == f"/replay/{game_id}"
        no_sideways_scroll(page)
        shot(page, f"ratings-profile-{screen.name}-{lang}")
        problems += axe_problems(page, f"profile {screen.name} {lang}")
        page.goto(f"{base}/leaderboards?game=cards&players=2")
        page.wait_for_selector("table.board-table tr.person[data-name='Ann']")
        no_sideways_scroll(page)
        shot(page, f"ratings-leaderboard-{screen.name}-{lang}")
        problems += axe_problems(page, f"leaderboard {screen.name} {lang}")
    assert not problems, "\n".join(problems)


def rated_table_lost_to_a_bot(page: Any, base: str) -> str:
    """A rated card game of the page's account against an intermediate bot, resigned
    once the account made the decisions that make it count (docs/fair-play.md: left
    earlier, it would be aborted, unrated): the duel ends, the account last."""
    body = {
        "game": "cards",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "intermediate"}],
        "open": False,
        "rated": True,
    }
    headers = {"x-csrf-token": csrf(page, base)}
    r = page.request.post(base + "/api/games", data=body, headers=headers)
    assert r.status == 201, r.text()
    doc = r.json()
    game_id: str = doc["id"]
    auth = {**headers, "authorization": f"Bearer {doc['seats'][0]['token']}"}
    assert page.request.post(f"{base}/api/games/{game_id}/join", data={}, headers=auth).ok
    play_own_decisions(page, base, game_id, auth)
    page.goto(f"{base}/g/{game_id}")
    page.wait_for_selector(".rated-panel button.resign")
    page.once("dialog", lambda d: d.accept())
    page.click(".rated-panel button.resign")
    page.wait_for_selector(".end-banner", timeout=180000)
    return game_id


def play_own_decisions(page: Any, base: str, game_id: str, auth: dict[str, str]) -> None:
    """Seat 0 makes MIN_DECISIONS decisions of its own (its first legal action each time),
    asking the game again until it is seat 0's to decide while the bot moves between
    (as tests/server/playing.py does)."""
    made = 0
    deadline = time.monotonic() + 120
    while made < MIN_DECISIONS:
        assert time.monotonic() < deadline, f"seat 0 made {made} decisions"
        doc = page.request.get(f"{base}/api/games/{game_id}", headers=auth).json()
        view = doc["views"]["0"]
        decision = view.get("decision")
        if decision is None or decision["seat"] != 0 or not view.get("legal"):
            page.wait_for_timeout(50)
            continue
        body = {"version": doc["version"], "seat": 0, "action": view["legal"][0]}
        if page.request.post(f"{base}/api/games/{game_id}/actions", data=body, headers=auth).ok:
            made += 1
