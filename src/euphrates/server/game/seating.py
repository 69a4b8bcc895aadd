"""A room's seats: who holds which, taking them, an account's claim, an open table's
sitting down and getting up, the host starting early, a seat handed to a bot (by the
host, by its resigning player, by its account's deletion).

Every seat is written under the game's row lock, checked against the seats and the
status as stored (store/games.py): of two players racing for one seat on two servers
exactly one sits, and the last seat taken starts the game once, whichever server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from euphrates.bots.levels import LEVELS
from euphrates.server.common import tokens
from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import clean_name
from euphrates.server.game import lifecycle
from euphrates.server.game.endings import Endings
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Followup
from euphrates.server.store.games import StatusChanged
from euphrates.server.store.notes import Note, writing
from euphrates.server.store.notices import seat_given_up
from euphrates.server.store.rows import SeatRow, now

log = logging.getLogger("euphrates.server")

DEFAULT_LEVEL = "intermediate"
"""The bot that plays a seat left for good when the game names no other."""


class Seating(Endings):
    _seating: asyncio.Lock | None = None

    @property
    def seating(self) -> asyncio.Lock:
        """Open tables' seats are taken, freed and filled one at a time here: their
        reads before a write are outside the write's transaction."""
        if self._seating is None:
            self._seating = asyncio.Lock()
        return self._seating

    # --- who holds what -------------------------------------------------------------
    def holder(
        self, presented: Sequence[object], user: User | None = None
    ) -> tuple[frozenset[int], bool]:
        """The seats the presented tokens open, and whether one is the host's, with the
        seats of the signed-in `user`'s account. A token that opens nothing is refused:
        a mistyped link must not look like a spectator. A token of a seat that belongs
        to an account opens it only for that account (a stolen link of a claimed seat
        is not enough)."""
        row = self.row
        held = {
            s.seat
            for s in row.seats
            if user is not None and s.kind == "human" and s.user_id == user.id
        }
        host = user is not None and user.id == row.creator  # an open table's
        stored = [(s.seat, s.token_hash) for s in row.seats if s.kind == "human"]
        for token in presented:
            if not tokens.well_formed(token):
                raise Refusal("bad_token", "that link is not valid for this game")
            assert isinstance(token, str)
            seat = tokens.find(token, stored)
            if seat is not None:
                owner = row.seats[seat].user_id
                if owner is not None and (user is None or user.id != owner):
                    raise Refusal(
                        "account_required", "this seat belongs to an account: sign in to play it"
                    )
                held.add(seat)
            elif tokens.matches(token, row.host_hash):
                host = True
            else:
                raise Refusal("bad_token", "that link is not valid for this game")
        return frozenset(held), host

    # --- taking seats ---------------------------------------------------------------
    async def take_seats(
        self,
        seats: frozenset[int],
        name: object,
        names: object = None,
        user: User | None = None,
    ) -> None:
        """Mark seats taken (the first time their link is used) and start the game
        once every human seat is taken. `names` may name each seat apart (several
        players at one screen); `name` names the rest. A seat without a name is shown
        by its number (clients word that in their language). A seat first taken by a
        signed-in `user` belongs to that account, named by it unless named here."""
        self.check(lifecycle.TAKE_SEAT)
        untaken = frozenset(s for s in seats if not self.row.seats[s].taken)
        await self.host.check_seating(self, untaken, user)
        if names is not None and not isinstance(names, dict):
            raise Refusal("bad_request", "'names' must map seat numbers to names")
        name_max = self.host.settings.name_max
        per_seat: dict[int, str] = {}
        for key, value in (names or {}).items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) == 1):
                raise Refusal("bad_request", "'names' must map seat numbers to names")
            if int(key) in seats and value is not None:
                per_seat[int(key)] = clean_name(value, name_max)
        common = clean_name(name, name_max) if name is not None else None
        changed = False
        for seat in sorted(seats):
            entry = self.row.seats[seat]
            owner = entry.user_id
            if not entry.taken and user is not None:
                owner = user.id
            fallback = user.name if user is not None and owner == user.id else None
            wanted_name = per_seat.get(seat) or common or entry.name or fallback
            if entry.taken and entry.name == wanted_name:
                continue
            wanted = SeatRow(
                seat, entry.kind, entry.level, wanted_name, entry.token_hash, True, owner
            )
            if await self.write_seat(lifecycle.TAKE_SEAT, wanted, only_if_human=True) is None:
                raise Refusal("bad_token", "that link is not valid for this game")
            changed = True
        if changed:
            self.host.seats_changed(self, local=True)

    async def claim(self, seats: frozenset[int], user: User) -> list[int]:
        """Tie the seats the caller's links open to `user`'s account: from now on the
        links alone no longer act for them. Returns the seats the account holds."""
        for seat in sorted(seats):
            entry = self.row.seats[seat]
            if entry.user_id == user.id:
                continue
            name = entry.name or user.name
            wanted = SeatRow(seat, entry.kind, entry.level, name, entry.token_hash, True, user.id)
            if await self.write_seat(lifecycle.TAKE_SEAT, wanted, only_if_human=True) is None:
                raise Refusal("seat_not_human", f"seat {seat} is played by a bot")
        self.host.seats_changed(self, local=True)
        return sorted(s.seat for s in self.row.seats if s.user_id == user.id)

    async def write_seat(
        self,
        change: lifecycle.Change,
        seat: SeatRow,
        only_if_human: bool = False,
        vacant: bool = False,
        note: Note | None = None,
        clock: Clock | None = None,
        ends: str | None = None,
        also: tuple[Followup, ...] = (),
    ) -> list[SeatRow] | None:
        """Store a seat (and the `note` of it); if that starts the game, or seats a bot,
        with a bot's decision pending, this server drives the game. Under the room's
        lock: a bot's move stored meanwhile would judge from the seats before this one
        that no bot is to move next, and nobody would drive the game. `clock`: the
        clock after the change (a forfeit stops a seat's); `ends`: the status the
        change ends the game in, with the features' follow-ups of it; `also`: a
        feature's follow-ups of the seat (an invitation taken)."""
        async with self.lock:
            self.check(change)
            to_move = self.state.to_move()
            kinds = [seat.kind if s.seat == seat.seat else s.kind for s in self.row.seats]
            clock = self.row.clock
            bot = to_move is not None and (
                kinds[to_move] == "bot"
                or (clock is not None and clock.standin[to_move] is not None)
            )
            waiting = self.row.status == lifecycle.Status.WAITING
            starts = self.host.followups(self, self.state, "active") if waiting else ()
            after = (*also, *(() if note is None else (writing(self.id, note),)))
            if seat.kind == "bot":
                after = (*after, seat_given_up(self.id, seat.seat))
            if ends is not None:
                after = (*after, *self.host.followups(self, self.state, ends))
            try:
                stored = await self.host.store.update_seat(
                    self.id,
                    seat,
                    change.allowed,
                    only_if_human,
                    bot,
                    vacant,
                    after,
                    starts,
                    clock=clock,
                    ends=ends,
                )
            except StatusChanged as e:
                raise self._refused(change, e) from None
            except Refusal:
                raise
            except Exception as e:
                raise Refusal("storage_unavailable", f"the seat could not be saved: {e}") from None
            if stored is None:
                return None
            verdict = await self._verdict_of(stored.status if ends is not None else None)
            self._take(
                seats=stored.seats,
                status=stored.status,
                clock=clock if clock is not None else self.row.clock,
                driven=False if ends is not None else (True if stored.drive else None),
                updated=now(),
                **verdict,
            )
            if note is not None:
                self.noted(note)
            playing = self.row.status == lifecycle.Status.ACTIVE
        if self.row.clock is not None and playing and (stored.started or seat.kind == "bot"):
            await self.start_clock()  # the first clock runs, or a bot's seat has none
        return self.row.seats

    # --- open tables ----------------------------------------------------------------
    async def sit(self, user: User, seat: int | None) -> list[int]:
        """Seat `user` at an open table: at `seat`, or the first free one. The game
        starts when every seat is taken. Returns the seats the account holds."""
        if not self.row.open:
            raise Refusal("not_open", "this game is not an open table: join it by its link")
        if seat is not None and not 0 <= seat < self.row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        wanted = seat if seat is not None else self._first_free()
        await self.host.check_seating(self, frozenset({wanted}), user)
        async with self.seating:
            self.check(lifecycle.SIT)
            for _ in range(self.row.players):
                wanted = seat if seat is not None else self._first_free()
                entry = self.row.seats[wanted]
                row = SeatRow(wanted, "human", None, user.name, entry.token_hash, True, user.id)
                try:
                    await self.write_seat(lifecycle.SIT, row, only_if_human=True, vacant=True)
                    break
                except Refusal as r:
                    if r.code != "seat_taken" or seat is not None:
                        raise
                    await self.reload()  # taken elsewhere: the next one
        self.host.seats_changed(self, local=True)
        return sorted(s.seat for s in self.row.seats if s.user_id == user.id)

    async def sit_invited(self, user: User, seat: int, accepted: Followup) -> list[int]:
        """Seat `user` at `seat` of a game waiting for its players, an open table or
        not: its host invited the account by name (features/friends). `accepted` runs
        in the seat's transaction: the invitation is taken once, or the seat not at
        all. The seat must still be free, and the room's seat rules apply as to anyone
        sitting down. Returns the seats the account holds."""
        if not 0 <= seat < self.row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        await self.host.check_seating(self, frozenset({seat}), user)
        async with self.seating:
            self.check(lifecycle.SIT)
            entry = self.row.seats[seat]
            row = SeatRow(seat, "human", None, user.name, entry.token_hash, True, user.id)
            stored = await self.write_seat(
                lifecycle.SIT, row, only_if_human=True, vacant=True, also=(accepted,)
            )
            if stored is None:
                raise Refusal("seat_taken", f"seat {seat + 1} is played by a bot now")
        self.host.seats_changed(self, local=True)
        return sorted(s.seat for s in self.row.seats if s.user_id == user.id)

    async def leave(self, user: User) -> None:
        """`user` gets up from a game that has not started: their seats are free again."""
        if self.row.creator == user.id:
            raise Refusal("host_stays", "the table's creator stays; abandon the table instead")
        async with self.seating:
            await self._free(lifecycle.LEAVE, user.id)
        self.host.seats_changed(self, local=True)

    async def _free(self, change: lifecycle.Change, user_id: int) -> None:
        self.check(change)
        try:
            seats = await self.host.store.free_seats(self.id, user_id, change.allowed)
        except StatusChanged as e:
            raise self._refused(change, e) from None
        except Refusal:
            raise
        except Exception as e:
            raise Refusal("storage_unavailable", f"the seat could not be left: {e}") from None
        self._take(seats=seats, updated=now())

    async def start_early(self, level: str) -> None:
        """The host starts the game now: a bot of `level` takes each seat still free.
        At least one person must sit at it (a game of bots alone is created as such).
        A seat taken meanwhile by someone is theirs; one left meanwhile gets a bot."""
        async with self.seating:
            self.check(lifecycle.START)
            if not any(s.kind == "human" and s.taken for s in self.row.seats):
                raise Refusal("nobody_seated", "nobody sits at this table yet: it cannot start")
            for _ in range(self.row.players):
                free = [s.seat for s in self.row.seats if s.kind == "human" and not s.taken]
                if not free or self.row.status != lifecycle.Status.WAITING:
                    break
                for seat in free:
                    bot = SeatRow(seat, "bot", level, None, None, True, None)
                    try:
                        await self.write_seat(lifecycle.START, bot, only_if_human=True, vacant=True)
                    except Refusal as r:
                        if r.code != "seat_taken":
                            raise
                        await self.reload()
        self.host.seats_changed(self, local=True)

    def _first_free(self) -> int:
        for s in self.row.seats:
            if s.kind == "human" and not s.taken and s.user_id is None:
                return s.seat
        raise Refusal("already_started", "every seat of this table is taken")

    # --- a seat to a bot ---------------------------------------------------------------
    async def seat_to_bot(self, seat: object, level: object) -> None:
        """The host gives a person's seat to a bot of `level` for the rest of the game
        (a player who left). Not in a rated game: its seats are its players', and only
        a seat's own player leaves it, by resigning."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        if level not in LEVELS:
            raise Refusal("bad_request", f"'level' must be one of {', '.join(LEVELS)}")
        assert isinstance(level, str)
        self.check(lifecycle.SEAT_TO_BOT)
        entry = self.row.seats[seat]
        if entry.kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        if self.row.rated and entry.taken:
            raise Refusal(
                "rated_seat",
                "a rated game's seats are its players': only a seat's own player hands it "
                "to a bot, by resigning",
            )
        bot = SeatRow(seat, "bot", level, None, None, True, entry.user_id)
        note = Note(self.version, "replaced", seat, level)
        stored = await self.write_seat(lifecycle.SEAT_TO_BOT, bot, only_if_human=True, note=note)
        if stored is None:
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        self.audience.evict("seat_replaced", f"seat {seat} is now played by a bot", seat)
        self.host.seats_changed(self, local=True)

    def level_for_leavers(self) -> str:
        """The level of bot that plays a seat left for good: the turn-based clock's
        level if the game has one, else that of the game's first bot, else
        intermediate."""
        clock = self.row.clock
        if clock is not None and clock.spec.mode == "turn" and clock.spec.level in LEVELS:
            return clock.spec.level
        for s in self.row.seats:
            if s.kind == "bot" and s.level in LEVELS and s.user_id is None:
                return s.level
        return DEFAULT_LEVEL

    async def resign(self, seat: int, holder: frozenset[int]) -> str | None:
        """`seat` resigns a rated game (the caller holds it): `leave_for_good`. Returns
        the level of the bot that plays on, or None when the game ended or aborted."""
        self.check(lifecycle.RESIGN)
        if seat not in holder:
            raise Refusal("not_your_seat", f"you do not hold seat {seat}")
        if self.row.seats[seat].kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is played by a bot already")
        return await self.leave_for_good(lifecycle.RESIGN, seat, "resigned")

    async def abandon(self, host_seats: frozenset[int]) -> None:
        """The host ends the game. A rated game being played is not the host's to end
        (docs/fair-play.md): before it was played it aborts, after that the host may
        only leave its own seats — resigning them — and the others play on."""
        if not (self.row.rated and self.row.status == lifecycle.Status.ACTIVE):
            await self.end(lifecycle.ABANDON)
            return
        mine = [s for s in sorted(host_seats) if self.row.seats[s].kind == "human"]
        if not self.played_enough():
            await self.abort(mine[0] if mine else None)
            return
        if not mine:
            raise Refusal(
                "rated_seat",
                "a rated game being played is not abandoned by its host: its players may resign",
            )
        for seat in mine:
            if self.row.status == lifecycle.Status.ACTIVE:
                await self.leave_for_good(lifecycle.RESIGN, seat, "resigned")

    async def account_left(self, user_id: int) -> None:
        """The account was deleted: in a game still waiting its seats are free again
        (an open table it opened is abandoned: its host is gone); in a game being
        played each of its seats leaves for good (`left`), so nobody waits for it for
        ever."""
        await self.reload()  # its seats' names as the deletion left them
        if self.row.status == lifecycle.Status.WAITING:
            if self.row.creator == user_id:
                await self.end(lifecycle.ABANDON)
                return
            async with self.seating:
                try:
                    await self._free(lifecycle.LEFT, user_id)
                except Refusal as r:
                    if r.code != "not_your_seat":
                        raise
            self.host.seats_changed(self, local=True)
            return
        for seat in [s.seat for s in self.row.seats if s.user_id == user_id and s.kind == "human"]:
            if self.row.status == lifecycle.Status.ACTIVE:
                await self.leave_for_good(lifecycle.LEFT, seat, "left")

    async def leave_for_good(
        self, change: lifecycle.Change, seat: int, kind: str, clock: Clock | None = None
    ) -> str | None:
        """`seat`'s player leaves for good (`kind`: resigned, left, forfeited), by the
        rules of docs/fair-play.md: a rated game not yet played aborts; a duel ends,
        the other player winning; any other game goes on, a bot of the game's level
        playing the seat to the end — still tied to its account, so that its rating
        places it last (`clock`: the clock after a forfeit). Returns the bot's level,
        or None when the game ended or aborted."""
        if self.row.rated and not self.played_enough():
            await self.abort(seat)
            return None
        entry = self.row.seats[seat]
        if entry.kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is played by a bot already")
        level = self.level_for_leavers()
        bot = SeatRow(seat, "bot", level, entry.name, None, True, entry.user_id)
        note = Note(self.version, kind, seat, level)
        duel = self.row.players == 2
        ends = lifecycle.Status.OVER if duel else None
        if duel:
            change = lifecycle.END_BY_LEAVING
        if clock is not None:
            clock.forfeited(seat)
        stored = await self.write_seat(
            change, bot, only_if_human=True, note=note, clock=clock, ends=ends
        )
        if stored is None:
            raise Refusal("seat_not_human", f"seat {seat} is played by a bot already")
        log.info("game %s: seat %d left for good (%s)", self.id, seat, kind)
        # The page reconnects and finds it holds no seat now: it watches to the end.
        self.audience.evict("seats_changed", f"seat {seat} left the game ({kind})", seat)
        self.host.seats_changed(self, local=True)
        return None if duel else level
