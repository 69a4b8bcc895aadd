"""docs/club.md, run as written: the shell lines of its sections 1 to 4 (the database, the
servers from the release's wheel, the proxy, the mail server's secret) and its first
admin line (an account), in order, in one shell, up to a lobby that answers through
nginx over TLS and an account that signs in there.

What the test changes, and only that: the guide's `/opt` and `/etc` stand in a folder of
the test's own (every line and the unit are read with that folder as `/`); `sudo` runs
the command as the test's user, `useradd` is noted rather than done, and `systemctl`
starts, restarts and reloads the unit's `ExecStart` and nginx itself (a machine's service
manager is not the test's to use); the two ports are free ones instead of 8001 and 8002,
and the database is reached at the test's PostgreSQL host. The edits the guide leaves to
the admin (the unit's public address; nginx's name, certificate and ports) are made by
the `cp` that copies each file, as the admin would right after. Skipped without
PostgreSQL or nginx, except under `CI=true`."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.release import wheel_of
from tests.server.harness import free_port, need_tool, pg_admin_url, pg_reachable

pytestmark = pytest.mark.xdist_group("wheel")

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "club.md"
EXAMPLES = ROOT / "examples" / "club"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
SECRET = "s3cret-mail-pw"
PASSWORD = "a long club password"


def guide_lines() -> list[str]:
    """The shell lines of sections 1 to 4, then the first line of section 6's block (an
    account made by the machine's admin): the path from nothing to a club."""
    lines: list[str] = []
    section = 0
    in_block = False
    for line in GUIDE.read_text().splitlines():
        if m := re.match(r"## (\d+)\. ", line):
            section = int(m[1])
        elif line.startswith("```sh"):
            in_block = True
        elif line.startswith("```"):
            in_block = False
        elif (
            in_block and line.strip() and (section <= 4 or (section == 6 and "create-user" in line))
        ):
            lines.append(line)
    return lines


SYSTEMCTL = r"""
import json, os, re, signal, subprocess, sys, time
from pathlib import Path
root = Path(os.environ["CLUB_ROOT"])
state = root / "run"
state.mkdir(exist_ok=True)

def rooted(text):
    return text.replace("/opt/", f"{root}/opt/").replace("/etc/", f"{root}/etc/")

def start(instance):
    unit = (root / "etc/systemd/system/euphrates@.service").read_text()
    exec_line = re.search(r"^ExecStart=(.*)$", unit, re.M)[1].replace("%i", instance)
    env = dict(os.environ)
    found = re.search(r"^EnvironmentFile=-?(.*)$", unit, re.M)
    env_file = Path(rooted(found[1])) if found else None
    if env_file and env_file.exists():
        for line in env_file.read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                env[key] = value
    log = open(state / f"euphrates@{instance}.log", "a")
    proc = subprocess.Popen(["sh", "-c", "exec " + rooted(exec_line)], env=env, stdout=log,
                            stderr=log, start_new_session=True)
    (state / f"euphrates@{instance}.pid").write_text(str(proc.pid))

def alive(pid):
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status  # a zombie no one reaps has ended all the same

def stop(pid_file):
    pid = int(pid_file.read_text())
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + 30
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    pid_file.unlink()

args = [a for a in sys.argv[1:] if not a.startswith("--")]
verb, units = args[0], args[1:]
nginx = [os.environ["CLUB_NGINX"], "-p", str(root / "nginx"), "-c", str(root / "etc/nginx/nginx.conf")]
for unit in units:
    if unit == "nginx":
        pid = root / "nginx/nginx.pid"
        running = pid.exists() and pid.read_text().strip() != ""  # `nginx -t` leaves it empty
        subprocess.run(nginx + (["-s", "reload"] if running else []), check=True)
    elif verb in ("enable", "start"):
        start(unit.split("@", 1)[1])
    elif verb == "restart":
        for pid_file in sorted(state.glob(unit.replace("*", "") + "*.pid")):
            instance = pid_file.stem.split("@", 1)[1]
            stop(pid_file)
            start(instance)
"""

CP = r"""
import os, re, shutil, sys
from pathlib import Path
root = Path(os.environ["CLUB_ROOT"])
source, target = sys.argv[-2], Path(sys.argv[-1])
if target.is_dir():
    target = target / Path(source).name
shutil.copyfile(source, target)
text = target.read_text()
ports = os.environ["CLUB_PORTS"].split(",")
if target.name == "euphrates@.service":
    # the admin's edit: the public address, and the database at the test's host
    text = text.replace("https://play.example.org", os.environ["CLUB_PUBLIC"])
    text = text.replace("postgresql://euphrates@/club", os.environ["CLUB_DB"])
elif target.suffix == ".conf":
    # the admin's edit of nginx.conf: name, certificate, ports
    text = text.replace("127.0.0.1:8001", "127.0.0.1:" + ports[0])
    text = text.replace("127.0.0.1:8002", "127.0.0.1:" + ports[1])
    text = text.replace("    listen 80;\n", "    listen 127.0.0.1:%s;\n" % ports[2])
    text = text.replace("    listen [::]:80;\n", "").replace("    listen [::]:443 ssl http2;\n", "")
    text = text.replace("listen 443 ssl http2;", "listen 127.0.0.1:%s ssl http2;" % ports[3])
    text = text.replace("server_name play.example.org;", "server_name localhost;")
    text = text.replace("/etc/letsencrypt/live/play.example.org/fullchain.pem", os.environ["CLUB_CERT"])
    text = text.replace("/etc/letsencrypt/live/play.example.org/privkey.pem", os.environ["CLUB_KEY"])
target.write_text(text)
"""


def _shims(where: Path, python: str) -> Path:
    shims = where / "shims"
    shims.mkdir()
    scripts = {
        # sudo: the command as this user (`-u someone` dropped)
        "sudo": '#!/bin/sh\nif [ "$1" = "-u" ]; then shift 2; fi\nexec "$@"\n',
        "useradd": f'#!/bin/sh\necho "$@" >> {where}/useradd.log\n',
        "systemctl": f'#!/bin/sh\nexec {python} {where}/systemctl.py "$@"\n',
        "cp": f'#!/bin/sh\nexec {python} {where}/cp.py "$@"\n',
        "nginx": f'#!/bin/sh\nexec "$CLUB_NGINX" -p {where}/nginx -c {where}/etc/nginx/nginx.conf "$@"\n',
    }
    (where / "systemctl.py").write_text(SYSTEMCTL)
    (where / "cp.py").write_text(CP)
    for name, text in scripts.items():
        path = shims / name
        path.write_text(text)
        path.chmod(0o755)
    return shims


def _prepare(where: Path) -> tuple[Path, Path]:
    """The machine before the guide: nginx's own configuration including conf.d, a
    certificate where certbot would have put one, the folders a system has."""
    for folder in ("opt", "etc/systemd/system", "etc/nginx/conf.d", "nginx/temp"):
        (where / folder).mkdir(parents=True)
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    temp = where / "nginx" / "temp"
    (where / "etc/nginx/nginx.conf").write_text(
        f"pid {where}/nginx/nginx.pid;\nerror_log {where}/nginx/error.log warn;\n"
        "worker_processes 1;\nevents { worker_connections 256; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {temp};\n"
        f"  proxy_temp_path {temp};\n  fastcgi_temp_path {temp};\n"
        f"  uwsgi_temp_path {temp};\n  scgi_temp_path {temp};\n"
        f"  include {where}/etc/nginx/conf.d/*.conf;\n}}\n"
    )
    return cert, key


def _psql(sql: str) -> None:
    subprocess.run(["psql", pg_admin_url(), "-qc", sql], check=True, capture_output=True)


@pytest.fixture
def club_db() -> Iterator[str]:
    why = pg_reachable()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {why}")
        pytest.skip(f"skipped: {why}")
    need_tool(shutil.which("psql"), "psql")
    need_tool(shutil.which("createuser"), "createuser (PostgreSQL's client tools)")
    _psql("DROP DATABASE IF EXISTS club WITH (FORCE)")
    _psql("DROP ROLE IF EXISTS euphrates")
    host = pg_admin_url().split("//", 1)[1].split("/", 1)[0].split("@")[-1]
    yield host
    _psql("DROP DATABASE IF EXISTS club WITH (FORCE)")
    _psql("DROP ROLE IF EXISTS euphrates")


def _stop_all(where: Path) -> None:
    for pid_file in (where / "run").glob("*.pid"):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(int(pid_file.read_text()), signal.SIGTERM)
    nginx_pid = where / "nginx" / "nginx.pid"
    if nginx_pid.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(nginx_pid.read_text()), signal.SIGQUIT)


def _answering(url: str, seconds: float) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while True:
        try:
            r = httpx.get(url, verify=False, timeout=5)
            if r.status_code == 200:
                return r
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer within {seconds} s")
        time.sleep(0.5)


def test_the_club_guide_runs_as_written(dist: Path, club_db: str, tmp_path: Path) -> None:
    nginx = need_tool(NGINX, "nginx")
    need_tool(shutil.which("openssl"), "openssl")
    where = tmp_path / "machine"
    where.mkdir()
    cert, key = _prepare(where)
    shims = _shims(where, sys.executable)
    # what the admin has in the folder they work in: the wheel, the unit, nginx's file
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(wheel_of(dist, pure=True), work)
    shutil.copy(EXAMPLES / "euphrates@.service", work)
    shutil.copy(EXAMPLES / "nginx.conf", work)
    a, b, http_port, https_port = (free_port() for _ in range(4))
    public = f"https://localhost:{https_port}"
    lines = guide_lines()
    assert any("pip install ./euphrates-*.whl" in line for line in lines), lines
    assert any("enable --now euphrates@8001 euphrates@8002" in line for line in lines), lines
    script = "set -e\n" + "\n".join(
        line.replace("/opt/", f"{where}/opt/")
        .replace("/etc/", f"{where}/etc/")
        .replace("euphrates@8001", f"euphrates@{a}")
        .replace("euphrates@8002", f"euphrates@{b}")
        .replace("postgresql://euphrates@/club", f"postgresql://euphrates@{club_db}/club")
        for line in lines
    )
    env = {
        **os.environ,
        "PATH": f"{shims}:{os.environ['PATH']}",
        "PGHOST": club_db.split(":")[0],
        "PGPORT": club_db.split(":")[1] if ":" in club_db else "5432",
        "PGUSER": "postgres",
        "CLUB_ROOT": str(where),
        "CLUB_NGINX": nginx,
        "CLUB_PORTS": f"{a},{b},{http_port},{https_port}",
        "CLUB_PUBLIC": public,
        "CLUB_DB": f"postgresql://euphrates@{club_db}/club",
        "CLUB_CERT": str(cert),
        "CLUB_KEY": str(key),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    # standard input: the mail server's URL (read without echo), then Ann's password
    answers = f"smtp://games%40example.org:{SECRET}@127.0.0.1:2525\n{PASSWORD}\n"
    try:
        done = subprocess.run(
            ["bash", "-c", script],
            input=answers,
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        said = done.stdout + done.stderr
        assert done.returncode == 0, said[-4000:]
        # the secret never reached the screen, and sits in a file only its owner reads
        assert SECRET not in said
        secrets_file = where / "etc" / "euphrates" / "environment"
        assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
        assert f":{SECRET}@" in secrets_file.read_text()
        assert "--system" in (where / "useradd.log").read_text()
        # the lobby answers through nginx, over TLS, from both processes
        lobby = _answering(public + "/", 90)
        assert '<div id="app">' in lobby.text
        with httpx.Client(base_url=public, verify=False, timeout=30) as http:
            # plain HTTP is sent to HTTPS
            moved = httpx.get(f"http://localhost:{http_port}/", timeout=10)
            assert moved.status_code == 301
            # the account the admin made signs in through the proxy; the servers were
            # restarted with the mail server's URL, so mail is on offer
            r = http.post(
                "/api/account/login",
                json={"name": "Ann", "password": PASSWORD},
                headers={"origin": public},
            )
            assert r.status_code == 200, r.text
            prefs = http.get("/api/account/notifications").json()
            assert prefs["mail"] is True, prefs
        for port in (a, b):
            direct = _answering(f"http://127.0.0.1:{port}/api/health", 30)
            assert json.loads(direct.text)
    finally:
        _stop_all(where)
