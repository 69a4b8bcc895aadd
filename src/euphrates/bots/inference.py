"""Reading the table: the hidden hands imagined from every decision seen.

Written for the card game's cards, and read the same way for the board's tiles: what
each game's moves show of a hand is in `HANDS` (bots.imagined, bots.imagined_tiles).

A search that deals the unseen cards at random (`redeal`) imagines the other hands as if
their holders' choices told nothing. They tell a little: a player who plays a black
card held one, a player who passes with a red card in hand against a weak revolt
probably had none. This is a particle filter over the game since the deal, run from
the seat's public history (core.history, G-3) and nothing else:

- `particles` imagined games start from the deal, every hidden card dealt at random;
  each plays every action of the history in order.
- The seat's own actions are played as they were; its own cards, which its history
  shows (its draws), are put into its imagined hand where that lacks them.
- Each other player's decision weighs each imagined game by how likely a greedy player
  holding its imagined hand was to choose so: a softmax of the greedy judgement of
  every legal action, temperature `tau` (fitted to greedy play: docs/bots.md). A
  face-down bridge, whose colour the seat did not see, counts by the summed likelihood
  of the cards it could be, one of them laid.
- A card another player shows it held is put into its imagined hand from the unseen
  cards where that lacks it: dealt at the start, an imagined hand has rarely drawn
  what the real one plays later, and dropping every such game would leave none.
- An imagined game whose events stop being the ones the seat saw is dropped; when the
  effective number of games falls under half, they are drawn again by weight, the
  unseen cards of each copy shuffled anew.

What comes out is weighted imagined states whose view is exactly the seat's real view;
the search deals its worlds from them instead of at random (`Reading.world`). If no
imagined game survives, or the history is not this game's, there is no reading and the
search deals at random, as without one.

Cost: a greedy judgement of every legal action of every other player's decision, per
imagined game. A worker keeps the filters of the games it last read (`_CACHE`), keyed
by the history they have read, so a decision reads only the actions since the last
one. Every random choice of a step is seeded by the history up to it, so a reading is
the same whether it came from the cache or from the deal: a decision is a function of
its view, its history and its seed.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from typing import Any

from euphrates.bots.imagined import CardHands, hand_to, unseen_shuffled
from euphrates.bots.imagined_tiles import TileHands
from euphrates.bots.policy import GAME as POLICY_GAME
from euphrates.bots.policy import PolicyModel, greedy_values
from euphrates.core.history import HISTORY_KEY
from euphrates.core.protocol import GameDefinition, Json, View
from euphrates.core.rng import Rng

PARTICLES = 32
TAU = 0.01
"""The greedy opponent's temperature: its choices' mean log-likelihood is highest at the
smallest temperatures (it takes the judgement's best action); 0.01 leaves room for the
judgement's rounding (docs/bots.md, *The model's temperature, fitted*)."""
CACHE_SIZE = 32
Hands = type[CardHands] | type[TileHands]
"""What a game's moves show of its hands (bots.imagined, bots.imagined_tiles)."""
HANDS: dict[str, Hands] = {"cards": CardHands, "board": TileHands}
"""The games whose table this reads, with what it knows of their hands."""
READABLE = frozenset({"cards"})
"""The games whose hint and review read the table (bots.judging). The board's search may
read it (`mcts:Ni:read`), its judgements do not: on the board a reading gained the search
nothing measurable (docs/bots.md, *Reading the board*)."""
_IGNORED_IN_VIEW = frozenset({"version", HISTORY_KEY})

Entry = dict[str, Any]


def _digest(previous: bytes, entry: Json) -> bytes:
    return hashlib.blake2b(
        previous + json.dumps(entry, sort_keys=True, separators=(",", ":")).encode(),
        digest_size=16,
    ).digest()


def _rng(digest: bytes) -> Rng:
    return Rng(int.from_bytes(digest[:8], "big") & ((1 << 63) - 1))


def _unit(rng: Rng) -> float:
    return (rng.next64() >> 11) / float(1 << 53)


def _plain(doc: Any) -> Any:
    """An event's JSON as it reads after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(doc))


class Filter:
    """The imagined games of one seat reading one game, after some of its history."""

    __slots__ = ("digest", "hands", "logw", "me", "model", "read", "states", "tau")

    def __init__(
        self,
        me: int,
        states: list[Any],
        tau: float,
        digest: bytes,
        model: PolicyModel | None = None,
        hands: Hands = CardHands,
    ) -> None:
        self.hands = hands
        self.me = me
        self.states = states
        self.logw = [0.0] * len(states)
        self.tau = tau
        self.model = model
        self.digest = digest
        self.read = 0  # history entries read

    def copy(self) -> Filter:
        twin = Filter(
            self.me, [s.copy() for s in self.states], self.tau, self.digest, self.model, self.hands
        )
        twin.logw = list(self.logw)
        twin.read = self.read
        return twin

    def alive(self) -> bool:
        return any(w > -math.inf for w in self.logw)

    # --- one action of the history ------------------------------------------------
    def step(self, entry: Entry, digest: bytes) -> None:
        rng = _rng(digest)
        seat, text, events = entry.get("seat"), entry.get("action"), entry.get("events")
        seen: list[Any] = events if isinstance(events, list) else []
        if not isinstance(text, str) or not text or not isinstance(events, list):
            self.logw = [-math.inf] * len(self.states)  # not a history this reads
        for i, state in enumerate(self.states):
            if self.logw[i] == -math.inf:
                continue
            try:
                self.hands.before(state, self.me, seen, rng)
                if state.to_move() != seat:
                    ok, logp = False, 0.0
                elif seat == self.me:
                    ok, logp = self._mine(state, str(text), seen, rng), 0.0
                else:
                    ok, logp = self._theirs(state, int(seat), str(text), seen, rng)
            except Exception:  # an action the imagined game refuses: it is not this game
                ok, logp = False, 0.0
            self.logw[i] = self.logw[i] + logp if ok else -math.inf
        self.digest = digest
        self.read += 1
        self._resample_if_thin(rng)

    def _mine(self, state: Any, text: str, seen: list[Any], rng: Rng) -> bool:
        if text not in state.legal_texts():
            self.hands.supply(state, self.me, text, rng)
        return self._agrees(state, state.apply(state.parse_action(text)), seen, rng)

    def _theirs(
        self, state: Any, seat: int, text: str, seen: list[Any], rng: Rng
    ) -> tuple[bool, float]:
        if state.public_text(text) == text and text not in state.legal_texts():
            self.hands.supply(state, seat, text, rng, theirs=True)
        else:
            self.hands.shown(state, seat, text, seen, rng)
        logs = self._choice_logs(state, seat)
        matching = {a: lp for a, lp in logs.items() if state.public_text(a) == text}
        if len(matching) > 1:  # a face-down bridge: the colours whose events agree
            matching = {a: lp for a, lp in matching.items() if self._would_agree(state, a, seen)}
        if not matching:
            return False, 0.0
        top = max(matching.values())
        mass = sum(math.exp(lp - top) for lp in matching.values())
        r, acc, played = _unit(rng) * mass, 0.0, text
        for a, lp in matching.items():
            acc += math.exp(lp - top)
            played = a
            if acc >= r:
                break
        events = state.apply(state.parse_action(played))
        return self._agrees(state, events, seen, rng), top + math.log(mass)

    def _would_agree(self, state: Any, action: str, seen: list[Any]) -> bool:
        trial = state.copy()
        return self._agrees(trial, trial.apply(trial.parse_action(action)), seen)

    def _choice_logs(self, state: Any, seat: int) -> dict[str, float]:
        """Each legal action's log-probability for a greedy player at temperature tau,
        or under the policy model where there is one."""
        if self.model is not None:
            return self.model.choice_logs(state, seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return {str(legal[0]): 0.0}
        values = greedy_values(state, seat, self.hands.game)
        top = max(values.values())
        total = math.log(sum(math.exp((v - top) / self.tau) for v in values.values()))
        return {a: (v - top) / self.tau - total for a, v in values.items()}

    def _agrees(
        self, state: Any, events: list[Any], seen: list[Any], rng: Rng | None = None
    ) -> bool:
        """Whether the imagined events are the ones the seat saw. Its own draws are made
        the real ones (with `rng`, else only checked): they are its to see."""
        mine = [e for e in events if e.visible_to(self.me)]
        if len(mine) != len(seen):
            return False
        for event, real in zip(mine, seen, strict=True):
            got = event.to_json()
            if got == real or _plain(got) == real:
                continue
            if not self.hands.own_draw(got, real, self.me):
                return False
            if rng is None:
                continue  # a trial: the draw is set right when the action is played
            if not self.hands.redraw(state, self.me, got, real, rng):
                return False
        return True

    def _resample_if_thin(self, rng: Rng) -> None:
        ws = self.weights()
        if not ws:
            return
        n = len(ws)
        if 1.0 / sum(w * w for w in ws) >= n / 2:
            return
        start, acc, j = _unit(rng) / n, ws[0], 0
        fresh = []
        for k in range(n):
            u = start + k / n
            while u > acc and j < n - 1:
                j += 1
                acc += ws[j]
            fresh.append(unseen_shuffled(self.states[j], rng))
        self.states, self.logw = fresh, [0.0] * n

    def weights(self) -> list[float]:
        """The imagined games' weights, summing to 1 (empty when none is left)."""
        top = max(self.logw, default=-math.inf)
        if top == -math.inf:
            return []
        ws = [math.exp(w - top) if w > -math.inf else 0.0 for w in self.logw]
        total = sum(ws)
        return [w / total for w in ws]


class Reading:
    """Imagined states agreeing with a seat's view, with their weights: where the search
    deals its worlds from."""

    def __init__(self, states: list[Any], weights: list[float]) -> None:
        self.states = states
        self.weights = weights

    def world(self, rng: Rng) -> Any:
        """One imagined state drawn by weight, its deck (and removed cards) shuffled: the
        hands and a face-down bridge are the reading's, the order of the draws is not."""
        r, acc = _unit(rng), 0.0
        chosen = self.states[-1]
        for state, w in zip(self.states, self.weights, strict=True):
            acc += w
            if r < acc:
                chosen = state
                break
        return unseen_shuffled(chosen, rng)

    def hands(self, seat: int) -> list[tuple[float, list[int]]]:
        """`seat`'s imagined hands with their weights."""
        return [(w, list(s.hands[seat])) for s, w in zip(self.states, self.weights, strict=True)]


_CACHE: OrderedDict[tuple[Any, ...], Filter] = OrderedDict()


def _dealt(
    start: Any,
    history: list[Entry],
    me: int,
    hand: list[int],
    key: bytes,
    hands: Hands,
) -> list[int] | None:
    """The seat's hand at the deal: its hand now less what its history changed in it.
    A change is the same whatever else the hand holds (a card laid is one card less, a
    draw the cards its event names), so one imagined game, its own hand put right where
    an action needs a card it lacks, counts them."""
    probe = Filter(me, [start.copy()], 1.0, key, None, hands)
    probe.states[0].redeal(None, _rng(key))
    change = [0, 0, 0, 0]
    digest = key
    for entry in history:
        digest = _digest(digest, entry)
        state = probe.states[0]
        before = list(state.hands[me])
        if state.to_move() == me and entry.get("action") not in state.legal_texts():
            hands.supply(state, me, str(entry.get("action")), _rng(digest))
            before = list(state.hands[me])
        probe.logw = [0.0]
        probe.step(entry, digest)
        if not probe.alive():
            return None
        after = probe.states[0].hands[me]
        change = [c + a - b for c, a, b in zip(change, after, before, strict=True)]
    dealt = [h - c for h, c in zip(hand, change, strict=True)]
    return dealt if min(dealt) >= 0 else None


def _start(
    game: GameDefinition[Any],
    view: View,
    me: int,
    n: int,
    tau: float,
    key: bytes,
    model: PolicyModel | None,
) -> Filter | None:
    """The imagined games at the deal: the public start (the first player the view's),
    the seat's own hand as it was dealt, every other card or tile dealt at random."""
    hands = HANDS[game.name]
    first = hands.first(view)
    players = int(view["players"])
    for seed in range(64):
        start = game.new_game(players, seed, view.get("options") or {})
        if start.to_move() == first:
            break
    else:
        return None
    hand = hands.hand(view, me)
    dealt = _dealt(start, list(view.get(HISTORY_KEY) or []), me, hand, key, hands)
    rng = _rng(key)
    if dealt is None or not hand_to(start, me, dealt, rng):
        return None
    states = []
    for _ in range(n):
        state = start.copy()
        state.redeal(me, rng)
        states.append(state)
    return Filter(me, states, tau, key, model, hands)


def read(
    game: GameDefinition[Any],
    view: View,
    particles: int = PARTICLES,
    tau: float = TAU,
    model: PolicyModel | None = None,
) -> Reading | None:
    """The reading of `view` from the history beside it (None: no history, a game this
    does not read, a `model` of another game's players, or no imagined game that agrees
    with the view). The other
    players' choices are weighed by `model` if given, else by the greedy softmax at
    temperature `tau`."""
    history = view.get(HISTORY_KEY)
    if game.name not in HANDS or not isinstance(history, list) or view.get("viewer") is None:
        return None
    if model is not None and game.name != POLICY_GAME:
        return None  # a model of another game's players reads nothing here
    me = int(view["viewer"])
    head = (
        me,
        int(view["players"]),
        json.dumps(view.get("options"), sort_keys=True),
        particles,
        tau,
        tuple(model.weights) if model is not None else None,
    )
    digests = [hashlib.blake2b(json.dumps(head).encode(), digest_size=16).digest()]
    for entry in history:
        digests.append(_digest(digests[-1], entry))
    found: Filter | None = None
    for k in range(len(history), -1, -1):
        cached = _CACHE.get((head, digests[k]))
        if cached is not None:
            found = cached.copy()
            if k < len(history):
                # the game has moved on: its older reading would only take a place
                # another game's reading needs (a game taken back starts anew)
                del _CACHE[(head, digests[k])]
            break
    if found is None:
        found = _start(game, view, me, particles, tau, digests[0], model)
        if found is None:
            return None
    for k in range(found.read, len(history)):
        if not found.alive():
            return None
        found.step(history[k], digests[k + 1])
    _CACHE[(head, digests[len(history)])] = found.copy()
    _CACHE.move_to_end((head, digests[len(history)]))
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return _agreeing(found, view)


def _agreeing(found: Filter, view: View) -> Reading | None:
    """The imagined games, the seat's hand made its real one, that show exactly its view."""
    want = {k: v for k, v in view.items() if k not in _IGNORED_IN_VIEW}
    hand = found.hands.hand(view, found.me)
    rng = _rng(found.digest + b"end")
    states, weights = [], []
    for state, w in zip(found.states, found.weights() or [0.0] * len(found.states), strict=True):
        if w <= 0:
            continue
        mine = state.copy()
        if not hand_to(mine, found.me, hand, rng):
            continue
        shown = _plain({k: v for k, v in mine.view(found.me).items() if k not in _IGNORED_IN_VIEW})
        if shown == _plain(want):
            states.append(mine)
            weights.append(w)
    total = sum(weights)
    if not states or total <= 0:
        return None
    return Reading(states, [w / total for w in weights])
