"""Who watches one game, and what each of them is told.

The room keeps the game and hands every new version here (`publish`), under its lock;
the audience works out each watched audience's view (a seat, or the public) and
pushes to every client exactly the events its seats may see and the patch from its
last view to the new one. It keeps the last patches of each audience for a while, so a
client that lost its connection gets just what it missed, and builds the one snapshot
of the game a client may see (the HTTP read, `welcome`, `sync`, a seat's log). A
client never receives a state, the seed or another seat's view.

The client set is this module's alone: clients join, leave or are evicted here. A
client joins and gets its welcome in one synchronous call, so no version can come
between them: the next update it receives is the one after its welcome's.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import orjson

from euphrates.server.game.patch import diff
from euphrates.server.game.steps import Step, join_events
from euphrates.server.store.notes import Note
from euphrates.server.store.rows import ChatRow, GameRow, now

RECONNECT_GRACE = 120.0
"""Seconds an audience's patches are still kept after its last client left, so that a
client that lost its connection gets just what it missed when it comes back."""


class Member(Protocol):
    """A connected client as the audience sees it."""

    seats: frozenset[int]

    def push(self, text: str) -> None: ...

    def close_soon(self, code: str, message: str) -> None: ...


class Watched(Protocol):
    """What the audience reads of the game it watches (the room)."""

    row: GameRow
    version: int
    history: list[Step]
    notes: list[Note]

    def view_for(self, audience: int | None) -> dict[str, Any]: ...

    def undo_flags(self, seats: frozenset[int]) -> dict[str, bool]: ...

    def result(self) -> dict[str, Any] | None: ...


def audience_key(audience: int | None) -> str:
    return "spectator" if audience is None else str(audience)


def audience_list(seats: frozenset[int]) -> list[int | None]:
    """A client's audiences: its seats in order, or the public one for a spectator."""
    return [*sorted(seats)] if seats else [None]


def meta_of(
    row: GameRow,
    version: int = 0,
    connected: Iterable[int] = (),
    presence: Sequence[str | None] | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A game's public description: seats, status, version; `connected` are the seats
    with a client here, `presence` each seat's across servers (presence.py); whether
    it is an open table and its creator's seat."""
    online = set(connected)
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "status": row.status,
        "version": version,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "taken": s.taken,
                "connected": s.seat in online,
                "presence": presence[s.seat] if presence else None,
            }
            for s in row.seats
        ],
        "clock": clock_json(row),
        "open": row.open,
        "creator": creator_seat(row),
        "rated": row.rated,
        "verdict": row.verdict,
        "result": result,
    }


def creator_seat(row: GameRow) -> int | None:
    """The seat of the account that opened the table, if it still sits there."""
    if row.creator is None:
        return None
    return next((s.seat for s in row.seats if s.user_id == row.creator), None)


def clock_json(row: GameRow) -> dict[str, Any] | None:
    """The game's clock as every client may see it (no clock: None)."""
    return row.clock.to_json(now()) if row.clock is not None else None


def account_of(client: Member) -> int | None:
    """The account a client is signed in to, if any (a connection says so by its
    `user`; the audience needs nothing else of it)."""
    user = getattr(client, "user", None)
    account = getattr(user, "id", None)
    return account if isinstance(account, int) else None


def chat_json(row: ChatRow) -> dict[str, Any]:
    return {"seq": row.seq, "seat": row.seat, "author": row.author, "text": row.text, "at": row.at}


def compact(value: Any) -> str:
    """JSON without spaces. Encoding the updates was a tenth of the server's work per
    action under load (`euphrates loadtest`); orjson does it several times faster. An
    integer beyond 64 bits (which no view holds, but a message might) falls back to
    the standard library."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


class Audience:
    """Everyone watching one game: its clients and, per audience (a seat, or the
    public for spectators and the host), the last view sent and the recent patches."""

    def __init__(self, game: Watched, replay_buffer: int = 64) -> None:
        self.game = game
        self.replay_buffer = replay_buffer
        self.clients: set[Member] = set()
        self.views: dict[int | None, tuple[int, dict[str, Any]]] = {}
        self.patches: dict[int | None, deque[tuple[int, str]]] = {}
        """Per audience, the last versions' patches as JSON text, for reconnects."""
        self.left: dict[int | None, float] = {}
        """When each audience's last client left (for RECONNECT_GRACE)."""
        self.chat_seen = 0
        """The last chat line the clients were told of."""
        self.presence: Callable[[GameRow], list[str | None]] | None = None
        """Each seat's presence across servers (the hub's), for the meta."""

    # --- who is here --------------------------------------------------------------------
    @property
    def count(self) -> int:
        """Clients connected now."""
        return len(self.clients)

    def meta(self) -> dict[str, Any]:
        """Everything public about the game that is not its view: seats (which have a
        client), status, version."""
        connected = {s for c in self.clients for s in c.seats}
        row = self.game.row
        presence = self.presence(row) if self.presence is not None else None
        return meta_of(row, self.game.version, connected, presence, self.game.result())

    def join(
        self,
        client: Member,
        host: bool = False,
        since: int | None = None,
        history: bool = True,
        chat: list[ChatRow] | None = None,
    ) -> None:
        """Add the client and queue its welcome: the snapshot at this version or, when
        it saw version `since` and every patch since is kept, just what it missed
        (unless full views are shorter). No await: nothing comes between."""
        seats = client.seats
        missed = None if since is None else self.catch_up_messages(seats, since)
        welcome = {"type": "welcome", **self.snapshot(seats, host, views=False)}
        views = self.full_views(seats)
        self.clients.add(client)
        if missed is not None and sum(len(m) for m in missed) <= len(compact(views)):
            welcome["resumed_from"] = since
            client.push(compact(welcome))
            for m in missed:
                client.push(m)
            return
        welcome["views"] = views
        if history:
            welcome["history"] = self.history(seats)
        welcome["chat"] = [chat_json(c) for c in chat or []]
        client.push(compact(welcome))

    def leave(self, client: Member) -> bool:
        """The client is gone; whether it was still here (an evicted one is not). Its
        audiences' patches are kept for RECONNECT_GRACE."""
        if client not in self.clients:
            return False
        self.clients.discard(client)
        now = time.monotonic()
        for aud in audience_list(client.seats):
            self.left[aud] = now
        self.forget_views()
        return True

    def evict(self, code: str, message: str, seat: int | None = None) -> None:
        """Close the clients holding `seat` (every client when None), telling them
        why; a client evicted from a seat no longer holds it."""
        for c in list(self.clients):
            if seat is None or seat in c.seats:
                if seat is not None:
                    c.seats = c.seats - {seat}
                self.clients.discard(c)
                c.close_soon(code, message)

    def evict_account(self, user_id: int) -> int:
        """Close the clients signed in to an account (disabled, deleted): they connect
        again as what they may be now. Returns how many were closed."""
        closed = 0
        for c in list(self.clients):
            user = getattr(c, "user", None)
            if user is not None and getattr(user, "id", None) == user_id:
                self.clients.discard(c)
                c.close_soon("account_changed", "this account changed; connect again")
                closed += 1
        return closed

    def recheck(self, held: Callable[[Member], frozenset[int] | None]) -> int:
        """Close the clients whose seats are no longer what `held` says they may hold
        (None: nothing at all): a seat left, handed to a bot, or taken by an account
        other than the client's. Each is told `seats_changed` and, when it connects
        again, what it holds now. Returns how many were closed."""
        closed = 0
        for c in list(self.clients):
            if held(c) != c.seats:
                self.clients.discard(c)
                c.close_soon("seats_changed", "the seats at this table changed; connect again")
                closed += 1
        return closed

    # --- what a client may see now ------------------------------------------------------
    def snapshot(
        self,
        seats: frozenset[int],
        host: bool = False,
        *,
        views: bool = True,
        history: bool = False,
        chat: list[ChatRow] | None = None,
    ) -> dict[str, Any]:
        """The game as a client holding `seats` sees it now: its meta, who it is, the
        version, which of its seats may undo, and (as asked) its views, the move log
        and the chat."""
        out: dict[str, Any] = {
            "game": self.meta(),
            "you": {"seats": sorted(seats), "host": host},
            "version": self.game.version,
            "can_undo": self.game.undo_flags(seats),
            "notes": [n.to_json() for n in self.game.notes],
        }
        if views:
            out["views"] = self.full_views(seats)
        if history:
            out["history"] = self.history(seats)
        if chat is not None:
            out["chat"] = [chat_json(c) for c in chat]
        return out

    def history(self, seats: frozenset[int]) -> list[dict[str, Any]]:
        """Every version so far with the events the seats may see (the move log)."""
        return [
            {
                "version": s.version,
                "kind": s.kind,
                "seat": s.seat,
                "events": json.loads(join_events(s, seats)),
                **({"bot": s.bot} if s.bot else {}),
            }
            for s in self.game.history
        ]

    def full_views(self, seats: frozenset[int]) -> dict[str, Any]:
        """Current views for a client's audiences (kept so later patches apply)."""
        out = {}
        version = self.game.version
        for aud in audience_list(seats):
            cached = self.views.get(aud)
            if cached is None or cached[0] != version:
                cached = (version, self.game.view_for(aud))
                self.views[aud] = cached
                self.patches.setdefault(aud, deque(maxlen=self.replay_buffer)).clear()
            out[audience_key(aud)] = cached[1]
        return out

    def catch_up_messages(self, seats: frozenset[int], since: int) -> list[str] | None:
        """The updates a client that saw version `since` missed, if every patch its
        audiences need is still kept (else None: it needs full views)."""
        version = self.game.version
        if since == version:
            return []
        if not 0 <= since < version:
            return None
        auds = audience_list(seats)
        rings = []
        for aud in auds:
            ring = self.patches.get(aud)
            if not ring or ring[0][0] > since + 1 or ring[-1][0] != version:
                return None
            rings.append(dict(ring))
        out = []
        for v in range(since + 1, version + 1):
            step = self.game.history[v - 1]
            views = {
                audience_key(a): '{"patch":' + ring[v] + "}"
                for a, ring in zip(auds, rings, strict=True)
            }
            out.append(self._update_text(step, seats, views))
        return out

    # --- telling everyone -----------------------------------------------------------------
    def publish(self, step: Step) -> None:
        """Work out each watched audience's new view and patch, and push the update."""
        wanted = self.forget_views()  # nobody watches the rest: the buffer has no gaps
        parts: dict[int | None, str] = {}
        for aud in wanted:
            new = self.game.view_for(aud)
            old = self.views.get(aud)
            ring = self.patches.setdefault(aud, deque(maxlen=self.replay_buffer))
            if old is not None and old[0] == step.version - 1:
                ops = compact(diff(old[1], new))
                ring.append((step.version, ops))
                parts[aud] = '{"patch":' + ops + "}"
            else:
                ring.clear()
                parts[aud] = '{"full":' + compact(new) + "}"
            self.views[aud] = (step.version, new)
        cache: dict[frozenset[int], str] = {}
        for c in list(self.clients):
            text = cache.get(c.seats)
            if text is None:
                views = {audience_key(a): parts[a] for a in audience_list(c.seats)}
                text = self._update_text(step, c.seats, views)
                cache[c.seats] = text
            c.push(text)

    def _update_text(self, step: Step, seats: frozenset[int], views: dict[str, str]) -> str:
        head = compact(
            {
                "type": "update",
                "version": step.version,
                "kind": step.kind,
                "seat": step.seat,
                "status": self.game.row.status,
                **({"clock": clock_json(self.game.row)} if self.game.row.clock else {}),
                **({"bot": step.bot} if step.bot else {}),
            }
        )
        body = ",".join(f"{compact(k)}:{v}" for k, v in views.items())
        undo = compact(self.game.undo_flags(seats))
        return (
            head[:-1]
            + ',"can_undo":'
            + undo
            + ',"events":'
            + join_events(step, seats)
            + ',"views":{'
            + body
            + "}}"
        )

    def broadcast(self, message: dict[str, Any]) -> None:
        text = compact(message)
        for c in list(self.clients):
            c.push(text)

    def game_changed(self) -> None:
        """Seats or status changed: every client gets the game's new meta."""
        self.broadcast({"type": "game", "game": self.meta()})

    def noted(self, note: Note) -> None:
        """Something happened between versions (notes.py): every client is told."""
        self.broadcast({"type": "note", "note": note.to_json()})

    def said(self, row: ChatRow) -> None:
        """A chat line stored (here or by another server): every client hears it but
        those signed in to an account on either side of a block with its speaker's."""
        self.chat_seen = max(self.chat_seen, row.seq)
        text = compact({"type": "chat", "message": chat_json(row)})
        for c in list(self.clients):
            if row.heard_by(account_of(c)):
                c.push(text)

    # --- memory ---------------------------------------------------------------------------
    def watched(self, now: float | None = None) -> set[int | None]:
        """Audiences with a client, or whose last client left only moments ago."""
        out: set[int | None] = set()
        for c in self.clients:
            if c.seats:
                out.update(c.seats)
            else:
                out.add(None)
        if self.left:
            now = time.monotonic() if now is None else now
            out.update(a for a, t in self.left.items() if now - t < RECONNECT_GRACE)
        return out

    def forget_views(self, now: float | None = None) -> set[int | None]:
        """Drop the views and patches of audiences nobody has watched for a while
        (memory, and time the garbage collector would spend on them); returns the
        audiences still watched."""
        now = time.monotonic() if now is None else now
        watched = self.watched(now)
        for aud in list(self.views):
            if aud not in watched:
                del self.views[aud]
                self.patches.pop(aud, None)
                self.left.pop(aud, None)
        return watched
