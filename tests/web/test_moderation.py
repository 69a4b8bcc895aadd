"""Moderation in the browser: Bob reports Ann's line at the table (a control on every
line but his own, a small dialog asking why, a thank-you), Cleo — made an admin with
`euphrates admin grant` — finds it on the admin page with the lines around it and
mutes Ann, whose next line is refused, then lets her chat again. A profile offers a
block and a report. Each on the three screens, in English and German: nothing spills
sideways, the dialog stays in view, and axe-core finds nothing serious."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import Pages, Server, shot
from tests.web.screens import (
    LAPTOP,
    SCREENS,
    Screen,
    assert_inside,
    axe_problems,
    no_sideways_scroll,
)
from tests.web.test_tables import PASSWORD, signed_in_context

RUDE = "you play like a goat"


class Player:
    """A player's browser session over HTTP: signed up, with the CSRF token."""

    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        r = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]

    def post(self, path: str, body: Any, token: str | None = None) -> httpx.Response:
        headers = {"x-csrf-token": self.csrf}
        if token:
            headers["authorization"] = f"Bearer {token}"
        return self.http.post(path, json=body, headers=headers)


def grant(tmp_path: Path, name: str) -> None:
    """`euphrates admin grant NAME` on the test server's database."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "euphrates", "admin", "--db", db, "grant", name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def a_table(server: Server, tmp_path: Path) -> tuple[str, Player, Player]:
    """A board game Ann and Bob sit at by their accounts, where Ann said something rude
    and Bob answered; Cleo is an admin. Returns the game, Ann and Bob."""
    game = server.create(2)
    gid = game["id"]
    ann, bob = Player(server.base, "Ann"), Player(server.base, "Bob")
    for who, seat in ((ann, 0), (bob, 1)):
        r = who.post(f"/api/games/{gid}/join", {}, game["seats"][seat]["token"])
        assert r.status_code == 200, r.text
    assert ann.post(f"/api/games/{gid}/chat", {"text": RUDE}).status_code == 200
    assert bob.post(f"/api/games/{gid}/chat", {"text": "be nice"}).status_code == 200
    Player(server.base, "Cleo")
    grant(tmp_path, "Cleo")
    return gid, ann, bob


def open_chat(page: Any) -> None:
    page.wait_for_selector("svg.board")
    page.click(".tablist [data-tab=chat]")
    page.wait_for_selector(".chat-lines .chat-report")


def test_a_line_reported_at_the_table_is_muted_from_the_admin_page(
    server: Server, pages: Pages, tmp_path: Path
) -> None:
    gid, ann, _bob = a_table(server, tmp_path)
    bob = signed_in_context(pages, server.base, "Bob", LAPTOP, f"/g/{gid}")
    open_chat(bob)
    lines = bob.locator(".chat-lines li")
    assert lines.count() == 2
    # Ann's line has the control, Bob's own has none.
    assert lines.nth(0).locator(".chat-report").count() == 1
    assert lines.nth(1).locator(".chat-report").count() == 0
    assert lines.nth(0).locator(".chat-report").get_attribute("aria-label") == (
        "Report the line by Ann"
    )
    lines.nth(0).locator(".chat-report").click()
    dialog = bob.locator("dialog.report-dialog")
    dialog.wait_for()
    assert RUDE in dialog.locator(".report-quote").inner_text()
    assert bob.evaluate("() => document.activeElement.id") == "report-reason"
    bob.fill("#report-reason", "insults")
    bob.click("#report-send")
    bob.wait_for_selector(".report-sent")
    assert "admins will look at it" in bob.locator(".report-sent").inner_text()
    bob.click("#report-close")
    dialog.wait_for(state="detached")
    assert bob.evaluate("() => document.activeElement.classList.contains('chat-report')")

    # A spectator who is not signed in has no report control.
    guest = pages.open(f"{server.base}/g/{gid}")
    guest.wait_for_selector("svg.board")
    guest.click(".tablist [data-tab=chat]")
    guest.wait_for_function("() => document.querySelectorAll('.chat-lines li').length === 2")
    guest.wait_for_timeout(300)  # the account's answer has come: still no control
    assert guest.locator(".chat-report").count() == 0

    # Cleo, an admin, sees the line with the lines around it and who reported it.
    cleo = signed_in_context(pages, server.base, "Cleo", LAPTOP, "/admin")
    case = cleo.locator(".case[data-kind=chat]")
    case.wait_for()
    assert case.locator(".context li.reported .text").inner_text() == RUDE
    assert case.locator(".context li").count() == 2
    assert "Bob: insults" in case.locator(".reporters").inner_text()
    assert "Account: Ann" in case.locator(".standing").inner_text()
    case.locator("button[data-act=muted]").click()
    cleo.wait_for_selector("#no-reports")
    assert cleo.locator("#admin-status").inner_text() == "Ann is muted."
    r = ann.post(f"/api/games/{gid}/chat", {"text": "again"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "muted")

    # Looked up by name, she is let back.
    cleo.fill("#lookup-name", "ann")
    cleo.click("#lookup")
    looked = cleo.locator(".looked[data-name=Ann]")
    looked.wait_for()
    assert "muted" in looked.locator(".standing").inner_text()
    looked.locator("button[data-act=unmute]").click()
    cleo.wait_for_function(
        "() => document.querySelector('#admin-status').textContent === 'Ann may chat again.'"
    )
    assert cleo.locator(".looked button[data-act=muted]").count() == 1
    assert ann.post(f"/api/games/{gid}/chat", {"text": "sorry"}).status_code == 200

    # Anyone else is refused the page's data by the server.
    bob.goto(f"{server.base}/admin")
    bob.wait_for_selector("#not-admin")
    pages.errors[:] = [e for e in pages.errors if "403" not in e]


def test_a_profile_blocks_and_reports(server: Server, pages: Pages, tmp_path: Path) -> None:
    gid, _ann, _bob = a_table(server, tmp_path)
    bob = signed_in_context(pages, server.base, "Bob", LAPTOP, "/u/Ann")
    bob.wait_for_selector("#block")
    assert bob.locator("#block").inner_text() == "Block Ann"
    bob.click("#block")
    bob.wait_for_function("() => document.querySelector('#block').textContent === 'Unblock Ann'")
    assert "You block Ann" in bob.locator("#block-status").inner_text()
    # Blocked: her lines are not shown at his table.
    table = bob.context.new_page()
    table.goto(f"{server.base}/g/{gid}")
    table.wait_for_selector("svg.board")
    table.click(".tablist [data-tab=chat]")
    table.wait_for_function("() => document.querySelectorAll('.chat-lines li').length === 1")
    assert table.locator(".chat-lines li .text").inner_text() == "be nice"
    table.close()
    bob.reload()
    bob.wait_for_selector("#block")
    assert bob.locator("#block").inner_text() == "Unblock Ann"  # the server keeps it
    bob.click("#report-player")
    bob.fill("#report-reason", "cheats")
    bob.click("#report-send")
    bob.wait_for_selector(".report-sent")
    bob.keyboard.press("Escape")
    bob.wait_for_selector("dialog.report-dialog", state="detached")
    # His own profile has neither.
    bob.goto(f"{server.base}/u/Bob")
    bob.wait_for_selector("#export")
    assert bob.locator("#block, #report-player").count() == 0


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_moderation_on_every_screen(
    server: Server, pages: Pages, tmp_path: Path, screen: Screen
) -> None:
    gid, _ann, bob_http = a_table(server, tmp_path)
    r = bob_http.post("/api/users/Ann/report", {"reason": "rude in every game"})
    assert r.status_code == 200, r.text
    problems: list[str] = []
    bob = signed_in_context(pages, server.base, "Bob", screen, f"/g/{gid}")
    cleo = signed_in_context(pages, server.base, "Cleo", screen, "/admin")
    for lang in ("en", "de"):
        where = f"{screen.name} {lang}"
        # The table: a line's report dialog, and its thanks.
        bob.goto(f"{server.base}/g/{gid}?lang={lang}")
        open_chat(bob)
        bob.locator(".chat").scroll_into_view_if_needed()
        shot(bob, f"moderation-chat-{screen.name}-{lang}")
        problems += axe_problems(bob, f"table's chat {where}")
        bob.locator(".chat-report").first.click()
        bob.wait_for_selector("dialog.report-dialog")
        bob.fill("#report-reason", "insults" if lang == "en" else "Beleidigungen")
        assert_inside(
            bob, screen, "dialog.report-dialog", "#report-send", name=f"mod-report-{lang}"
        )
        problems += axe_problems(bob, f"report dialog {where}")
        bob.click("#report-send")
        bob.wait_for_selector(".report-sent")
        shot(bob, f"moderation-reported-{screen.name}-{lang}")
        bob.click("#report-close")
        no_sideways_scroll(bob)
        # A profile, its block and report.
        bob.goto(f"{server.base}/u/Ann?lang={lang}")
        bob.wait_for_selector("#block")
        no_sideways_scroll(bob)
        assert_inside(bob, screen, "#block", "#report-player", name=f"mod-profile-{lang}")
        problems += axe_problems(bob, f"profile {where}")
        # The admin page.
        cleo.goto(f"{server.base}/admin?lang={lang}")
        cleo.wait_for_selector(".case[data-kind=chat] .context li.reported")
        cleo.locator(".case[data-kind=player] details.recent summary").click()
        no_sideways_scroll(cleo)
        shot(cleo, f"moderation-admin-{screen.name}-{lang}")
        problems += axe_problems(cleo, f"admin page {where}")
    de = cleo.locator(".case[data-kind=chat] button[data-act=muted]").inner_text()
    assert de == "Ann stummschalten", de
    assert not problems, "\n".join(problems)
