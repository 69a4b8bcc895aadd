"""A game of Contest of Kings as the protocol sees it (`core.protocol.GameState`).

`CardsState` is the facade: the data comes from `data.CardsData`, the flow of the rules
from turn.py and handlers.py, and this class answers the protocol's questions. The
legal actions of a turn are counted and picked by index without building them, since
random play and search ask for them millions of times. Every action is validated
completely before anything changes. The rule modules import the data, never this one.
"""

from __future__ import annotations

from euphrates.cards.actions import (
    CARD_ACTIONS,
    CATASTROPHES,
    COMMITS,
    DECLINE,
    EXCHANGE_NONE,
    EXCHANGES,
    LEADER_ACTIONS,
    PASS,
    POINT_NONE,
    POINTS,
    SHIP_ACTIONS,
    TABLE_IDS,
    WARS,
    CardsAction,
    check_action,
    parse_action,
)
from euphrates.cards.context import decision_context
from euphrates.cards.data import CardsData
from euphrates.cards.handlers import HANDLERS
from euphrates.cards.kinds import (
    ACTION,
    COMMIT,
    EXCHANGE,
    KIND_NAMES,
    OVER,
    POINT,
    SHIP,
    SHIP_POINT,
    WAR_ORDER,
)
from euphrates.cards.layout import BRIDGE_MIN, COLUMNS, GAP_BASE, GAPS, MAX_CARDS, SHIP_BASE
from euphrates.cards.writing import view_json
from euphrates.core.colours import COLOUR_NAMES, RED
from euphrates.core.errors import GameOverError, IllegalActionError
from euphrates.core.protocol import Decision, Event, GameState, View, check_viewer, decision_fields
from euphrates.core.rng import Rng

__all__ = [
    "ACTION",
    "COMMIT",
    "EXCHANGE",
    "OVER",
    "POINT",
    "SHIP",
    "SHIP_POINT",
    "WAR_ORDER",
    "CardsState",
]


class CardsState(CardsData, GameState[CardsAction]):
    """One game of Contest of Kings. Build it with ``CARDS.new_game`` or a position."""

    # cards drawn from the deck, a face-down bridge turned up (G-3, C-11, C-19)
    revealing_events = frozenset({"draw", "refill", "bridge_up"})
    game_over_ruling = "C-17"

    __slots__ = ()

    # --- what is pending -------------------------------------------------------------
    def decision(self) -> Decision | None:
        if self.kind < 0:
            return None
        return Decision(self.seat, KIND_NAMES[self.kind], decision_context(self))

    def to_move(self) -> int | None:
        return None if self.kind < 0 else self.seat

    # --- legal actions ---------------------------------------------------------------
    def _free_spots(self) -> list[int]:
        """Spots a leader may go to (C-5): heads, column cards that are not ships, and
        bridges, without a leader; in reading order."""
        return self._open_spots(heads=True)

    def _open_spots(self, heads: bool) -> list[int]:
        """Cards without a leader that are not ships (and the heads, if `heads`), in
        reading order: where a leader may go (C-5) or a catastrophe may strike (C-7)."""
        taken = set(self.lpos)
        out = []
        for c in range(COLUMNS):
            base = c * 16
            if heads and base not in taken:
                out.append(base)
            for r, card in enumerate(self.cols[c], 1):
                if card < SHIP_BASE and base + r not in taken:
                    out.append(base + r)
        for g in range(GAPS):
            if self.gaps[g] >= 0 and GAP_BASE + g not in taken:
                out.append(GAP_BASE + g)
        return out

    def _catastrophe_spots(self) -> list[int]:
        """C-7: any card but a head, a ship or a card carrying a leader."""
        return self._open_spots(heads=False)

    def _card_targets(self) -> list[int]:
        """C-6: columns with fewer than 8 cards, empty gaps between columns of 3 or more."""
        lens = [len(c) for c in self.cols]
        out = [c for c in range(COLUMNS) if lens[c] < MAX_CARDS]
        for g in range(GAPS):
            if self.gaps[g] < 0 and lens[g] >= BRIDGE_MIN and lens[g + 1] >= BRIDGE_MIN:
                out.append(GAP_BASE + g)
        return out

    def legal_actions(self) -> list[CardsAction]:
        k = self.kind
        out: list[CardsAction] = []
        if k == ACTION:
            free = self._free_spots()
            for colour in range(4):
                table = LEADER_ACTIONS[colour]
                out.extend(table[p] for p in free)
            hand = self.hands[self.active]
            targets = self._card_targets()
            for colour in range(4):
                if hand[colour]:
                    ctable = CARD_ACTIONS[colour]
                    out.extend(ctable[t] for t in targets)
            if self.cats[self.active]:
                out.extend(CATASTROPHES[p] for p in self._catastrophe_spots())
            out.append(PASS)
        elif k == COMMIT:
            out.extend(COMMITS[: self.hands[self.seat][self.colour] + 1])
        elif k in (POINT, SHIP_POINT):
            if self.hands[self.seat][self.colour]:
                out.append(POINTS[self.colour])
            out.append(POINT_NONE)
        elif k == WAR_ORDER:
            out.extend(WARS[w] for w in self.wars)
        elif k == EXCHANGE:
            if self.hands[self.seat][RED]:
                out.extend(EXCHANGES[c] for c in self.exchange_columns())
            out.append(EXCHANGE_NONE)
        elif k == SHIP:
            out.extend(SHIP_ACTIONS[code] for code in self.ship_opts)
            out.append(DECLINE)
        return out

    def is_legal(self, action: CardsAction) -> bool:
        """Search asks this for a handful of actions at every node it passes, so the
        legal set is kept for the current version rather than listed for each. An object
        that is no action (`Commit(1.0)` would equal `Commit(1)`) is refused, as by apply."""
        check_action(action)
        if self._legal_v != self._version:
            self._legal = frozenset(self.legal_actions())
            self._legal_v = self._version
        return action in self._legal

    def legal_action_count(self) -> int:
        k = self.kind
        if k == ACTION:
            leaders, _, cards, _, cats = self._action_counts()
            return leaders + cards + cats + 1
        if k == COMMIT:
            return self.hands[self.seat][self.colour] + 1
        if k in (POINT, SHIP_POINT):
            return 2 if self.hands[self.seat][self.colour] else 1
        if k == WAR_ORDER:
            return len(self.wars)
        if k == EXCHANGE:
            if self.hands[self.seat][RED]:
                return len(self.exchange_columns()) + 1
            return 1
        if k == SHIP:
            return len(self.ship_opts) + 1
        return 0

    def random_action(self, rng: Rng) -> CardsAction:
        k = self.kind
        if k == ACTION:
            leaders, free, cards, targets, cats = self._action_counts()
            i = rng.below(leaders + cards + cats + 1)
            if i < leaders:
                return LEADER_ACTIONS[i // free][self._nth_free(i % free)]
            i -= leaders
            if i < cards:
                hand = self.hands[self.active]
                nth = i // targets
                for colour in range(4):
                    if hand[colour]:
                        if nth == 0:
                            return CARD_ACTIONS[colour][self._card_targets()[i % targets]]
                        nth -= 1
            i -= cards
            if i < cats:
                return CATASTROPHES[self._catastrophe_spots()[i]]
            return PASS
        if k == COMMIT:
            return COMMITS[rng.below(self.hands[self.seat][self.colour] + 1)]
        if k in (POINT, SHIP_POINT):
            if self.hands[self.seat][self.colour] and rng.below(2) == 0:
                return POINTS[self.colour]
            return POINT_NONE
        if k < 0:
            raise GameOverError("the game is over; no action is legal", "C-17")
        acts = self.legal_actions()
        return acts[rng.below(len(acts))]

    # --- applying ---------------------------------------------------------------------
    def public_text(self, action: str) -> str:
        """A card laid into a gap lies face down (C-11): the table sees a bridge in that
        gap, not its colour (G-3)."""
        if len(action) > 1 and action[0] in "rbgk" and "-" in action:
            return "bridge " + action[1:]
        return action

    def parse_action(self, text: str) -> CardsAction:
        """Read an action. A bare ``none`` (or ``no``) is the "no" of the pending decision:
        ``point none`` at a point or ship-point decision, ``exchange none`` at an exchange,
        ``commit 0`` at a commitment, ``decline`` at a ship decision (docs/cards.md). A bare
        ``decline`` is always the ship decision's answer (C-15), refused elsewhere."""
        if isinstance(text, str) and text.strip().lower() in ("none", "no"):
            k = self.kind
            if k in (POINT, SHIP_POINT):
                return POINT_NONE
            if k == EXCHANGE:
                return EXCHANGE_NONE
            if k == COMMIT:
                return COMMITS[0]
            if k == SHIP:
                return DECLINE
            if k == ACTION:
                raise IllegalActionError(
                    f"{text.strip()!r} answers no question at an action decision; "
                    "type 'pass' to end the turn",
                    "G-2",
                )
            if k == WAR_ORDER:
                wars = ", ".join(f"war {COLOUR_NAMES[w]}" for w in self.wars)
                raise IllegalActionError(
                    f"{text.strip()!r}: every war is fought; choose which comes next ({wars})",
                    "C-11",
                )
            raise GameOverError("the game is over; no action is legal", "C-17")
        return parse_action(text)

    def _apply(self, action: CardsAction) -> list[Event]:
        if id(action) not in TABLE_IDS:  # the tables' own actions need no check
            check_action(action)  # so the handlers may trust every field's type and range
        events: list[Event] = []
        HANDLERS[type(action)](self, action, events)
        self._version += 1
        return events

    # --- views --------------------------------------------------------------------------
    def view(self, seat: int | None, *, legal: bool = True) -> View:
        viewer = check_viewer(seat, self.players)
        return view_json(self, viewer, decision_fields(self, viewer, legal))

    def __repr__(self) -> str:
        d = self.decision()
        pending = "over" if d is None else f"{d.kind} for seat {d.seat}"
        return f"<CardsState {self.players} players, version {self._version}, {pending}>"
