"""A tournament in the browser, from its creation to its winner. Ann creates a Swiss of
duels from the lobby's form (bots of the beginner level fill an empty seat); Bob and Cy,
each in a browser of their own, enter from its page, which Ann sees grow without
reloading; Ann starts it; Cy's lobby tells her that her game has begun; each plays
their own seat from their own browser (its session, its CSRF proof) until the games
end; every page then shows the winner, who is the one the games' results make first.
Then the page at the three screens in the four languages (no sideways scroll, axe-core
with no serious finding)."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from euphrates.words.book import LANGS
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import choose_lang
from tests.web.screens import (
    LAPTOP,
    PHONE,
    SCREENS,
    TABLET,
    Screen,
    axe_problems,
    no_sideways_scroll,
    open_on,
)
from tests.web.test_tables import PASSWORD, signed_in_context

PLAY = """async ([gid, least]) => {
  // This browser's account plays its seat of `gid`: random legal actions, and it
  // resigns once its seat has made `least` decisions (a rated game then counts).
  const csrf = (await (await fetch('/api/account')).json()).csrf;
  const headers = {'content-type': 'application/json', 'x-csrf-token': csrf};
  let made = 0;
  for (let i = 0; i < 4000; i++) {
    const doc = await (await fetch(`/api/games/${gid}`)).json();
    if (doc.game.status !== 'active') return made;
    const seat = doc.you.seats[0];
    const view = doc.views[String(seat)];
    if (!view || !view.decision || view.decision.seat !== seat || !view.legal.length) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (made >= least) {
      await fetch(`/api/games/${gid}/seats/${seat}/resign`, {method: 'POST', headers, body: '{}'});
      continue;
    }
    const action = view.legal[Math.floor(Math.random() * view.legal.length)];
    const r = await fetch(`/api/games/${gid}/actions`, {method: 'POST', headers,
      body: JSON.stringify({version: doc.version, seat, action})});
    if (r.ok) made++;
  }
  return made;
}"""


def tournament(page: Any, tid: str) -> dict[str, Any]:
    doc: dict[str, Any] = page.evaluate(
        "async (id) => (await fetch(`/api/tournaments/${id}`)).json()", tid
    )
    return doc


def test_a_tournament_is_created_entered_played_and_won_in_the_browser(
    bot_server: Server, pages: Pages
) -> None:
    base = bot_server.base
    ann = signed_in_context(pages, base, "Ann", LAPTOP, "/")
    ann.wait_for_selector("#tournament-new")
    ann.click("#tournament-new")
    form = ".tournament-form"
    ann.fill(f"{form} input[name=name]", "Friday cup")
    ann.select_option(f"{form} select[name=players]", "2")
    ann.fill(f"{form} input[name=rounds]", "1")
    ann.select_option(f"{form} select[name=bots]", "beginner")
    ann.check(f"{form} input[name=rated]")
    shot(ann, "tournament-form-laptop")
    ann.click(f"{form} button[type=submit]")
    ann.wait_for_url("**/t/*")
    tid = ann.url.rsplit("/t/", 1)[1]
    ann.wait_for_selector("#tournament-title")
    assert ann.inner_text("#tournament-title") == "Friday cup"
    bob = signed_in_context(pages, base, "Bob", TABLET, f"/t/{tid}")
    cy = signed_in_context(pages, base, "Cy", PHONE, f"/t/{tid}")
    for page in (bob, cy):
        page.wait_for_selector("#join")
        page.click("#join")
        page.wait_for_selector("#leave")
    # Ann's page heard of them without a reload.
    ann.wait_for_function("() => document.querySelectorAll('.entrants li').length === 3")
    cy.goto(f"{base}/")
    cy.wait_for_selector(".tournaments li[data-status=signup]")
    ann.click("#start")
    ann.wait_for_selector("main[data-status=running]")
    # Cy's lobby tells her that her game has begun, with the way to it.
    cy.wait_for_selector(".tournament-game a")
    shot(cy, "tournament-game-notice-phone")
    bob.wait_for_selector(".round-table a.primary")  # his table, to play
    doc = tournament(ann, tid)
    (rnd,) = doc["rounds_played"]
    assert (
        len(rnd["tables"]) == 2 and sum(s is None for t in rnd["tables"] for s in t["seats"]) == 1
    )
    players = {"Ann": ann, "Bob": bob, "Cy": cy}
    # Bob opens his table from the tournament's page (and comes back to it).
    bob.click(".round-table a.primary")
    bob.wait_for_url("**/g/*")
    bob.wait_for_selector("svg.board")
    bob.goto(f"{base}/t/{tid}")
    bob.wait_for_selector(".round-table")
    # Every player's loop starts before any is awaited: both seats of a table move.
    playing = [
        (players[name], table["game_id"])
        for table in rnd["tables"]
        for name in table["seats"]
        if name is not None
    ]
    for page, gid in playing:
        page.evaluate(f"([g, l]) => {{ window.__play = ({PLAY})([g, l]); }}", [gid, 4])
    for page, _gid in playing:
        page.evaluate("() => window.__play")
    ann.goto(f"{base}/t/{tid}")
    ann.wait_for_selector(".winner", timeout=60000)
    done = tournament(ann, tid)
    assert done["status"] == "over"
    # The winner is whom the games' own results place first: points for places.
    points: dict[str, float] = {"Ann": 0.0, "Bob": 0.0, "Cy": 0.0}
    for table in done["rounds_played"][0]["tables"]:
        meta = tournament_game(ann, table["game_id"])
        for seat, name in enumerate(table["seats"]):
            if name is not None:
                mine = meta["result"]["places"][seat]
                others = [p for i, p in enumerate(meta["result"]["places"]) if i != seat]
                points[name] += sum(1.0 if mine < p else 0.5 if mine == p else 0.0 for p in others)
    best = max(points.values())
    assert points[done["winner"]] == best
    assert ann.inner_text(".winner").endswith(done["winner"])
    shot(ann, "tournament-over-laptop")
    assert not axe_problems(ann, "tournament page")


def tournament_game(page: Any, gid: str) -> dict[str, Any]:
    doc: dict[str, Any] = page.evaluate(
        "async (id) => (await fetch(`/api/games/${id}`)).json()", gid
    )
    game: dict[str, Any] = doc["game"]
    return game


def played_out(base: str) -> tuple[str, str]:
    """A tournament of three entrants played to its end over HTTP (the pages then only
    show it): its id."""
    people = []
    for name in ("Ann", "Bob", "Cy"):
        http = httpx.Client(base_url=base, timeout=30)
        r = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        if r.status_code == 409:
            r = http.post("/api/account/login", json={"name": name, "password": PASSWORD})
        http.headers["x-csrf-token"] = r.json()["csrf"]
        people.append(http)
    body = {
        "name": "Club night",
        "game": "board",
        "players": 2,
        "format": "swiss",
        "rounds": 2,
        "clock": {"mode": "turn", "days": 1},
        "bots": "beginner",
    }
    tid = people[0].post("/api/tournaments", json=body).json()["id"]
    for http in people[1:]:
        http.post(f"/api/tournaments/{tid}/join")
    people[0].post(f"/api/tournaments/{tid}/start")
    return str(tid), str(people[0].cookies["euphrates_session"])


def test_the_tournament_page_on_every_screen_in_every_language(
    bot_server: Server, pages: Pages
) -> None:
    tid, session = played_out(bot_server.base)
    problems: list[str] = []
    for lang, screen in itertools.product(LANGS, SCREENS):
        page = page_in(pages, bot_server.base, f"/t/{tid}", screen, lang, session)
        page.wait_for_selector(".round-table")
        no_sideways_scroll(page)
        shot(page, f"tournament-{lang}-{screen.name}")
        problems += axe_problems(page, f"{lang} {screen.name}")
        lobby = page_in(pages, bot_server.base, "/", screen, lang, session)
        lobby.wait_for_selector(".tournaments li")
        lobby.click("#tournament-new")
        lobby.wait_for_selector(".tournament-form")
        no_sideways_scroll(lobby)
        lobby.locator(".tournaments").screenshot(
            path=str(shot_path(f"tournaments-lobby-{lang}-{screen.name}"))
        )
        problems += axe_problems(lobby, f"lobby {lang} {screen.name}")
        page.context.close()
        lobby.context.close()
    assert not problems, problems


def page_in(pages: Pages, base: str, url: str, screen: Screen, lang: str, session: str) -> Any:
    page = open_on(pages, base + url, screen, session=session)
    if lang != "en":
        page.wait_for_selector(".lang button")
        choose_lang(page, lang)
    return page


def shot_path(name: str) -> Any:
    from tests.web.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
