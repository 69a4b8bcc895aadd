"""The lobby: a new game with a seat at this screen and an invited friend, the
friend's link, the games remembered by the browser; tokens never leave a fragment."""

from __future__ import annotations

from typing import Any

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
