"""The wheel a user installs is the product: it must carry the browser tables, the word
books and the database migrations, pass `twine check`, and run `euphrates serve`,
`euphrates demo` and the adapters from a fresh virtual environment, away from this
checkout (an editable install would hide every file the wheel forgot).

The release is `make release` (what `make dist` runs): the sdist, and from it two
wheels, each kind in a folder of its own: one with the engines compiled by mypyc for
this platform (setup.py), repaired by auditwheel to a manylinux tag, and the pure one
for every other; the engines' own tests run again against the compiled build. Built
from the sdist, a wheel never writes into this checkout's build/ directory (which two
runs in one checkout would share). The compiled wheel is built at the C compiler's -O1
(MYPYC_OPT_LEVEL, setup.py): the same code mypyc generates for a release, compiled in a
fraction of the time of -O3. The tests share one build, so they run in one xdist group
(tests/scheduling.py hands the group to one worker first)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import euphrates
from tests.release import wheel_of

ROOT = Path(__file__).resolve().parent.parent


pytestmark = pytest.mark.xdist_group("wheel")


def test_each_kind_in_its_folder_so_that_pip_installs_it_as_written(dist: Path) -> None:
    """One file a folder: `pip install dist/pure/*.whl` (README, docs/club.md) names one
    wheel, never two of one version."""
    found = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
    version = euphrates.__version__
    assert found == [
        f"manylinux/{wheel_of(dist).name}",
        f"pure/euphrates-{version}-py3-none-any.whl",
        f"sdist/euphrates-{version}.tar.gz",
    ], found
    for doc in (ROOT / "README.md", ROOT / "docs" / "club.md"):
        text = doc.read_text()
        assert "dist/euphrates-*.whl" not in text, doc
        assert "pip install euphrates\n" not in text, doc  # nothing is published yet


def test_the_compiled_wheel_has_a_manylinux_tag(dist: Path) -> None:
    wheel = wheel_of(dist)
    assert "-manylinux" in wheel.name and "linux_x86_64.whl" not in wheel.name.split("manylinux")[0]
    shown = subprocess.run(
        [str(Path(sys.executable).parent / "auditwheel"), "show", str(wheel)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    assert '"manylinux_2_' in shown.stdout, shown.stdout


def test_twine_check_passes_on_the_wheels_and_the_sdist(dist: Path) -> None:
    files = sorted(str(p) for p in dist.rglob("*") if p.is_file())
    assert len(files) == 3, files
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_the_wheel_carries_assets_migrations_licence_and_one_version(
    dist: Path, pure: bool
) -> None:
    wheel = wheel_of(dist, pure)
    names = set(zipfile.ZipFile(wheel).namelist())
    src = ROOT / "src"
    shipped = [
        p.relative_to(src).as_posix()
        for p in src.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and (
            p.suffix in {".js", ".css", ".html", ".svg", ".png", ".json", ".webmanifest", ".mako"}
            or p.name == "py.typed"
        )
    ]
    assert len(shipped) > 40
    missing = [name for name in shipped if name not in names]
    assert not missing, missing
    python = [p.relative_to(src).as_posix() for p in (src / "euphrates").rglob("*.py")]
    assert not [name for name in python if name not in names]  # the fallback, always
    extensions = [name for name in names if name.endswith(".so")]
    if pure:
        assert not extensions
    else:
        assert "euphrates/board/legal" in " ".join(extensions)
        assert "euphrates/cards/data" in " ".join(extensions)
    migrations = sorted((src / "euphrates/server/store/migrations/versions").glob("0*.py"))
    assert migrations
    for path in migrations:
        assert path.relative_to(src).as_posix() in names
    info = f"euphrates-{euphrates.__version__}.dist-info"
    assert f"{info}/licenses/LICENSE" in names
    metadata = Parser().parsestr(zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode())
    assert metadata["Version"] == euphrates.__version__
    assert metadata["License-Expression"] == "MIT"
    # the index's page: docs/package.md, with no link or picture relative to this checkout
    assert metadata["Description-Content-Type"] == "text/markdown"
    description = str(metadata.get_payload())
    assert description.strip() == (ROOT / "docs" / "package.md").read_text().strip()
    assert not re.search(r"\]\((?!https?://)", description), "a relative link"
    classifiers = metadata.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Typing :: Typed" in classifiers
    assert (ROOT / "CHANGELOG.md").read_text().count(euphrates.__version__) >= 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_wheel_serves_plays_and_adapts_from_a_fresh_environment(
    dist: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    # Without a pip of its own (ensurepip costs more than the rest of the set-up): this
    # environment's pip installs the wheel into it (`pip --python`).
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    bin_dir = venv / "bin"
    site = Path(
        subprocess.run(
            [
                str(bin_dir / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # The dependencies come from this test environment's site-packages, added as a plain
    # path: its .pth files (among them the editable install of this checkout) are not
    # run, so `euphrates` can come only from the wheel.
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(bin_dir / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel_of(dist)),
        ],
        check=True,
        timeout=300,
    )
    env = {
        **os.environ,
        "EUPHRATES_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": "",
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
    }
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import euphrates; print(euphrates.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert where.startswith(str(site)), where

    demo = subprocess.run(
        [
            str(bin_dir / "euphrates"),
            "demo",
            "cards",
            "--players",
            "2",
            "--seed",
            "3",
            "--record",
            str(tmp_path / "game.json"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert json.loads((tmp_path / "game.json").read_text())["actions"]

    adapters = subprocess.run(
        [
            str(bin_dir / "python"),
            "-c",
            "import pyspiel, euphrates.adapters.openspiel as o, euphrates.adapters.pettingzoo as p;"
            "g = pyspiel.load_game('python_euphrates_board', {'players': 2});"
            "print(g.num_players(), type(p.env(game='cards')).__name__)",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert adapters.returncode == 0, adapters.stderr[-2000:]
    assert adapters.stdout.split()[0] == "2"

    port = free_port()
    server = subprocess.Popen(
        [str(bin_dir / "euphrates"), "serve", "--port", str(port), "--bot-workers", "1"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the installed server never answered"
            time.sleep(0.2)
        with urllib.request.urlopen(f"{base}/", timeout=10) as r:
            page = r.read().decode()
        assert "lobby" in page
        with urllib.request.urlopen(f"{base}/static/js/lobby.js", timeout=10) as r:
            assert r.status == 200
        request = urllib.request.Request(
            f"{base}/api/games",
            data=json.dumps(
                {
                    "game": "board",
                    "players": 2,
                    "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
                }
            ).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            assert r.status in (200, 201)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (tmp_path / "data").exists()


def test_the_engines_tests_pass_on_the_compiled_build(dist: Path, tmp_path: Path) -> None:
    """The same rules, fuzz, hostile-input, search and adapter tests as the pure build: a compiled module
    checks argument types itself, and a hostile value must still meet the engine's own
    error, never a TypeError."""
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        wheel.extractall(tmp_path / "compiled")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "compiled")}
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "from euphrates.match.versus_chess import compiled; print(compiled())",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    )
    assert probe.stdout.strip() == "True", probe.stdout + probe.stderr
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            str(ROOT / "tests" / "board"),
            str(ROOT / "tests" / "cards"),
            # the search is compiled too (setup.py)
            str(ROOT / "tests" / "bots" / "test_search.py"),
            str(ROOT / "tests" / "bots" / "test_bots.py"),
            # and the adapters' tables and encoders (setup.py, ADAPTERS)
            str(ROOT / "tests" / "adapters" / "test_tables.py"),
            str(ROOT / "tests" / "adapters" / "test_encoding.py"),
            str(ROOT / "tests" / "adapters" / "test_chance.py"),
            str(ROOT / "tests" / "adapters" / "test_pettingzoo.py"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-4000:]
    assert " passed" in done.stdout
