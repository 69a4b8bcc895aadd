"""Stand-ins for a tournament's entrants: each plays its own seats over HTTP, from its
own account, as a person would — random legal actions, resigning now and then once its
seat has played enough for the game to count — until the tournament is over. And the
standings worked out again from the games' own results, without the server's code."""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from itertools import combinations
from typing import Any

import httpx

from euphrates.server.game.lifecycle import MIN_DECISIONS
from tests.server.people import Person


class StandIns:
    """Entrants by name, each reachable on one or more servers (a list of Persons
    signed in to the same account: when one server is gone, the next one)."""

    def __init__(self, people: dict[str, list[Person]], seed: int, resign: float) -> None:
        self.people = people
        self.rng = random.Random(seed)
        self.resign = resign
        self.made: Counter[tuple[str, int]] = Counter()
        self.resigned: set[tuple[str, int]] = set()
        self._clock_seat: dict[str, int | None] = {}

    def _call(self, name: str, method: str, path: str, body: Any = None) -> httpx.Response:
        """The request through the first server that answers. A kept-alive connection
        the server closed as it was reused is reset once in a while under load (a
        person's browser sends again): each server is tried three times over. A
        request sent again is harmless here: an action carries its version, so a
        repeat of one that went through is refused as stale."""
        last: Exception | None = None
        for _ in range(3):
            for p in self.people[name]:
                try:
                    if method == "GET":
                        return p.get(path)
                    return p.post(path, body)
                except httpx.TransportError as e:  # that server is gone: the next one
                    last = e
        assert last is not None
        raise last

    def tournament(self, tid: str) -> dict[str, Any]:
        name = next(iter(self.people))
        doc: dict[str, Any] = self._call(name, "GET", f"/api/tournaments/{tid}").json()
        return doc

    def play(self, tids: list[str], timeout: float = 300) -> dict[str, dict[str, Any]]:
        """Play every entrant's seats until each tournament ended; their final docs."""
        deadline = time.monotonic() + timeout
        done: dict[str, dict[str, Any]] = {}
        while len(done) < len(tids):
            assert time.monotonic() < deadline, f"tournaments not over: {set(tids) - set(done)}"
            moved = False
            for tid in tids:
                if tid in done:
                    continue
                doc = self.tournament(tid)
                if doc["status"] in ("over", "cancelled"):
                    done[tid] = doc
                    continue
                for rnd in doc["rounds_played"][-1:]:
                    for table in rnd["tables"]:
                        if not table["over"]:
                            moved |= self._act(table)
            if not moved:
                time.sleep(0.05)
        return done

    def _act(self, table: dict[str, Any]) -> bool:
        """The seat whose clock runs decides (one read as its player); with no clock
        running (a bot decides, or between moves), each person's seat is asked."""
        gid = table["game_id"]
        hint = self._clock_seat.get(gid)
        seats = list(enumerate(table["seats"]))
        if hint is not None:
            seats.sort(key=lambda s: s[0] != hint)
        for seat, name in seats:
            if name is None or (gid, seat) in self.resigned:
                continue
            doc = self._call(name, "GET", f"/api/games/{gid}").json()
            if doc["game"]["status"] != "active":
                return False
            clock = doc["game"].get("clock") or {}
            self._clock_seat[gid] = clock.get("seat")
            view = doc["views"].get(str(seat), {})
            decision = view.get("decision")
            if decision is None or decision["seat"] != seat or not view.get("legal"):
                if clock.get("seat") is not None and clock["seat"] != seat:
                    continue
                continue
            key = (gid, seat)
            # Only once every person at the table has played enough for the game to
            # count: earlier, leaving aborts it (docs/fair-play.md), a no-show's case.
            counted = all(
                self.made[(gid, s)] >= MIN_DECISIONS
                for s, who in enumerate(table["seats"])
                if who is not None and (gid, s) not in self.resigned
            )
            if counted and self.rng.random() < self.resign:
                r = self._call(name, "POST", f"/api/games/{gid}/seats/{seat}/resign", {})
                if r.status_code == 200:
                    self.resigned.add(key)
                    return True
            action = self.rng.choice(view["legal"])
            body = {"version": doc["version"], "seat": seat, "action": action}
            r = self._call(name, "POST", f"/api/games/{gid}/actions", body)
            if r.status_code == 200:
                self.made[key] += 1
                return True
            return False
        return False


def points(places: list[int]) -> list[float]:
    """Place points counted the long way: sort the seats, hand out k − 1 … 0 in turn,
    and let seats with the same place average what they were handed."""
    k = len(places)
    order = sorted(range(k), key=lambda s: places[s])
    handed = {s: float(k - 1 - i) for i, s in enumerate(order)}
    groups: dict[int, list[int]] = defaultdict(list)
    for s in range(k):
        groups[places[s]].append(s)
    out = [0.0] * k
    for seats in groups.values():
        share = sum(handed[s] for s in seats) / len(seats)
        for s in seats:
            out[s] = share
    return out


def recount(doc: dict[str, Any], results: dict[str, list[int]]) -> dict[str, dict[str, float]]:
    """Every entrant's score and Buchholz from the games' own results (`results`:
    game id → places, as each game's page gives them) and the byes."""
    size = doc["players"]
    score: dict[str, float] = {e["name"]: 0.0 for e in doc["entrants"]}
    games: dict[str, list[list[str]]] = defaultdict(list)
    for rnd in doc["rounds_played"]:
        for name in rnd["byes"]:
            score[name] += size - 1
        for table in rnd["tables"]:
            places = results[table["game_id"]]
            got = points(places)
            people = [n for n in table["seats"] if n is not None]
            for seat, name in enumerate(table["seats"]):
                if name is not None:
                    score[name] += got[seat]
                    games[name].append([n for n in people if n != name])
    out: dict[str, dict[str, float]] = {}
    for name in score:
        per_game = [sum(score[o] for o in opp) / len(opp) for opp in games[name] if opp]
        out[name] = {"score": score[name], "buchholz": round(sum(per_game), 3)}
    return out


def meetings(doc: dict[str, Any]) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for rnd in doc["rounds_played"]:
        for table in rnd["tables"]:
            people = [n for n in table["seats"] if n is not None]
            for a, b in combinations(people, 2):
                met[frozenset((a, b))] += 1
    return met


def check_rounds(doc: dict[str, Any]) -> None:
    """Every round seats each entrant still in exactly once (a table or a bye)."""
    for rnd in doc["rounds_played"]:
        seen = [n for t in rnd["tables"] for n in t["seats"] if n is not None] + rnd["byes"]
        assert len(seen) == len(set(seen)), (rnd["round"], seen)
