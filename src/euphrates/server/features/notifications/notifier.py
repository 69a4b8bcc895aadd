"""Telling a player out of the browser that a decision waits for them: by e-mail, by
webhook, or once a day in a digest.

**When.** A decision comes to a person's seat held by an account that asked for it,
in a turn-based game (at once) or a game without a clock (after
`notify_untimed_after`, and only if the player has not acted by then: two people
playing live are not written to at every move). Never in a real-time game (its
player is at the table, and a clock of minutes outruns any mail) nor in a guided
first game.

**At most one message per prompt.** A prompt is each time the decision comes to a
seat from another seat (or at the start): its key is (game, seat, N), N the number of
standing actions before it — the engine's version, which an undo takes back. So a
defence asked during another's turn is its own prompt, and a move taken back and
made again finds its message's row already there: no second message. A prompt that
ends before its message went out (the player acted, the move was taken back, the game
ended) withdraws it.

**Exactly once across servers.** The rows are written by a follow-up of the version
that hands the decision over (Rooms.followup_makers, store/writer.py): in its transaction,
only if that version is stored, under a unique key. Each process runs one sender that
claims due rows with a lease (noticestore.py), sends, and marks them sent; a failure
is tried again after an exponential backoff with jitter, up to
`notify_attempts`, then given up and logged — never with the address.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from euphrates.core.protocol import GameState
from euphrates.server.common.buckets import Buckets
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import woken
from euphrates.server.features.notifications import texts as notify_text
from euphrates.server.features.notifications.mail import (
    Mailer,
    MailError,
    default_sender,
    parse_smtp_url,
)
from euphrates.server.features.notifications.webhooks import (
    DeliveryError,
    WebhookRefused,
    body,
    networks,
    post,
)
from euphrates.server.game.room import Room
from euphrates.server.store.database import Database, Followup, now
from euphrates.server.store.notices import Claimed, Context, NoticeStore
from euphrates.server.store.notify_settings import NotifySettings

log = logging.getLogger("euphrates.server")

BATCH = 20
"""Messages a sender claims at once (and sends together)."""
LEASE = 120.0
"""Seconds a claimed message is the sender's: far longer than a send may take (the
mail and webhook timeouts), so only a sender that died loses its rows."""
POLL = 1.0
"""Seconds between two looks for due messages, when nothing woke the sender."""
SETTLE = 0.05
"""A follow-up wakes the sender before its transaction commits; the sender looks this
much later (else at the next poll)."""
BACKOFF_CAP = 6 * 3600.0
SENDS_PER_HOUR = 6
"""Codes and test messages one account may ask for an hour (as many at once)."""
CODES_PER_ADDRESS = 3
"""Codes one address may be sent an hour, whichever accounts ask: nobody can make the
server write to a stranger more than that."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_DAYS = 1


def backoff(attempts: int, base: float) -> float:
    """Seconds before attempt `attempts + 1`: doubling, capped, jittered (0.5–1.5×)
    so that messages failed together are not all tried again together."""
    grown: float = base * 2.0 ** max(0, attempts - 1)
    return min(grown, BACKOFF_CAP) * random.uniform(0.5, 1.5)


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


@dataclass(frozen=True)
class Prompt:
    """Whose decision a version leaves pending, for the outbox: `seat` (None: the game
    ended), `at` (the standing actions before it) and whether it has just come to
    that seat from another (then the seat's player is told)."""

    game_id: str
    seat: int | None
    at: int
    notify: bool


def prompt(room: Room, after: GameState[Any], status: str | None) -> Prompt | None:
    """What a version of `room` (the state before it) leaving `after` with `status`
    means for turn messages, or None when it concerns none: a real-time game, a guided
    one, a game no account plays. An undo (fewer standing actions than before) gives
    the decision back to the seat that took its move back, at the table: it is told
    nothing. A game's start (as many, status "active") tells its first seat."""
    row = room.row
    clock = row.clock
    if room.scripted or (clock is not None and clock.spec.mode == "realtime"):
        return None
    before = room.state
    start = after.version == before.version and status == "active"
    if not start and not any(s.user_id is not None for s in row.seats):
        return None  # nobody here has an account: nothing to write (a guest's game)
    undo = after.version < before.version
    over = status in ("over", "abandoned", "aborted") or after.is_over()
    seat = None if over else after.to_move()
    actor = None if start else before.to_move()
    notify = not undo and seat is not None and seat != actor and row.seats[seat].kind == "human"
    return Prompt(row.id, seat, after.version, notify)


MessageKind = Callable[[Claimed, Context, str], Awaitable[notify_text.Message | None]]
"""(the claimed message, its account's name and choices, the links' base) → its words
in the account's language, or None when it no longer stands (then it is withdrawn)."""


@dataclass
class Counts:
    sent: int = 0
    failed: int = 0
    retried: int = 0
    withdrawn: int = 0


class Notifier:
    def __init__(self, database: Database, settings: Settings) -> None:
        self.settings = settings
        self.notices = NoticeStore(database)
        self.choices = NotifySettings(database)
        self.mailer = (
            Mailer(
                parse_smtp_url(settings.smtp_url),
                settings.mail_from or default_sender(settings.public_url),
            )
            if settings.smtp_url
            else None
        )
        self.allow = networks(settings.webhook_allow)
        self.counts = Counts()
        self.sends = Buckets(SENDS_PER_HOUR / 3600, SENDS_PER_HOUR)
        self.codes = Buckets(CODES_PER_ADDRESS / 3600, CODES_PER_ADDRESS)
        self.seen_base = ""
        self.kinds: dict[str, MessageKind] = {}
        """The messages other features queue (`NoticeStore.queue_now`), by their key's
        first part: each says, when its message is sent, whether it still stands and
        in which words (an invitation to a seat: features/friends)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def base(self) -> str:
        """The start of the links in messages: the public address, else where this
        server listens, else where its players last reached it from."""
        found = self.settings.public_url or self.settings.listen_url or self.seen_base
        return found.rstrip("/")

    def seen(self, base: str) -> None:
        """A player reached the server at `base` (a name the guard let through)."""
        self.seen_base = base

    # --- what a version writes -------------------------------------------------------
    def make(self, room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
        """The follow-up of a version (or a game's start, or an undo) that may hand a
        decision to a person (Rooms.followup_makers)."""
        p = prompt(room, after, status)
        if p is None:
            return ()
        wait = 0.0 if room.row.clock is not None else self.settings.notify_untimed_after
        due = now() + timedelta(seconds=wait)
        mail = self.mailer is not None

        async def followup(conn: Any) -> None:
            if await self.notices.hand_over(conn, p.game_id, p.seat, p.at, p.notify, due, mail):
                asyncio.get_running_loop().call_later(SETTLE, self._wake.set)

        return (followup,)

    def soon(self) -> None:
        """A message was queued outside a version (an invitation): look at once."""
        self._wake.set()

    # --- the sender ------------------------------------------------------------------
    async def start(self) -> None:
        if self.notices.sqlite:
            await self.notices.release_others()
        self._task = asyncio.create_task(self._run(), name="notifier")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            full = False
            try:
                if await self.notices.anything_due():
                    await self.notices.run_digests(BATCH, self.mailer is not None)
                    claimed = await self.notices.claim(BATCH, LEASE)
                    full = len(claimed) == BATCH
                    await asyncio.gather(*(self._deliver(c) for c in claimed))
            except Exception as e:  # the database is away: try again later
                log.warning("notifications could not be read: %s", type(e).__name__)
            if full:
                continue
            self._wake.clear()
            await woken(self._wake, POLL)

    async def _deliver(self, c: Claimed) -> None:
        try:
            ctx = await self.notices.context(c)
            kind = self.kinds.get(c.key.split(":", 1)[0])
            if kind is not None and ctx is not None and self._open(c, ctx):
                message = await kind(c, ctx, self.base)
            else:
                message = None if kind is not None else self._compose(c, ctx)
            if message is None or ctx is None:
                await self.notices.finish(c.id, "withdrawn")
                self.counts.withdrawn += 1
                return
            await self._send(c.channel, ctx, message)
        except (MailError, DeliveryError) as e:
            retry_after = e.retry_after if isinstance(e, DeliveryError) else None
            await self._failed(c, e.reason, e.permanent, retry_after)
            return
        except WebhookRefused as e:
            await self._failed(c, str(e), True, None)
            return
        except Exception as e:  # unforeseen: its type only (a message may hold the hook)
            await self._failed(c, f"unexpected {type(e).__name__}", False, None)
            return
        await self.notices.finish(c.id, "sent")
        self.counts.sent += 1
        log.info("notification %d (%s, account %d) sent", c.id, c.channel, c.user_id)

    def _compose(self, c: Claimed, ctx: Context | None) -> notify_text.Message | None:
        """The message, or None when it no longer stands: the account or its channel
        is gone, or the turn is over."""
        if ctx is None or not self._open(c, ctx):
            return None
        p = ctx.prefs
        if c.key.startswith("turn:"):
            if not ctx.still_theirs or ctx.game is None or c.game_id is None or p.digest:
                return None
            name = ctx.seat_name or ctx.name
            item = notify_text.TurnGame(c.game_id, ctx.game, name, ctx.opponents, ctx.move)
            return notify_text.turn(item, self.base, p.lang)
        games = [notify_text.TurnGame.from_json(g) for g in json.loads(c.payload or "[]")]
        if not games:
            return None
        return notify_text.digest(ctx.name, games, self.base, p.lang)

    def _open(self, c: Claimed, ctx: Context) -> bool:
        """Whether the account may be written to on the message's channel now."""
        p = ctx.prefs
        if not ctx.active:
            return False
        if c.channel == "email":
            return bool(p.email_on and p.email and self.mailer)
        return bool(p.webhook_on and p.webhook)

    async def _send(self, channel: str, ctx: Context, message: notify_text.Message) -> None:
        p = ctx.prefs
        if channel == "email":
            assert self.mailer is not None and p.email is not None
            headers = {"List-Unsubscribe": f"<{self.base}/account/notifications>"}
            await self.mailer.send(p.email, message.subject, message.text, headers)
        else:
            assert p.webhook is not None
            await post(p.webhook, body(message.text), self.allow)

    async def _failed(
        self, c: Claimed, reason: str, permanent: bool, retry_after: float | None
    ) -> None:
        if permanent or c.attempts >= self.settings.notify_attempts:
            await self.notices.finish(c.id, "failed")
            self.counts.failed += 1
            log.warning(
                "notification %d (%s, account %d) given up after %d attempts: %s",
                c.id,
                c.channel,
                c.user_id,
                c.attempts,
                reason,
            )
            return
        delay = backoff(c.attempts, self.settings.notify_retry)
        if retry_after is not None:
            delay = max(delay, min(retry_after, BACKOFF_CAP))
        await self.notices.finish(c.id, "queued", now() + timedelta(seconds=delay))
        self.counts.retried += 1
        log.info(
            "notification %d (%s, account %d) failed, tried again in %.0f s: %s",
            c.id,
            c.channel,
            c.user_id,
            delay,
            reason,
        )

    # --- messages a player asks for ---------------------------------------------------
    async def send_code(self, email: str, code: str, lang: str) -> None:
        """Mail the code that proves `email` is the player's."""
        if self.mailer is None:
            raise Refusal("mail_unavailable", "this server sends no e-mail")
        server = self._server_name()
        link = f"{self.base}/account/notifications#code={code}"
        message = notify_text.verify(code, server, link, lang)
        try:
            await self.mailer.send(email, message.subject, message.text)
        except MailError as e:
            raise Refusal("send_failed", f"the code could not be mailed: {e.reason}") from None

    async def send_test(self, user_id: int, channel: str) -> None:
        """A test message on one channel, now, to the account's own address."""
        ctx = await self.notices.context(Claimed(0, "test", channel, user_id, None, None, None, 0))
        prefs = ctx.prefs if ctx is not None else None
        name = ctx.name if ctx is not None else ""
        lang = prefs.lang if prefs is not None else "en"
        message = notify_text.test(name, self._server_name(), lang)
        try:
            if channel == "email":
                if self.mailer is None:
                    raise Refusal("mail_unavailable", "this server sends no e-mail")
                if prefs is None or prefs.email is None:
                    raise Refusal("no_address", "no verified e-mail address yet")
                await self.mailer.send(prefs.email, message.subject, message.text)
            else:
                if prefs is None or prefs.webhook is None:
                    raise Refusal("no_address", "no webhook address yet")
                await post(prefs.webhook, body(message.text), self.allow)
        except (MailError, DeliveryError) as e:
            raise Refusal("send_failed", f"the test message did not go out: {e.reason}") from None
        except WebhookRefused as e:
            raise Refusal("bad_webhook", str(e)) from None

    def _server_name(self) -> str:
        return self.base.split("://", 1)[-1] or "Euphrates"
