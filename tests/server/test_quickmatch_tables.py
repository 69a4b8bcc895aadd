"""Quick match for every kind of table (SQLite, and PostgreSQL when it answers): tables
of three and four filled by as many players asking for exactly the same game, clock
and options, started, rated and seated by account; how many wait for the same kind
told as a count; and the exploits first — a person's two accounts (one device) never
filling a table of three between them, a blocked pair never at one table, a player
who keeps aborting quick tables refused, nobody at two tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from euphrates.server.features.quickmatch.quickmatch import QuickMatch
from tests.server.harness import running_app
from tests.server.people import LobbySocket, Person, forget_accounts
from tests.server.test_quickmatch import join, leave, passes_after, state, told
from tests.server.test_tables import GRACE, code, person, until


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, QuickMatch]]:
    """A server without bots, with days of two seconds (turn-based clocks), and its
    quick match (read by the tests, never driven)."""
    settings = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
        clock_day=2.0,
    )
    with running_app(settings) as (url, app):
        yield url, app.state.services.quickmatch


def matched(lobby: LobbySocket) -> bool:
    return (told(lobby) or {}).get("state") == "matched"


def seated_at(lobbies: list[LobbySocket]) -> list[str]:
    """The game each lobby was sent to."""
    for lobby in lobbies:
        lobby.until(matched)
    return [told(lb)["match"]["id"] for lb in lobbies]  # type: ignore[index]


def close(lobbies: list[LobbySocket]) -> None:
    for lobby in lobbies:
        lobby.close()


def test_three_players_asking_for_the_same_table_sit_at_one(
    served: tuple[str, QuickMatch],
) -> None:
    """Three card players ask for a 3-player turn-based game with open piles: one game,
    started, rated, each seat an account's, the options and clock as asked, the first
    player's clock running; each is told the two others' names and nothing more."""
    base, qm = served
    names = ["Ann", "Bob", "Cy"]
    people = [person(base, n) for n in names]
    lobbies = [p.lobby() for p in people]
    kind: dict[str, Any] = {"players": 3, "clock": "turn:2", "options": {"open_piles": True}}
    try:
        first = join(people[0], "cards", **kind).json()
        assert first["state"] == "waiting" and first["alike"] == 1
        second = join(people[1], "cards", **kind).json()
        assert second["state"] == "waiting" and second["alike"] == 2
        lobbies[0].until(lambda lb: (told(lb) or {}).get("alike") == 2)
        passes_after(qm)
        assert state(people[0])["state"] == "waiting", "a table of three waits for its third"
        join(people[2], "cards", **kind)
        games = seated_at(lobbies)
        assert len(set(games)) == 1
        gid = games[0]
        for name, lobby in zip(names, lobbies, strict=True):
            doc = told(lobby)
            assert doc is not None
            assert sorted(doc["match"]["opponents"]) == sorted(set(names) - {name})
            assert (doc["players"], doc["clock"]) == (3, "turn:2")
            assert "rating" not in doc and "alike" not in doc
        raw = "".join(m for lb in lobbies for m in lb.raw)
        assert "user_id" not in raw and "token" not in raw
    finally:
        close(lobbies)
    doc = people[0].get(f"/api/games/{gid}").json()
    game = doc["game"]
    assert (game["game"], game["players"], game["status"]) == ("cards", 3, "active")
    assert game["options"] == {"open_piles": True}
    assert game["rated"] is True
    assert game["clock"]["mode"] == "turn" and game["clock"]["days"] == 2
    assert game["clock"]["deadline"] is not None, "the first player's clock runs"
    assert sorted(s["name"] for s in game["seats"]) == sorted(names)
    mine = [people[i].get(f"/api/games/{gid}").json()["you"]["seats"] for i in range(3)]
    assert sorted(s for m in mine for s in m) == [0, 1, 2], "one seat each"
    assert qm.made == 1


def test_a_table_of_four_at_a_fast_clock_and_nobody_twice(
    served: tuple[str, QuickMatch],
) -> None:
    """Nine players ask for a fast 4-player board game: two tables of four, the ninth
    waits; and a tenth asking for something else is never seated with them."""
    base, _qm = served
    people = [person(base, f"P{i}") for i in range(10)]
    lobbies = [p.lobby() for p in people]
    try:
        for p in people[:9]:
            assert join(p, "board", players=4, clock="fast").status_code == 200
        assert join(people[9], "board", players=4, clock="slow").status_code == 200
        until(
            lambda: sum(state(p)["state"] == "matched" for p in people) >= 8,
            "two tables of four were not made",
        )
        passes = [state(p)["state"] for p in people]
        assert Counter(passes) == {"matched": 8, "waiting": 2}, passes
        assert passes[9] == "waiting"
        games = [state(p)["match"]["id"] for p in people if state(p)["state"] == "matched"]
        assert sorted(Counter(games).values()) == [4, 4]
        for gid in set(games):
            game = people[0].get(f"/api/games/{gid}").json()["game"]
            assert game["players"] == 4 and game["clock"]["preset"] == "fast"
        assert state(people[8])["alike"] == 1, "the ninth waits alone for its kind"
    finally:
        close(lobbies)


def test_a_persons_two_accounts_never_fill_a_table_of_three(
    served: tuple[str, QuickMatch],
) -> None:
    """The exploit: two accounts signed in on one device (its cookie) and one stranger
    make a table of three where the person plays two seats. They are never seated
    together; a fourth player makes the table with one of them."""
    base, qm = served
    ann = person(base, "Ann")
    alt = Person(base)  # another browser profile on Ann's device: its cookie
    alt.http.cookies.set("euphrates_device", ann.http.cookies["euphrates_device"])
    assert alt.signup("Annex").status_code == 201
    bob = person(base, "Bob")
    lobbies = [ann.lobby(), alt.lobby(), bob.lobby()]
    try:
        for p in (ann, alt, bob):
            assert join(p, "cards", players=3).status_code == 200
        passes_after(qm, 3)
        assert [state(p)["state"] for p in (ann, alt, bob)] == ["waiting"] * 3
        dan = person(base, "Dan")
        lobbies.append(dan.lobby())
        join(dan, "cards", players=3)
        lobbies[3].until(matched)
        seated = sorted(told(lobbies[3])["match"]["opponents"])  # type: ignore[index]
        assert "Bob" in seated and len({"Ann", "Annex"} & set(seated)) == 1, seated
    finally:
        close(lobbies)


def test_a_blocked_pair_never_sits_at_one_table(served: tuple[str, QuickMatch]) -> None:
    """Bob blocked Ann: Ann, Bob and Cy asking for a table of three get none; with Dan
    the table is made without one of the two."""
    base, qm = served
    ann, bob, cy = (person(base, n) for n in ("Ann", "Bob", "Cy"))
    assert bob.post("/api/users/Ann/block").json() == {"blocked": True}
    lobbies = [p.lobby() for p in (ann, bob, cy)]
    try:
        for p in (ann, bob, cy):
            join(p, "board", players=3, clock="slow")
        passes_after(qm, 3)
        assert qm.made == 0
        dan = person(base, "Dan")
        lobbies.append(dan.lobby())
        join(dan, "board", players=3, clock="slow")
        lobbies[3].until(matched)
        seated = set(told(lobbies[3])["match"]["opponents"])  # type: ignore[index]
        assert "Cy" in seated and not {"Ann", "Bob"} <= seated, seated
    finally:
        close(lobbies)


def test_aborting_quick_tables_ends_in_too_many_aborts(served: tuple[str, QuickMatch]) -> None:
    """The exploit: take a quick table of three and leave it at once, again and again
    (its seat is rated: a loss otherwise). Each is aborted, unrated, and counted; after
    the third the account may wait for no quick table of any kind."""
    base, qm = served
    qm.again = 0.0  # each round's join is a new wait at once
    quitter, *others = (person(base, n) for n in ("Ann", "Bob", "Cy"))
    lobbies = [p.lobby() for p in (quitter, *others)]
    try:
        for round_ in range(3):
            for p in (quitter, *others):
                assert join(p, "cards", players=3).status_code == 200, round_
            until(lambda: state(quitter)["state"] == "matched", f"round {round_}: no table")
            gid = state(quitter)["match"]["id"]
            seat = quitter.get(f"/api/games/{gid}").json()["you"]["seats"][0]
            r = quitter.post(f"/api/games/{gid}/seats/{seat}/resign")
            assert r.status_code == 200 and r.json()["status"] == "aborted", r.text
        for body in ({"players": 3}, {"players": 2}, {"players": 4, "clock": "turn:1"}):
            assert code(join(quitter, "cards", **body)) == (429, "too_many_aborts")
        assert state(quitter)["state"] != "waiting"
    finally:
        close(lobbies)


def test_one_wait_per_account(served: tuple[str, QuickMatch]) -> None:
    """Waiting for one kind, asking for any other is refused (`already_waiting`) and
    the wait goes on unchanged; asking for the same again changes nothing."""
    base, _qm = served
    ann = person(base, "Ann")
    first = join(ann, "cards", players=3, clock="fast").json()
    for other in (
        {"players": 4, "clock": "fast"},
        {"players": 3, "clock": "slow"},
        {"players": 3, "clock": "fast", "options": {"open_piles": True}},
    ):
        r = join(ann, "cards", **other)
        assert code(r) == (409, "already_waiting"), other
    same = join(ann, "cards", players=3, clock="fast", options={"open_piles": False}).json()
    assert same["since"] == first["since"], "all options at their defaults: the same wait"
    assert state(ann)["clock"] == "fast"


def test_a_wait_written_before_the_migration_is_a_duel_at_the_medium_clock(
    db_url: str,
) -> None:
    """Migration 0016 adds what a wait asks for; a row an older server wrote (game,
    rating, since only) reads as it meant: 2 players, `medium`, no option."""
    from datetime import UTC, datetime
    from pathlib import Path

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from euphrates.server.common.config import async_db_url
    from euphrates.server.store import models as db
    from euphrates.server.store.database import Database, make_engine, migrate
    from euphrates.server.store.games import GameStore
    from euphrates.server.store.quickmatch import MatchStore
    from tests.server.harness import run_async

    def step(conn: sa.Connection, target: str, down: bool) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)

    async def go() -> tuple[Any, ...]:
        engine = make_engine(async_db_url(db_url))
        try:
            await migrate(engine)
            async with engine.begin() as conn:
                await conn.run_sync(step, "0015_lifetime", True)
                columns = await conn.run_sync(
                    lambda c: [col["name"] for col in sa.inspect(c).get_columns("quickmatch")]
                )
                assert "players" not in columns
                uid = (
                    await conn.execute(
                        sa.text(
                            "INSERT INTO users (name, name_key, password_hash, created_at) "
                            "VALUES ('Old', 'old', '-', :at) RETURNING id"
                        ),
                        {"at": datetime.now(UTC)},
                    )
                ).scalar_one()
                await conn.execute(
                    sa.text(
                        "INSERT INTO quickmatch (user_id, game, rating, since) "
                        "VALUES (:u, 'cards', 1234.0, :at)"
                    ),
                    {"u": uid, "at": datetime.now(UTC)},
                )
                await conn.run_sync(step, "head", False)
            database = Database(engine, origin="test")
            entries = await MatchStore(database, GameStore(database)).entries([uid])
            entry = entries[uid]
            return entry.game, entry.players, entry.clock, entry.options, entry.alike
        finally:
            await engine.dispose()

    assert run_async(go()) == ("cards", 2, "medium", "{}", 1)


def test_ratings_are_read_in_the_tables_player_count_group(
    served: tuple[str, QuickMatch], db_url: str
) -> None:
    """A player strong at tables of three and four and new to duels: waiting for a
    table of three, they are matched by their 3–4 skill and shown their 3–4 rating;
    waiting for a duel, as the newcomer they are there."""
    from euphrates.match.ratings import display
    from tests.server.test_table_filters import rate

    base, _qm = served
    ann = person(base, "Ann")
    shown = rate(db_url, "Ann", "board", "3-4", 35.0, 3.0)
    three = join(ann, "board", players=3).json()
    assert (three["rating"], three["skill"]) == (shown, 1000 + 40 * 10)
    leave(ann)
    duel = join(ann, "board").json()
    assert (duel["rating"], duel["skill"]) == (display(25.0, 25.0 / 3), 1000)


def test_a_tables_seats_are_in_a_random_order_each_its_account() -> None:
    """Who sits first is not who joined first: over 120 tables of three, all six
    orders; each seat taken, a person's, tied to its account and named by it."""
    from datetime import UTC, datetime

    from euphrates.server.features.quickmatch.kinds import clock_of
    from euphrates.server.features.quickmatch.quickmatch import table_row
    from euphrates.server.store.quickmatch import Waiting

    at = datetime(2026, 1, 1, tzinfo=UTC)
    members = [(Waiting(i, "cards", 1000.0, at, 3, "fast", "{}"), f"P{i}") for i in (1, 2, 3)]
    orders = set()
    for _ in range(120):
        row = table_row(members, at, lambda c: clock_of(c, 86400.0))
        assert sorted((s.user_id, s.name) for s in row.seats) == [(1, "P1"), (2, "P2"), (3, "P3")]
        assert all(s.taken and s.kind == "human" for s in row.seats)
        assert row.rated and row.status == "active" and row.players == 3
        assert row.clock is not None and row.clock.spec.preset == "fast"
        assert row.clock.deadline is not None, "the first player's clock runs"
        orders.add(tuple(s.user_id for s in row.seats))
    assert len(orders) == 6, orders
