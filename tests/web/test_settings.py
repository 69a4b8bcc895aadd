"""The account's settings page in the browser: reached from the account menu, it says
when the server sends no e-mail, refuses a webhook that is not https with the
server's words, keeps the daily digest at the hour chosen, changes the password (the
page stays signed in, other sessions end); axe-core finds no serious violation on it,
in English on a laptop and in German on a phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from euphrates.server.common.config import Settings
from tests.server.harness import running_server
from tests.server.sinks import sinks, until
from tests.web import helpers
from tests.web.conftest import Pages, Server
from tests.web.screens import LAPTOP, PHONE, axe_problems, open_on
from tests.web.test_a11y import _axe_installed  # noqa: F401  (axe-core must be there)

PASSWORD = "a long secret"


def sign_up(page: Any, name: str) -> None:
    helpers.sign_up(page, name, PASSWORD)


def status(page: Any, words: str) -> str:
    page.wait_for_function(
        "w => (document.querySelector('#notify-status')?.textContent ?? '').includes(w)",
        arg=words,
    )
    text: str = page.locator("#notify-status").inner_text()
    return text


def test_settings_from_the_account_menu(server: Server, pages: Pages) -> None:
    page = pages.open(server.base + "/")
    sign_up(page, "Ann")
    page.click("#to-settings")
    page.wait_for_selector("#notify-title")
    assert page.url.endswith("/account/notifications")
    assert "sends no e-mail" in page.locator("#no-mail").inner_text()
    page.fill("#webhook", "http://hooks.example.org/x")
    page.click("#save-webhook")
    assert "https" in status(page, "https")
    assert page.locator("#notify-status").get_attribute("class") == "error"
    pages.errors[:] = [e for e in pages.errors if "422" not in e]
    page.select_option("#digest-hour", "7")
    page.fill("#timezone", "Europe/Berlin")
    page.check("#mode-digest")
    status(page, "Saved.")
    page.wait_for_selector("#next-digest")
    doc = page.evaluate("() => fetch('/api/account/notifications').then(r => r.json())")
    assert doc["digest"] is True and doc["digest_hour"] == 7
    assert doc["timezone"] == "Europe/Berlin"

    other = pages.open(server.base + "/")
    other.fill("#account-name", "Ann")
    other.fill("#account-password", PASSWORD)
    other.click("#account-login")
    other.wait_for_selector(".signed-in")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "another long secret")
    page.click("#change-password")
    status(page, "Password changed")
    # This page stays signed in (its new CSRF token works); the other browser is out.
    page.check("#mode-turn")
    status(page, "Saved.")
    other.reload()
    other.wait_for_selector("#account-login")


def test_the_settings_page_has_no_serious_violations(server: Server, pages: Pages) -> None:
    problems = []
    for screen, locale, name in ((LAPTOP, "en-US", "Ann"), (PHONE, "de-DE", "Bea")):
        page: Any = open_on(pages, f"{server.base}/", screen, locale=locale)
        sign_up(page, name)
        page.goto(f"{server.base}/account/notifications")
        page.wait_for_selector("#notify-title")
        problems += axe_problems(page, f"settings {screen.name} {locale}")
    assert not problems, "\n".join(problems)
    german: Any = pages.contexts[-1].pages[0]
    assert "Passwort ändern" in german.locator("#change-password").inner_text()


def test_an_address_is_confirmed_by_the_link_in_its_mail(pages: Pages, tmp_path: Path) -> None:
    """With a mail server: the code's mail links to the page, which enters the code;
    the test message then reaches the address."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path}/games.db",
        bot_workers=0,
        public_url=None,
        smtp_url=None,
        requests_per_s=1e5,
    )
    with sinks() as (smtp, _http):
        settings.smtp_url = smtp.url
        with running_server(settings) as base:
            page = pages.open(base + "/")
            sign_up(page, "Ann")
            page.goto(base + "/account/notifications")
            page.fill("#email", "ann@example.org")
            page.click("#send-code")
            status(page, "code is on its way")
            mail = until(lambda: smtp.to("ann@example.org"))[0]
            found = re.search(r"(http://\S+/account/notifications#code=\S+)", mail.text)
            assert found is not None, mail.text
            page = page.context.new_page()  # the mail's link, opened from the mail
            page.goto(found.group(1))
            status(page, "Address confirmed")
            assert "#code" not in page.url
            assert "ann@example.org" in page.locator("#email-now").inner_text()
            assert page.locator("#email-on").is_checked()
            page.click("#test-email")
            status(page, "Sent")
            until(lambda: len(smtp.to("ann@example.org")) == 2)
            pages.close()  # before the server stops: no page reconnects to a stopped server
