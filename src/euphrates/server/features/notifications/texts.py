"""The words of the messages sent out of the browser, in every language of the book
(the `mail` part of web/words/<lang>/).

A turn's message says exactly three things: which game (its kind), whose turn it is
(the seat's name, as the table shows it) and the game's link, which the account opens
without a token. Nothing of the game itself (no score, no hand, no move), nobody
else's address or token. A digest lists such games; the verification and the test
messages name the server and, for verification, the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from euphrates.words.book import LANGS, book, format, read_part


@cache
def _mail(lang: str) -> dict[str, str]:
    return read_part(lang, "mail")


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
    """One game where it is a seat's turn, as a message may name it."""

    game_id: str
    game: str
    name: str


def turn(item: TurnGame, base: str, lang: str) -> Message:
    game = game_name(item.game, lang)
    link = f"{base}/g/{item.game_id}"
    return Message(
        _w(lang, "turn.subject", game=game),
        _w(lang, "turn.text", name=item.name, game=game, link=link),
    )


def digest(name: str, items: Sequence[TurnGame], base: str, lang: str) -> Message:
    lines = [_w(lang, "digest.head", name=name)]
    lines += [
        _w(lang, "digest.line", game=game_name(i.game, lang), link=f"{base}/g/{i.game_id}")
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
