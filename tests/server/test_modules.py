"""The server's modules as the documentation describes them."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.games import GAMES

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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_tells_a_host_its_options_players_and_assets(name: str) -> None:
    """What the server offers comes from the game's definition: the options it names
    are exactly the ones `new_game` takes, with the defaults it uses, for exactly the
    numbers of players it names; its assets are JSON."""
    definition = GAMES[name]
    options = dict(definition.options)
    assert options and all(isinstance(v, bool) for v in options.values())
    for players in definition.players:
        plain = definition.new_game(players, 3)
        stated = definition.new_game(players, 3, options)
        assert plain.view(None) == stated.view(None)
    for wrong in {0, 1, 5, 6} - set(definition.players):
        with pytest.raises(ArgumentError):
            definition.new_game(wrong, 3)
    with pytest.raises(ArgumentError):
        definition.new_game(definition.players[0], 3, {**options, "no_such_option": True})
    assets = definition.assets()
    assert json.loads(json.dumps(assets)) == assets


def test_only_the_audience_touches_the_client_set() -> None:
    """Clients join, leave and are evicted through the audience: what each is sent,
    and in which order, is decided in one module."""
    touching = sorted(
        f"{path.relative_to(SERVER)}:{node.lineno}"
        for path in SERVER.rglob("*.py")
        if path.name != "audience.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "clients"
    )
    assert not touching, "the client set touched outside audience.py:\n" + "\n".join(touching)


def test_the_documentation_names_every_server_module() -> None:
    """docs/server.md's table of the server's modules names each of them (a feature's
    folder names its modules): a module nobody described is one nobody can find."""
    doc = (SERVER.parents[2] / "docs" / "server.md").read_text()
    table = doc[doc.index("## The server's modules") :]
    named = set(re.findall(r"`([\w/]+(?:\.py|/))`", table))
    missing = []
    for path in sorted(SERVER.rglob("*.py")):
        parts = path.relative_to(SERVER).parts
        if path.name == "__init__.py" or "migrations" in parts:
            continue
        if parts[0] == "features" and len(parts) == 3:
            if f"{parts[1]}/" not in named:
                missing.append("/".join(parts))
        elif path.name not in named:
            missing.append("/".join(parts))
    assert not missing, "modules docs/server.md does not name: " + ", ".join(missing)
