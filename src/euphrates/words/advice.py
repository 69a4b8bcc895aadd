"""A move said as advice, in words, never in notation: "Fight the war of the priests
first", "Play a red card on column 2", for every decision kind of both games (the
notation: docs/board.md and docs/cards.md, Actions). The hints say their move so, and the
review names a move, its better one and why (`review.why.*`) so.

It reads the action's text and nothing of an engine (this layer reads no engine); the
words are the book's part `hints` (`advice.*`, `review.*`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from euphrates.words.book import LANGS, book
from euphrates.words.voice import LETTER_COLOUR, LETTER_LEADER, Voice, spot_words

_BOARD_TILE = re.compile(r"([rbgk])([A-P](?:[1-9]|1[01]))")
_BOARD_LEADER = re.compile(r"([PFTK])([A-P](?:[1-9]|1[01]))")
_BOARD_WITHDRAW = re.compile(r"([PFTK])-")
_BOARD_CATASTROPHE = re.compile(r"x([A-P](?:[1-9]|1[01]))")
_SWAP = re.compile(r"swap ([rbgk]+)")
_COMMIT = re.compile(r"commit (\d+)")
_WAR = re.compile(r"war ([rbgk])")
_MONUMENT = re.compile(r"monument ([rbgk])([rbgk]) ([A-P](?:[1-9]|1[01]))")
_TREASURE = re.compile(r"treasure ([A-P](?:[1-9]|1[01]))")
_CARD = re.compile(r"([rbgk])([1-8])")
_BRIDGE = re.compile(r"([rbgk])([1-7])-([2-8])")
_CARD_LEADER = re.compile(r"([PFTK])([1-8]\.[0-8]|[1-7]-[2-8])")
_CARD_CATASTROPHE = re.compile(r"x([1-8]\.[0-8]|[1-7]-[2-8])")
_POINT = re.compile(r"point ([rbgk])")
_EXCHANGE = re.compile(r"exchange ([1-8])")
_SHIP = re.compile(r"ship (b[rgk])")

LEADER_OF_COLOUR = {"r": "priest", "b": "farmer", "g": "trader", "k": "king"}


def _colour(v: Voice, letter: str) -> str:
    return v.t(f"advice.colour.{LETTER_COLOUR[letter]}")


def _leaders(v: Voice, letter: str) -> str:
    return v.t(f"advice.of.{LEADER_OF_COLOUR[letter]}")


def _commit(v: Voice, game: str, n: int, context: Mapping[str, Any]) -> str:
    if n == 0:
        return v.t("advice.commit_none")
    colour = context.get("commit_colour") or context.get("colour") or "red"
    letter = {name: letter for letter, name in LETTER_COLOUR.items()}.get(str(colour), "r")
    return v.t(_COMMIT_KEY[game], n=n, colour=_colour(v, letter))


def _swap(v: Voice, letters: str) -> str:
    parts = [
        v.t("advice.swap_part", n=letters.count(c), colour=_colour(v, c))
        for c in "rbgk"
        if c in letters
    ]
    return v.t("advice.swap", n=len(letters), list=", ".join(parts))


def _board(v: Voice, text: str) -> str | None:
    """A board move; its square is "the marked square": the board shows no coordinates,
    so the table lights the square the advice names (the hint lights its places, the
    replay the better move's)."""
    square = v.t("advice.square")
    if m := _BOARD_TILE.fullmatch(text):
        return v.t("advice.tile", colour=_colour(v, m[1]), square=square)
    if m := _BOARD_LEADER.fullmatch(text):
        leader = v.t(f"leader_acc.{LETTER_LEADER[m[1]]}")
        return v.t("advice.leader", leader=leader, square=square)
    if m := _BOARD_WITHDRAW.fullmatch(text):
        return v.t("advice.withdraw", leader=v.t(f"leader_acc.{LETTER_LEADER[m[1]]}"))
    if _BOARD_CATASTROPHE.fullmatch(text):
        return v.t("advice.catastrophe", square=square)
    if m := _SWAP.fullmatch(text):
        return _swap(v, m[1])
    if m := _MONUMENT.fullmatch(text):
        return v.t("advice.monument", a=_colour(v, m[1]), b=_colour(v, m[2]), square=square)
    if text == "decline":
        return v.t("advice.monument_none")
    if _TREASURE.fullmatch(text):
        return v.t("advice.treasure", square=square)
    return None


def _cards(v: Voice, text: str) -> str | None:
    if m := _CARD.fullmatch(text):
        return v.t("advice.cards.card", colour=_colour(v, m[1]), col=int(m[2]))
    if m := _BRIDGE.fullmatch(text):
        return v.t("advice.cards.bridge", colour=_colour(v, m[1]), a=int(m[2]), b=int(m[3]))
    if m := _CARD_LEADER.fullmatch(text):
        leader = v.t(f"leader_acc.{LETTER_LEADER[m[1]]}")
        return v.t("advice.cards.leader", leader=leader, spot=spot_words(v, m[2]))
    if m := _CARD_CATASTROPHE.fullmatch(text):
        return v.t("advice.catastrophe", square=spot_words(v, m[1]))
    if m := _POINT.fullmatch(text):
        return v.t("advice.cards.point", colour=_colour(v, m[1]))
    if text == "point none":
        return v.t("advice.cards.point_none")
    if m := _EXCHANGE.fullmatch(text):
        return v.t("advice.cards.exchange", col=int(m[1]))
    if text == "exchange none":
        return v.t("advice.cards.exchange_none")
    if m := _SHIP.fullmatch(text):
        return v.t("advice.cards.ship", ship=v.t(f"cards.ship.{m[1]}"))
    if text == "decline":
        return v.t("advice.cards.ship_none")
    return None


_SAY: dict[str, Callable[[Voice, str], str | None]] = {"board": _board, "cards": _cards}
"""Each game's moves of its own, by the game's name."""
_COMMIT_KEY = {"board": "advice.commit", "cards": "advice.cards.commit"}
"""What a game commits: tiles on the board, cards at the table."""


def advice(v: Voice, game: str, action: str, context: Mapping[str, Any] | None = None) -> str:
    """`action` (its notation) said as advice to the seat deciding; `context` is the
    decision's public context (a commitment's colour). A text it cannot read is said as
    a move of its own ("the move …"), never left bare."""
    context = context or {}
    text = action.strip()
    if text == "pass":
        return v.t("advice.pass")
    if m := _COMMIT.fullmatch(text):
        return _commit(v, game, int(m[1]), context)
    if m := _WAR.fullmatch(text):
        return v.t("advice.war", leaders=_leaders(v, m[1]))
    said = _SAY[game](v, text)
    return said if said is not None else v.t("advice.other", move=text)


def in_every_language(
    game: str, action: str, context: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """The advice in each language of the book, by language."""
    return {lang: advice(Voice(book(lang), None), game, action, context) for lang in LANGS}


def review_words(
    game: str,
    action: str,
    context: Mapping[str, Any] | None,
    better: str | None,
    why: Mapping[str, Any] | None,
) -> dict[str, dict[str, str]]:
    """A review row's words in each language: the move, the better move, and why."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        v = Voice(book(lang), None)
        words = {"move": advice(v, game, action, context)}
        if better is not None:
            words["better"] = advice(v, game, better, context)
        if why is not None:
            words["why"] = v.t(str(why["key"]), **dict(why.get("params") or {}))
        out[lang] = words
    return out
