"""What an account owns: export, deletion, profiles and my games without a secret in
them; chat reports and mutes; `euphrates admin`; the migration both ways (SQLite, and
PostgreSQL when it answers)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from euphrates.cli import main
from euphrates.server.common.config import async_db_url
from euphrates.server.store import models as db
from euphrates.server.store.database import make_engine, migrate
from tests.server.harness import Api, run_async
from tests.server.people import PASSWORD, Person, forget_accounts
from tests.server.test_accounts import query


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def admin(db_url: str, *args: str, stdin: str = "") -> tuple[int, str]:
    """`euphrates admin --db URL ARGS`, its exit status and what it printed."""
    import contextlib
    import sys

    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["admin", "--db", db_url, *args])
    finally:
        sys.stdin = old
    return status, out.getvalue() + err.getvalue()


def table(base: str) -> tuple[dict[str, Any], Person, Person]:
    """A game Ann and Bob sit at, by their accounts, each having said a line."""
    ann, bob = Person(base), Person(base)
    ann.signup("Ann")
    bob.signup("Bob", "bobs own password")
    game = Api(base).create()
    gid = game["id"]
    for who, seat in ((ann, 0), (bob, 1)):
        assert who.post(f"/api/games/{gid}/join", {}, token=game["seats"][seat]["token"]).is_success
    assert ann.post(f"/api/games/{gid}/chat", {"text": "ann says hello"}).is_success
    assert bob.post(f"/api/games/{gid}/chat", {"text": "bob whispers zebra"}).is_success
    return game, ann, bob


def test_no_secret_or_other_players_data_in_account_answers(base: str, db_url: str) -> None:
    game, ann, bob = table(base)
    gid = game["id"]
    answers = [
        ann.get("/api/account"),
        ann.get("/api/account/games"),
        ann.get("/api/account/export"),
        ann.get("/api/users/Ann"),
        Person(base).get("/api/users/Ann"),
        ann.post(f"/api/games/{gid}/claim", token=game["seats"][0]["token"]),
        ann.login("Ann"),
    ]
    assert all(r.is_success for r in answers), [r.text for r in answers]
    text = "\n".join(r.text for r in answers) + "\n".join(str(r.headers) for r in answers[:-1])
    secrets = [s["token"] for s in game["seats"]] + [game["host"]["token"], PASSWORD]
    secrets += ["bobs own password", "bob whispers zebra", str(bob.session)]
    secrets += [r[0] for r in query(db_url, "SELECT password_hash FROM users")]
    secrets += [r[0] for r in query(db_url, "SELECT id_hash FROM sessions")]
    secrets += [r[0] for r in query(db_url, "SELECT seed FROM games WHERE id = :g", g=gid)]
    leaked = [s for s in secrets if s in text]
    assert not leaked, leaked
    # Bob sits at the table (the claim's answer names the seats); nothing of the
    # account's own answers is his.
    own = "\n".join(r.text for r in answers if "/claim" not in str(r.request.url))
    assert "Bob" not in own and "bob" not in own
    # Ann's own session id travels only in her Set-Cookie, never in a body.
    assert str(ann.session) not in "\n".join(r.text for r in answers)


def test_export_holds_the_account_its_games_seats_and_lines(base: str) -> None:
    game, ann, _bob = table(base)
    doc = ann.get("/api/account/export").json()
    assert doc["account"]["name"] == "Ann" and doc["account"]["muted"] is False
    assert [g["id"] for g in doc["games"]] == [game["id"]]
    assert doc["seats"] == [{"game": game["id"], "seat": 0, "name": "Ann", "taken": True}]
    assert [(c["author"], c["text"]) for c in doc["chat"]] == [("Ann", "ann says hello")]
    assert doc["ratings"] == {"ratings": [], "rated": []}  # no rated game yet
    assert len(doc["sessions"]) == 1 and set(doc["sessions"][0]) == {
        "created",
        "last_seen",
        "expires",
    }
    assert Person(base).get("/api/account/export").json()["error"]["code"] == "not_signed_in"


def test_deleting_an_account_keeps_its_games_and_hides_its_name(base: str) -> None:
    game, ann, bob = table(base)
    gid = game["id"]
    other = Person(base)
    other.login("Ann")
    assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
    assert ann.me()["user"] is None and other.me()["user"] is None  # every session ended
    seats = bob.get(f"/api/games/{gid}").json()["game"]["seats"]
    assert seats[0]["name"].startswith("deleted-") and seats[1]["name"] == "Bob"
    chat = bob.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [m["author"][:8] for m in chat] == ["deleted-", "Bob"]
    assert "Ann" not in json.dumps(chat) + json.dumps(seats)
    assert Person(base).get("/api/users/Ann").json()["error"]["code"] == "unknown_user"
    assert Person(base).signup("Ann").status_code == 201  # the name is free again


def test_a_profile_shows_games_per_game_and_finished_games_with_replays(base: str) -> None:
    game, ann, _bob = table(base)
    api = Api(base)
    assert api.call("POST", f"/api/games/{game['id']}/abandon", game["host"]["token"]).is_success
    doc = Person(base).get("/api/users/ann").json()
    assert doc["name"] == "Ann" and doc["games"] == {"board": 1}
    assert doc["ratings"] == [] and doc["rated"] == []  # an unrated game
    assert [(g["id"], g["replay"]) for g in doc["finished"]] == [
        (game["id"], f"/replay/{game['id']}")
    ]
    assert ann.get("/api/account/games").json()["games"][0]["status"] == "abandoned"


def test_a_reported_line_reaches_the_admins_and_a_muted_account_cannot_chat(
    base: str, db_url: str
) -> None:
    game, ann, bob = table(base)
    gid = game["id"]
    r = bob.post(f"/api/games/{gid}/chat/1/report", {"reason": "rude"})
    assert r.json() == {"done": True}
    assert bob.post(f"/api/games/{gid}/chat/99/report", {}).json()["error"]["code"] == "not_found"
    assert Person(base).post(f"/api/games/{gid}/chat/1/report", {}).status_code == 401
    status, out = admin(db_url, "reports")
    assert status == 0 and "ann says hello" in out and "rude" in out and "by Bob" in out
    assert admin(db_url, "mute", "ann")[0] == 0
    r = ann.post(f"/api/games/{gid}/chat", {"text": "again"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "muted")
    ws = ann.socket(gid)
    ws.send({"type": "chat", "id": 7, "text": "over the socket"})
    assert ws.next("error")["code"] == "muted"
    ws.close()
    assert bob.post(f"/api/games/{gid}/chat", {"text": "still here"}).is_success
    assert admin(db_url, "mute", "Ann", "--unmute")[0] == 0
    assert ann.post(f"/api/games/{gid}/chat", {"text": "sorry"}).is_success


def test_admin_creates_resets_disables_and_ends(base: str, db_url: str) -> None:
    assert admin(db_url, "create-user", "Cleo", stdin="first password\n") == (0, "created Cleo\n")
    status, out = admin(db_url, "create-user", "cleo", stdin="first password\n")
    assert status == 1 and "taken" in out
    assert admin(db_url, "create-user", "Dan", stdin="short\n")[0] == 1
    cleo = Person(base)
    assert cleo.login("Cleo", "first password").status_code == 200
    assert admin(db_url, "reset-password", "CLEO", stdin="second password\n")[0] == 0
    assert cleo.me()["user"] is None  # its sessions ended
    assert cleo.login("Cleo", "first password").status_code == 401
    assert cleo.login("Cleo", "second password").status_code == 200
    assert admin(db_url, "disable", "Cleo")[0] == 0
    assert cleo.me()["user"] is None
    assert cleo.login("Cleo", "second password").json()["error"]["code"] == "account_disabled"
    assert admin(db_url, "disable", "Cleo", "--enable")[0] == 0
    assert cleo.login("Cleo", "second password").status_code == 200
    assert admin(db_url, "disable", "Nobody")[0] == 1
    game = Api(base).create()
    status, out = admin(db_url, "games", "--status", "waiting")
    assert status == 0 and game["id"] in out
    assert admin(db_url, "end-game", game["id"]) == (0, f"game {game['id']} ended (abandoned)\n")
    assert Api(base).call("GET", f"/api/games/{game['id']}").json()["game"]["status"] == (
        "abandoned"
    )
    assert admin(db_url, "end-game", game["id"])[0] == 1


def test_game_ids_never_start_with_a_dash_and_an_old_one_follows_two_dashes() -> None:
    """One id in 64 began with "-", and `admin end-game ID` read it as an option (the
    command above failed with a usage error). New ids never do; an old one is given
    after `--`. 5 000 draws would meet some 78 leading dashes at the old odds."""
    import argparse

    from euphrates.server.admin_args import add_arguments
    from euphrates.server.common.tokens import new_game_id

    ids = [new_game_id() for _ in range(5000)]
    assert not [i for i in ids if i.startswith("-")]
    assert {len(i) for i in ids} == {12} and len(set(ids)) == 5000
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["end-game", "--", "-Xk3abcdefgh"]).game_id == "-Xk3abcdefgh"


def test_the_accounts_migration_goes_down_and_up(db_url: str, tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    def step(conn: sa.Connection, target: str, down: bool) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)

    async def go() -> list[str]:
        engine = make_engine(async_db_url(db_url))
        try:
            await migrate(engine)
            async with engine.begin() as conn:
                await conn.run_sync(step, "0002", True)
                gone = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
                assert "users" not in gone
                await conn.run_sync(step, "head", False)
                return list(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
        finally:
            await engine.dispose()

    assert {"users", "sessions", "reports"} <= set(run_async(go()))
