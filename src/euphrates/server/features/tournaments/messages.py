"""An entrant's word out of the browser that their game of a round has begun (mail,
webhook: the account's own choices), queued in the transaction that starts the round —
so once, whichever server started it — and sent only if the game is still being
played when its turn to go out comes."""

from __future__ import annotations

import json

from euphrates.server.features.notifications import texts as notify_text
from euphrates.server.features.notifications.notifier import Notifier
from euphrates.server.game import lifecycle
from euphrates.server.store.games import GameStore
from euphrates.server.store.notices import Claimed, Context


class Messages:
    """The kind "tournament" of the notifier's messages (queued by the store's claim,
    store/tournaments.py)."""

    def __init__(self, notifier: Notifier, games: GameStore) -> None:
        self.notifier = notifier
        self.games = games

    async def message(self, c: Claimed, ctx: Context, base: str) -> notify_text.Message | None:
        """An entrant's message, if their game is still being played when it is sent."""
        if c.game_id is None or c.payload is None:
            return None
        row = await self.games.load_game(c.game_id)
        if row is None or row.status != lifecycle.Status.ACTIVE:
            return None
        doc = json.loads(c.payload)
        lang = ctx.prefs.lang
        opponents = [
            notify_text.bot_word(o[4:], lang) if o.startswith("bot:") else o
            for o in doc["opponents"]
        ]
        return notify_text.tournament_game(
            ctx.name,
            doc["tournament"],
            int(doc["round"]),
            doc["game"],
            opponents,
            f"{base}/g/{c.game_id}",
            lang,
        )
