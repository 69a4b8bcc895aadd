"""An account in the browser: a guest's seat claimed by signing up in the lobby, the
game then listed by the server and opened on another browser by the account alone,
the stolen link refused, the profile, logging out."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server, shot


def test_sign_up_claims_the_seat_and_the_game_follows_the_account(
    server: Server, pages: Pages
) -> None:
    lobby = pages.open(server.base + "/")
    lobby.wait_for_selector("#account-signup")
    lobby.fill("input[name=name0]", "Ann")
    lobby.select_option("select[name=seat1]", "invite")
    lobby.click("#create")
    lobby.wait_for_selector(".created")
    mine: Any = lobby.evaluate("() => JSON.parse(localStorage.getItem('euphrates.games'))")
    game_id, token = mine[0]["id"], mine[0]["seats"][0]
    # Sign up while this browser holds the seat's link: the seat becomes the account's.
    lobby.fill("#account-name", "Ann")
    lobby.fill("#account-password", "a long secret")
    lobby.click("#account-signup")
    lobby.wait_for_selector(".signed-in")
    assert "Ann" in lobby.locator(".signed-in").inner_text()
    shot(lobby, "lobby-signed-in")

    # Another browser: log in, and the server lists the game; its link needs no token.
    other = pages.open(server.base + "/")
    other.fill("#account-name", "ann")
    other.fill("#account-password", "a long secret")
    other.click("#account-login")
    other.wait_for_selector(".my-games li")
    href = other.locator(".my-games li a.button").first.get_attribute("href")
    assert href == f"/g/{game_id}"
    other.click(".my-games li a.button")
    other.wait_for_selector("svg.board")
    held = other.evaluate(
        "id => fetch(`/api/games/${id}`).then(r => r.json()).then(d => d.you.seats)", game_id
    )
    assert held == [0]

    # The link alone, in a browser not signed in, no longer opens the seat.
    thief = pages.open(f"{server.base}/g/{game_id}#s={token}")
    thief.wait_for_selector("p.error")
    assert "belongs to an account" in thief.locator("p.error").inner_text()
    pages.errors[:] = [e for e in pages.errors if "403" not in e]

    # The profile counts the game; logging out shows the form again.
    other.goto(server.base + "/")
    other.click("#to-profile")
    other.wait_for_selector("#profile-name")
    assert other.locator("#profile-name").inner_text() == "Ann"
    assert "Tigris & Euphrates (board game): 1" in other.locator(".game-counts").inner_text()
    assert other.locator("#export").count() == 1
    other.goto(server.base + "/")
    other.click("#log-out-all")
    other.wait_for_selector("#account-login")
    lobby.reload()
    lobby.wait_for_selector("#account-login")  # every session ended


def test_what_is_typed_in_the_account_form_survives_the_lobby_redrawing(
    server: Server, pages: Pages
) -> None:
    """The lobby draws itself again when the account and its games arrive (and on a
    change of language): a name and password typed before that stay in the form."""
    from tests.web.helpers import choose_lang

    page = pages.open(server.base + "/")
    page.wait_for_selector("#account-signup")
    page.fill("#account-name", "Typed")
    page.fill("#account-password", "a long secret")
    choose_lang(page, "de")  # a whole redraw of the lobby
    assert page.input_value("#account-name") == "Typed"
    assert page.input_value("#account-password") == "a long secret"
    assert page.get_attribute("#account-name", "aria-label") == "Name"
    page.click("#account-signup")
    page.wait_for_selector(".signed-in")
    page.click("#log-out")
    page.wait_for_selector("#account-signup")
    assert page.input_value("#account-name") == "", "signed out: the form starts empty"


def test_typing_goes_on_into_the_same_field_across_a_redraw(server: Server, pages: Pages) -> None:
    """A redraw takes the field being typed in out of the page for a moment, and with it
    the focus: the keys after it went nowhere, and a log-in went out with half a name
    (refused as a wrong password). The field keeps the focus and its caret."""
    from tests.web.helpers import choose_lang

    page = pages.open(server.base + "/")
    page.wait_for_selector("[data-game=cards]")
    page.click("#account-name")
    page.keyboard.type("Tyd")
    page.keyboard.press("ArrowLeft")  # the caret between "Ty" and "d"
    # A redraw the player did not make (here the language switch pressed by a script,
    # which leaves the focus where it is, as the server's offer arriving does).
    page.evaluate("() => document.querySelector('.lang button[lang=de]').click()")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.keyboard.type("pe")
    assert page.input_value("#account-name") == "Typed"
    assert page.evaluate("() => document.activeElement?.id") == "account-name"
    choose_lang(page, "en")


def test_signing_in_before_the_page_knew_who_is_signed_in(server: Server, pages: Pages) -> None:
    """A slow server: the lobby asks who is signed in as it opens, and the player signs
    up before the answer ("nobody") comes. That answer, out of date when it arrives,
    must not sign the page out."""
    import re

    page = pages.open(server.base + "/fair-play")
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # answered now, delivered later
        else:
            route.continue_()

    page.route(re.compile(r"/api/account$"), hold)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-game=cards]")
    page.fill("#account-name", "Early")
    page.fill("#account-password", "a long secret")
    page.click("#account-signup")
    page.wait_for_selector(".signed-in")
    assert len(held) == 1, "the page's own question is still unanswered"
    route, answer = held[0]
    assert answer.json()["user"] is None
    with page.expect_request_finished(lambda r: r.url.endswith("/api/account")):
        route.fulfill(response=answer)
    # the answer has been read once a later round trip of the page's came back
    page.evaluate("() => fetch('/api/health').then(() => new Promise(r => setTimeout(r)))")
    assert page.locator("#account-login").count() == 0
    assert "Early" in page.locator(".signed-in").inner_text()
