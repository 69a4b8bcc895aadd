"""The server's modules as the documentation describes them."""

from __future__ import annotations

import re
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "server"
WEB = SERVER.parent / "web"


def test_the_browser_files_the_server_names_exist() -> None:
    """A module that says the browser does the same thing names the file where it
    does: a reader must find it there."""
    named = {
        (path.name, name)
        for path in SERVER.rglob("*.py")
        for name in re.findall(r"\bweb/([\w/.-]+\.(?:js|html|css))", path.read_text())
    }
    assert named, "no module names a browser file"
    missing = sorted(f"{module}: web/{name}" for module, name in named if not (WEB / name).exists())
    assert not missing, "named but not there:\n" + "\n".join(missing)
