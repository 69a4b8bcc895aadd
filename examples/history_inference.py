"""How close the card game's imagined hands come to the true ones when every decision
the other player made since the deal is read: a particle filter against dealing the
unseen cards at random.

    python examples/history_inference.py --games 20 --seed 4100 --particles 32 --tau 0.03

Greedy bots play two-player card games (seeded); in game g the filter sits in seat
g mod 2 and watches from there. It holds `--particles` imagined games, each dealt at
the start from that seat's view (`sample_from_view`), and plays every action of the
real game in each of them:

- the seat's own actions as they were, and its own hand kept true after each (its
  draws are its to see), the unseen cards shuffled anew around it;
- each of the other player's decisions weighted by how likely the greedy bot holding
  the imagined hand was to make it: a softmax of the greedy judgement of every legal
  action with temperature `--tau` (a face-down bridge, whose colour the seat does not
  see, by the summed likelihood of the cards it could be, one of them played);
- an imagined game whose table stops matching what the seat sees (a bridge turned up
  in another colour, a card it could not have held) dropped;
- the imagined games drawn again by their weights when their effective number falls
  under half, the unseen cards of each copy shuffled anew.

At every decision of the seat that follows a run of the other player's, the other hand
is guessed from the particles (weighted) and from as many hands dealt at random from
the seat's view (`uniform`); the guesses are scored against the true hand: the error
of the expected red count (`red`), of the expected count of each colour summed
(`colours`), and the expected number of cards that differ (`l1`).

`--fit` instead reports, for each temperature of a grid, the mean log-likelihood of
the greedy bots' own choices under the model with the true hands: the temperature the
filter should use for this opponent.

A measuring stick, not a bot: it reads the true hands to score the guesses. The last
line is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from hand_inference import CARDS, EVALUATOR, keep_hand
from known_hands import deal_back

from euphrates.bots import GreedyBot
from euphrates.bots.greedy import judge
from euphrates.core.rng import Rng
from euphrates.match.play import play_game

TAUS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0)


def choice_logs(state: Any, seat: int, tau: float) -> dict[str, float]:
    """Each legal action's log-probability under the model (softmax of the greedy
    judgement from `seat`, temperature `tau`)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return {str(legal[0]): 0.0}
    values = {str(a): judge(state, a, seat, EVALUATOR) for a in legal}
    top = max(values.values())
    total = math.log(sum(math.exp((v - top) / tau) for v in values.values()))
    return {a: (v - top) / tau - total for a, v in values.items()}


def unit(rng: Rng) -> float:
    """A float in [0, 1) from the engine's generator (53 bits)."""
    return (rng.next64() >> 11) / float(1 << 53)


def public(text: str) -> str:
    return CARDS.new_game(2, 0).public_text(text)


def _shows(state: Any, action: str, seat: int, truth: Any) -> bool:
    """Whether `action` leaves `state` showing `seat` what the real table shows it
    (its own hand aside, which the filter keeps true)."""
    trial = state.copy()
    trial.apply(action)
    a, b = trial.view(seat), truth.view(seat)
    return all(a[k] == b[k] for k in a if k not in ("hand", "legal", "not_seen", "hand_counts"))


class Filter:
    """The particles of one seat watching one game."""

    def __init__(self, start: Any, me: int, n: int, tau: float, rng: Rng) -> None:
        self.me, self.other, self.tau, self.rng = me, 1 - me, tau, rng
        view = start.view(me)
        self.states = [CARDS.sample_from_view(view, rng.fork()) for _ in range(n)]
        self.logw = [0.0] * n
        self.resamples = 0
        self.repairs = 0

    def step(self, action: str, truth_after: Any) -> None:
        mover = None
        for i, state in enumerate(self.states):
            if self.logw[i] == -math.inf:
                continue
            mover = state.to_move()
            played = action
            if mover == self.other:
                seen = public(action)
                if seen == action:  # what it shows it held (never a face-down card's colour)
                    self._repair(state, action)
                logs = choice_logs(state, self.other, self.tau)
                matching = {a: lp for a, lp in logs.items() if public(a) == seen}
                if len(matching) > 1:
                    # A face-down bridge: the colours that leave the table as the seat
                    # sees it (a war may turn it up at once), by the model.
                    matching = {
                        a: lp
                        for a, lp in matching.items()
                        if _shows(state, a, self.me, truth_after)
                    }
                if not matching:
                    self.logw[i] = -math.inf
                    continue
                top = max(matching.values())
                mass = sum(math.exp(lp - top) for lp in matching.values())
                self.logw[i] += top + math.log(mass)
                r, acc = unit(self.rng) * mass, 0.0
                for a, lp in matching.items():
                    acc += math.exp(lp - top)
                    played = a
                    if acc >= r:
                        break
            try:
                state.apply(played)
            except Exception:
                self.logw[i] = -math.inf
                continue
            if not keep_hand(state, self.me, list(truth_after.hands[self.me]), self.rng):
                self.logw[i] = -math.inf
                continue
            if state.view(self.me) != truth_after.view(self.me):
                self.logw[i] = -math.inf
        self._resample_if_thin()

    def _repair(self, state: Any, action: str) -> None:
        """The cards the other player's action shows it held, put into its imagined hand
        where that lacks them: each taken from the unseen cards for a card of another
        colour of that hand. Dealt from the start, an imagined hand has rarely drawn
        what the real one played later; dropping every such game would leave none."""
        words = action.split()
        colour, need = None, 1
        if words[0] in ("point", "ship_point") and len(words) > 1 and words[1] in "rbgk":
            colour = "rbgk".index(words[1])
        elif words[0] == "commit" and len(words) > 1 and words[1].isdigit():
            colour, need = state.colour, int(words[1])
        elif action[0] in "rbgk" and not action.startswith("bridge"):
            colour = "rbgk".index(action[0])
        if colour is None:
            return
        hand = state.hands[self.other]
        pool = list(state.deck) + list(state.removed)
        changed = False
        while hand[colour] < need and colour in pool:
            others = [c for c in range(4) if c != colour for _ in range(hand[c])]
            if not others:
                break
            given = others[self.rng.below(len(others))]
            pool.remove(colour)
            pool.append(given)
            hand[colour] += 1
            hand[given] -= 1
            changed = True
        if changed:
            self.rng.shuffle(pool)
            deal_back(state, pool)
            self.repairs += 1

    def weights(self) -> list[float]:
        top = max(self.logw)
        if top == -math.inf:
            return []
        ws = [math.exp(w - top) if w > -math.inf else 0.0 for w in self.logw]
        total = sum(ws)
        return [w / total for w in ws]

    def _resample_if_thin(self) -> None:
        ws = self.weights()
        if not ws:
            return
        ess = 1.0 / sum(w * w for w in ws)
        if ess >= len(ws) / 2:
            return
        self.resamples += 1
        n = len(ws)
        start, acc, picks, j = unit(self.rng) / n, ws[0], [], 0
        for k in range(n):
            u = start + k / n
            while u > acc and j < n - 1:
                j += 1
                acc += ws[j]
            picks.append(j)
        fresh = []
        for j in picks:
            copy = self.states[j].copy()
            pool = list(copy.deck) + list(copy.removed)
            self.rng.shuffle(pool)
            deal_back(copy, pool)
            fresh.append(copy)
        self.states, self.logw = fresh, [0.0] * n

    def hands(self) -> list[tuple[float, list[int]]]:
        if not self.weights():
            return []
        return [
            (w, list(s.hands[self.other]))
            for w, s in zip(self.weights(), self.states, strict=True)
            if w > 0
        ]


def scores(hands: list[tuple[float, list[int]]], truth: list[int]) -> dict[str, float]:
    """Errors of the weighted guesses (weights summing to 1)."""
    expected = [sum(w * h[c] for w, h in hands) for c in range(4)]
    return {
        "red": abs(expected[0] - truth[0]),
        "colours": sum(abs(expected[c] - truth[c]) for c in range(4)),
        "l1": sum(w * sum(abs(a - b) for a, b in zip(h, truth, strict=True)) for w, h in hands),
    }


def replay_states(seed: int, actions: list[str]) -> list[Any]:
    state = CARDS.new_game(2, seed)
    states = [state.copy()]
    for action in actions:
        state.apply(action)
        states.append(state.copy())
    return states


def fit(args: argparse.Namespace) -> dict[str, Any]:
    """The mean log-likelihood of the greedy bots' own choices, true hands, per tau."""
    sums = dict.fromkeys(TAUS, 0.0)
    n = 0
    for g in range(args.games):
        seed = args.seed + g
        bots = [GreedyBot(seed * 2 + i) for i in range(2)]
        actions = list(play_game("cards", bots, seed).record.actions)
        states = replay_states(seed, actions)
        for t, action in enumerate(actions):
            if t % args.every:
                continue
            state = states[t]
            seat = state.to_move()
            for tau in TAUS:
                logs = choice_logs(state, seat, tau)
                sums[tau] += logs.get(action, -50.0)
            n += 1
    return {
        "decisions": n,
        "mean_log_likelihood": {str(t): round(s / n, 4) for t, s in sums.items()},
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    rng = Rng(args.seed)
    found: dict[str, list[dict[str, float]]] = {"uniform": [], "history": []}
    lost = resamples = repairs = 0
    for g in range(args.games):
        seed = args.seed + g
        me = g % 2
        bots = [GreedyBot(seed * 2 + i) for i in range(2)]
        actions = list(play_game("cards", bots, seed).record.actions)
        states = replay_states(seed, actions)
        flt = Filter(states[0], me, args.particles, args.tau, rng.fork())
        readings = 0
        for t, action in enumerate(actions):
            flt.step(action, states[t + 1])
            now = states[t + 1]
            d = now.decision()
            if d is None or d.seat != me or d.kind != "action" or states[t].to_move() == me:
                continue
            readings += 1
            if readings % args.every:
                continue
            truth = list(now.hands[1 - me])
            view = now.view(me)
            uniform = [
                (1.0 / args.particles, CARDS.sample_from_view(view, rng.fork()).hands[1 - me])
                for _ in range(args.particles)
            ]
            found["uniform"].append(scores(uniform, truth))
            hands = flt.hands()
            if hands:
                found["history"].append(scores(hands, truth))
            else:  # every particle ruled out: the reading falls back to uniform
                lost += 1
                found["history"].append(found["uniform"][-1])
        resamples += flt.resamples
        repairs += flt.repairs
        print(f"game {g}: seat {me}, {readings // args.every} readings", flush=True)
    out: dict[str, Any] = {"readings": len(found["uniform"]), "all_ruled_out": lost}
    out["resamples"] = resamples
    out["repairs"] = repairs
    for name, rows in found.items():
        out[name] = {k: round(statistics.mean(r[k] for r in rows), 4) for k in rows[0]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=4100, help="game g is dealt from seed + g")
    parser.add_argument("--every", type=int, default=1, help="read every n-th such decision")
    parser.add_argument("--particles", type=int, default=32)
    parser.add_argument("--tau", type=float, default=0.03, help="the model's temperature")
    parser.add_argument("--fit", action="store_true", help="fit the temperature instead")
    args = parser.parse_args()
    started = time.monotonic()
    summary: dict[str, Any] = {"games": args.games, "seed": args.seed}
    if args.fit:
        summary.update(fit(args))
    else:
        summary.update(particles=args.particles, tau=args.tau, **measure(args))
    summary["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
