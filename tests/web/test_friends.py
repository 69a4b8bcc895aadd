"""Friends in the browser: Ann follows Bob by name in her lobby and sees him online;
she opens a table and, at it, invites Bob by name to a free seat; Bob's lobby shows
the invitation by itself (no reload), he accepts and lands at the table in that seat,
which Ann sees him take. Then the friends panel with an invitation, and the host's
invitation form, at the three screens (no sideways scroll, the buttons in view,
axe-core), in English and German."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import Pages, Server, shot
from tests.web.screens import LAPTOP, SCREENS, Screen, axe_problems, doc_shot, no_sideways_scroll
from tests.web.test_tables import PASSWORD, signed_in_context

HUMAN = {"kind": "human"}


def game_doc(page: Any, game_id: str) -> dict[str, Any]:
    doc: dict[str, Any] = page.evaluate(
        "async (id) => (await fetch(`/api/games/${id}`)).json()", game_id
    )
    return doc


def test_follow_see_online_invite_by_name_and_accept_into_the_seat(
    server: Server, pages: Pages
) -> None:
    ann = signed_in_context(pages, server.base, "Ann", LAPTOP, "/")
    bob = signed_in_context(pages, server.base, "Bob", LAPTOP, "/")
    bob.wait_for_selector("#follow-name")
    # Ann follows Bob: he is online (his lobby is open).
    ann.wait_for_selector("#follow-name")
    ann.fill("#follow-name", "bob")
    ann.click("#follow")
    ann.wait_for_selector(".friend[data-name='Bob'] .dot.online")
    assert ann.input_value("#follow-name") == ""
    assert "You follow bob now." in ann.inner_text(".friends")
    # Ann opens a table of three and, at it, invites Bob by name to the second seat.
    ann.wait_for_selector("#open-table:enabled")
    ann.click("button[data-players='3']")
    ann.check("#open-table")
    for seat in (1, 2):
        ann.select_option(f"select[name=seat{seat}]", "invite")
    ann.click("#create")
    ann.wait_for_url("**/g/*")
    game_id = ann.url.rsplit("/g/", 1)[1]
    ann.wait_for_selector("#invite-name")
    assert ann.locator("#invite-seat option").all_inner_texts() == ["Seat 2", "Seat 3"]
    ann.fill("#invite-name", "Bob")
    ann.click("#invite")
    ann.wait_for_selector(".table-invitations li")
    assert ann.inner_text(".table-invitations li span") == "Bob is invited to seat 2"
    # Bob's lobby shows it by itself.
    invitation = bob.locator(".invitation")
    invitation.wait_for()
    text = invitation.inner_text()
    assert "Ann invites you to a Tigris & Euphrates (board game) table, 3 players, seat 2" in text
    shot(bob, "friends-invited-laptop")
    shot(ann, "friends-host-laptop")
    # He accepts: to the table, in that seat, his account's (no token in the address).
    bob.click(".invitation .accept")
    bob.wait_for_url(f"**/g/{game_id}")
    assert "#" not in bob.url
    assert game_doc(bob, game_id)["you"]["seats"] == [1]
    bob.wait_for_selector(".waiting-seats li[data-seat='1']")
    # Ann's table shows him sitting there; the invitation is gone from her list.
    ann.wait_for_function(
        "() => document.querySelector(\".waiting-seats li[data-seat='1']\")?.textContent.includes('Bob')"
    )
    ann.wait_for_function("() => !document.querySelector('.table-invitations li')")


def _account(base: str, name: str) -> httpx.Client:
    """An HTTP client signed in as `name` (signed up), sending its CSRF token."""
    http = httpx.Client(base_url=base)
    r = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    http.headers["x-csrf-token"] = r.json()["csrf"]
    return http


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_the_friends_panel_and_the_invitation_form_on_every_screen(
    server: Server, pages: Pages, screen: Screen
) -> None:
    ann = _account(server.base, "Ann")
    cara = _account(server.base, "Cara")
    _account(server.base, "Dan").close()
    r = ann.post(
        "/api/games",
        json={"game": "board", "players": 3, "seats": [HUMAN, HUMAN, HUMAN], "open": True},
    )
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    # Cara opens a table of her own: Bob, following her, sees it to watch.
    body = {"game": "cards", "players": 2, "seats": [HUMAN, HUMAN], "open": True}
    assert cara.post("/api/games", json=body).status_code == 201
    bob = signed_in_context(pages, server.base, "Bob", screen, "/")
    bob.wait_for_selector("#follow-name")
    for name in ("Ann", "Cara", "Dan"):
        bob.fill("#follow-name", name)
        bob.click("#follow")
        bob.wait_for_selector(f".friend[data-name='{name}']")
    r = ann.post(f"/api/games/{game_id}/invitations", json={"name": "Bob", "seat": 2})
    assert r.status_code == 201, r.text
    bob.wait_for_selector(".invitation .accept")
    bob.wait_for_selector(".friend[data-name='Cara'] .watch")
    host = signed_in_context(pages, server.base, "Ann", screen, f"/g/{game_id}")
    host.wait_for_selector(".table-invitations li")
    problems: list[str] = []
    for lang in ("en", "de"):
        if lang == "de":
            for page in (bob, host):
                page.click(".lang button[lang='de']")
            bob.wait_for_function(
                "() => document.querySelector('.invitation .accept')?.textContent === 'Annehmen'"
            )
            host.wait_for_function(
                "() => document.querySelector('#invite')?.textContent === 'Einladen'"
            )
        for page, what in ((bob, "lobby"), (host, "host")):
            no_sideways_scroll(page)
            slot = ".friends" if what == "lobby" else ".waiting-banner"
            page.locator(slot).evaluate("e => e.scrollIntoView({block: 'start'})")
            for button in (".invitation .accept", ".unfollow") if what == "lobby" else ("#invite",):
                b = page.locator(button).first.bounding_box()
                assert b is not None and b["x"] + b["width"] <= screen.width, (button, b)
            shot(page, f"friends-{what}-{screen.name}-{lang}")
            if lang == "en":
                doc_shot(page, f"friends-{what}-{screen.name}")
            problems += axe_problems(page, f"friends {what} {screen.name} {lang}")
    # Declined, it goes from Bob's lobby, and from Ann's table without a reload of hers.
    bob.click(".invitation .decline")
    bob.wait_for_function("() => !document.querySelector('.invitation')")
    assert not problems, "\n".join(problems)
    for http in (ann, cara):
        http.close()
