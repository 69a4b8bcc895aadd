"""The lobby: a new game with a seat at this screen and an invited friend, the
friend's link, the games remembered by the browser; tokens never leave a fragment."""

from __future__ import annotations

from typing import Any

from euphrates.games import GAMES
from tests.web.conftest import Pages, Server, shot


def test_create_invite_join(server: Server, pages: Pages) -> None:
    requests: list[str] = []
    lobby = pages.open(server.base + "/")
    lobby.on("request", lambda r: requests.append(r.url))
    lobby.wait_for_selector("#create")
    shot(lobby, "lobby")
    lobby.fill("input[name=name0]", "Ann")
    lobby.click("button[data-players='3']")
    lobby.select_option("select[name=seat1]", "invite")
    lobby.select_option("select[name=seat2]", "bot:strong")
    lobby.click("#create")
    lobby.wait_for_selector(".created")
    links = lobby.locator(".created input.link").evaluate_all("xs => xs.map(x => x.value)")
    invite = next(link for link in links if "#s=" in link)
    host = next(link for link in links if "#h=" in link)
    token = invite.split("#s=")[1]
    assert "/g/" in invite and "/g/" in host
    lobby.click("#to-table")
    lobby.wait_for_selector("svg.board")
    # The game waits for Bob; the host sees the invite link again at the table.
    lobby.wait_for_selector(".waiting-banner")
    assert invite in lobby.locator(".waiting-banner input.link").evaluate_all(
        "xs => xs.map(x => x.value)"
    )

    friend = pages.open(invite)
    friend_requests: list[str] = []
    friend.on("request", lambda r: friend_requests.append(r.url))
    # The invitation names the game, who invites and the seat it opens.
    friend.wait_for_selector("#your-name")
    invitation = friend.locator(".ask-name").inner_text()
    for words in ("Tigris & Euphrates", "Ann invites you", "You play seat 2 (Bull)", "3 players"):
        assert words in invitation, invitation
    friend.fill("#your-name", "Bob")
    friend.click(".ask-name button[type=submit]")
    friend.wait_for_selector("svg.board")
    lobby.wait_for_selector(".waiting-banner", state="detached")
    names = lobby.locator(".seats .seat-name").all_inner_texts()
    assert names[:2] == ["Ann", "Bob"] and "(bot, strong)" in names[2]
    friend.wait_for_function("() => document.querySelectorAll('.seats .dot.on').length === 2")

    # Tokens travel only in fragments and headers, never in a URL a server sees.
    for url in requests + friend_requests:
        assert token not in url and "#" not in url, url

    lobby.goto(server.base + "/")
    lobby.wait_for_selector(".my-games li")
    assert lobby.locator(".my-games li").count() == 1
    mine: Any = lobby.evaluate("() => JSON.parse(localStorage.getItem('euphrates.games'))")
    assert mine[0]["invites"][0]["link"] == invite


def test_card_game_invitation(server: Server, pages: Pages) -> None:
    game = server.create(3, game="cards", bots=["strong"])
    server.join(game, ["Ann", None, None])
    page = pages.open(f"{server.base}/g/{game['id']}#s={game['seats'][1]['token']}")
    page.wait_for_selector("#your-name")
    invitation = page.locator(".ask-name").inner_text()
    for words in ("Contest of Kings", "Ann invites you", "You play seat 2 (Bull)", "3 players"):
        assert words in invitation, invitation
    assert "Bow (bot, strong)" in invitation
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "invitation-phone")


def test_the_account_arriving_leaves_the_forms_alone(server: Server, pages: Pages) -> None:
    """Signed out, the account's answer changes nothing the forms show, so they are not
    rebuilt: a page rebuilt between a press and its release loses that click."""
    page = pages.open(server.base + "/rules/board")
    held: list[Any] = []
    page.route("**/api/account", lambda route: held.append(route))  # answered when told
    page.goto(server.base + "/")
    page.click("button[data-players='3']")
    # the lobby's socket has told its news (no open tables)
    page.wait_for_selector("#no-tables:has-text('No open tables')")
    page.evaluate(
        "['#create', '.mine'].forEach((s) => "
        "{ document.querySelector(s).dataset.drawn = 'before the account'; })"
    )
    assert len(held) == 1, "the lobby did not ask for the account"
    held[0].continue_()
    # The account's answer draws the list of games again, in every version of the page:
    # once that is done, whatever else it redraws has been redrawn.
    page.wait_for_function("() => !document.querySelector('.mine').dataset.drawn")
    assert page.get_attribute("#create", "data-drawn") == "before the account"
    assert page.get_attribute("button[data-players='3']", "aria-checked") == "true"


def test_the_lobby_offers_what_the_server_describes(server: Server, pages: Pages) -> None:
    """The games, their options with defaults, players and seats, and the bots' levels
    come from `/api/meta`: a game the lobby has never heard of is offered like the two
    it has, and until the answer comes the page is drawn without the form."""
    held: list[Any] = []
    page = pages.open(server.base + "/rules/board")
    page.route("**/api/meta", lambda route: held.append(route))
    page.goto(server.base + "/")
    page.wait_for_selector(".new-game h2")
    assert page.locator(".new-game[aria-busy=true]").count() == 1
    assert (
        page.locator("#create, .new-game [data-game], header .rules-links a[data-rule]").count()
        == 0
    )
    meta: Any = server.call("GET", "/api/meta")
    meta["games"]["chess"] = ["clock_in"]
    meta["levels"] = ["beginner", "expert"]
    meta["definitions"] = {
        **{name: definition.describe() for name, definition in GAMES.items()},
        "chess": {"options": {"clock_in": True}, "players": [2], "seats": "number"},
    }
    held[0].fulfill(json=meta)
    page.wait_for_selector("#create")
    buttons = page.locator(".new-game [data-game]").evaluate_all(
        "xs => xs.map(x => x.dataset.game)"
    )
    assert buttons == [*GAMES, "chess"]
    assert page.locator("header .rules-links a[data-rule]").count() == len(GAMES) + 1
    # The first game offered is chosen; its seats are marked by dynasty, the card
    # game's by number; the bots are of the levels offered, the middle one missing.
    assert page.get_attribute(".new-game [data-game=board]", "aria-checked") == "true"
    assert page.locator(".seat-row svg.icon").count() == 2
    levels = page.locator("select[name=seat1] option").evaluate_all("xs => xs.map(x => x.value)")
    assert levels == ["here", "invite", "bot:beginner", "bot:expert"]
    assert page.locator("select[name=seat1]").input_value() == "bot:beginner"
    page.click(".new-game [data-game=cards]")
    assert page.locator(".seat-row svg.icon").count() == 0
    assert page.locator(".seat-row .seat-no").all_inner_texts() == ["1", "2"]
    # A game of two players only, whose one option is on unless unchecked.
    page.click("button[data-players='4']")
    page.click(".new-game [data-game=chess]")
    assert page.locator("[data-players]").count() == 1
    assert page.locator(".seat-row").count() == 2
    assert page.locator("input[name=clock_in]").is_checked()
    assert page.locator("input[name=open_piles], input[name=advanced]").count() == 0
