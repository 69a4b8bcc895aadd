"""Local sinks for the messages a server sends out of the browser: an SMTP server
(`aiosmtpd`) and an HTTP server that record what reaches them, and can be told to
refuse the next few deliveries (to see retries)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.server.harness import free_port


class Mail:
    """One message the SMTP sink accepted."""

    def __init__(self, envelope: Envelope) -> None:
        raw = envelope.original_content or envelope.content or b""
        assert isinstance(raw, bytes)
        self.raw = raw.decode("utf-8", "replace")
        self.to = list(envelope.rcpt_tos)
        msg = message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.subject = str(msg["subject"])
        part = msg.get_body(("plain",))
        self.text = part.get_content() if part is not None else ""
        self.headers = {k.lower(): str(v) for k, v in msg.items()}


class SmtpSink:
    def __init__(self) -> None:
        self.port = free_port()
        self.mails: list[Mail] = []
        self.refused = 0
        self.fail_next = 0
        """Deliveries to refuse (451, try again later) before accepting again."""
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self.lock:
            if self.fail_next > 0:
                self.fail_next -= 1
                self.refused += 1
                return "451 4.3.0 try again later"
            self.mails.append(Mail(envelope))
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[Mail]:
        with self.lock:
            return [m for m in self.mails if address in m.to]


class Hook:
    """One POST the HTTP sink received."""

    def __init__(self, path: str, body: bytes, headers: dict[str, str]) -> None:
        self.path = path
        self.raw = body.decode("utf-8", "replace")
        self.json: dict[str, Any] = json.loads(body)
        self.headers = headers


class HttpSink:
    def __init__(self) -> None:
        self.hooks: list[Hook] = []
        self.refused = 0
        self.fail_next = 0
        """Posts to answer 500 before accepting again."""
        self.status = 204
        self.redirect: str | None = None
        self.lock = threading.Lock()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                data = self.rfile.read(length)
                with sink.lock:
                    if sink.redirect is not None:
                        self.send_response(302)
                        self.send_header("location", sink.redirect)
                        self.end_headers()
                        return
                    if sink.fail_next > 0:
                        sink.fail_next -= 1
                        sink.refused += 1
                        self.send_response(500)
                        self.end_headers()
                        return
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    sink.hooks.append(Hook(self.path, data, headers))
                self.send_response(sink.status)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[Hook]:
        with self.lock:
            return [h for h in self.hooks if h.path == path]


@contextlib.contextmanager
def sinks() -> Iterator[tuple[SmtpSink, HttpSink]]:
    smtp = SmtpSink()
    smtp.controller.start()
    http = HttpSink()
    thread = threading.Thread(target=http.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield smtp, http
    finally:
        http.server.shutdown()
        http.server.server_close()
        smtp.controller.stop()


def until(what: Callable[[], Any], timeout: float = 60.0, why: str = "") -> Any:
    """Poll `what` until it is true (a signal, not a fixed sleep); its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting: {why}"
        time.sleep(0.05)
