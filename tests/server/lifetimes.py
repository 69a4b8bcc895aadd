"""Playing whole games over HTTP for the lifetime tests, and every lifetime figure
computed a second way: from each ended game's record (GET …/record) replayed through
the engine and match/stats.py, with places, wins and head-to-head worked out here
from the rules as docs/server.md states them — not by the server's code."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from euphrates.bots import make_bot
from euphrates.core.colours import COLOUR_NAMES
from euphrates.games import game_definition
from euphrates.match.records import GameRecord
from euphrates.match.stats import game_stats
from tests.server.people import Person

LEFT_NOTES = ("resigned", "replaced", "left", "forfeited")


@dataclass
class Seat:
    """Who sits at a seat: an account's person, a guest's (with its token), or a bot."""

    person: Person | None = None
    account: str | None = None
    token: str | None = None
    bot: str | None = None
    resign_after: int | None = None
    """Resign (a rated game) once this seat and every other person's seat made this
    many decisions: with MIN_DECISIONS the game counts whoever's seat answered a
    conflict first (the deal is the server's, so the order of decisions is not fixed)."""


@dataclass
class Played:
    id: str
    game: str
    seats: list[Seat]
    rated: bool
    status: str = ""
    record: dict[str, Any] = field(default_factory=dict)
    host: str = ""
    """The host's token."""


def create(
    host: Person, game: str, seats: list[Seat], rated: bool = False, guests: int = 0
) -> Played:
    """The game created by `host`, every person's seat joined (an account by its
    session, a guest with its token and a name)."""
    body: dict[str, Any] = {
        "game": game,
        "players": len(seats),
        "seats": [{"kind": "bot", "level": s.bot} if s.bot else {"kind": "human"} for s in seats],
        "rated": rated,
    }
    r = host.post("/api/games", body)
    assert r.status_code == 201, r.text
    doc = r.json()
    for i, s in enumerate(seats):
        if s.bot:
            continue
        s.token = doc["seats"][i]["token"]
        assert s.person is not None
        name = {} if s.account else {"name": f"Guest{i}"}
        r = s.person.post(f"/api/games/{doc['id']}/join", name, token=s.token)
        assert r.is_success, r.text
        if s.account:
            s.token = None  # the account opens its seat from now on, by its session
    return Played(doc["id"], game, seats, rated, host=doc["host"]["token"])


def play_out(played: Played, seed: int, timeout: float = 300) -> None:
    """Every person's seat decides until the game ends: random legal actions on the
    board, the greedy bot's choice in the card game (random play there takes thousands
    of actions); a seat with `resign_after` resigns once it and every other person's
    seat made that many decisions.
    The game is asked of the seat that moved last, which holds the next decision
    often (a turn's two actions, a conflict's answer), else of the seat that holds it."""
    rng = random.Random(seed)
    chooser = make_bot("greedy", seed)
    definition = game_definition(played.game)
    gid = played.id
    made = dict.fromkeys(range(len(played.seats)), 0)
    looker = next(s for s in played.seats if s.person is not None)
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, f"game {gid} did not end"
        assert looker.person is not None
        doc = looker.person.get(f"/api/games/{gid}", token=looker.token).json()
        if doc["game"]["status"] != "active":
            played.status = doc["game"]["status"]
            break
        decision = next(iter(doc["views"].values())).get("decision")
        if decision is None or doc["game"]["seats"][decision["seat"]]["kind"] == "bot":
            time.sleep(0.02)  # a bot's turn: it moves by itself
            continue
        seat = int(decision["seat"])
        mover = played.seats[seat]
        if mover is not looker:
            looker = mover
            continue
        assert mover.person is not None
        people = [i for i, s in enumerate(played.seats) if s.person is not None]
        if mover.resign_after is not None and all(made[i] >= mover.resign_after for i in people):
            r = mover.person.post(f"/api/games/{gid}/seats/{seat}/resign", token=mover.token)
            assert r.is_success, r.text
            mover.resign_after = None
            others = [s for s in played.seats if s.person is not None and s is not mover]
            looker = others[0] if others else mover  # a spectator of the rest
            continue
        view = doc["views"][str(seat)]
        if played.game == "board":
            action = rng.choice(view["legal"])
        else:
            action = chooser.choose(definition, view)
        body = {"version": doc["version"], "seat": seat, "action": action}
        r = mover.person.post(f"/api/games/{gid}/actions", body, token=mover.token)
        if r.status_code == 200:
            made[seat] += 1
        else:
            assert r.json()["error"]["code"] in ("stale_version", "wrong_seat"), r.text
    assert looker.person is not None
    played.record = looker.person.get(f"/api/games/{gid}/record").json()


def resign_now(played: Played, seat: int) -> None:
    s = played.seats[seat]
    assert s.person is not None
    r = s.person.post(f"/api/games/{played.id}/seats/{seat}/resign", token=s.token)
    assert r.is_success, r.text
    doc = s.person.get(f"/api/games/{played.id}").json()
    played.status = doc["game"]["status"]


# --- the figures, a second way ---------------------------------------------------


def places_as_counted(engine_places: list[int], left: list[int]) -> list[int]:
    """The engine's places for those who stayed (competition ranking: equal results
    share a place, the next one skips), then those who left, the last to leave first."""
    n = len(engine_places)
    stayed = [s for s in range(n) if s not in left]
    out = [0] * n
    for s in stayed:
        out[s] = 1 + len([o for o in stayed if engine_places[o] < engine_places[s]])
    for i, s in enumerate(reversed(left)):
        out[s] = len(stayed) + 1 + i
    return out


def key_of(seat: Seat) -> str:
    if seat.account:
        return seat.account
    if seat.bot:
        return f"bot ({seat.bot})"
    return "guest"


def expected(games: list[Played]) -> dict[str, dict[tuple[Any, Any], dict[str, Any]]]:
    """Per account name, per (game, players) and over all (None, None): the figures
    and head-to-head rows as the route should give them."""
    out: dict[str, dict[tuple[Any, Any], dict[str, Any]]] = defaultdict(dict)

    def figures(name: str, key: tuple[Any, Any]) -> dict[str, Any]:
        if key not in out[name]:
            out[name][key] = {
                "games": 0, "wins": 0, "places": 0, "scored": 0, "score": 0, "best": None,
                "rated": 0, "left": 0, "aborted": 0, "abandoned": 0, "counts": defaultdict(int),
                "opponents": defaultdict(lambda: [0, 0, 0, 0]),
            }  # fmt: skip
        return out[name][key]

    for g in games:
        players = len(g.seats)
        names = sorted({s.account for s in g.seats if s.account})
        keys = [(g.game, players), (None, None)]
        if g.status in ("aborted", "abandoned"):  # counted as such, not as a game
            for name in names:
                for k in keys:
                    figures(name, k)[g.status] += 1
            continue
        assert g.status == "over", g.status
        record = GameRecord.from_json(g.record)
        state = game_definition(g.game).new_game(players, record.seed, record.options)
        for a in record.actions:
            state.apply(a)
        outcome = state.outcome()
        left = [int(n["seat"]) for n in record.notes if n["kind"] in LEFT_NOTES]
        base = list(outcome.places) if outcome is not None else [1] * players
        places = places_as_counted(base, left)
        stats = game_stats(record)["seats"]
        for name in names:
            mine = min((places[i], i) for i, s in enumerate(g.seats) if s.account == name)[1]
            theirs: dict[str, int] = {}
            for i, s in enumerate(g.seats):
                if s.account == name:
                    continue
                other = key_of(s)
                theirs[other] = min(theirs.get(other, 99), places[i])
            for k in keys:
                f = figures(name, k)
                f["games"] += 1
                f["wins"] += places[mine] == 1
                f["places"] += places[mine]
                f["rated"] += g.rated
                f["left"] += mine in left
                if outcome is not None:
                    score = min(outcome.totals[mine])
                    f["scored"] += 1
                    f["score"] += score
                    f["best"] = score if f["best"] is None else max(f["best"], score)
                st = stats[mine]
                for c in ("revolts", "wars"):
                    for o, n in st[c].items():
                        f["counts"][f"{c}.{o}"] += n
                for c in ("monuments", "treasures", "catastrophes", "placed"):
                    f["counts"][c] += st[c]
                for colour in COLOUR_NAMES:
                    f["counts"][f"points.{colour}"] += st["points"][colour]
                for whom, place in theirs.items():
                    row = f["opponents"][whom]
                    row[0] += 1
                    row[1] += places[mine] < place
                    row[2] += places[mine] > place
                    row[3] += places[mine] == place
    return out


def served(lifetime_set: dict[str, Any]) -> dict[str, Any]:
    """A set of the route's answer in `expected`'s shape."""
    s = lifetime_set
    counts: dict[str, int] = {}
    for c in ("revolts", "wars"):
        for o, n in s["stats"][c].items():
            counts[f"{c}.{o}"] = n
    for c in ("monuments", "treasures", "catastrophes", "placed"):
        counts[c] = s["stats"][c]
    for colour, n in s["stats"]["points"].items():
        counts[f"points.{colour}"] = n
    opponents = {}
    for o in s["opponents"]:
        name = o["name"] if o["kind"] == "account" else (
            f"bot ({o['level']})" if o["kind"] == "bot" else o["kind"]
        )  # fmt: skip
        opponents[name] = [o["games"], o["above"], o["below"], o["tied"]]
    return {
        "games": s["games"],
        "wins": s["wins"],
        "win_rate": s["win_rate"],
        "average_place": s["average_place"],
        "scored": s["scored"],
        "average_score": s["average_score"],
        "best": s["best_score"],
        "rated": s["rated"],
        "left": s["left"],
        "aborted": s["aborted"],
        "abandoned": s["abandoned"],
        "counts": {k: n for k, n in counts.items() if n},
        "opponents": opponents,
    }


def plain(figures: dict[str, Any]) -> dict[str, Any]:
    """`expected`'s figures as the route states them: its averages rounded to four
    places, plain dicts."""
    f = figures
    games, scored = f["games"], f["scored"]
    return {
        "games": games,
        "wins": f["wins"],
        "win_rate": round(f["wins"] / games, 4) if games else None,
        "average_place": round(f["places"] / games, 4) if games else None,
        "scored": scored,
        "average_score": round(f["score"] / scored, 4) if scored else None,
        "best": f["best"],
        "rated": f["rated"],
        "left": f["left"],
        "aborted": f["aborted"],
        "abandoned": f["abandoned"],
        "counts": {k: n for k, n in f["counts"].items() if n},
        "opponents": {k: list(v) for k, v in f["opponents"].items()},
    }
