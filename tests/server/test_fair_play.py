"""Fair play (docs/fair-play.md), each exploit tried first: a rated game counts only
when it was played; leaving after that is a loss; the same two accounts count a few
times a day; deserters are forfeited in real time and turn-based play; a vacation
stops the clocks; an admin voids a game and the ratings are computed again exactly
as OpenSkill gives them without it."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.match.ratings import Rating, display, rate_game
from euphrates.server.common.config import Settings
from tests.server.conftest import sqlite_url
from tests.server.harness import running_server
from tests.server.people import Person, forget_accounts
from tests.server.playing import game_doc, play_decisions


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server with bots that move at once and a forfeit grace of a second."""
    settings = Settings(
        db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0, forfeit_grace=1.0, clock_day=2
    )
    with running_server(settings) as url:
        yield url, tmp_path / "games.db"


@pytest.fixture
def patient_club(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """As `club`, with a grace of 5 s: long enough for a player to come back in it however
    loaded the machine (a second was missed under a full run's load), short enough to
    wait out."""
    settings = Settings(
        db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0, forfeit_grace=5.0, clock_day=2
    )
    with running_server(settings) as url:
        yield url, tmp_path / "games.db"


def accounts(base: str, *names: str) -> list[Person]:
    people = [Person(base) for _ in names]
    for p, name in zip(people, names, strict=True):
        assert p.signup(name).status_code == 201
    return people


def duel(people: list[Person], rated: bool = True, clock: dict[str, Any] | None = None) -> str:
    """A card duel of two accounts, both seated (the first created it)."""
    body: dict[str, Any] = {
        "game": "cards",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "rated": rated,
    }
    if clock is not None:
        body["clock"] = clock
    r = people[0].post("/api/games", body)
    assert r.status_code == 201, r.text
    created = r.json()
    for i, p in enumerate(people):
        token = created["seats"][i]["token"]
        assert p.post(f"/api/games/{created['id']}/join", {}, token=token).is_success
    return str(created["id"])


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def ratings_of(db: Path) -> dict[str, tuple[float, float, int]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT users.name, ratings.mu, ratings.sigma, ratings.games FROM ratings "
            "JOIN users ON users.id = ratings.user_id"
        ).fetchall()
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


def until(test: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_farming_by_resigning_at_once_changes_no_rating(club: tuple[str, Path]) -> None:
    """The exploit: both accounts resign a rated game at once and bots finish it, four
    games in 30 s (1000 → 1407). Now a game left before it was played is aborted,
    unrated for everyone, and its leaver's abort counted: the third in a day keeps
    the account from rated seats."""
    url, db = club
    ann, bob = accounts(url, "Ann", "Bob")
    for round_ in range(3):
        gid = duel([ann, bob])
        r = ann.post(f"/api/games/{gid}/seats/0/resign")
        assert r.status_code == 200 and r.json() == {"level": None, "status": "aborted"}, r.text
        assert code(bob.post(f"/api/games/{gid}/seats/1/resign")) == "aborted"
        doc = game_doc(bob, gid)
        assert doc["game"]["status"] == "aborted" and doc["game"]["verdict"] is None
        assert [n["kind"] for n in doc["notes"]] == ["aborted"], round_
    assert all(games == 0 for _mu, _s, games in ratings_of(db).values())
    assert Person(url).get("/api/users/Ann").json()["rated"] == []
    # The third abort: Ann takes no rated seat for a while, Bob still does.
    body = {"game": "cards", "players": 2, "seats": [{"kind": "human"}] * 2, "rated": True}
    assert code(ann.post("/api/games", body)) == "too_many_aborts"
    assert code(ann.post("/api/quickmatch", {"game": "cards"})) == "too_many_aborts"
    created = bob.post("/api/games", body).json()
    r = ann.post(f"/api/games/{created['id']}/join", {}, token=created["seats"][1]["token"])
    assert code(r) == "too_many_aborts"


def test_leaving_after_the_game_was_played_is_a_loss_that_counts(club: tuple[str, Path]) -> None:
    """Once each seat made its decisions, resigning is a loss: the duel ends at once,
    the leaver last, and the rating change is OpenSkill's for that order."""
    url, db = club
    ann, bob = accounts(url, "Ann", "Bob")
    gid = duel([ann, bob])
    play_decisions(gid, {0: ann, 1: bob})
    r = ann.post(f"/api/games/{gid}/seats/0/resign")
    assert r.json() == {"level": None, "status": "over"}, r.text
    doc = game_doc(bob, gid)
    assert doc["game"]["status"] == "over" and doc["game"]["verdict"] == "counted"
    expected = rate_game([Rating(), Rating()], [2, 1])
    got = ratings_of(db)
    assert got["Ann"][:2] == pytest.approx((expected[0].mu, expected[0].sigma))
    assert got["Bob"][:2] == pytest.approx((expected[1].mu, expected[1].sigma))
    profile = Person(url).get("/api/users/Ann").json()
    assert profile["rated"][0]["place"] == 2 and profile["rated"][0]["verdict"] == "counted"
    # The end banner's figures: the leaver last, each change on the profile's scale.
    result = doc["game"]["result"]
    assert result["places"] == [2, 1] and result["left"] == [{"seat": 0, "kind": "resigned"}]
    shown = [display(r.mu, r.sigma) for r in expected]
    assert [c["after"] for c in result["ratings"]] == shown
    assert [c["before"] for c in result["ratings"]] == [display(Rating().mu, Rating().sigma)] * 2


def test_abandoning_to_escape_a_loss_counts_as_resigning(club: tuple[str, Path]) -> None:
    """The exploit: a losing host abandons a rated game in play, and the loss never
    counts. Now the host's own seat resigns: ranked last, the game ends, it counts."""
    url, db = club
    ann, bob = accounts(url, "Ann", "Bob")
    body = {
        "game": "cards",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "rated": True,
        "open": True,
    }
    created = ann.post("/api/games", body).json()
    gid = created["id"]
    assert bob.post(f"/api/games/{gid}/sit", {}).is_success
    play_decisions(gid, {0: ann, 1: bob})
    r = ann.post(f"/api/games/{gid}/abandon", token=created["host"]["token"])
    assert r.status_code == 200, r.text
    doc = game_doc(bob, gid)
    assert doc["game"]["status"] == "over", doc["game"]
    assert [n["kind"] for n in doc["notes"]] == ["resigned"]
    places = {
        name: Person(url).get(f"/api/users/{name}").json()["rated"][0]["place"]
        for name in ("Ann", "Bob")
    }
    assert places == {"Ann": 2, "Bob": 1}
    assert ratings_of(db)["Ann"][0] < ratings_of(db)["Bob"][0]


def test_the_same_two_accounts_count_a_few_times_a_day(club: tuple[str, Path]) -> None:
    """Farming one opponent: the fourth rated game of a day between the same two
    accounts is a `repeat`, listed and counted for nobody."""
    url, db = club
    ann, bob = accounts(url, "Ann", "Bob")
    for n in range(4):
        gid = duel([ann, bob])
        play_decisions(gid, {0: ann, 1: bob})
        before = ratings_of(db)
        assert bob.post(f"/api/games/{gid}/seats/1/resign").is_success
        verdict = game_doc(ann, gid)["game"]["verdict"]
        if n < 3:
            assert verdict == "counted"
        else:
            assert verdict == "repeat"
            assert ratings_of(db) == before
    rated = Person(url).get("/api/users/Ann").json()["rated"]
    assert [g["verdict"] for g in rated] == ["repeat", "counted", "counted", "counted"]
    assert rated[0]["before"] == rated[0]["after"]


def test_void_game_computes_the_ratings_again_without_it(club: tuple[str, Path]) -> None:
    """`euphrates admin void-game`: the game counts for nobody, and every rating of its
    game and group is what OpenSkill gives for the other games in order — computed
    here independently, from the places the profiles list. A second void is refused."""
    url, db = club
    ann, bob, cy = accounts(url, "Ann", "Bob", "Cy")
    games = []
    for first, second in ((ann, bob), (bob, cy), (ann, cy)):
        gid = duel([first, second])
        play_decisions(gid, {0: first, 1: second})
        assert second.post(f"/api/games/{gid}/seats/1/resign").is_success
        games.append(gid)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "euphrates",
            "admin",
            "--db",
            sqlite_url(db.parent),
            "void-game",
            games[0],
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "voided" in done.stdout, done.stderr
    # Independently: the two games that still count, in order, from new ratings.
    mine = {"Ann": Rating(), "Bob": Rating(), "Cy": Rating()}
    for a, b in (("Bob", "Cy"), ("Ann", "Cy")):
        after = rate_game([mine[a], mine[b]], [1, 2])  # the second seat resigned
        mine[a], mine[b] = after
    got = ratings_of(db)
    for name, value in mine.items():
        assert got[name][:2] == pytest.approx((value.mu, value.sigma)), name
    assert got["Bob"][2] == 1 and got["Ann"][2] == 1 and got["Cy"][2] == 2
    # The server holding the game hears of it (a signal, read each second on SQLite).
    until(lambda: game_doc(ann, games[0])["game"]["verdict"] == "voided", "not shown voided", 10)
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "euphrates",
            "admin",
            "--db",
            sqlite_url(db.parent),
            "void-game",
            games[0],
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode != 0
    suspicious = subprocess.run(
        [
            sys.executable,
            "-m",
            "euphrates",
            "admin",
            "--db",
            sqlite_url(db.parent),
            "suspicious",
            "--least",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Ann – Cy: 1 rated games, 1 left by one (100%)" in suspicious.stdout, suspicious.stdout


def test_a_real_time_deserter_is_forfeited_and_the_duel_ends(club: tuple[str, Path]) -> None:
    """The exploit: a player leaves a real-time game and the table waits until an
    opponent clicks "let a bot play". Now a seat out of time whose player is not
    back within the grace is forfeited: in a duel the game ends, the other wins."""
    url, _db = club
    ann, bob = accounts(url, "Ann", "Bob")
    gid = duel([ann, bob], rated=False, clock={"mode": "realtime", "bank": 1, "increment": 0})
    first = game_doc(ann, gid)["game"]["clock"]["seat"]

    def forfeited() -> bool:
        return bool(game_doc(bob, gid)["game"]["status"] == "over")

    until(forfeited, "the deserter was not forfeited", timeout=30)
    doc = game_doc(bob, gid)
    kinds = [(n["kind"], n["seat"]) for n in doc["notes"]]
    assert kinds == [("out_of_time", first), ("forfeited", first)], kinds
    assert doc["game"]["seats"][first]["kind"] == "bot"


def test_a_real_time_deserter_is_forfeited_on_postgresql_too(pg_url: str) -> None:
    """The same on PostgreSQL, where the server reads the clock back before it acts on
    a deadline: the seat's forfeit time, set when it ran out, must be stored (a copy
    of the clock once dropped it, and the table waited for ever)."""
    forget_accounts(pg_url)
    settings = Settings(db_url=pg_url, bot_workers=1, bot_pace=0, forfeit_grace=1.0)
    with running_server(settings) as url:
        ann, bob = accounts(url, "Ann", "Bob")
        gid = duel([ann, bob], rated=False, clock={"mode": "realtime", "bank": 1, "increment": 0})
        first = game_doc(ann, gid)["game"]["clock"]["seat"]
        until(lambda: game_doc(bob, gid)["game"]["status"] == "over", "not forfeited", 30)
        kinds = [(n["kind"], n["seat"]) for n in game_doc(bob, gid)["notes"]]
        assert kinds == [("out_of_time", first), ("forfeited", first)], kinds


def test_a_real_time_player_back_in_the_grace_is_not_forfeited(
    patient_club: tuple[str, Path],
) -> None:
    url, _db = patient_club
    ann, bob = accounts(url, "Ann", "Bob")
    gid = duel([ann, bob], rated=False, clock={"mode": "realtime", "bank": 1, "increment": 5})
    seat = game_doc(ann, gid)["game"]["clock"]["seat"]
    player = (ann, bob)[seat]
    until(lambda: bool(game_doc(ann, gid)["game"]["clock"]["out_of_time"][seat]), "out of time")
    doc = game_doc(player, gid)
    assert doc["game"]["clock"]["forfeit"][seat] is not None
    view = doc["views"][str(seat)]
    r = player.post(
        f"/api/games/{gid}/actions",
        {"version": doc["version"], "seat": seat, "action": view["legal"][0]},
    )
    assert r.status_code == 200, r.text
    time.sleep(5.5)  # the grace would have passed
    doc = game_doc(player, gid)
    assert doc["game"]["status"] == "active" and doc["game"]["clock"]["forfeit"][seat] is None
    assert "forfeited" not in [n["kind"] for n in doc["notes"]]


def test_a_turn_based_deserter_is_forfeited_after_two_missed_deadlines(
    club: tuple[str, Path],
) -> None:
    """The exploit: in turn-based play a bot plays the absent player's turns for ever.
    Now two deadlines missed in a row forfeit the seat: in a 3-player game a bot plays
    it to the end for the others, and it is told nothing more."""
    url, db = club
    ann, bob, cy = accounts(url, "Ann", "Bob", "Cy")
    body = {
        "game": "cards",
        "players": 3,
        "seats": [{"kind": "human"}] * 3,
        "clock": {"mode": "turn", "days": 1, "level": "beginner"},
    }
    created = ann.post("/api/games", body).json()
    gid = created["id"]
    for i, p in enumerate((ann, bob, cy)):
        assert p.post(f"/api/games/{gid}/join", {}, token=created["seats"][i]["token"]).is_success
    deserter = game_doc(ann, gid)["game"]["clock"]["seat"]
    others = {s: p for s, p in enumerate((ann, bob, cy)) if s != deserter}

    def gone() -> bool:
        doc = game_doc(ann, gid)
        if any(n["kind"] == "forfeited" for n in doc["notes"]):
            return True
        for seat, person in others.items():  # the others play on at once
            view = game_doc(person, gid)["views"][str(seat)]
            if view.get("decision", {}).get("seat") == seat and view.get("legal"):
                person.post(
                    f"/api/games/{gid}/actions",
                    {"version": view["version"], "seat": seat, "action": view["legal"][0]},
                )
        return False

    until(gone, "the turn-based deserter was not forfeited", timeout=90)
    doc = game_doc(ann, gid)
    kinds = [n["kind"] for n in doc["notes"] if n["seat"] == deserter]
    assert kinds == ["late_turn", "forfeited"], kinds
    assert doc["game"]["status"] == "active" and doc["game"]["seats"][deserter]["kind"] == "bot"
    with sqlite3.connect(db) as conn:
        waiting = conn.execute(
            "SELECT COUNT(*) FROM awaiting WHERE game_id = ? AND seat = ?", (gid, deserter)
        ).fetchone()[0]
    assert waiting == 0


def test_a_vacation_stops_the_turn_based_clocks(club: tuple[str, Path]) -> None:
    """On vacation, no clock runs for the account's seats (its turns wait, nobody plays
    them), the others are told; back, its turn starts afresh. At most 21 days a year."""
    url, _db = club
    ann, bob = accounts(url, "Ann", "Bob")
    gid = duel([ann, bob], rated=False, clock={"mode": "turn", "days": 1, "level": "beginner"})
    seat = game_doc(ann, gid)["game"]["clock"]["seat"]
    away = (ann, bob)[seat]
    assert code(away.post("/api/account/vacation", {"days": 22})) == "bad_request"
    r = away.post("/api/account/vacation", {"days": 21})
    assert r.status_code == 200 and r.json()["on_vacation"] is True, r.text
    assert code(away.post("/api/account/vacation", {"days": 1})) == "vacation_refused"
    doc = game_doc(ann, gid)
    clock = doc["game"]["clock"]
    assert clock["seat"] is None and clock["paused"][seat] is not None, clock
    assert [(n["kind"], n["seat"]) for n in doc["notes"]] == [("vacation", seat)]
    time.sleep(2.5)  # more than a "day" here: no late turn while away
    assert [n["kind"] for n in game_doc(ann, gid)["notes"]] == ["vacation"]
    back = away.http.delete("/api/account/vacation", headers={"x-csrf-token": away.csrf or ""})
    assert back.json()["on_vacation"] is False
    clock = game_doc(ann, gid)["game"]["clock"]
    assert clock["seat"] == seat and clock["paused"][seat] is None
    left = away.get("/api/account/vacation").json()["days_left"]
    assert 20.9 < left <= 21


def test_quick_match_never_pairs_one_devices_accounts(club: tuple[str, Path]) -> None:
    """The exploit: quick match pairs a person's two accounts with each other. Two
    accounts signed in on one device (its cookie) are never paired; a third from
    another device is."""
    url, _db = club
    ann = Person(url)
    assert ann.signup("Ann").status_code == 201
    one = Person(url)  # another browser profile on the same device: its cookie
    one.http.cookies.set("euphrates_device", ann.http.cookies["euphrates_device"])
    assert one.signup("Bob").status_code == 201
    lobbies = [ann.lobby(), one.lobby()]
    assert ann.post("/api/quickmatch", {"game": "cards"}).status_code == 200
    assert one.post("/api/quickmatch", {"game": "cards"}).status_code == 200
    time.sleep(2.5)  # several passes
    states = [p.get("/api/quickmatch").json()["state"] for p in (ann, one)]
    assert states == ["waiting", "waiting"], states
    cy = Person(url)
    assert cy.signup("Cy").status_code == 201
    lobbies.append(cy.lobby())
    assert cy.post("/api/quickmatch", {"game": "cards"}).status_code == 200
    until(lambda: cy.get("/api/quickmatch").json()["state"] == "matched", "Cy was not paired")
    paired = cy.get("/api/quickmatch").json()["match"]["opponent"]
    assert paired in ("Ann", "Bob")
    for lobby in lobbies:
        lobby.ws.close()


def test_the_quick_match_panel_shows_the_profiles_rating(club: tuple[str, Path]) -> None:
    """One scale: quick match shows the rating the profile and the leaderboard show, and
    apart the skill it pairs by."""
    url, db = club
    ann, bob = accounts(url, "Ann", "Bob")
    gid = duel([ann, bob])
    play_decisions(gid, {0: ann, 1: bob})
    assert bob.post(f"/api/games/{gid}/seats/1/resign").is_success
    lobby = ann.lobby()
    state = ann.post("/api/quickmatch", {"game": "cards"}).json()
    profile = Person(url).get("/api/users/Ann").json()
    shown = next(r["rating"] for r in profile["ratings"] if r["game"] == "cards")
    assert state["rating"] == shown
    mu = ratings_of(db)["Ann"][0]
    assert state["skill"] == round(1000 + 40 * (mu - 25))
    lobby.ws.close()


def test_the_migration_rates_the_games_rated_before_from_their_records(tmp_path: Path) -> None:
    """Migration 0012 writes each game rated before it into `rated_games` — the places
    replayed from its record, those who resigned last — so a void counts them."""
    import asyncio

    from alembic import command
    from alembic.config import Config

    from euphrates.server.store import models
    from euphrates.server.store.database import make_engine

    url = f"sqlite+aiosqlite:///{tmp_path}/g.db"

    def step(conn: Any, target: str) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(models.__file__).parent / "migrations"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)

    async def up(target: str) -> None:
        engine = make_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(step, target)
        await engine.dispose()

    asyncio.run(up("0011_signals"))
    from euphrates.games import game_definition

    # Random legal actions: always the first would move one leader back and forth for
    # ever, as players may.
    pick = random.Random(1)
    state = game_definition("cards").new_game(2, 5)
    actions = []
    while state.outcome() is None:
        action = str(pick.choice(state.legal_actions()))
        state.apply(action)
        actions.append(action)
    outcome = state.outcome()
    assert outcome is not None
    at = "2026-11-01 10:00:00.000000"
    with sqlite3.connect(tmp_path / "g.db") as conn:
        conn.execute("DROP TRIGGER log_only_in_play")
        conn.execute(
            "INSERT INTO users (id, name, name_key, password_hash, created_at) VALUES "
            "(1, 'Ann', 'ann', '!', ?), (2, 'Bob', 'bob', '!', ?)",
            (at, at),
        )
        conn.execute(
            "INSERT INTO games (id, game, players, options, seed, status, host_hash, "
            "created_at, updated_at, open, rated) VALUES ('old', 'cards', 2, '{}', '5', "
            "'over', 'h', ?, ?, 0, 1)",
            (at, at),
        )
        for seat in (0, 1):
            conn.execute(
                "INSERT INTO seats (game_id, seat, kind, taken, user_id) VALUES "
                "('old', ?, 'human', 1, ?)",
                (seat, seat + 1),
            )
        for v, text in enumerate(actions, 1):
            conn.execute(
                "INSERT INTO log (game_id, version, kind, text, created_at) VALUES "
                "('old', ?, 'action', ?, ?)",
                (v, text, at),
            )
        conn.execute(
            "INSERT INTO notes (game_id, version, kind, seat, created_at) VALUES "
            "('old', 3, 'resigned', 0, ?)",
            (at,),
        )
        for user in (1, 2):
            conn.execute(
                "INSERT INTO rating_history (user_id, game_id, game, grp, place, before, "
                "after, created_at) VALUES (?, 'old', 'cards', '2', 1, 1000, 1000, ?)",
                (user, at),
            )
    asyncio.run(up("head"))
    with sqlite3.connect(tmp_path / "g.db") as conn:
        seats, verdict = conn.execute(
            "SELECT seats, verdict FROM rated_games WHERE game_id = 'old'"
        ).fetchone()
    rated = json.loads(seats)
    assert verdict == "counted"
    assert [s["user"] for s in rated] == [1, 2]
    # Seat 0 resigned: last, whatever the engine's result; seat 1 first.
    assert [s["place"] for s in rated] == [2, 1]
