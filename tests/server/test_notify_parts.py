"""The parts of turn messages on their own: `serve`'s mail and webhook options (a
password never repeated), the SMTP URL, TLS insisted on, no password in the clear,
which webhook addresses pass, names resolved and checked, the words of the
messages, backoff."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
from pathlib import Path

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.server.common.config import Settings
from euphrates.server.features.notifications import texts as notify_text
from euphrates.server.features.notifications.mail import (
    Mailer,
    MailError,
    SmtpTarget,
    parse_smtp_url,
)
from euphrates.server.features.notifications.notifier import backoff, new_code
from euphrates.server.features.notifications.webhooks import (
    DeliveryError,
    WebhookRefused,
    allowed,
    check_url,
    networks,
    resolve,
)
from euphrates.server.serve import add_arguments, settings_from, spawn
from tests.server.harness import free_port, stop_processes
from tests.server.sinks import sinks


def _settings(*argv: str) -> Settings:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return settings_from(parser.parse_args(list(argv)))


def test_serve_takes_the_mail_and_webhook_options() -> None:
    s = _settings(
        "--smtp",
        "smtp://club:s3cret@mail.example.org:587?starttls=required",
        "--mail-from",
        "Club <games@example.org>",
        "--webhook-allow",
        "192.168.1.0/24",
        "--notify-untimed-after",
        "5",
    )
    assert s.smtp_url is not None and s.mail_from == "Club <games@example.org>"
    assert s.webhook_allow == ["192.168.1.0/24"] and s.notify_untimed_after == 300
    target = parse_smtp_url(s.smtp_url)
    assert (target.host, target.port, target.tls, target.user) == (
        "mail.example.org",
        587,
        "required",
        "club",
    )
    assert "s3cret" not in target.shown() and "s3cret" not in repr(target)
    assert _settings().smtp_url is None


def test_the_mail_server_may_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A service manager's environment file keeps the password out of the command line
    that every user of the machine may list (examples/club/euphrates@.service)."""
    monkeypatch.setenv("EUPHRATES_SMTP", "smtp://club:s3cret@mail.example.org:587")
    assert parse_smtp_url(_settings().smtp_url or "").host == "mail.example.org"
    chosen = _settings("--smtp", "smtps://club:other@mx.example.org:465").smtp_url
    assert parse_smtp_url(chosen or "").host == "mx.example.org"
    monkeypatch.setenv("EUPHRATES_SMTP", "")
    assert _settings().smtp_url is None


@pytest.mark.parametrize(
    "argv",
    [
        ["--smtp", "http://club:s3cret@mail.example.org"],
        ["--smtp", "smtp://club:s3cret@mail.example.org:99999"],
        ["--smtp", "smtp://club:s3cret@mail.example.org?starttls=maybe"],
        ["--smtp", "smtps://club:s3cret@mail.example.org?starttls=required"],
        ["--smtp", "smtp://club:s3cret@"],
        ["--mail-from", "nobody"],
        ["--webhook-allow", "not-a-network"],
        ["--notify-untimed-after", "-1"],
    ],
)
def test_bad_mail_and_webhook_options_are_refused_without_the_password(argv: list[str]) -> None:
    with pytest.raises(ArgumentError) as refused:
        _settings(*argv)
    assert "s3cret" not in str(refused.value)


def test_smtp_urls() -> None:
    assert parse_smtp_url("smtps://mail.example.org") == SmtpTarget(
        "mail.example.org", 465, "implicit"
    )
    plain = parse_smtp_url("smtp://mail.example.org")
    assert (plain.port, plain.tls) == (25, "auto")
    odd = parse_smtp_url("smtp://a%40b:p%3Ass@mail.example.org:2525?starttls=never")
    assert (odd.user, odd.password, odd.port, odd.tls) == ("a@b", "p:ss", 2525, "never")


def test_tls_is_insisted_on_and_no_password_goes_in_the_clear() -> None:
    with sinks() as (smtp, _http):
        required = Mailer(parse_smtp_url(f"{smtp.url}?starttls=required"), "x@example.org")
        with pytest.raises(MailError) as no_tls:
            asyncio.run(required.send("ann@example.org", "s", "t"))
        assert no_tls.value.permanent and "STARTTLS" in no_tls.value.reason
        login = Mailer(parse_smtp_url(f"smtp://u:pw@127.0.0.1:{smtp.port}"), "x@example.org")
        with pytest.raises(MailError) as clear:
            asyncio.run(login.send("ann@example.org", "s", "t"))
        assert "clear" in clear.value.reason and "ann@" not in clear.value.reason
        assert smtp.mails == []
        ok = Mailer(parse_smtp_url(smtp.url), "Club <x@example.org>")
        asyncio.run(ok.send("ann@example.org", "Subject", "Text", {"List-Unsubscribe": "<u>"}))
        (mail,) = smtp.mails
        assert mail.to == ["ann@example.org"] and mail.subject == "Subject"
        assert mail.headers["auto-submitted"] == "auto-generated" and "message-id" in mail.headers
    nobody = Mailer(parse_smtp_url(f"smtp://127.0.0.1:{free_port()}"), "x@example.org")
    with pytest.raises(MailError) as away:
        asyncio.run(nobody.send("ann@example.org", "s", "t"))
    assert not away.value.permanent and "reached" in away.value.reason


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:10.0.0.1",
        "::",
    ],
)
def test_addresses_that_are_not_public_are_refused(address: str) -> None:
    assert not allowed(ipaddress.ip_address(address), [])


def test_public_addresses_and_allowed_networks_pass() -> None:
    assert allowed(ipaddress.ip_address("8.8.8.8"), [])
    assert allowed(ipaddress.ip_address("2606:4700::1111"), [])
    lan = networks(["192.168.1.0/24"])
    assert allowed(ipaddress.ip_address("192.168.1.9"), lan)
    assert not allowed(ipaddress.ip_address("192.168.2.9"), lan)
    assert check_url("http://192.168.1.9:8080/hook", lan)
    with pytest.raises(WebhookRefused):
        check_url("http://192.168.2.9/hook", lan)
    with pytest.raises(WebhookRefused):
        check_url("http://8.8.8.8/hook", lan)  # plain http only to the allowed networks
    assert check_url("https://discord.com/api/webhooks/1/abc", [])
    with pytest.raises(WebhookRefused):
        check_url("https://" + "a" * 500 + ".org/", [])


def test_a_name_is_resolved_and_every_address_checked() -> None:
    with pytest.raises(WebhookRefused):
        asyncio.run(resolve("https://localhost/hook", []))
    found = asyncio.run(resolve("http://localhost:9/hook", networks(["127.0.0.0/8", "::1/128"])))
    assert found and all(a.is_loopback for a in found)
    with pytest.raises((DeliveryError, WebhookRefused)):
        asyncio.run(resolve("https://no-such-name.invalid/hook", []))


def test_the_words_name_the_table_the_player_and_the_link_only() -> None:
    item = notify_text.TurnGame("G1", "cards", "Ann", (("Bob", None), (None, "strong")), 7)
    en = notify_text.turn(item, "https://club.example", "en")
    assert en == notify_text.Message(
        "Your turn: Contest of Kings with Bob and a bot (strong), move 7",
        "Ann, it is your turn in Contest of Kings with Bob and a bot (strong), move 7: "
        "https://club.example/g/G1",
    )
    bea = notify_text.TurnGame("G2", "board", "Bea", (("Cleo", None),), 3)
    de = notify_text.turn(bea, "https://c", "de")
    assert de.text == "Bea, du bist am Zug in Euphrat & Tigris mit Cleo, Zug 3: https://c/g/G2"
    # a digest queued before the table was kept names the game's kind alone
    old = notify_text.TurnGame.from_json(["G3", "board", "Ann"])
    digest = notify_text.digest("Ann", [item, old], "https://c", "en")
    assert digest.subject == "Your turn in 2 games"
    assert digest.text.splitlines()[1:] == [
        "Contest of Kings with Bob and a bot (strong), move 7: https://c/g/G1",
        "Tigris & Euphrates: https://c/g/G3",
    ]
    stored = ["G1", "cards", "Ann", [["Bob", None], [None, "strong"]], 7]
    assert notify_text.TurnGame.from_json(stored) == item


def test_backoff_doubles_with_jitter_and_codes_are_hard_to_guess() -> None:
    for attempts, base in ((1, 30.0), (2, 60.0), (5, 480.0)):
        delays = [backoff(attempts, 30.0) for _ in range(50)]
        assert all(base * 0.5 <= d <= base * 1.5 for d in delays) and len(set(delays)) > 1
    assert backoff(40, 30.0) <= 6 * 3600 * 1.5
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(len(c) == 9 and c[4] == "-" for c in codes)


def test_serve_names_its_mail_server_without_the_password(tmp_path: Path) -> None:
    proc, _address = spawn(
        f"sqlite:///{tmp_path}/games.db",
        "--bot-workers",
        "0",
        "--smtp",
        "smtp://club:s3cret@127.0.0.1:2525",
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "e-mail through smtp://club@127.0.0.1:2525"
        rest = proc.stdout.readline()
        assert "s3cret" not in line + rest
    finally:
        stop_processes([proc])
