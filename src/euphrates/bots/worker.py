"""The bot worker: a process that only ever sees views (`python -m euphrates.bots.worker`).

It reads one JSON request a line on stdin and answers each with one JSON line:

    {"id": 7, "game": "board", "bot": "mcts:500i", "seed": 123, "view": {...}}
    -> {"id": 7, "action": "rG4", "iterations": 500}
    -> {"id": 7, "error": "unknown bot 'wizard': ..."}

A review request (no bot; the move played instead) judges one move of an ended game
from its mover's view before it (match/review.py, `review_move`):

    {"id": 8, "game": "cards", "seed": 41, "view": {...}, "action": "commit 0"}
    -> {"id": 8, "kind": "commit", "forced": false, "before": 0.71, "after": 0.55,
        "best": {"action": "commit 6", "after": 0.71, "error": 0.02},
        "why": {"key": "review.why.revolt_lost", "params": {}}, "estimate": "model"}

The host replays the record and sends one seat's view per move: the worker never gets
a record, the deal's seed or another seat's view, so a review tells no more than the
mover could know. `seed` only seeds the states the review imagines.

Every request is stateless: the bot is built from `bot` and `seed` for it and dropped
afterwards, so a pool of workers can serve any seat of any game, and a seeded request
always gets the same answer (the bots keep nothing between decisions but their
generator; a host that wants a seeded game to replay passes a fresh seed per decision,
see `euphrates.core.seeds.decision_seed`). `iterations` is there for search bots.

The view is the documented JSON view (`state.view(seat)`) and must hold a decision for
its viewer; everything else about it is checked by the game's `sample_from_view`. Hosts
add the seat's public history beside it, under `history` (`core.history`): every action
and event the seat saw, in order, and nothing it did not. A bad
request, or a bot that fails, gets an `error` reply: the worker never crashes on input.
It exits at the end of its input and dies with its parent (see `bots.process`). The
hosts' half of this protocol, the encoding of requests and the checks of replies, is
`bots.wire`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from euphrates.bots.base import Bot
from euphrates.bots.judging import judge_for
from euphrates.bots.levels import make_bot
from euphrates.bots.process import child_setup, serve
from euphrates.bots.review import DEPTHS, review_move
from euphrates.core.errors import EuphratesError
from euphrates.core.history import HISTORY_KEY
from euphrates.core.protocol import check_seed
from euphrates.games import GAMES, game_definition

REQUEST_KEYS = frozenset({"id", "game", "bot", "seed", "view"})
REVIEW_KEYS = frozenset({"id", "game", "seed", "view", "action", "depth"})

_EXTRA_BOTS: dict[str, Callable[[int], Bot]] = {}


class RequestError(EuphratesError, ValueError):
    """A request the worker cannot answer, with what is wrong in it."""


def register_bot(spec: str, factory: Callable[[int], Bot]) -> None:
    """Let requests name a bot that `make_bot` does not know.

    This is how tests seat bots of their own (the cheater of tests/bots) in a real
    worker: they start the interpreter with a `-c` bootstrap that imports their class,
    registers it, then calls `main`. It is a Python call, made by code that already runs
    in the worker; nothing in a request can register, import or name a module, and a
    worker started as `python -m euphrates.bots.worker` (as hosts and the server do)
    has an empty registry. An environment variable would have been a switch that anyone
    able to set the server's environment could flip; this needs code in the process.
    """
    _EXTRA_BOTS[spec] = factory


def build_bot(spec: object, seed: int) -> Bot:
    if not isinstance(spec, str) or not spec.strip():
        raise RequestError(f"'bot' must name a bot (e.g. greedy, mcts:500i), not {spec!r}")
    factory = _EXTRA_BOTS.get(spec)
    if factory is not None:
        return factory(seed)
    try:
        return make_bot(spec, seed)
    except ValueError as e:
        raise RequestError(str(e)) from None


def check_view(view: object, game: str) -> dict[str, Any]:
    """A view for `game` with a decision pending for its viewer and legal actions as text."""
    if not isinstance(view, dict):
        raise RequestError(f"'view' must be a JSON object, not {type(view).__name__}")
    if view.get("game", game) != game:
        raise RequestError(f"the view is of game {view.get('game')!r}, the request of {game!r}")
    viewer = view.get("viewer")
    if not isinstance(viewer, int) or isinstance(viewer, bool):
        raise RequestError(f"the view's 'viewer' must be a seat number, not {viewer!r}")
    decision = view.get("decision")
    if not isinstance(decision, dict) or decision.get("seat") != viewer:
        raise RequestError(f"the view holds no decision for its viewer (seat {viewer})")
    legal = view.get("legal")
    if not isinstance(legal, list) or not legal or not all(isinstance(a, str) for a in legal):
        raise RequestError("the view's 'legal' must list the viewer's legal actions as text")
    history = view.get(HISTORY_KEY, [])
    if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
        raise RequestError("the view's 'history' must be a list of the seat's seen actions")
    return view


def _checked(request: dict[str, Any], keys: frozenset[str]) -> tuple[str, int]:
    """The request's game and seed, once it holds exactly `keys`."""
    unknown = sorted(set(request) - keys)
    if unknown:
        raise RequestError(f"unknown request field(s) {', '.join(map(repr, unknown))}")
    for key in [k for k in ("game", "bot", "seed", "view", "action") if k in keys]:
        if key not in request:
            raise RequestError(f"the request has no {key!r}")
    game = request["game"]
    if not isinstance(game, str) or game not in GAMES:
        raise RequestError(f"unknown game {game!r}; games are {', '.join(sorted(GAMES))}")
    try:
        return game, check_seed(request["seed"])
    except ValueError as e:
        raise RequestError(str(e)) from None


def judge(request: dict[str, Any]) -> dict[str, Any]:
    """The reply's body for a review request: the move's chances on its mover's view."""
    game, seed = _checked(request, REVIEW_KEYS)
    view = check_view(request["view"], game)
    action = request["action"]
    if not isinstance(action, str) or action not in view["legal"]:
        raise RequestError(f"the move reviewed, {action!r}, is not one of the view's legal actions")
    depth = request.get("depth", "full")
    if depth not in DEPTHS:
        raise RequestError(f"the review's depth, {depth!r}, is none of {', '.join(DEPTHS)}")
    judge = judge_for(game)
    return {**review_move(game, view, action, seed, judge, DEPTHS[depth]), "estimate": judge.kind}


def decide(request: dict[str, Any]) -> dict[str, Any]:
    """The reply's body for a well-formed request (raises RequestError otherwise)."""
    if "action" in request and "bot" not in request:
        return judge(request)
    game, seed = _checked(request, REQUEST_KEYS)
    bot = build_bot(request["bot"], seed)
    view = check_view(request["view"], game)
    action = bot.choose(game_definition(game), view)
    if action not in view["legal"]:
        raise RequestError(f"bot {bot.describe()} chose {action!r}, not a legal action")
    body: dict[str, Any] = {"action": action}
    iterations = getattr(bot, "last_iterations", None)
    if isinstance(iterations, int):
        body["iterations"] = iterations
    return body


def handle(line: bytes) -> dict[str, Any]:
    """One reply for one request line, whatever the line holds."""
    try:
        request = json.loads(line)
    except ValueError:
        return {"id": None, "error": "the request is not JSON"}
    except RecursionError:
        return {"id": None, "error": "the request is nested too deeply"}
    if not isinstance(request, dict):
        return {"id": None, "error": "a request is a JSON object with id, game, bot, seed, view"}
    rid = request.get("id")
    if isinstance(rid, bool) or not isinstance(rid, int | str):
        return {"id": None, "error": f"'id' must be an integer or a string, not {rid!r}"}
    try:
        return {"id": rid, **decide(request)}
    except RequestError as e:
        return {"id": rid, "error": str(e)}
    except Exception as e:  # a bot's own failure (a malformed view it cannot sample, ...)
        return {"id": rid, "error": f"the bot failed on this view: {type(e).__name__}: {e}"}


def main(argv: Sequence[str] | None = None) -> int:
    requests, replies = child_setup(sys.argv[1:] if argv is None else argv)
    return serve(requests, replies, handle)


if __name__ == "__main__":
    sys.exit(main())
