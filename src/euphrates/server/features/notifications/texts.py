"""The words of the messages sent out of the browser, in every language of the book
(the `mail` part of web/words/<lang>/).

A turn's message says which table waits, so that a player in several games of one
kind can tell them apart: the game's kind, the opponents (as the table names them: a
person's name, a bot's level) and the number of the decision waiting, then whose turn
it is (the seat's name) and the game's link, which the account opens without a token.
Nothing of the game's play itself (no score, no hand, no move), nobody's address or
token. A digest lists such games, each named alike; the verification and the test
messages name the server and, for verification, the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from euphrates.words.book import LANGS, book, format, read_part


@cache
def _mail(lang: str) -> dict[str, str]:
    return read_part(lang, "mail")


@cache
def _pages(lang: str) -> dict[str, str]:
    """The pages' texts: the bots' levels by name, as the tables say them."""
    return read_part(lang, "pages")


@dataclass(frozen=True)
class Message:
    subject: str
    text: str


def _w(lang: str, key: str, **values: object) -> str:
    lang = lang if lang in LANGS else "en"
    return format(_mail(lang)[f"mail.{key}"], values, lang)


def game_name(game: str, lang: str) -> str:
    """A game's title in `lang`, as the book of words has it (`term.title.<game>`)."""
    key = f"term.title.{game}"
    title = book(lang if lang in LANGS else "en").t(key)
    return game if title == key else title


@dataclass(frozen=True)
class TurnGame:
    """One game where it is a seat's turn, as a message names it: `opponents` the
    other seats, each (a person's name, a bot's level); `move` the decision waiting,
    counted from 1. A message queued without them (before they were kept) names the
    game's kind alone."""

    game_id: str
    game: str
    name: str
    opponents: tuple[tuple[str | None, str | None], ...] = ()
    move: int | None = None

    @classmethod
    def from_json(cls, item: Sequence[Any]) -> TurnGame:
        """A digest's stored entry: [id, game, name] or [id, game, name, opponents, move]."""
        opponents = tuple((o[0], o[1]) for o in item[3]) if len(item) > 3 else ()
        move = int(item[4]) if len(item) > 4 and item[4] is not None else None
        return cls(str(item[0]), str(item[1]), str(item[2]), opponents, move)


def _opponent(lang: str, who: tuple[str | None, str | None]) -> str:
    name, level = who
    if level is not None:
        level_word = _pages(lang).get(f"level.{level}", level)
        return _w(lang, "bot", level=level_word)
    return name or _w(lang, "someone")


def bot_word(level: str, lang: str) -> str:
    """A bot opponent in the message's words: "a bot (beginner)"."""
    return _opponent(lang if lang in LANGS else "en", (None, level))


def _table(item: TurnGame, lang: str) -> str:
    """ " with Bob and a bot (strong), move 12": which table, in the message's words."""
    if not item.opponents or item.move is None:
        return ""
    names = [_opponent(lang, o) for o in item.opponents]
    and_ = book(lang).t("log.and")
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])}{and_}{names[-1]}"
    return _w(lang, "table", opponents=listed, move=item.move)


def turn(item: TurnGame, base: str, lang: str) -> Message:
    lang = lang if lang in LANGS else "en"
    game = game_name(item.game, lang)
    link = f"{base}/g/{item.game_id}"
    table = _table(item, lang)
    return Message(
        _w(lang, "turn.subject", game=game, table=table),
        _w(lang, "turn.text", name=item.name, game=game, table=table, link=link),
    )


def digest(name: str, items: Sequence[TurnGame], base: str, lang: str) -> Message:
    lang = lang if lang in LANGS else "en"
    lines = [_w(lang, "digest.head", name=name)]
    lines += [
        _w(
            lang,
            "digest.line",
            game=game_name(i.game, lang),
            table=_table(i, lang),
            link=f"{base}/g/{i.game_id}",
        )
        for i in items
    ]
    return Message(_w(lang, "digest.subject", count=len(items)), "\n".join(lines))


def verify(code: str, server: str, link: str, lang: str) -> Message:
    return Message(
        _w(lang, "verify.subject", server=server),
        _w(lang, "verify.text", code=code, link=link),
    )


def test(name: str, server: str, lang: str) -> Message:
    return Message(
        _w(lang, "test.subject", server=server),
        _w(lang, "test.text", name=name, server=server),
    )


def tournament_game(
    name: str, tournament: str, round: int, game: str, opponents: list[str], link: str, lang: str
) -> Message:
    """An entrant's game of a tournament's round has begun: the tournament, the round,
    the game and the opponents (bots by their level's word), and the table's page —
    the account opens its seat, no token is sent."""
    lang = lang if lang in LANGS else "en"
    values = {"name": name, "tournament": tournament, "round": round}
    return Message(
        _w(lang, "tournament.subject", **values),
        _w(
            lang,
            "tournament.text",
            **values,
            game=game_name(game, lang),
            opponents=", ".join(opponents),
            link=link,
        ),
    )


def invite(
    name: str, host: str, game: str, players: int, seat: int, rated: bool, base: str, lang: str
) -> Message:
    """A host invites `name` to a seat (counted from 0) of a waiting table: the game's
    kind, its players, the seat and whether it is rated; the link is the lobby's,
    where the invitation is accepted or declined — never the seat's token."""
    lang = lang if lang in LANGS else "en"
    title = game_name(game, lang)
    return Message(
        _w(lang, "invite.subject", host=host, game=title),
        _w(
            lang,
            "invite.text",
            name=name,
            host=host,
            game=title,
            players=players,
            seat=seat + 1,
            rated=_w(lang, "invite.rated") if rated else "",
            link=f"{base}/",
        ),
    )
