"""The whole HTTP API fuzzed from its own OpenAPI description (schemathesis).

Every operation gets generated requests, valid and invalid ones, against a real
server: sometimes for one of a few real games (waiting, being played, abandoned after
some moves) and with a real seat's or host's token, so that requests reach the rooms
and not only the door; signed in to an account, with its CSRF token. No answer may be a server error, and every answer must be one
the description documents: its status, its content type and its body's schema.
Derandomized, so a run is the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from euphrates.server.common.config import Settings
from euphrates.server.transport.app import create_app
from tests.server.harness import Api, running_server

EXAMPLES = 30
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
SPEC = create_app(Settings(db_url="sqlite://", bot_workers=0)).openapi()
CASES = [
    (mode, f"{method.upper()} {path}")
    for path, methods in SPEC["paths"].items()
    for method, operation in methods.items()
    for mode in ("positive", "negative")
    # A request without parameters or body cannot be made invalid.
    if mode == "positive" or operation.get("parameters") or operation.get("requestBody")
]


class Tables:
    """A running server and a few real games on it, with their tokens."""

    def __init__(self, base: str) -> None:
        self.base = base
        api = Api(base)
        waiting = api.create()
        playing = api.create("cards", [{"kind": "human"}] * 3)
        ended = api.create()
        for g in (playing, ended):
            for s in g["seats"]:
                api.call("POST", f"/api/games/{g['id']}/join", s["token"], {"name": "P"})
        both = ",".join(s["token"] for s in ended["seats"])
        rng = random.Random(1)
        for _ in range(12):
            doc = api.call("GET", f"/api/games/{ended['id']}", both).json()
            seat = doc["views"]["0"]["decision"]["seat"]
            action = rng.choice(doc["views"][str(seat)]["legal"])
            body = {"version": doc["version"], "seat": seat, "action": action}
            api.call("POST", f"/api/games/{ended['id']}/actions", both, body)
        api.call("POST", f"/api/games/{ended['id']}/abandon", ended["host"]["token"])
        # An open table, opened by another account: the session below may sit at it,
        # leave it, or be refused starting it.
        opener = requests.Session()
        r = opener.post(
            f"{base}/api/account/signup", json={"name": "Opener", "password": "opener password"}
        )
        assert r.status_code == 201, r.text
        body = {"game": "board", "players": 4, "seats": [{"kind": "human"}] * 4, "open": True}
        r = opener.post(f"{base}/api/games", json=body, headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 201, r.text
        table = r.json()
        opener.close()
        games = (waiting, playing, ended, table)
        self.ids = [g["id"] for g in games]
        self.tokens = [s["token"] for g in games for s in g["seats"] if s["token"]]
        self.tokens += [g["host"]["token"] for g in games]
        self.tokens.append(",".join(s["token"] for s in playing["seats"]))
        self.session = requests.Session()
        # Signed in, as a browser of the server's own pages: every route is also
        # reached with a live session and its CSRF token (until a generated request
        # logs out or deletes the account).
        r = self.session.post(
            f"{base}/api/account/signup", json={"name": "Fuzz", "password": "fuzz password"}
        )
        assert r.status_code == 201, r.text
        self.session.headers["X-CSRF-Token"] = r.json()["csrf"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    directory = tmp_path_factory.mktemp("fuzz")
    settings_ = Settings(
        db_url=f"sqlite:///{directory}/games.db",
        bot_workers=0,
        bot_pace=0,
        rate_per_s=100_000,
        rate_burst=100_000,
        games_per_hour=100_000,
    )
    with running_server(settings_) as base:
        t = Tables(base)
        yield t
        t.session.close()


@pytest.mark.parametrize(("mode", "operation"), CASES)
def test_every_answer_is_documented_and_none_is_a_server_error(
    tables: Tables, operation: str, mode: str
) -> None:
    schema = schemathesis.openapi.from_dict(SPEC)
    method, path = operation.split(" ", 1)
    op = schema[path][method]
    strategy = op.as_strategy(generation_mode=schemathesis.GenerationMode(mode))
    failures: list[str] = []

    @given(
        case=strategy,
        game=st.sampled_from([None, *tables.ids]),
        token=st.sampled_from([None, None, *tables.tokens]),
    )
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any, game: str | None, token: str | None) -> None:
        if game is not None and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game
        if token is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        response = case.call(base_url=tables.base, session=tables.session)
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for e in group.exceptions:
                failures.append(f"{case.method} {case.formatted_path}: {e.title}: {e.message}")

    run()
    distinct = sorted(set(failures))
    assert not failures, f"{len(failures)} failures:\n" + "\n\n".join(distinct[:8])
