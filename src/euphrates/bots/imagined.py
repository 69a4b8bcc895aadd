"""Changes to an imagined state that keep every count (C-1, G-3): cards or tiles put into
a hand from the unseen ones (the card game's deck and removed cards, the board's bag) for
others of that hand, the unseen ones shuffled. The reading of the table (bots.inference)
makes an imagined game agree with what a seat saw with these; the review's bench deals
its worlds with them. Both games count a hand by the same four colours.
"""

from __future__ import annotations

from typing import Any

from euphrates.cards.layout import gap_name
from euphrates.core.rng import Rng

COLOURS = "rbgk"


def unseen_shuffled(state: Any, rng: Rng) -> Any:
    """A copy of `state`, the cards or tiles nobody holds shuffled: the hands and a
    face-down bridge are kept, the draws are not."""
    world = state.copy()
    pool: list[int] = world.unseen()
    rng.shuffle(pool)
    world.deal_unseen(pool)
    return world


def needs(state: Any, text: str) -> tuple[int, int] | None:
    """The colour and count of cards `text` takes from its mover's hand, where its text
    says: a card laid (`b4`, a bridge `r3-4`), a point or ship point of a colour, a
    commitment of the conflict's colour."""
    words = text.split()
    if words[0] in ("point", "ship_point") and len(words) > 1 and words[1] in COLOURS:
        return COLOURS.index(words[1]), 1
    if words[0] == "commit" and len(words) > 1 and words[1].isdigit():
        return (state.colour, int(words[1])) if state.colour >= 0 else None
    if text[0] in COLOURS and len(text) > 1 and text[1].isdigit():
        return COLOURS.index(text[0]), 1
    return None


def give(state: Any, seat: int, colour: int, need: int, rng: Rng) -> None:
    """Put cards (tiles) of `colour` into `seat`'s imagined hand from the unseen ones until it
    holds `need`, each for a card of another colour of that hand."""
    hand = state.hands[seat]
    if hand[colour] >= need:
        return
    pool: list[int] = state.unseen()
    while hand[colour] < need and colour in pool:
        others = [c for c in range(4) if c != colour for _ in range(hand[c])]
        if not others:
            break
        given = others[rng.below(len(others))]
        pool.remove(colour)
        pool.append(given)
        hand[colour] += 1
        hand[given] -= 1
    rng.shuffle(pool)
    state.deal_unseen(pool)


def hand_to(state: Any, seat: int, want: list[int], rng: Rng) -> bool:
    """Make `seat`'s imagined hand `want` by exchanges with the unseen cards; False where
    they lack a card it needs."""
    hand = state.hands[seat]
    if list(hand) == want:
        return True
    pool: list[int] = state.unseen()
    for c in range(4):
        pool.extend([c] * max(0, hand[c] - want[c]))
        for _ in range(want[c] - hand[c]):
            if c not in pool:
                return False
            pool.remove(c)
    state.hands[seat] = list(want)
    rng.shuffle(pool)
    state.deal_unseen(pool)
    return True


def turned_up_as_seen(state: Any, me: int, seen: list[Any], rng: Rng) -> None:
    """A face-down bridge another player laid, imagined of one colour and turned up in
    the real game in another (C-11): the imagined one was that colour, the other card
    is back where it came from (its layer's hand, else the unseen cards)."""
    if state.down < 0 or state.active == me:
        return
    name = gap_name(state.down)
    for real in seen:
        if real.get("kind") != "bridge_up" or real.get("gap") != name:
            continue
        shown, imagined = COLOURS.index(str(real.get("card"))), state.gaps[state.down]
        if shown == imagined:
            return
        hand = state.hands[state.active]
        pool: list[int] = state.unseen()
        if hand[shown]:
            hand[shown] -= 1
            hand[imagined] += 1
        elif shown in pool:
            pool.remove(shown)
            pool.append(imagined)
        else:
            return  # no such card unseen: the game's events will disagree
        state.gaps[state.down] = shown
        rng.shuffle(pool)
        state.deal_unseen(pool)
        return


class CardHands:
    """What the reading of the table (bots.inference) knows of the card game's hands: a
    seat's history shows the cards it drew, so its hand at the deal follows from the
    hand it holds; a face-down bridge is turned up in a war (C-11)."""

    game = "cards"

    @staticmethod
    def supply(state: Any, seat: int, text: str, rng: Rng, theirs: bool = False) -> None:
        """Put into `seat`'s imagined hand the cards `text` takes from it (`needs`)."""
        need = needs(state, text)
        if need is not None:
            give(state, seat, need[0], need[1], rng)

    @staticmethod
    def hand(view: Any, me: int) -> list[int]:
        return [str(view.get("hand") or "").count(c) for c in COLOURS]

    @staticmethod
    def first(view: Any) -> Any:
        return view.get("first")

    @staticmethod
    def before(state: Any, me: int, seen: list[Any], rng: Rng) -> None:
        turned_up_as_seen(state, me, seen, rng)

    @staticmethod
    def shown(state: Any, seat: int, text: str, seen: list[Any], rng: Rng) -> None:
        """A bridge laid face down and at once turned up (a war, C-11): its card shown."""
        if not text.startswith("bridge "):
            return
        gap = text.split()[1]
        for real in seen:
            if real.get("kind") == "bridge_up" and real.get("gap") == gap:
                give(state, seat, COLOURS.index(str(real.get("card"))), 1, rng)

    @staticmethod
    def own_draw(got: Any, real: Any, me: int) -> bool:
        """Whether two events that differ are the seat's own draw, imagined otherwise."""
        return bool(got.get("kind") == "draw" == real.get("kind") and real.get("seat") == me)

    @staticmethod
    def redraw(state: Any, me: int, got: Any, real: Any, rng: Rng) -> bool:
        """The seat's imagined draw made the real one (False where the unseen cards lack
        one it drew)."""
        hand = list(state.hands[me])
        for letter in got.get("cards", ""):
            hand[COLOURS.index(letter)] -= 1
        for letter in str(real.get("cards", "")):
            hand[COLOURS.index(letter)] += 1
        return min(hand) >= 0 and hand_to(state, me, hand, rng)
