"""The card game's events in words (docs/cards.md), as its browser log words them
(`web/js/cards/words.js`): a face-down bridge is "a face-down bridge between 3 and 4"
until it is turned up; drawn cards and a bridge's colour only for the seat that may see
them (C-11, C-19)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.words.book import shown
from euphrates.words.voice import (
    Voice,
    colour_of,
    counted,
    is_seat,
    leader_of,
    leader_words,
    returning,
    ship_code,
    spot_words,
)

KINDS = frozenset(
    [
        "bridge",
        "bridge_colour",
        "bridge_up",
        "card",
        "catastrophe",
        "commit",
        "draw",
        "exchange",
        "exchange_none",
        "game_over",
        "leader",
        "leader_returns",
        "pass",
        "point",
        "point_declined",
        "refill",
        "revolt",
        "revolt_result",
        "ship",
        "ship_declined",
        "turn",
        "war",
        "war_result",
    ]
)
"""Every event kind the card engine emits: each has words here."""

TURN = "turn"
ENDS = ("deck", "treasures", "stalled")


def _gap(gap: Any) -> dict[str, str]:
    parts = shown(gap).split("-")
    return {"a": parts[0], "b": parts[1] if len(parts) > 1 else "?"}


def _card(v: Voice, card: Any) -> str:
    """`a red card (temple)`, or the treasure card."""
    if card == "t":
        return v.t("cards.treasure_card")
    colour = colour_of(card)
    return v.t(f"cards.card_a.{colour}") if colour else shown(card)


def _cards(v: Voice, letters: str) -> str:
    """`2 red, 1 green`."""
    parts = []
    for letter, n in counted(letters).items():
        colour = colour_of(letter)
        parts.append(f"{n} {v.t(f'colour.{colour}') if colour else letter}")
    return ", ".join(parts)


def _own(v: Voice, e: Mapping[str, Any]) -> bool:
    """Whether a private event is the viewer's own: a spectator has none."""
    audience = e.get("audience")
    return audience is not None and audience == v.viewer


def _strength(e: Mapping[str, Any]) -> tuple[Any, Any]:
    s = e.get("strength")
    s = s if isinstance(s, list) else []
    return (s[0] if s and s[0] is not None else 0), (s[1] if len(s) > 1 and s[1] is not None else 0)


def describe(v: Voice, e: Mapping[str, Any]) -> str | None:
    """One event the viewer may see, in words; None for those told elsewhere (the turn,
    points) and for a bridge's colour or a draw told to no one but its seat."""
    seat = e.get("seat")
    who = {"who": seat if is_seat(seat) else None}
    match e.get("kind"):
        case "turn" | "point":
            return None
        case "card":
            return v.say("cards.log.card", who, card=_card(v, e.get("card")), col=e.get("column"))
        case "bridge":
            return v.say("cards.log.bridge", who, **_gap(e.get("gap")))
        case "bridge_colour":
            if not _own(v, e):
                return None
            return v.t("cards.log.bridge_colour", card=_card(v, e.get("card")))
        case "bridge_up":
            return v.t("cards.log.bridge_up", **_gap(e.get("gap")), card=_card(v, e.get("card")))
        case "leader":
            leader = leader_words(v, e.get("leader"), "leader_acc")
            to = spot_words(v, shown(e.get("to")))
            if e.get("source"):
                source = spot_words(v, shown(e.get("source")))
                return v.say(
                    "cards.log.leader_moved", who, leader=leader, to=to, **{"from": source}
                )
            return v.say("cards.log.leader_placed", who, leader=leader, to=to)
        case "leader_returns":
            return v.say("cards.log.leader_returns", who, **returning(v, e.get("leader")))
        case "revolt":
            return v.say(
                "cards.log.revolt",
                {"a": e.get("attacker"), "d": e.get("defender")},
                leaders=leader_words(v, e.get("leader"), "cards.of"),
            )
        case "war":
            colour = colour_of(e.get("colour"))
            of = leader_of(colour) if colour else None
            attack, defence = _strength(e)
            return v.say(
                "cards.log.war",
                {"a": e.get("attacker"), "d": e.get("defender")},
                leaders=v.t(f"cards.of.{of}") if of else shown(e.get("colour")),
                **{"as": attack, "ds": defence},
            )
        case "commit":
            colour = colour_of(e.get("colour"))
            words = v.t(f"colour.{colour}") if colour else ""
            return v.say("cards.log.commit", who, n=e.get("count"), colour=words)
        case "revolt_result" | "war_result" as kind:
            # The winner's total first: a tie goes to the defender, so it is never the lower.
            attack, defence = (float(x) for x in _strength(e))
            return v.say(
                f"cards.log.{kind}",
                {"who": e.get("winner")},
                at=max(attack, defence),
                dt=min(attack, defence),
            )
        case "exchange":
            return v.say("cards.log.exchange", who, col=e.get("column"))
        case "exchange_none":
            return v.say("cards.log.exchange_none", who)
        case "point_declined":
            colour = colour_of(e.get("colour"))
            words = v.t(f"colour.{colour}") if colour else shown(e.get("colour"))
            return v.say("cards.log.point_declined", who, colour=words)
        case "ship_declined":
            return v.say("cards.log.ship_declined", who, col=e.get("column"))
        case "ship":
            ship = v.t(f"cards.ship.{ship_code(shown(e.get('ship')))}")
            return v.say("cards.log.ship", who, ship=ship, col=e.get("column"))
        case "catastrophe":
            spot = spot_words(v, shown(e.get("spot")))
            return v.say("cards.log.catastrophe", who, spot=spot, card=_card(v, e.get("card")))
        case "pass":
            return v.say("cards.log.pass", who)
        case "draw":
            if not _own(v, e):
                return None
            return v.say("cards.log.draw", who, cards=_cards(v, shown(e.get("cards") or "")))
        case "refill":
            counts = e.get("counts") or []
            drawn = [v.say("cards.log.draws", {"who": s}, n=k) for s, k in enumerate(counts) if k]
            if not drawn:
                return None
            deck = e.get("deck")
            return v.t("cards.log.refill", list=", ".join(drawn), n=0 if deck is None else deck)
        case "game_over":
            reason = e.get("reason")
            return v.t(f"cards.log.over.{reason if reason in ENDS else 'other'}")
        case "undo":
            return v.say("log.undo", who)
        case kind:
            return v.t("log.other", kind=shown(kind))


def scores(v: Voice, events: list[Mapping[str, Any]]) -> list[str]:
    """The points of a step, counted by seat and card: `+2 red for Ann`."""
    points: dict[str, tuple[Any, Any, int]] = {}
    for e in events:
        if e.get("kind") == "point":
            key = f"{shown(e.get('seat'))}:{shown(e.get('card'))}"
            seat, card, n = points.get(key, (e.get("seat"), e.get("card"), 0))
            points[key] = (seat, card, n + 1)
    texts = []
    for seat, card, n in points.values():
        colour = colour_of(shown(card))
        what = v.t(f"colour.{colour}") if colour else v.t("cards.treasure_short")
        texts.append(v.say("cards.log.points", {"who": seat}, n=n, what=what))
    return texts
