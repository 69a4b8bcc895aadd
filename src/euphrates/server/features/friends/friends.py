"""Friends and members: following a player by name, seeing who of them is online and
which of their games one may watch, and inviting a member by name to a free seat.

**Following** needs no consent (as on Board Game Arena) and tells the followed player
nothing: no message, no notification, so following and unfollowing again and again
sends nobody anything. It shows whether they are online (presence, across servers)
and the games they play that anyone may watch (being played, or an open table).

**Blocks win.** If either of two accounts blocked the other, neither sees the other
through a follow: a follow across a block shows the player away, with no games — as it
shows anyone away, so the one blocked learns nothing of the block. Following someone
you block is refused (you know your own block); following someone who blocks you is
taken and shows nothing, since refusing it would tell. Invitations between them are
refused both ways, and one made before the block no longer stands.

**Inviting** is the host's (an open table's creator by the account, or whoever holds
the host's link, signed in): a free seat of a game still waiting, to an account by
name. The guest sees it live in the lobby and gets a message on the channels they turned
on (features/notifications). No token changes hands: accepting seats the guest's
account through the room (game/seating.py, `sit_invited`), whose seat rules apply — a
rated table's, fair play's aborts — and takes the invitation in the seat's own
transaction, so it is taken once. It ends when its seat is taken, its game starts,
ends or expires, when the host withdraws it or the guest declines it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from euphrates.server.common import tokens
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.notifications import texts as notify_text
from euphrates.server.features.notifications.notifier import Notifier
from euphrates.server.features.presence.presence import Presence
from euphrates.server.game import lifecycle
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.database import Database, now
from euphrates.server.store.friends import FriendStore, Invitation, Playing, Stored
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.notices import Claimed, Context

FOLLOWS = 500
"""Players one account may follow."""
INVITES_PER_HOUR = 30
"""Invitations one account may make an hour (whatever became of them)."""
GAMES_SHOWN = 5
"""A followed player's games shown, the most recently changed."""
GAMES_READ = 2000
"""Games read at most for one panel's players (or a burst of lobbies')."""
NOT_INVITED = "this player cannot be invited to your table"
"""The one refusal for every reason an account may not be invited that is the
invited's own business (a block either way, a disabled account): it tells nothing."""


def _invitation_out(i: Invitation) -> dict[str, Any]:
    """An invitation as its guest sees it: who, which table, which seat (from 0), the
    table's page — never a token."""
    return {
        "id": i.id,
        "host": i.host,
        "game": i.game,
        "players": i.players,
        "seat": i.seat,
        "rated": i.rated,
        "open": i.open,
        "clock": i.clock,
        "link": f"/g/{i.game_id}",
        "created": i.created_at.isoformat(),
    }


def _sent_out(i: Invitation) -> dict[str, Any]:
    """An invitation as its host sees it: whom, which table and seat."""
    return {
        "id": i.id,
        "name": i.user,
        "game": i.game,
        "players": i.players,
        "seat": i.seat,
        "link": f"/g/{i.game_id}",
        "created": i.created_at.isoformat(),
    }


def _game_out(p: Playing) -> dict[str, Any]:
    return {
        "id": p.game_id,
        "game": p.game,
        "players": p.players,
        "status": p.status,
        "rated": p.rated,
        "link": f"/g/{p.game_id}",
    }


@dataclass
class Panel:
    """One account's friends as its lobby shows them (`doc`), with the accounts it
    follows and the games it names: which changes concern it (live.py)."""

    doc: dict[str, Any]
    follows: set[int]
    games: set[str]


class Friends:
    def __init__(
        self, database: Database, rooms: Rooms, presence: Presence, notifier: Notifier
    ) -> None:
        self.store = FriendStore(database)
        self.accounts = AccountStore(database)
        self.blocks = ModerationStore(database)
        self.rooms = rooms
        self.presence = presence
        self.notifier = notifier
        self.follow_limit = FOLLOWS
        self.invites_per_hour = INVITES_PER_HOUR
        self.listeners: list[Callable[[], None]] = []
        """Told of each change made in this process (live.py tells the lobbies)."""
        notifier.kinds["invite"] = self.message

    def _changed(self) -> None:
        for listen in self.listeners:
            listen()

    def since(self) -> datetime:
        """How old an invitation, and the last change of its game, may be: a game
        waits that long (`--expire-waiting`), and so does an invitation."""
        return now() - timedelta(seconds=self.rooms.settings.waiting_expiry)

    async def _player(self, name: str) -> User:
        found = await self.accounts.find(name) if name.isprintable() else None
        if found is None:
            raise Refusal("unknown_user", "no such player")
        return found[0]

    async def _apart(self, a: int, b: int) -> bool:
        """Whether either of two accounts blocked the other."""
        return bool(await self.store.blocked([a, b]))

    # --- following ------------------------------------------------------------------
    async def follow(self, user: User, name: str) -> None:
        target = await self._player(name)
        if target.id == user.id:
            raise Refusal("follow_refused", "you cannot follow yourself")
        if await self.blocks.blocks(user.id, target.id):
            raise Refusal("follow_refused", "you block this player: unblock them to follow them")
        await self.store.follow(user.id, target.id, self.follow_limit)
        self._changed()

    async def unfollow(self, user: User, name: str) -> None:
        target = await self._player(name)
        await self.store.unfollow(user.id, target.id)
        self._changed()

    async def panels(self, user_ids: list[int]) -> dict[int, Panel]:
        """What each account's lobby shows of its friends, read together for all of
        them: the players it follows (online first, each with the games one may
        watch), the invitations it received and those it made that still stand."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        since = self.since()
        follows = await self.store.following(ids)
        received = await self.store.standing(since, users=ids)
        sent = await self.store.standing(since, hosts=ids)
        pairs = [(f.follower, f.user_id) for f in follows]
        pairs += [(i.host_id, i.user_id) for i in [*received, *sent]]
        involved = {x for p in pairs for x in p}
        apart = await self.store.blocked(involved)
        seen = {f.user_id for f in follows if frozenset((f.follower, f.user_id)) not in apart}
        games: dict[int, list[dict[str, Any]]] = {}
        for p in await self.store.playing(seen, since, GAMES_READ):
            shown = games.setdefault(p.user_id, [])
            if len(shown) < GAMES_SHOWN:
                shown.append(_game_out(p))
        out = {i: Panel({"players": [], "received": [], "sent": []}, set(), set()) for i in ids}
        for f in follows:
            visible = f.user_id in seen and frozenset((f.follower, f.user_id)) not in apart
            out[f.follower].follows.add(f.user_id)
            out[f.follower].doc["players"].append(
                {
                    "name": f.name,
                    "online": visible and self.presence.online(f.user_id),
                    "since": f.since.isoformat(),
                    "games": games.get(f.user_id, []) if visible else [],
                }
            )
        for i in received:
            if frozenset((i.host_id, i.user_id)) not in apart:
                out[i.user_id].doc["received"].append(_invitation_out(i))
        for i in sent:
            if frozenset((i.host_id, i.user_id)) not in apart:
                out[i.host_id].doc["sent"].append(_sent_out(i))
        for panel in out.values():
            panel.doc["players"].sort(key=lambda p: (not p["online"], p["name"].casefold()))
            shown = [g for p in panel.doc["players"] for g in p["games"]]
            panel.games = {
                str(x["link"])[3:] for x in [*shown, *panel.doc["received"], *panel.doc["sent"]]
            }
        return out

    async def panel(self, user: User) -> dict[str, Any]:
        return (await self.panels([user.id]))[user.id].doc

    # --- inviting -----------------------------------------------------------------------
    async def invite(
        self, room: Room, host: bool, user: User, name: str, seat: int
    ) -> dict[str, Any]:
        """`user`, the host of `room`, invites the account `name` to `seat`."""
        if not host:
            raise Refusal("not_host", "only the table's host invites players to it")
        room.check(lifecycle.SIT)
        row = room.row
        if not 0 <= seat < row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        entry = row.seats[seat]
        if entry.kind != "human" or entry.taken or entry.user_id is not None:
            raise Refusal("seat_taken", f"seat {seat + 1} is not free")
        guest = await self._player(name)
        if guest.id == user.id:
            raise Refusal("invite_refused", "you cannot invite yourself")
        if guest.disabled or await self._apart(user.id, guest.id):
            raise Refusal("invite_refused", NOT_INVITED)
        if any(s.user_id == guest.id for s in row.seats):
            raise Refusal("already_seated", "this player sits at this table already")
        made = Invitation(
            id=tokens.new_game_id(),
            game_id=row.id,
            game=row.game,
            players=row.players,
            seat=seat,
            rated=row.rated,
            open=row.open,
            clock=None,
            host_id=user.id,
            host=user.name,
            user_id=guest.id,
            user=guest.name,
            created_at=now(),
        )
        try:
            queued = await self.store.invite(
                made, self.invites_per_hour, self.since(), self.notifier.mailer is not None
            )
        except Refusal:
            raise
        except Exception as e:
            raise Refusal("storage_unavailable", f"the invitation was not saved: {e}") from None
        if queued:
            self.notifier.soon()
        self._changed()
        return _sent_out(made)

    async def of_game(self, room: Room, host: bool) -> list[dict[str, Any]]:
        """The invitations to a table that still stand, for its host."""
        if not host:
            raise Refusal("not_host", "only the table's host sees whom it invited")
        return [_sent_out(i) for i in await self.store.standing(self.since(), game_id=room.id)]

    async def _mine(self, user: User, invitation_id: str, as_host: bool) -> Stored:
        """An invitation of `user`'s (as its host or its guest). Anyone else's is
        refused as none: nobody learns it exists."""
        found = await self.store.stored(invitation_id)
        if found is None or (found.host_id if as_host else found.user_id) != user.id:
            raise Refusal("unknown_invitation", "you have no such invitation")
        return found

    async def accept(self, user: User, invitation_id: str) -> dict[str, Any]:
        """`user` takes the seat they were invited to, for their account."""
        found = await self._mine(user, invitation_id, as_host=False)
        if found.state != "pending":
            raise Refusal("invitation_ended", f"this invitation was {found.state}")
        if await self._apart(user.id, found.host_id):
            raise Refusal("invite_refused", "this invitation cannot be taken")
        room = await self.rooms.room(found.game_id)
        if not await self.store.standing(self.since(), invitation_id=invitation_id):
            # its game or seat changed: the room says how (started, taken, expired) …
            room.check(lifecycle.SIT)
            if room.row.seats[found.seat].taken:
                raise Refusal("seat_taken", f"seat {found.seat + 1} was taken by someone else")
            # … or it waited too long itself
            raise Refusal("invitation_ended", "this invitation is too old: ask for a new one")
        seats = await room.sit_invited(user, found.seat, self.store.accepted(invitation_id))
        self._changed()
        return {"game": found.game_id, "seats": seats, "link": f"/g/{found.game_id}"}

    async def decline(self, user: User, invitation_id: str) -> None:
        await self._end(user, invitation_id, "declined", as_host=False)

    async def withdraw(self, user: User, invitation_id: str) -> None:
        await self._end(user, invitation_id, "withdrawn", as_host=True)

    async def _end(self, user: User, invitation_id: str, state: str, as_host: bool) -> None:
        found = await self._mine(user, invitation_id, as_host)
        if found.state != "pending" or not await self.store.end(invitation_id, state):
            raise Refusal("invitation_ended", f"this invitation was {found.state} already")
        self._changed()

    # --- its message ----------------------------------------------------------------
    async def message(self, c: Claimed, ctx: Context, base: str) -> notify_text.Message | None:
        """An invitation's message, if it still stands when it is sent (Notifier.kinds)."""
        invitation_id = c.key.split(":", 1)[1]
        found = await self.store.standing(self.since(), invitation_id=invitation_id)
        if not found or found[0].user_id != c.user_id:
            return None
        i = found[0]
        if await self._apart(i.host_id, i.user_id):
            return None
        return notify_text.invite(
            ctx.name, i.host, i.game, i.players, i.seat, i.rated, base, ctx.prefs.lang
        )
