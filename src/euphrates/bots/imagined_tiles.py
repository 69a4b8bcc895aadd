"""What the reading of the table (bots.inference) knows of the board's hands (G-3).

A tile placed and a commitment show what their player held; a swap shows how many
tiles, never which (its public text is ``swap N``); a draw shows everyone how many, and
the drawer which (``drew_tiles``), so a seat's hand at the start follows from the hand
it holds, as in the card game. The tiles nobody holds are the bag; a swap's discards
stay where they lie.
"""

from __future__ import annotations

import re
from typing import Any

from euphrates.bots.imagined import COLOURS, give, hand_to
from euphrates.core.rng import Rng

NAMES = ("red", "blue", "green", "black")
_TILE = re.compile(r"^[rbgk][A-P]\d{1,2}$")


class TileHands:
    game = "board"

    @staticmethod
    def supply(state: Any, seat: int, text: str, rng: Rng, theirs: bool = False) -> None:
        """Put into `seat`'s imagined hand, from the bag, the tiles `text` takes from it
        where the hand lacks them: a tile placed, a commitment of the conflict's colour
        (B-12), a swap's tiles. For another seat (`theirs`), whose swap discards the
        reader never saw, a tile the bag lacks comes from those: the imagined swap
        kept what the real one discarded."""
        hand = state.hands[seat]
        if _TILE.match(text):
            if theirs:
                _undiscard(state, seat, COLOURS.index(text[0]), 1, rng)
            give(state, seat, COLOURS.index(text[0]), 1, rng)
            return
        words = text.split()
        if words[0] == "commit" and len(words) == 2 and words[1].isdigit():
            colour = state.support_colour
            if colour >= 0 and int(words[1]):
                if theirs:
                    _undiscard(state, seat, colour, int(words[1]), rng)
                give(state, seat, colour, int(words[1]), rng)
        elif words[0] == "swap" and len(words) == 2 and not words[1].isdigit():
            want = [max(hand[c], words[1].count(letter)) for c, letter in enumerate(COLOURS)]
            spare = [c for c in range(4) for _ in range(want[c] - words[1].count(COLOURS[c]))]
            rng.shuffle(spare)
            for c in spare[: sum(want) - sum(hand)]:
                want[c] -= 1
            hand_to(state, seat, want, rng)

    @staticmethod
    def hand(view: Any, me: int) -> list[int]:
        hand = view["seats"][me]["hand"]
        return [int(hand.get(name, 0)) for name in NAMES]

    @staticmethod
    def first(view: Any) -> Any:
        return (view.get("turn") or {}).get("first")

    @staticmethod
    def before(state: Any, me: int, seen: list[Any], rng: Rng) -> None:
        return None

    @staticmethod
    def shown(state: Any, seat: int, text: str, seen: list[Any], rng: Rng) -> None:
        return None

    @staticmethod
    def own_draw(got: Any, real: Any, me: int) -> bool:
        """Whether two events that differ are the seat's own draw, imagined otherwise."""
        return bool(got.get("kind") == "drew_tiles" == real.get("kind") and real.get("seat") == me)

    @staticmethod
    def redraw(state: Any, me: int, got: Any, real: Any, rng: Rng) -> bool:
        """The seat's imagined draw made the real one. The seat drew those tiles, so the
        bag held them: where the imagined other hands or swap discards hold them instead
        (the others drew in the same action, or swapped), they are wrong about those and
        are put right, each such tile exchanged for a spare one of the bag, rather than
        the imagined game dropped (late in a game that could leave none, and the seat's
        hand at the start is worked out on one). False where none holds one either."""
        want = list(state.hands[me])
        for name in got.get("tiles", ()):
            want[NAMES.index(name)] -= 1
        for name in real.get("tiles", ()):
            want[NAMES.index(str(name))] += 1
        hand = state.hands[me]
        if min(want) < 0:
            return False
        pool = list(state.bag) + [c for c in range(4) for _ in range(max(0, hand[c] - want[c]))]
        need = [max(0, want[c] - hand[c]) for c in range(4)]
        piles = [
            pile
            for seat in range(state.players)
            if seat != me
            for pile in (state.hands[seat], state.discarded[seat])
        ]
        for c in range(4):
            short = need[c] - pool.count(c)
            for pile in piles:
                while short > 0 and pile[c] > 0:
                    counts = [pool.count(x) for x in range(4)]
                    spare = [i for i, x in enumerate(pool) if counts[x] > need[x] and x != c]
                    if not spare:
                        return False
                    i = spare[rng.below(len(spare))]
                    pile[pool[i]] += 1
                    pile[c] -= 1
                    pool[i] = c
                    short -= 1
            if short > 0:
                return False
        for c in range(4):
            for _ in range(need[c]):
                pool.remove(c)
        state.hands[me] = want
        rng.shuffle(pool)
        state.deal_unseen(pool)
        return True


def _undiscard(state: Any, seat: int, colour: int, need: int, rng: Rng) -> None:
    """Tiles of `colour` exchanged from `seat`'s imagined swap discards into its hand,
    each for a hand tile of another colour, until its hand and the bag hold `need`."""
    hand, pile = state.hands[seat], state.discarded[seat]
    changed = False
    while hand[colour] + state.bag.count(colour) < need and pile[colour] > 0:
        others = [c for c in range(4) if c != colour for _ in range(hand[c])]
        if not others:
            break
        given = others[rng.below(len(others))]
        hand[given] -= 1
        pile[given] += 1
        pile[colour] -= 1
        hand[colour] += 1
        changed = True
    if changed:  # the bag as it was: what the move generator kept of the hand goes
        state.deal_unseen(state.unseen())
