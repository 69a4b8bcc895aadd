"""The club example: nginx (examples/club/nginx.conf, as shipped but for its ports,
name and certificate) in front of two server processes on one PostgreSQL database.

Through it: plain HTTP is sent to HTTPS; a player signs up (a `Secure` session cookie,
the CSRF check passing with the public origin); a game is created and played over
WebSockets held by both processes, every client seeing every version in order; the
links the servers hand out name the public address. Skipped where nginx or PostgreSQL
is missing, except under `CI=true` (.ci/run installs nginx).
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from euphrates.server.game.patch import patch_in_place
from euphrates.server.serve import spawn
from tests.server.harness import free_port, need_tool, stop_processes

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def _swap(text: str, old: str, new: str) -> str:
    """Replace a line of the example that must be there exactly once: the test runs
    the file people copy, not a drifting copy of it."""
    assert text.count(old) == 1, f"examples/club/nginx.conf no longer has {old!r} once"
    return text.replace(old, new)


def _certificate(where: Path) -> tuple[Path, Path]:
    openssl = need_tool(shutil.which("openssl"), "openssl")
    cert, key = where / "cert.pem", where / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    subprocess.run(
        [openssl, *request, "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


def _wait_for_port(port: int, proc: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("nginx stopped")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nginx did not listen")


@pytest.fixture(scope="module")
def club(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    nginx = need_tool(NGINX, "nginx")
    where = tmp_path_factory.mktemp("club")
    cert, key = _certificate(where)
    http_port, https_port = free_port(), free_port()
    public = f"https://localhost:{https_port}"
    servers = []
    procs: list[subprocess.Popen[Any]] = []
    try:
        for _ in range(2):
            proc, url = spawn(
                pg_url,
                *("--public-url", public, "--trusted-proxy", "127.0.0.1"),
                *("--bot-workers", "0", "--request-limit", "100000", "--rate-limit", "10000"),
            )
            procs.append(proc)
            servers.append(url)
        site = EXAMPLE.read_text()
        site = _swap(site, "server 127.0.0.1:8001;", f"server {servers[0][len('http://') :]};")
        site = _swap(site, "server 127.0.0.1:8002;", f"server {servers[1][len('http://') :]};")
        site = _swap(site, "    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n")
        site = _swap(site, "    listen [::]:80;\n", "")
        site = _swap(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
        site = _swap(site, "    listen [::]:443 ssl http2;\n", "")
        site = site.replace("server_name play.example.org;", "server_name localhost;")
        site = _swap(site, "/etc/letsencrypt/live/play.example.org/fullchain.pem", str(cert))
        site = _swap(site, "/etc/letsencrypt/live/play.example.org/privkey.pem", str(key))
        (where / "site.conf").write_text(site)
        temp = where / "temp"
        temp.mkdir()
        (where / "nginx.conf").write_text(
            f"pid {where}/nginx.pid;\nerror_log {where}/error.log warn;\n"
            "worker_processes 1;\nevents { worker_connections 256; }\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {temp};\n"
            f"  proxy_temp_path {temp};\n  fastcgi_temp_path {temp};\n"
            f"  uwsgi_temp_path {temp};\n  scgi_temp_path {temp};\n"
            f"  include {where}/site.conf;\n}}\n"
        )
        proxy = subprocess.Popen(
            [nginx, "-p", str(where), "-c", str(where / "nginx.conf"), "-g", "daemon off;"],
            stderr=subprocess.PIPE,
        )
        procs.append(proxy)
        _wait_for_port(https_port, proxy)
        yield {"public": public, "http": f"http://localhost:{http_port}", "servers": servers}
    finally:
        stop_processes(procs)


def _https(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, verify=False, timeout=30)


def test_plain_http_is_sent_to_https(club: dict[str, Any]) -> None:
    with httpx.Client(base_url=club["http"], timeout=10) as http:
        r = http.get("/api/health")
    assert r.status_code == 301
    assert r.headers["location"].startswith("https://localhost")


def test_sign_up_and_change_through_the_proxy(club: dict[str, Any]) -> None:
    origin = {"origin": club["public"]}
    with _https(club["public"]) as http:
        r = http.post(
            "/api/account/signup",
            json={"name": f"proxied{random.randrange(10**6)}", "password": "a long secret"},
            headers=origin,
        )
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie
        csrf = r.json()["csrf"]
        # Every request carries the cookie: without the token the change is refused,
        # with it (and the public origin, as a browser sends it) it is made.
        assert http.post("/api/account/logout", headers=origin).status_code == 403
        ok = http.post("/api/account/logout", headers={**origin, "x-csrf-token": csrf})
        assert ok.status_code == 200, ok.text


class _Table:
    """A WebSocket client through the proxy (TLS), keeping its views from patches."""

    def __init__(self, public: str, game_id: str, tokens: list[str]) -> None:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.ws = connect(
            public.replace("https://", "wss://") + f"/api/games/{game_id}/ws",
            ssl=context,
            additional_headers={"origin": public},
            open_timeout=10,
            legacy=True,
        )
        self.ws.send(_json({"type": "hello", "tokens": tokens}))
        welcome = self.next("welcome")
        self.views: dict[str, Any] = welcome["views"]
        self.version: int = welcome["version"]
        self.status: str = welcome["game"]["status"]

    def next(self, *kinds: str) -> dict[str, Any]:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            if msg["type"] == "update":
                assert msg["version"] == self.version + 1, "a version missed or repeated"
                for key, part in msg["views"].items():
                    self.views[key] = (
                        patch_in_place(self.views[key], part["patch"])
                        if "patch" in part
                        else part["full"]
                    )
                self.version, self.status = msg["version"], msg["status"]
            elif msg["type"] == "game":
                self.status = msg["game"]["status"]
            if msg["type"] in kinds:
                return msg
        raise AssertionError(f"no {kinds} within 20 s")

    def until(self, version: int) -> None:
        while self.version < version:
            self.next("update")


def _json(msg: dict[str, Any]) -> str:
    return json.dumps(msg)


def test_a_game_through_the_proxy_on_both_servers(club: dict[str, Any]) -> None:
    with _https(club["public"]) as http:
        r = http.post(
            "/api/games",
            json={"game": "board", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        assert r.status_code == 201, r.text
        created = r.json()
    # The links name the public address, whichever process answered.
    assert created["seats"][0]["link"].startswith(club["public"] + "/g/")
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    tables = [_Table(club["public"], gid, [tokens[i % 2]]) for i in range(4)]
    try:
        # Round robin spreads the four connections over both processes.
        for url in club["servers"]:
            assert httpx.get(url + "/api/health", timeout=10).json()["clients"] >= 1
        for t in tables:
            while t.status != "active":
                t.next("game", "update")
        rng = random.Random(3)
        for _ in range(12):
            seat = tables[0].views["0"]["decision"]["seat"]
            mover = tables[seat]
            mover.ws.send(
                _json(
                    {
                        "type": "action",
                        "id": 1,
                        "version": mover.version,
                        "seat": seat,
                        "action": rng.choice(mover.views[str(seat)]["legal"]),
                    }
                )
            )
            version = mover.next("ack")["version"]
            for t in tables:
                t.until(version)
        assert len({t.version for t in tables}) == 1
    finally:
        for t in tables:
            t.ws.close()


def test_the_service_unit_is_valid(tmp_path: Path) -> None:
    """The systemd unit of the club example, with the installed command in place of
    /opt/euphrates's: `systemd-analyze verify` finds nothing to say."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("skipped: systemd-analyze is not installed")
    command = shutil.which("euphrates") or str(Path(sys.executable).parent / "euphrates")
    unit = _swap(
        (EXAMPLE.parent / "euphrates@.service").read_text(),
        "ExecStart=/opt/euphrates/bin/euphrates ",
        f"ExecStart={command} ",
    )
    (tmp_path / "euphrates@.service").write_text(unit)
    done = subprocess.run(
        [analyze, "verify", str(tmp_path / "euphrates@8001.service")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
