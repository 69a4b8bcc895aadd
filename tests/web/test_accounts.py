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
