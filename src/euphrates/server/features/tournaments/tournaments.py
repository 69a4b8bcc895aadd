"""Tournaments run by the server (docs/tournaments.md): a member creates one, members
join and leave while its sign-up is open, and at its start every server's pass may
start it — exactly one does (store/tournaments.py claims it) — and start each round's
games when the last game of the round before ended, until the last round ends.

Each game is an ordinary game of the server: its seats tied to the entrants'
accounts, its clock running, so fair play's rules deal with the players who do not
come (a real-time seat out of time is forfeited after its grace, docs/fair-play.md)
and a forfeit is a loss in the standings as in the ratings.

What the lobby shows changes live: the list of tournaments, and each entrant's own
game as it starts (`{"type": "tournament_game"}`), on every server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from datetime import datetime, timedelta
from typing import Any

from euphrates.core.errors import EuphratesError
from euphrates.core.protocol import GameState
from euphrates.games import GAMES, game_definition
from euphrates.match.ratings import group_of
from euphrates.server.common import tokens
from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import stopped, woken
from euphrates.server.features.fairplay.fairplay import FairPlay
from euphrates.server.features.notifications.notifier import Notifier
from euphrates.server.features.quickmatch.matching import START_RATING
from euphrates.server.features.quickmatch.quickmatch import RatingLookup
from euphrates.server.features.ratings.ratings import check_bot_level
from euphrates.server.features.tables.lobby import Lobby, Watcher
from euphrates.server.features.tournaments import rounds
from euphrates.server.features.tournaments.messages import Messages
from euphrates.server.features.tournaments.rounds import decide, fewest, table_of
from euphrates.server.game import lifecycle
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Followup
from euphrates.server.store.rows import now
from euphrates.server.store.tournament_rows import Plan, Tournament
from euphrates.server.store.tournaments import TournamentStore, ended

log = logging.getLogger("euphrates.server")

IDLE = 5.0
"""Seconds between passes when nothing was heard (a start time falls due by itself)."""
SETTLE = 0.2
"""Seconds a pass waits after a game of this server ended (its write commits)."""
OPEN_PER_CREATOR = 5
"""Tournaments one member may have in sign-up or running at once."""
ENDED_LISTED = 20


class Tournaments:
    def __init__(
        self,
        rooms: Rooms,
        lobby: Lobby,
        fairplay: FairPlay,
        settings: Settings,
        rating: RatingLookup,
        notifier: Notifier | None = None,
    ) -> None:
        self.rooms = rooms
        self.notifier = notifier
        self.lobby = lobby
        self.fairplay = fairplay
        self.settings = settings
        self.rating = rating
        self.database = rooms.store.database
        self.store = TournamentStore(self.database, rooms.store)
        self._wake = asyncio.Event()
        self._passing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._telling: asyncio.Task[None] | None = None
        self._dirty: set[str] = set()
        self.started_games = 0
        """Games this process started for tournaments (tests and health)."""
        self.passes = 0
        rooms.followup_makers.append(self.make)
        if notifier is not None:
            telling = Messages(notifier, rooms.store)
            notifier.kinds["tournament"] = telling.message
            self.store.notices = notifier.notices
            self.store.mail = notifier.mailer is not None
        rooms.watchers.append(self._watch)
        lobby.greeters.append(self._greet)

    # --- what the routes ask --------------------------------------------------------
    async def create(self, user: User, spec: dict[str, Any]) -> dict[str, Any]:
        if self.settings.tournaments_by == "admins" and not user.admin:
            raise Refusal("admins_only", "on this server only its admins create tournaments")
        game, players, options = spec["game"], int(spec["players"]), dict(spec["options"])
        if game not in GAMES:
            raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
        try:
            game_definition(game).new_game(players, 0, options)  # checks players, options
        except EuphratesError as e:
            raise Refusal("bad_request", str(e)) from None
        clock: ClockSpec = spec["clock"]
        bots = spec.get("bots")
        if spec["rated"] and bots is not None:
            check_bot_level(game, players, bots)
        if spec["format"] == "robin" and spec["most"] > 16:
            raise Refusal("bad_request", "a round robin takes at most 16 entrants")
        if spec["rated"]:
            await self.fairplay.check_aborts(user.id)
        if await self.store.created_open(user.id) >= OPEN_PER_CREATOR:
            raise Refusal(
                "too_many_tournaments",
                f"you run {OPEN_PER_CREATOR} tournaments not yet ended: let one end first",
            )
        at = now()
        row = Tournament(
            id=tokens.new_game_id()[:16],
            name=spec["name"],
            game=game,
            players=players,
            options=options,
            clock=clock,
            rated=bool(spec["rated"]),
            bots=bots,
            format=spec["format"],
            rounds=int(spec["rounds"]),
            late=bool(spec["late"]) and spec["format"] == "swiss",
            most=int(spec["most"]),
            creator=user.id,
            status="signup",
            starts_at=at + timedelta(minutes=int(spec["starts_in"])),
            created_at=at,
            seed=rounds.new_seed(),
        )
        await self.store.create(row, await self._rating(user.id, game, players))
        self.tell_soon(row.id)
        self.wake()
        return await self.show(row.id, user)

    async def _rating(self, user_id: int, game: str, players: int) -> float:
        try:
            found = await self.rating(self.database, user_id, game, group_of(players))
        except Exception as e:
            raise Refusal("storage_unavailable", f"the rating could not be read: {e}") from None
        return START_RATING if found is None else float(found)

    async def _get(self, tid: str) -> Tournament:
        t = await self.store.get(tid)
        if t is None:
            raise Refusal("unknown_tournament", "no such tournament")
        return t

    async def join(self, user: User, tid: str) -> dict[str, Any]:
        t = await self._get(tid)
        if t.rated:
            await self.fairplay.check_aborts(user.id)
        if t.rated and t.entrants:
            # A person's second account is no opponent (docs/fair-play.md).
            others = [e.user_id for e in t.entrants if e.user_id != user.id]
            if others:
                shared = await self.fairplay.store.sharing([user.id, *others])
                if any(user.id in pair for pair in shared):
                    raise Refusal(
                        "second_account",
                        "an account that shares a device or an address with one already "
                        "entered does not enter a rated tournament (docs/fair-play.md)",
                    )
        rating = await self._rating(user.id, t.game, t.players)

        def may(now_t: Tournament) -> None:
            if now_t.status == "running" and now_t.late and now_t.round < late_until(now_t):
                pass
            elif now_t.status != "signup":
                raise Refusal(
                    "entries_closed",
                    "this tournament takes no more entrants"
                    + (" (late entries only in a Swiss's first half)" if now_t.late else ""),
                )
            if sum(1 for e in now_t.entrants if e.left_round is None) >= now_t.most:
                raise Refusal("tournament_full", f"this tournament is full ({now_t.most})")
            if now_t.status == "running" and any(e.user_id == user.id for e in now_t.entrants):
                raise Refusal("entries_closed", "who withdrew from a running tournament stays out")

        if await self.store.join(tid, user.id, rating, may):
            self.tell_soon(tid)
        return await self.show(tid, user)

    async def leave(self, user: User, tid: str) -> dict[str, Any]:
        def may(t: Tournament) -> None:
            if t.status not in ("signup", "running"):
                raise Refusal("tournament_ended", "this tournament has ended")
            if t.status == "signup" and t.creator == user.id:
                raise Refusal("creator_stays", "the creator stays: cancel it instead")

        await self._get(tid)
        if await self.store.leave(tid, user.id, may):
            self.tell_soon(tid)
        return await self.show(tid, user)

    async def start(self, user: User, tid: str) -> dict[str, Any]:
        """The creator starts the tournament now, the sign-up window cut short."""

        def may(t: Tournament) -> None:
            if t.creator != user.id and not user.admin:
                raise Refusal("not_creator", "only the tournament's creator starts it")
            if t.status != "signup":
                raise Refusal("already_started", "this tournament has started already")
            entrants = sum(1 for e in t.entrants if e.left_round is None)
            if entrants < fewest(t):
                raise Refusal(
                    "too_few_entrants",
                    f"{fewest(t)} entrants are needed to start, {entrants} have entered",
                )

        await self.store.set_start(tid, now(), may)
        self.tell_soon(tid)
        self.wake()
        await self.pass_once()  # at once, here, unless another server is at it
        return await self.show(tid, user)

    async def listing(self) -> list[dict[str, Any]]:
        try:
            return await self.store.listing(ENDED_LISTED)
        except Exception as e:
            raise Refusal("storage_unavailable", f"tournaments could not be read: {e}") from None

    async def show(self, tid: str, user: User | None) -> dict[str, Any]:
        """The tournament's page: its settings, entrants, rounds and tables, and the
        standings with their tiebreaks (every figure from the stored results)."""
        t = await self._get(tid)
        names = {e.user_id: e.name for e in t.entrants}
        table = table_of(t)
        left = {e.user_id: e.left_round for e in t.entrants}
        doc_rounds: dict[int, dict[str, Any]] = {}
        for tb in t.tables:
            r = doc_rounds.setdefault(tb.round, {"round": tb.round, "tables": [], "byes": []})
            if tb.game_id is None:
                r["byes"].extend(names.get(u, "?") for u in tb.seats if u is not None)
                continue
            r["tables"].append(
                {
                    "number": tb.number + 1,
                    "game_id": tb.game_id,
                    "link": f"/g/{tb.game_id}",
                    "seats": [names.get(u, "?") if u is not None else None for u in tb.seats],
                    "places": tb.places,
                    "over": tb.places is not None,
                }
            )
        standing = [
            {
                "rank": s.rank,
                "name": names[s.user],
                "score": s.score,
                "buchholz": round(s.buchholz, 3),
                "median": round(s.median, 3),
                "wins": s.wins,
                "played": s.played,
                "byes": s.byes,
                "withdrew": left.get(s.user) is not None,
                "you": user is not None and user.id == s.user,
            }
            for s in table
        ]
        mine = user is not None and any(
            e.user_id == user.id and e.left_round is None for e in t.entrants
        )
        return {
            "id": t.id,
            "name": t.name,
            "game": t.game,
            "players": t.players,
            "options": t.options,
            "clock": t.clock.to_json() if t.clock is not None else None,
            "rated": t.rated,
            "bots": t.bots,
            "format": t.format,
            "rounds": t.rounds,
            "round": t.round,
            "late": t.late,
            "most": t.most,
            "status": t.status,
            "creator": t.creator_name,
            "starts_at": t.starts_at.isoformat(),
            "ended_at": t.ended_at.isoformat() if t.ended_at else None,
            "entrants": [
                {"name": e.name, "withdrew": e.left_round is not None} for e in t.entrants
            ],
            "fewest": fewest(t),
            "rounds_played": [doc_rounds[k] for k in sorted(doc_rounds)],
            "standings": standing,
            "winner": standing[0]["name"] if t.status == "over" and standing else None,
            "you": {
                "entered": mine,
                "creator": user is not None and user.id == t.creator,
                "may_join": user is not None and not mine and _open_to_entries(t),
            },
        }

    # --- moving tournaments on --------------------------------------------------------
    def make(self, room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
        """The follow-up maker: a game that ended writes its table's places (if it is
        a tournament's; one indexed update otherwise)."""
        if status not in lifecycle.ENDED:
            return ()
        outcome = after.outcome() if status == lifecycle.Status.OVER else None
        places = list(outcome.places) if outcome is not None else [1] * len(room.row.seats)
        with contextlib.suppress(RuntimeError):  # no loop: a test's room
            asyncio.get_running_loop().call_later(SETTLE, self.wake)
        return (ended(self.database, room.row.id, places),)

    def start_loop(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="tournaments")

    async def close(self) -> None:
        await stopped(self._task, self._telling)

    def wake(self) -> None:
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                due = await self.store.next_wake()
            except Exception:
                due = None
            wait = IDLE
            if due is not None:
                wait = min(IDLE, max(0.0, (due - now()).total_seconds()))
            await woken(self._wake, wait)
            self._wake.clear()
            try:
                await self.pass_once()
            except Exception as e:  # the database is away: the next pass
                log.warning("tournaments could not move on: %s", e)

    async def pass_once(self) -> list[tuple[str, Plan]]:
        """Act on every tournament due now: start it, start its next round, end it."""
        async with self._passing:
            done = await self.store.claim(now(), 20, self._decide)
            self.passes += 1
        if self.notifier is not None and any(g for _t, p in done for _tb, g in p.tables):
            self.notifier.soon()  # the entrants' messages, queued with the round
        for tid, plan in done:
            self.tell_soon(tid)
            for _table, row in plan.tables:
                if row is None:
                    continue
                self.started_games += 1
                try:
                    room = await self.rooms.room(row.id)  # its deadline, its bots: here
                except Refusal as r:
                    log.warning("tournament game %s not opened: %s", row.id, r.message)
                    continue
                if row.wake:
                    self.rooms.bots.wake(room)
                self.rooms.clocks.watch(room)
        return done

    async def _decide(self, t: Tournament, at: datetime) -> Plan | None:
        return await decide(t, at, self.fairplay.apart)

    # --- telling the lobbies ----------------------------------------------------------
    def _watch(self, game_id: str, kind: str, _room: object) -> None:
        if kind == "tournament":  # another server changed one
            self.tell_soon(game_id)
            self.wake()

    def tell_soon(self, tid: str) -> None:
        self._dirty.add(tid)
        if self._telling is None and self.lobby.watching:
            self._telling = asyncio.create_task(self._tell(), name="tournaments-tell")

    async def _tell(self) -> None:
        try:
            while self._dirty:
                await asyncio.sleep(0.05)
                changed, self._dirty = sorted(self._dirty), set()
                try:
                    listing = await self.store.listing(ENDED_LISTED)
                except Exception as e:
                    log.warning("tournaments could not be read: %s", e)
                    return
                text = json.dumps({"type": "tournaments", "tournaments": listing})
                ping = json.dumps({"type": "tournament", "changed": changed})
                for w in list(self.lobby.watching):
                    if w.sent.get("tournaments") != text:
                        w.sent["tournaments"] = text
                        w.conn.push(text)
                    w.conn.push(ping)
                for tid in changed:
                    await self._tell_players(tid)
        finally:
            self._telling = None

    async def _tell_players(self, tid: str) -> None:
        """Each entrant with a lobby open on this server learns of their game of the
        round as it starts (once per game), and their list of games is read again."""
        watching = [w for w in self.lobby.watching if w.user is not None]
        if not watching:
            return
        try:
            t = await self.store.get(tid)
        except Exception as e:
            log.warning("tournament %s could not be read: %s", tid, e)
            return
        if t is None or t.status != "running":
            return
        playing = {
            u: tb.game_id
            for tb in t.tables
            if tb.round == t.round and tb.game_id is not None and tb.places is None
            for u in tb.seats
            if u is not None
        }
        told: set[int] = set()
        for w in watching:
            assert w.user is not None
            game_id = playing.get(w.user.id)
            if game_id is None or w.sent.get(f"tgame:{tid}") == game_id:
                continue
            w.sent[f"tgame:{tid}"] = game_id
            told.add(w.user.id)
            w.conn.push(
                json.dumps(
                    {
                        "type": "tournament_game",
                        "tournament": tid,
                        "name": t.name,
                        "round": t.round,
                        "id": game_id,
                        "link": f"/g/{game_id}",
                    }
                )
            )
        if told:
            self.lobby.changed(set(playing.values()), told, False)

    async def _greet(self, w: Watcher) -> None:
        listing = await self.listing()
        text = json.dumps({"type": "tournaments", "tournaments": listing})
        w.sent["tournaments"] = text
        w.conn.push(text)


def late_until(t: Tournament) -> int:
    """A Swiss takes late entrants until its first half is played: before round
    ⌈rounds / 2⌉ + 1 begins."""
    return (t.rounds + 1) // 2


def _open_to_entries(t: Tournament) -> bool:
    active = sum(1 for e in t.entrants if e.left_round is None)
    if active >= t.most:
        return False
    return t.status == "signup" or (t.status == "running" and t.late and t.round < late_until(t))
