"""What one process tells the others of a change it stored: the kinds, written once.

A signal names what changed, not the change: a process that hears one reads what it
holds again (a room's log or seats, a chat, the quick-match pool, presence, an
account). The one exception is a new version, whose log entry rides along (a few dozen
bytes, far below `NOTIFY`'s 8000) so that other servers need not read it back.

The wire form is a short JSON object (`t` kind, `g` game, `o` origin, `u` account and
the entry's `v s k x b`), the same on PostgreSQL's channel and in SQLite's `signals`
table; a payload this process sent, or one that does not parse, is not heard.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from euphrates.server.store.rows import LogRow

CHANNEL = "euphrates"


class SignalKind(StrEnum):
    LOG = "log"
    """A version was appended to a game's log (the entry rides along)."""
    SEATS = "seats"
    """A game's row changed: its seats, status or clock, or a note was written."""
    CHAT = "chat"
    """A chat line was said at a game."""
    CLAIM = "claim"
    """A server claimed a game: it drives it now (its bots, its deadline)."""
    QUICKMATCH = "qm"
    """The quick-match pool changed (someone joined, left or was paired)."""
    PRESENCE = "presence"
    """A server's presence marks changed."""
    ACCOUNT = "account"
    """An account was disabled, enabled, muted, unmuted or deleted."""
    TOURNAMENT = "tournament"
    """A tournament changed (entrants, a round, a table's result); `game` names it."""
    FRIENDS = "friends"
    """An invitation to a seat was made, withdrawn or declined (features/friends)."""


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    game: str = ""
    entry: LogRow | None = None
    account: int | None = None

    def payload(self, origin: str) -> str:
        doc: dict[str, object] = {"t": self.kind.value, "g": self.game, "o": origin}
        if self.account is not None:
            doc["u"] = self.account
        if self.entry is not None:
            e = self.entry
            doc.update(v=e.version, s=e.seat, k=e.kind, x=e.text, b=e.bot)
        return json.dumps(doc, separators=(",", ":"))

    @classmethod
    def parse(cls, payload: str, origin: str) -> Signal | None:
        """Another process's signal; None for this process's own or a malformed one."""
        try:
            msg = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(msg, dict) or msg.get("o") == origin:
            return None
        game, kind = msg.get("g"), msg.get("t")
        if not isinstance(game, str) or not isinstance(kind, str):
            return None
        try:
            known = SignalKind(kind)
        except ValueError:
            return None
        account = msg.get("u")
        if not (isinstance(account, int) and not isinstance(account, bool)):
            account = None
        entry = None
        version = msg.get("v")
        if (
            known is SignalKind.LOG
            and isinstance(version, int)
            and not isinstance(version, bool)
            and msg.get("k") in ("action", "undo")
        ):
            seat, text = msg.get("s"), msg.get("x")
            seat_ok = seat is None or (isinstance(seat, int) and not isinstance(seat, bool))
            if seat_ok and (text is None or isinstance(text, str)):
                bot = msg.get("b") if isinstance(msg.get("b"), str) else None
                entry = LogRow(version, seat, msg["k"], text, bot)
        return cls(known, game, entry, account)
