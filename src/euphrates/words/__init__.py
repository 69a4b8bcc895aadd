"""What the game says about events and decisions, in English and German: the book of
words (`web/words/`, shared with the browser), its syntax, and events and decisions
worded for one viewer.

It reads events and decision contexts as JSON and imports no engine, so anything above
the engines (the terminal, a server) may use it.
"""

from euphrates.words.book import LANGS, Book, book, format, lang_from_env
from euphrates.words.events import KINDS, Told, describe, tell
from euphrates.words.voice import Voice

__all__ = [
    "KINDS",
    "LANGS",
    "Book",
    "Told",
    "Voice",
    "book",
    "describe",
    "format",
    "lang_from_env",
    "tell",
]
