"""Which model of the other players' choices the card game's reading should use: the
greedy judgement's softmax at one temperature, or a small policy trained on the
search's own play.

    python examples/opponent_model.py dump --games 24 --seed 5200 --bot rollout:32i --out D.jsonl
    python examples/opponent_model.py fit D.jsonl [D2.jsonl …] [--write MODEL.json]

`dump` plays card duels of `--bot` against itself (dealt from seed + g) and writes, for
every decision with more than one legal action, each action's features
(`bots.policy.action_features`: the greedy judgement of the action from the mover with
the true hands, less the best action's; the kind of action) and the action chosen. The
true hands are used: this is what a model of the player should predict.

`fit` splits the decisions by game (every fourth game held out) and reports the mean
log-likelihood of the held-out choices under
- the greedy softmax at each temperature of a grid (what the reading shipped with,
  fitted to greedy play at 0.01),
- the policy: a multinomial logit over the features, fitted by gradient ascent with a
  little L2 (numpy), whose weights `--write` saves as a `bots.policy` model file.

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from euphrates.bots.levels import make_bot
from euphrates.bots.policy import FEATURES, PolicyModel, action_features, greedy_values
from euphrates.games import game_definition

CARDS = game_definition("cards")
TAUS = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)


def dump(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    rows = 0
    with open(args.out, "w") as out:
        for g in range(args.games):
            seed = args.seed + g
            state = CARDS.new_game(2, seed)
            bots = [make_bot(args.bot, seed * 2 + i, "cards") for i in range(2)]
            while not state.is_over():
                seat = state.to_move()
                legal = [str(a) for a in state.legal_actions()]
                chosen = bots[seat].choose(CARDS, state.view(seat))
                if len(legal) > 1:
                    values = greedy_values(state, seat)
                    kind = state.decision().kind
                    rows += 1
                    out.write(
                        json.dumps(
                            {
                                "game": g,
                                "kind": kind,
                                "chosen": legal.index(chosen),
                                "x": [action_features(kind, a, values) for a in legal],
                            }
                        )
                        + "\n"
                    )
                state.apply(state.parse_action(chosen))
            print(json.dumps({"game": g, "rows": rows, "s": round(time.perf_counter() - started)}))
    return {"games": args.games, "decisions": rows, "seconds": round(time.perf_counter() - started)}


def _load(paths: list[str]) -> list[dict[str, Any]]:
    """The decisions of every dump, a game of the n-th file numbered n * 10 000 + g."""
    rows = []
    for n, path in enumerate(paths):
        for line in Path(path).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                row["game"] += n * 10_000
                rows.append(row)
    return rows


def _greedy_ll(rows: list[dict[str, Any]], tau: float) -> float:
    total = 0.0
    for r in rows:
        z = [x[0] / tau for x in r["x"]]  # feature 0: the judgement less the best's
        top = max(z)
        total += z[r["chosen"]] - top - math.log(sum(math.exp(v - top) for v in z))
    return total / len(rows)


def fit_policy(rows: list[dict[str, Any]], l2: float, steps: int) -> list[float]:
    """The multinomial logit's weights: full-batch gradient ascent (Adam) on the mean
    log-likelihood of the choices, less `l2` times the squared weights."""
    import numpy as np

    xs = [np.asarray(r["x"], dtype=np.float64) for r in rows]
    chosen = [r["chosen"] for r in rows]
    sizes = np.array([len(x) for x in xs])
    flat = np.concatenate(xs)
    owner = np.repeat(np.arange(len(xs)), sizes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    picked = flat[starts + np.array(chosen)]
    w = np.zeros(flat.shape[1])
    w[0] = 1.0 / 0.03  # from a softmax of the judgement
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        logits = flat @ w
        top = np.full(len(xs), -np.inf)
        np.maximum.at(top, owner, logits)
        e = np.exp(logits - top[owner])
        mass = np.zeros(len(xs))
        np.add.at(mass, owner, e)
        p = e / mass[owner]
        expected = np.zeros((len(xs), flat.shape[1]))
        np.add.at(expected, owner, p[:, None] * flat)
        grad = (picked - expected).mean(axis=0) - 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w += 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return [float(x) for x in w]


def _policy_ll(rows: list[dict[str, Any]], model: PolicyModel) -> float:
    total = 0.0
    for r in rows:
        z = [model.logit(x) for x in r["x"]]
        top = max(z)
        total += z[r["chosen"]] - top - math.log(sum(math.exp(v - top) for v in z))
    return total / len(rows)


def fit(args: argparse.Namespace) -> dict[str, Any]:
    rows = _load(args.dump)
    train = [r for r in rows if r["game"] % 4 != 3]
    test = [r for r in rows if r["game"] % 4 == 3]
    result: dict[str, Any] = {"train": len(train), "test": len(test)}
    greedy = {f"{tau:g}": round(_greedy_ll(test, tau), 4) for tau in TAUS}
    result["greedy_softmax"] = greedy
    result["greedy_best_choice"] = round(
        sum(r["x"][r["chosen"]][0] == 0.0 for r in test) / len(test), 4
    )
    weights = fit_policy(train, args.l2, args.steps)
    model = PolicyModel(weights, {"trained": {"decisions": len(train), "l2": args.l2}})
    result["policy"] = round(_policy_ll(test, model), 4)
    result["policy_train"] = round(_policy_ll(train, model), 4)
    result["weights"] = dict(zip(FEATURES, [round(w, 3) for w in weights], strict=True))
    if args.write:
        Path(args.write).write_text(json.dumps(model.to_json(), indent=1) + "\n")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(required=True)
    d = sub.add_parser("dump")
    d.add_argument("--games", type=int, default=8)
    d.add_argument("--seed", type=int, default=5200)
    d.add_argument("--bot", default="rollout:32i")
    d.add_argument("--out", required=True)
    d.set_defaults(run=dump)
    f = sub.add_parser("fit")
    f.add_argument("dump", nargs="+")
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--steps", type=int, default=1500)
    f.add_argument("--write")
    f.set_defaults(run=fit)
    args = parser.parse_args()
    print(json.dumps(args.run(args)))


if __name__ == "__main__":
    main()
