"""Nothing reaches a client that its seats may not see.

Seeded random games of both games are played through the server by one client per
seat and a spectator. Every view a client holds after every version must equal the
engine's own view for that seat (the engines' views are checked elsewhere to hide
exactly what G-3, B-33 and C-19 hide), every event it received must be one its seats
may see, and no message may contain the seed, another seat's token or the host's.
"""

from __future__ import annotations

import copy
import json
import random
import re
import sqlite3
from typing import Any

import pytest

from euphrates.games import game_definition
from tests.server.harness import Api, Client, run_async, running_server

BRIDGE = re.compile(r"^[rbgk][1-8]-[1-8]$")


def secret_seed(db_url: str, game_id: str) -> int:
    """The game's seed, read from the database (the test's privilege, no client's)."""
    if db_url.startswith("sqlite:///"):
        with sqlite3.connect(db_url[len("sqlite:///") :]) as conn:
            row = conn.execute("SELECT seed FROM games WHERE id = ?", (game_id,)).fetchone()
        return int(row[0])
    import asyncpg

    async def read() -> int:
        conn = await asyncpg.connect(db_url)
        try:
            return int(await conn.fetchval("SELECT seed FROM games WHERE id = $1", game_id))
        finally:
            await conn.close()

    return run_async(read())


def play_and_check(
    api: Api, base: str, db_url: str, game: str, players: int, seed: int, cap: int
) -> set[str]:
    """Play `cap` random actions (or to the end) and check every message; returns the
    kinds of events that happened, private ones included."""
    created = api.create(game, [{"kind": "human"}] * players)
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    secrets_ = [*tokens, created["host"]["token"]]
    clients = [Client(base, gid, [t]) for t in tokens]
    spectator = Client(base, gid, [])
    everyone = [*clients, spectator]
    for c in everyone:
        c.drain()
    true_seed = secret_seed(db_url, gid)
    shadow = game_definition(game).new_game(players, true_seed, {})
    rng = random.Random(seed)
    seen_events: list[list[dict[str, Any]]] = [[] for _ in everyone]
    kinds: set[str] = set()
    for step in range(cap):
        if shadow.is_over():
            break
        seat = shadow.to_move()
        assert seat is not None
        legal = clients[seat].view(seat)["legal"]
        bridges = [a for a in legal if BRIDGE.match(a)]
        # Lay face-down bridges often: they are the card game's hidden information.
        action = rng.choice(bridges if bridges and rng.random() < 0.5 else legal)
        marks = [len(c.events) for c in everyone]
        ack = clients[seat].act(seat, action, msg_id=step)
        assert ack["type"] == "ack", ack
        events = shadow.apply(action)
        kinds.update(e.kind for e in events)
        for i, c in enumerate(everyone):
            c.until_version(ack["version"])
            got = c.events[marks[i] :]
            seats = {i} if i < players else set()
            expected = [e.to_json() for e in events if e.audience is None or e.audience in seats]
            assert got == expected, (game, step, i)
            seen_events[i].extend(got)
            for key, view in c.views.items():
                audience = None if key == "spectator" else int(key)
                want = copy.deepcopy(shadow.view(audience))
                want["version"] = shadow.version
                assert view == want, (game, step, key)
    for i, c in enumerate(everyone):
        text = "\n".join(c.raw)
        assert str(true_seed) not in text, "the seed reached a client"
        for j, t in enumerate(secrets_):
            assert t not in text, f"token {j} reached client {i}"
        for e in seen_events[i]:
            assert e.get("audience", i) == i
    for c in everyone:
        c.close()
    return kinds


@pytest.mark.parametrize(
    ("game", "players", "cap"),
    [
        ("board", 2, 400),
        ("board", 3, 120),
        ("board", 4, 120),
        ("cards", 2, 300),
        ("cards", 3, 250),
        ("cards", 4, 250),
    ],
)
def test_no_client_sees_what_its_seats_may_not(
    api: Api, base: str, db_url: str, game: str, players: int, cap: int
) -> None:
    kinds = play_and_check(api, base, db_url, game, players, seed=players * 101, cap=cap)
    # The games reach the hidden information this test is about.
    private = {"board": {"drew_tiles"}, "cards": {"draw", "bridge_colour"}}[game]
    assert private <= kinds, kinds


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(12))
def test_no_leaks_in_many_more_games(api: Api, base: str, db_url: str, seed: int) -> None:
    game = "board" if seed % 2 else "cards"
    kinds = play_and_check(api, base, db_url, game, 2 + seed % 3, seed=seed, cap=3000)
    assert "game_over" in kinds or game == "cards"


TABLE_KEYS = {
    "id",
    "game",
    "players",
    "status",
    "options",
    "clock",
    "created",
    "creator",
    "rated",
    "seats",
    "free",
    "link",
}
TABLE_SEAT_KEYS = {"seat", "kind", "level", "name", "taken", "rating", "presence", "you", "creator"}
"""A seated player's `rating` is the shown one, public on their profile (the open tables
are filtered by it); a free seat, a bot or a deleted account's seat has none."""


def test_the_open_tables_and_presence_tell_nothing_hidden(base: str, db_url: str) -> None:
    """The open tables' list, the lobby's socket and presence at the table, for a
    guest, the creator and a player: no seat's or host's token, no seed, no password
    hash, no session, no other account's CSRF token or e-mail address (one is stored
    in an account's settings, as a notification feature would), no account id, and
    nothing but the fields an entry has."""
    from tests.server.people import Person

    ann, bob, mail = ann_and_bob_with_a_stored_mail(base, db_url)
    guest_lobby = Person(base).lobby()
    ann_lobby, bob_lobby = ann.lobby(), bob.lobby()
    body = {"game": "board", "players": 3, "seats": [{"kind": "human"}] * 3, "open": True}
    created = ann.post("/api/games", body).json()
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]] + [created["host"]["token"]]
    answers = [bob.post(f"/api/games/{gid}/sit", {}).text]
    watchers = [bob.socket(gid), ann.socket(gid), Client(base, gid, [])]
    for lobby in (guest_lobby, ann_lobby, bob_lobby):
        lobby.until(lambda s: s.table(gid) is not None and s.table(gid)["free"] == [2])  # type: ignore[index]
    for who in (Api(base), ann, bob):
        answers.append(who.http.get("/api/tables").text)
    answers.append(ann.post(f"/api/games/{gid}/start", {"level": "beginner"}).text)
    for lobby in (guest_lobby, ann_lobby, bob_lobby):
        lobby.until(lambda s: s.table(gid) is None)
    bob_lobby.until(lambda s: any(g["id"] == gid and g["status"] == "active" for g in s.games))
    for c in watchers:
        c.drain()

    seed = secret_seed(db_url, gid)
    hashes = [
        r[0]
        for r in query_all(db_url, "SELECT password_hash FROM users WHERE name IN ('Ann', 'Bob')")
    ]
    sessions = [p.session for p in (ann, bob)]
    assert all(sessions) and len(hashes) == 2
    texts = {
        "answers": answers,
        "guest lobby": guest_lobby.raw,
        "Ann's lobby": ann_lobby.raw,
        "Bob's lobby": bob_lobby.raw,
        **{f"table {i}": c.raw for i, c in enumerate(watchers)},
    }
    for where, parts in texts.items():
        text = "\n".join(parts)
        assert str(seed) not in text, f"the seed reached {where}"
        for secret in [*tokens, *hashes, *sessions, mail]:
            assert str(secret) not in text, f"a secret reached {where}"
        assert '"user_id"' not in text and '"token_hash"' not in text, where
    assert bob.csrf is not None and bob.csrf not in "\n".join(ann_lobby.raw + watchers[1].raw)
    for lobby in (guest_lobby, ann_lobby, bob_lobby):
        for message in map(json.loads, lobby.raw):
            entries = message.get("tables", []) + message.get("games", [])
            for entry in entries:
                assert set(entry) == TABLE_KEYS, entry
                for seat in entry["seats"]:
                    assert set(seat) == TABLE_SEAT_KEYS, seat
                    if seat["kind"] == "bot" or not seat["taken"]:
                        assert seat["rating"] is None, seat  # an account's only
        lobby.close()
    for c in watchers:
        c.close()


ASKED = {"game", "players", "clock", "options"}
"""What a wait asked for, told back to its own account."""
QUICKMATCH_KEYS = {
    "idle": {"state"},
    "waiting": {"state", *ASKED, "rating", "skill", "since", "waited", "window", "rule", "alike"},
    "matched": {"state", *ASKED, "match"},
}


def test_quick_match_tells_each_player_their_own_place_only(base: str, db_url: str) -> None:
    """Quick match's answers and the lobby's quick match messages, for the two players
    paired and a guest: no seat's token hash (nobody is ever handed the tokens), no
    seed, no password hash, no session, no other account's CSRF token or e-mail
    address, no account id, no other player's rating; only a state's own fields."""
    from tests.server.people import Person
    from tests.server.test_quickmatch import join, leave, told

    ann, bob, mail = ann_and_bob_with_a_stored_mail(base, db_url)
    guest_lobby = Person(base).lobby()
    ann_lobby, bob_lobby = ann.lobby(), bob.lobby()
    answers = [ann.get("/api/quickmatch").text, join(ann).text, join(ann).text]
    answers += [leave(ann).text, join(ann).text, join(bob).text]
    for lobby in (ann_lobby, bob_lobby):
        lobby.until(lambda lb: (told(lb) or {}).get("state") == "matched")
    gid = told(ann_lobby)["match"]["id"]  # type: ignore[index]
    answers += [p.get("/api/quickmatch").text for p in (ann, bob)]
    answers += [leave(bob).text]
    seed = secret_seed(db_url, gid)
    hashes = [
        r[0]
        for r in query_all(
            db_url,
            "SELECT password_hash FROM users WHERE name IN ('Ann', 'Bob') "
            f"UNION ALL SELECT token_hash FROM seats WHERE game_id = '{gid}' "
            f"UNION ALL SELECT host_hash FROM games WHERE id = '{gid}'",
        )
    ]
    sessions = [p.session for p in (ann, bob)]
    assert all(sessions) and len(hashes) == 5
    texts = {"answers": answers, "Ann's lobby": ann_lobby.raw, "Bob's lobby": bob_lobby.raw}
    for where, parts in texts.items():
        text = "\n".join(parts)
        assert str(seed) not in text, f"the seed reached {where}"
        for secret in [*hashes, *sessions, mail]:
            assert str(secret) not in text, f"a secret reached {where}"
        assert '"user_id"' not in text and '"token' not in text, where
    assert bob.csrf is not None and bob.csrf not in "\n".join(ann_lobby.raw + answers[:5])
    states = [json.loads(a) for a in answers]
    for lobby in (ann_lobby, bob_lobby):
        states += [json.loads(m)["quickmatch"] for m in lobby.raw if '"quickmatch"' in m]
    for doc in states:
        assert set(doc) == QUICKMATCH_KEYS[doc["state"]], doc
        if doc["state"] == "matched":
            assert set(doc["match"]) == {"id", "link", "opponent", "opponents"}, doc
        if doc["state"] == "waiting":
            assert isinstance(doc["alike"], int), "how many wait: a count, no names"
    assert not any("quickmatch" in m for m in guest_lobby.raw), "a guest is told nothing"
    for lobby in (guest_lobby, ann_lobby, bob_lobby):
        lobby.close()


def query_all(db_url: str, sql: str) -> list[Any]:
    from tests.server.test_accounts import query

    return query(db_url, sql)


def test_turn_messages_say_only_the_table_the_name_and_the_link(db_url: str) -> None:
    """Three players with e-mail and webhooks play a turn-based card game (hands, a
    deck and face-down bridges to hide): every message is exactly its template — the
    game, the player's name, the link — so no card, seed, token or anyone's address
    is in one; and no answer shows one player another's address or webhook."""
    from tests.server.notifying import PUBLIC, enrol, settings
    from tests.server.people import Person, forget_accounts
    from tests.server.sinks import sinks, until

    forget_accounts(db_url)
    names = ["Ann", "Bob", "Cem"]
    with sinks() as (smtp, http), running_server(settings(db_url, smtp)) as base:
        people = [Person(base) for _ in names]
        addresses = [enrol(p, n, smtp, http) for p, n in zip(people, names, strict=True)]
        hooks = [http.url(f"/{n}") for n in names]
        body = {
            "game": "cards",
            "players": 3,
            "seats": [{"kind": "human"}] * 3,
            "clock": {"mode": "turn", "days": 2},
        }
        created = people[0].post("/api/games", body).json()
        gid = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        for p, t in zip(people, tokens, strict=True):
            assert p.post(f"/api/games/{gid}/join", {}, t).status_code == 200
        rng = random.Random(5)
        for _ in range(40):
            doc = people[0].get(f"/api/games/{gid}", tokens[0]).json()
            decision = doc["views"]["0"]["decision"]
            if decision is None:
                break
            seat = decision["seat"]
            view = people[seat].get(f"/api/games/{gid}", tokens[seat]).json()["views"][str(seat)]
            move = {"version": doc["version"], "seat": seat, "action": rng.choice(view["legal"])}
            r = people[seat].post(f"/api/games/{gid}/actions", move, tokens[seat])
            assert r.status_code == 200, r.text
        # Wait until every message went out or was withdrawn (its player acted first).
        queued = "SELECT count(*) FROM notices WHERE state = 'queued'"
        until(lambda: _count(db_url, queued) == 0)
        assert _count(db_url, "SELECT count(*) FROM notices WHERE state = 'sent'") >= 3
        seed = str(secret_seed(db_url, gid))
        secrets_ = [*tokens, created["host"]["token"], seed]
        link = f"{PUBLIC}/g/{gid}"
        for i, name in enumerate(names):
            # the table named by its opponents and the decision waiting, nothing more
            others_named = "|".join(re.escape(n) for n in names if n != name)
            wanted = re.compile(
                rf"{name}, it is your turn in Contest of Kings with ({others_named})"
                rf"(, ({others_named}))*( and ({others_named}))?, move \d+: {re.escape(link)}"
            )
            mails = [m for m in smtp.to(addresses[i]) if "code" not in m.subject]
            calls = http.at(f"/{name}")
            assert len(mails) + len(calls) == _count(
                db_url,
                f"SELECT count(*) FROM notices n JOIN users u ON u.id = n.user_id "
                f"WHERE n.state = 'sent' AND u.name = '{name}'",
            )
            for m in mails:
                assert wanted.fullmatch(m.text.strip()) and m.to == [addresses[i]]
                assert all(s not in m.raw for s in secrets_)
                others = [a for a in addresses if a != addresses[i]]
                assert all(a not in m.raw for a in others)
            for h in calls:
                assert set(h.json) == {"content", "text", "allowed_mentions"}
                assert h.json["content"] == h.json["text"] and wanted.fullmatch(h.json["text"])
                assert h.json["allowed_mentions"] == {"parse": []}
        # No answer shows one player another's address or webhook.
        for i, p in enumerate(people):
            seen = "\n".join(
                p.get(path).text
                for path in (
                    "/api/account",
                    "/api/account/notifications",
                    "/api/account/export",
                    "/api/account/games",
                    *(f"/api/users/{n}" for n in names),
                    f"/api/games/{gid}",
                    f"/api/games/{gid}/chat",
                )
            )
            for j in range(len(names)):
                if j != i:
                    assert addresses[j] not in seen and hooks[j] not in seen


def _count(db_url: str, query: str) -> int:
    from tests.server.notifying import rows

    return int(rows(db_url, query)[0][0])


PROFILE_KEYS = {"name", "created", "games", "finished", "ratings", "rated", "blocked"}
RATING_KEYS = {"game", "group", "rating", "games", "provisional"}
RATED_KEYS = {
    "id",
    "game",
    "group",
    "players",
    "place",
    "before",
    "after",
    "at",
    "replay",
    "verdict",
}
BOARD_KEYS = {"place", "name", "rating", "games", "provisional", "bot"}


def test_leaderboards_and_profiles_tell_nothing_hidden(tmp_path: Any) -> None:
    """A rated card game (hands and a deck hidden while it is played) between Ann and
    Bob, whose e-mail address is stored, ends; the leaderboard and both profiles, for a
    guest, Ann and Bob, hold no seat's or host's token, no seed, no password hash, no
    session, no address, no account id, no μ or σ, and only their fields."""
    from euphrates.server.common.config import Settings
    from tests.server.conftest import sqlite_url
    from tests.server.test_ratings import finished_rated_game

    db_url = sqlite_url(tmp_path)
    settings = Settings(db_url=db_url, bot_workers=1, bot_pace=0)
    with running_server(settings) as base:
        gid, created, (ann, bob) = finished_rated_game(base)
        mail = "bob.private@example.org"
        with sqlite3.connect(db_url.split("///", 1)[1]) as conn:
            conn.execute(
                "UPDATE users SET settings = ? WHERE name = 'Bob'", (f'{{"email": "{mail}"}}',)
            )
        answers = []
        for who in (Api(base), ann, bob):
            for path in ("/api/leaderboards/cards?players=2", "/api/users/Ann", "/api/users/Bob"):
                r = who.http.get(path)
                assert r.status_code == 200, r.text
                answers.append(r.text)
        seed = secret_seed(db_url, gid)
        hashes = [r[0] for r in query_all(db_url, "SELECT password_hash FROM users")]
        tokens = [s["token"] for s in created["seats"] if s["token"]] + [created["host"]["token"]]
        sessions = [ann.session, bob.session]
        assert len(hashes) == 2 and all(sessions) and len(tokens) == 3
        text = "\n".join(answers)
        for secret in [str(seed), *tokens, *hashes, *sessions, mail, ann.csrf, bob.csrf]:
            assert str(secret) not in text
        for key in ('"user_id"', '"mu"', '"sigma"', '"token_hash"', '"views"', '"email"'):
            assert key not in text, key
        for answer in map(json.loads, answers):
            if "entries" in answer:
                assert {e["name"] for e in answer["entries"] if not e["bot"]} == {"Ann", "Bob"}
                for entry in answer["entries"]:
                    assert set(entry) == BOARD_KEYS, entry
                continue
            assert set(answer) == PROFILE_KEYS, answer
            assert len(answer["rated"]) == 1 and answer["rated"][0]["id"] == gid
            for rating in answer["ratings"]:
                assert set(rating) == RATING_KEYS, rating
            for game in answer["rated"]:
                assert set(game) == RATED_KEYS, game


def ann_and_bob_with_a_stored_mail(base: str, db_url: str) -> tuple[Any, Any, str]:
    """Two fresh accounts, Bob's e-mail address stored in his settings (as the
    notifications keep it): what no answer to Ann may hold."""
    import sqlalchemy as sa

    from euphrates.server.common.config import async_db_url
    from euphrates.server.store import models as db
    from euphrates.server.store.database import make_engine
    from tests.server.people import Person, forget_accounts

    forget_accounts(db_url)
    ann, bob = Person(base), Person(base)
    assert ann.signup("Ann").status_code == 201
    assert bob.signup("Bob").status_code == 201
    mail = "bob.private@example.org"

    async def store_mail() -> None:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    sa.update(db.users)
                    .where(db.users.c.name == "Bob")
                    .values(settings='{"email": "' + mail + '"}')
                )
        finally:
            await engine.dispose()

    run_async(store_mail())
    return ann, bob, mail
