"""The words of the messages sent out of the browser, in English and German.

A turn's message says exactly three things: which game (its kind), whose turn it is
(the seat's name, as the table shows it) and the game's link, which the account opens
without a token. Nothing of the game itself (no score, no hand, no move), nobody
else's address or token. A digest lists such games; the verification and the test
messages name the server and, for verification, the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from euphrates.words.book import book

LANGS = ("en", "de")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "turn.subject": "Your turn: {game}",
        "turn.text": "{name}, it is your turn in {game}: {link}",
        "digest.subject": "Your turn in {count} games",
        "digest.head": "{name}, it is your turn in these games:",
        "digest.line": "{game}: {link}",
        "verify.subject": "Your code for {server}",
        "verify.text": (
            "Your code: {code}\n\nEnter it in your account's notification settings, or "
            "open {link} while signed in. Until then nothing is sent to this address.\n\n"
            "If you did not ask for this, ignore this message."
        ),
        "test.subject": "A test message from {server}",
        "test.text": "{name}, turn messages from {server} reach you here.",
    },
    "de": {
        "turn.subject": "Du bist am Zug: {game}",
        "turn.text": "{name}, du bist am Zug in {game}: {link}",
        "digest.subject": "Du bist in {count} Spielen am Zug",
        "digest.head": "{name}, in diesen Spielen bist du am Zug:",
        "digest.line": "{game}: {link}",
        "verify.subject": "Dein Code für {server}",
        "verify.text": (
            "Dein Code: {code}\n\nGib ihn in den Benachrichtigungen deines Kontos ein oder "
            "öffne {link}, angemeldet. Bis dahin geht nichts an diese Adresse.\n\n"
            "Wenn du das nicht angefordert hast, übergehe diese Nachricht."
        ),
        "test.subject": "Eine Testnachricht von {server}",
        "test.text": "{name}, Zug-Nachrichten von {server} erreichen dich hier.",
    },
}


@dataclass(frozen=True)
class Message:
    subject: str
    text: str


def _w(lang: str, key: str, **values: object) -> str:
    return WORDS[lang if lang in WORDS else "en"][key].format(**values)


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
