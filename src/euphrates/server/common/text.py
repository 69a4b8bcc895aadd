"""What people write at a table: names and chat lines, checked and normalised.

Clients show both as text, never as HTML, so markup is harmless and kept. Refused are
only characters that are not text or that change how the text around them reads:
controls (category Cc: a bell, an escape sequence, a line break), the bidirectional
overrides and isolates (U+202A–U+202E, U+2066–U+2069) that can make a line display
backwards, and lone surrogates, which no database stores. Everything else people type
stays — joined emoji (👨‍👩‍👧 holds ZERO WIDTH JOINERs), narrow no-break spaces,
every script — normalised to NFC so that one letter is stored one way.
"""

from __future__ import annotations

import re
import unicodedata

from euphrates.server.common.refusals import Refusal

BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
_SPACES = re.compile(r"\s{2,}")


def _forbidden(ch: str) -> bool:
    return ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs")


def _visible(text: str) -> bool:
    """Whether anything would show: a letter, digit, punctuation or symbol."""
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in text)


def clean_name(name: object, limit: int) -> str:
    """A seat's name: NFC, trimmed, runs of spaces made one."""
    if not isinstance(name, str):
        raise Refusal("bad_request", "a name must be text")
    if any(_forbidden(ch) for ch in name):
        raise Refusal("bad_request", "a name cannot hold control or direction characters")
    text = _SPACES.sub(" ", unicodedata.normalize("NFC", name).strip())
    if not _visible(text) or len(text) > limit:
        raise Refusal("bad_request", f"a name is 1 to {limit} characters, not only spaces")
    return text


def clean_chat(text: object, limit: int) -> str:
    """A chat line: NFC and trimmed; refused if empty, too long or with control or
    direction characters."""
    if not isinstance(text, str):
        raise Refusal("chat_refused", "a chat message is text")
    if any(_forbidden(ch) for ch in text):
        raise Refusal("chat_refused", "a chat message cannot hold control or direction characters")
    stripped = unicodedata.normalize("NFC", text).strip()
    if not _visible(stripped):
        raise Refusal("chat_refused", "a chat message cannot be empty")
    if len(stripped) > limit:
        raise Refusal("chat_refused", f"a chat message is at most {limit} characters")
    return stripped


REASON_MAX = 500
"""The longest reason a report keeps (its column's size)."""


def clean_reason(text: str) -> str:
    """Why a player reports a line or a player, for an admin to read: whatever they
    wrote is taken (a report is not refused for how it is worded), its line breaks and
    control or direction characters made spaces, NFC, at most REASON_MAX characters."""
    plain = "".join(" " if _forbidden(ch) else ch for ch in text)
    return _SPACES.sub(" ", unicodedata.normalize("NFC", plain)).strip()[:REASON_MAX]


DELETED_PREFIX = "deleted-"
"""How a deleted account is shown (names starting so are reserved)."""


def name_key(name: str) -> str:
    """What two account names are compared by (NFKC of the casefold, so `Ann`, `ANN`
    and `Ａｎｎ` are one account): one account per key."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFC", name).casefold())
