"""The tables on a phone's home screen (web/manifest.webmanifest, web/worker/sw.js): the
manifest and its icons load and Chromium finds the page installable; the service
worker keeps the static files and the word books, never an answer of the API; with the
server out of reach a page says so, and opens by itself when the server is back; a
copy older than the server's file is replaced at the next load.

The server is reached through a switch of the test's own (a TCP relay on a port of its
own), so that "out of reach" is a refused connection, as a phone without network or a
stopped server gives, and "back" is the same address answering again."""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Pages, Server, shot


class Relay:
    """A TCP relay from a port of its own to the server; `down()` closes it (new
    connections are refused, open ones cut), `up()` listens on the same port again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.listener: socket.socket | None = None
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.up()

    def up(self) -> None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(64)
        self.port = s.getsockname()[1]
        self.listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def down(self) -> None:
        assert self.listener is not None
        # shut down first: a close alone leaves the accept under way listening
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.listener = None
        with self.lock:
            for c in self.open:
                try:
                    # a reset, as a lost connection gives, rather than a polite end
                    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    c.close()
                except OSError:
                    pass
            self.open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def relay(server: Server) -> Iterator[Relay]:
    r = Relay(int(server.base.rsplit(":", 1)[1]))
    yield r
    if r.listener is not None:
        r.down()


def _worker_ready(page: Any) -> str:
    """The version of the worker controlling the page, once it does."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return str(
        page.evaluate("async () => (await caches.keys()).find((k) => k.startsWith('euphrates-'))")
    )


def test_the_manifest_and_its_icons(server: Server, pages: Pages) -> None:
    with urllib.request.urlopen(server.base + "/static/manifest.webmanifest") as res:
        assert res.headers["content-type"].startswith("application/manifest+json")
        manifest = json.load(res)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.base + icon["src"]) as res:
            body = res.read()
        if icon["type"] == "image/png":
            # the PNG's own width and height (IHDR) are the sizes the manifest claims
            width, height = struct.unpack(">II", body[16:24])
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    page = pages.open(server.base + "/", worker=True)
    page.wait_for_selector(".lang button")
    _worker_ready(page)
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test's browser context is a private one, which no browser installs from; that
    # is the only thing Chromium may find wrong
    assert [e["errorId"] for e in errors] in ([], ["in-incognito"]), errors
    app = cdp.send("Page.getAppManifest")
    assert app["errors"] == [] and "Euphrates" in app["data"], app["errors"]


def test_the_worker_keeps_static_files_only(server: Server, pages: Pages) -> None:
    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    page = pages.open(server.base + "/", worker=True)
    _worker_ready(page)
    page.goto(f"{server.base}/g/{game['id']}#s={game['seats'][0]['token']}")
    page.wait_for_selector("svg.board")
    kept: list[str] = page.evaluate(
        """async () => {
        const out = [];
        for (const name of await caches.keys())
          for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname);
        return out;
    }"""
    )
    assert "/static/js/board/table.js" in kept and "/static/words/en/board.json" in kept
    assert all(p.startswith("/static/") or p == "/offline" for p in kept), kept
    assert not [p for p in kept if p.startswith("/api") or "/g/" in p], kept


def test_out_of_reach_the_page_says_so_and_comes_back(
    server: Server, relay: Relay, pages: Pages
) -> None:
    base = f"http://localhost:{relay.port}"
    page = pages.open(base + "/", locale="de-DE", worker=True)
    page.wait_for_selector(".lang button")
    _worker_ready(page)
    relay.down()
    page.goto(base + "/rules/board")
    page.wait_for_selector("main.offline")
    assert page.locator("h1").inner_text() == "Der Server ist nicht erreichbar"
    assert page.url == base + "/rules/board"
    shot(page, "offline-de")
    relay.up()
    # the page asks again by itself and, answered, opens the page asked for
    page.wait_for_selector(".rules", timeout=20000)
    assert page.url == base + "/rules/board"
    # what the browser logged while the server was out of reach is the point of the test:
    # closed first, so that nothing arrives after the failures expected are set aside
    pages.close()
    expected = ("ERR_CONNECTION", "ERR_FAILED", "Failed to fetch")
    pages.errors = [e for e in pages.errors if not any(x in e for x in expected)]


def test_an_older_copy_is_replaced_by_the_servers_file(server: Server, pages: Pages) -> None:
    page = pages.open(server.base + "/", worker=True)
    page.wait_for_selector(".lang button")
    _worker_ready(page)
    fresh = page.locator(".lang").get_attribute("aria-label")
    # an older release's copy of the pages' texts, as the worker might hold it
    page.evaluate(
        """async () => {
        const name = (await caches.keys()).find((k) => k.startsWith('euphrates-'));
        const cache = await caches.open(name);
        const url = '/static/words/en/pages.json';
        const texts = await (await cache.match(url)).json();
        texts['lang.label'] = 'An old word';
        await cache.put(url, new Response(JSON.stringify(texts), { headers: { 'content-type': 'application/json' } }));
    }"""
    )
    page.reload()
    page.wait_for_selector(".lang button")
    assert page.locator(".lang").get_attribute("aria-label") == fresh
    held = page.evaluate(
        """async () => {
        const name = (await caches.keys()).find((k) => k.startsWith('euphrates-'));
        return (await (await (await caches.open(name)).match('/static/words/en/pages.json')).json())['lang.label'];
    }"""
    )
    assert held == fresh


def test_a_new_release_is_a_new_worker_that_drops_the_old_copies(
    server: Server, pages: Pages
) -> None:
    page = pages.open(server.base + "/", worker=True)
    page.wait_for_selector(".lang button")
    version = _worker_ready(page)
    with urllib.request.urlopen(server.base + "/sw.js") as res:
        code = res.read().decode()
        assert res.headers["cache-control"] == "no-cache"
    assert version.removeprefix("euphrates-") in code
    # an old release's cache beside this one is dropped when a worker takes over
    page.evaluate(
        "async () => { await (await caches.open('euphrates-0.0.0-old')).put('/static/x', new Response('x')); }"
    )
    page.evaluate(
        """async () => {
        const r = await navigator.serviceWorker.getRegistration();
        await r.unregister();
        await navigator.serviceWorker.register('/sw.js', { scope: '/' });
        await navigator.serviceWorker.ready;
    }"""
    )
    page.wait_for_function(
        "async () => !(await caches.keys()).includes('euphrates-0.0.0-old')", polling=200
    )
