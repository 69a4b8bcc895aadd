"""Decisions in words, for the seat that decides: what a decision is about (a
conflict's sides and strengths, the wars to order, a point's reason) and a short prompt
for it. Both read only the decision's kind and its public context (docs/board.md and
docs/cards.md, "Decision contexts") and the legal answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from euphrates.words.book import shown
from euphrates.words.voice import COLOUR_LETTER, Voice, colour_of, leader_of

Context = Mapping[str, Any]


def _given(context: Context, *names: str) -> Any:
    """The first of the named fields that the context holds."""
    for name in names:
        if context.get(name) is not None:
            return context[name]
    return None


class _Asking(NamedTuple):
    """Where the two games word a decision differently: the keys of a decision's name
    (`what` + kind), of a commitment's prompt (tiles or cards), and a conflict's title
    (a leader on the board; in the card game the leaders of a colour)."""

    what: str
    commit: str
    conflict: Callable[[Voice, str, str | None], str]


ASKING: dict[str, _Asking] = {
    "board": _Asking(
        "what.",
        "ask.commit_tiles",
        lambda v, name, leader: v.t(f"conflict.{name}", leader=v.t(f"leader.{leader}")),
    ),
    "cards": _Asking(
        "cards.what.",
        "ask.commit_cards",
        lambda v, name, leader: v.t(f"cards.conflict.{name}", leaders=v.t(f"cards.of.{leader}")),
    ),
}
"""Each game's wording of decisions, by the game's name: the book's own knowledge of
its keys (this layer reads no engine), as `events` keeps each game's event words."""


def _asking(game: str) -> _Asking:
    try:
        return ASKING[game]
    except KeyError:
        games = ", ".join(ASKING)
        raise ValueError(
            f"no words for the decisions of the game {game!r}: games are {games}"
        ) from None


def what(v: Voice, game: str, kind: str) -> str:
    """A decision's name: `commitment`, `order of the wars`, …"""
    return v.t(f"{_asking(game).what}{kind}")


def _conflict(v: Voice, game: str, context: Context) -> str:
    name = "war" if context.get("conflict") == "war" else "revolt"
    leader = leader_of(colour_of(context.get("colour")))
    return _asking(game).conflict(v, name, leader)


def _commit(v: Voice, game: str, c: Context) -> str:
    attack, defence = c.get("attacker_strength"), c.get("defender_strength")
    commit = c.get("attacker_commit")
    words: dict[str, Any] = {
        "conflict": _conflict(v, game, c),
        "a": v.name(c.get("attacker")),
        "d": v.name(c.get("defender")),
        "as": attack,
        "ds": defence,
    }
    if c.get("role") != "defender":
        return v.t("ask.attack", **words)
    if isinstance(commit, int) and isinstance(attack, int):
        return v.t("ask.defend", c=commit, total=attack + commit, **words)
    return v.t("ask.defend_blind", **words)


def situation(v: Voice, game: str, kind: str, context: Context) -> str | None:
    """What the decision is about, said once before its prompt; None for a turn."""
    c = context
    match kind:
        case "commit":
            return _commit(v, game, c)
        case "war_order":
            wars = [v.t(f"colour.{colour_of(x) or x}") for x in c.get("wars") or []]
            return v.t("ask.war_order", list=v.listing(wars))
        case "point" if c.get("reason") in ("column", "revolt", "war"):
            return v.t(f"cards.point.{c['reason']}", colour=v.t(f"colour.{c.get('colour')}"))
        case "ship_point":
            leader = leader_of(c.get("leader"))
            colour = v.t(f"colour.{c.get('colour')}")
            return v.t("cards.point.ship", leader=v.t(f"leader.{leader}"), colour=colour)
        case "exchange":
            columns = [shown(x) for x in c.get("treasures") or []]
            return v.t("ask.exchange", list=v.listing(columns))
        case "ship":
            return v.t("cards.ship.hint", col=c.get("column"))
        case "monument":
            return v.t("ask.monument", sq=c.get("square"))
        case "treasure":
            return v.t("treasure.hint")
    return None


def _commit_range(legal: Sequence[str]) -> str:
    counts = [int(a.split()[1]) for a in legal if a.startswith("commit ") and a[7:].isdigit()]
    return f"{min(counts)}–{max(counts)}" if counts else "0"


def prompt(v: Voice, game: str, kind: str, context: Context, legal: Sequence[str]) -> str:
    """A short prompt for the decision: `your action 1/2`, `commit red tiles (0–3)`."""
    c = context
    if kind == "action":
        number = _given(c, "action")
        if number is None and isinstance(c.get("actions_left"), int):
            number = 3 - c["actions_left"]
        return v.t("ask.action", n=number) if number in (1, 2) else v.t("ask.action_any")
    if kind == "commit":
        colour = colour_of(_given(c, "commit_colour", "colour")) or "red"
        key = _asking(game).commit
        return v.t(key, colour=v.t(f"colour.{colour}"), range=_commit_range(legal))
    if kind in ("point", "ship_point"):
        colour = colour_of(c.get("colour")) or "red"
        return v.t("ask.point", colour=v.t(f"colour.{colour}"), letter=COLOUR_LETTER[colour])
    if len(legal) <= 6:
        return v.t("ask.choose", what=what(v, game, kind), choices=" / ".join(legal))
    return v.t("ask.many", what=what(v, game, kind), n=len(legal))
