"""E-mail out, through the SMTP server `euphrates serve --smtp URL` names.

`smtp://user:pass@host:587` speaks STARTTLS when the server offers it (and refuses to
send a password in the clear when it does not); `?starttls=required` insists on it,
`?starttls=never` never asks (a relay on the same machine); `smtps://host:465` is TLS
from the first byte. Certificates are checked against the host's name.

Python's own `smtplib` does the talking, in a thread (it blocks), so no dependency is
added for it. Failures say what went wrong in words that name neither the recipient
nor the password: they are logged, and the recipient's address is private.
"""

from __future__ import annotations

import asyncio
import smtplib
import socket
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

TIMEOUT = 20.0
"""Seconds a conversation with the mail server may take before it counts as failed."""

Tls = Literal["implicit", "auto", "required", "never"]


class MailError(Exception):
    """A message that did not go out; `permanent` when trying again cannot help (the
    server refused it for good: a 5xx answer)."""

    def __init__(self, reason: str, permanent: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent


@dataclass(frozen=True)
class SmtpTarget:
    host: str
    port: int
    tls: Tls
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    def shown(self) -> str:
        """The server as it may be printed: never its password."""
        scheme = "smtps" if self.tls == "implicit" else "smtp"
        who = f"{self.user}@" if self.user else ""
        return f"{scheme}://{who}{self.host}:{self.port}"


def parse_smtp_url(url: str) -> SmtpTarget:
    """Read `--smtp`; a ValueError names what is wrong without repeating the URL (it
    may hold a password)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("--smtp must be smtp://[user:password@]host[:port] or smtps://…")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("--smtp: the port must be a number from 1 to 65535") from None
    if not parts.hostname:
        raise ValueError("--smtp names no host")
    query = parse_qs(parts.query)
    unknown = set(query) - {"starttls"}
    if unknown:
        raise ValueError(f"--smtp: unknown parameter {sorted(unknown)[0]!r} (only starttls)")
    tls: Tls = "implicit"
    if parts.scheme == "smtp":
        wanted = query.get("starttls", ["auto"])[-1]
        if wanted not in ("auto", "required", "never"):
            raise ValueError("--smtp: starttls is auto, required or never")
        tls = "required" if wanted == "required" else "never" if wanted == "never" else "auto"
    elif "starttls" in query:
        raise ValueError("--smtp: smtps:// is TLS already; starttls is for smtp://")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    default = 465 if tls == "implicit" else 25
    return SmtpTarget(parts.hostname, port or default, tls, user, password)


class Mailer:
    """Sends one message at a time per call, each in its own connection (a few a
    minute at most: no pool is worth keeping)."""

    def __init__(self, target: SmtpTarget, sender: str, timeout: float = TIMEOUT) -> None:
        self.target = target
        self.sender = sender
        self.timeout = timeout
        self.domain = sender.rpartition("@")[2].strip("> ") or "localhost"

    def message(
        self, to: str, subject: str, text: str, headers: dict[str, str] | None = None
    ) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=False, usegmt=True)
        msg["Message-ID"] = make_msgid(domain=self.domain)
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(text)
        return msg

    async def send(
        self, to: str, subject: str, text: str, headers: dict[str, str] | None = None
    ) -> None:
        msg = self.message(to, subject, text, headers)
        await asyncio.to_thread(self._send, msg)

    def _send(self, msg: EmailMessage) -> None:
        t = self.target
        try:
            client = self._connect()
            with client:
                client.ehlo()
                secure = t.tls == "implicit"
                if t.tls in ("auto", "required") and client.has_extn("starttls"):
                    client.starttls(context=ssl.create_default_context())
                    client.ehlo()
                    secure = True
                elif t.tls == "required":
                    raise MailError("the mail server does not offer STARTTLS", permanent=True)
                if t.user:
                    if not secure and t.tls != "never":
                        raise MailError(
                            "the mail server offers no TLS: the password is not sent in the "
                            "clear (add ?starttls=never to allow it)",
                            permanent=True,
                        )
                    client.login(t.user, t.password or "")
                client.send_message(msg)
        except MailError:
            raise
        except smtplib.SMTPRecipientsRefused as e:
            codes = sorted({code for code, _ in e.recipients.values()})
            raise MailError(
                f"the mail server refused the recipient ({codes[0] if codes else '?'})",
                permanent=bool(codes) and codes[0] >= 500,
            ) from None
        except smtplib.SMTPAuthenticationError as e:
            raise MailError(f"the mail server refused the log-in ({e.smtp_code})") from None
        except smtplib.SMTPResponseException as e:
            raise MailError(
                f"the mail server answered {e.smtp_code}", permanent=e.smtp_code >= 500
            ) from None
        except ssl.SSLError as e:
            raise MailError(f"TLS with the mail server failed: {e.reason}") from None
        except (smtplib.SMTPException, OSError) as e:
            raise MailError(f"the mail server could not be reached: {type(e).__name__}") from None

    def _connect(self) -> smtplib.SMTP:
        t = self.target
        name = self.domain if "." in self.domain else socket.gethostname()
        if t.tls == "implicit":
            context = ssl.create_default_context()
            return smtplib.SMTP_SSL(
                t.host, t.port, local_hostname=name, timeout=self.timeout, context=context
            )
        return smtplib.SMTP(t.host, t.port, local_hostname=name, timeout=self.timeout)


def default_sender(public_url: str | None) -> str:
    """`euphrates@` the server's public name, or this machine's name."""
    host = urlsplit(public_url).hostname if public_url else None
    return f"Euphrates <euphrates@{host or socket.getfqdn() or 'localhost'}>"
