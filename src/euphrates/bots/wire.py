"""The client's half of the bot worker's protocol (bots/worker.py), in one place.

A host and a worker exchange JSON lines: a request object carrying an `id`, and one
reply object per request carrying the same `id`. Two hosts speak it, a blocking one
(`bots.process.Child`, under `RemoteBot`) and the server's asyncio pool, and they used to
check replies each in its own way, so a reply one of them refused cleanly could crash
the other. This module holds the only copy of those checks.

Everything here is a pure function over bytes and dicts: no pipe, no clock, no event
loop. A blocking client and an asyncio client read their line however they must, and
hand it to the same `decode`; the same goes for what a reply means (`action_of`,
`review_of`). Whatever shape a worker's answer takes, the client gets a `WireError`
(a `ValueError`, so code that already treats bad data as one keeps working) saying
what was wrong, never the `AttributeError` or `KeyError` of a check made in the wrong
order. A worker that says it cannot answer is a `RefusedError`: the worker is sound and
in step, so a client need not kill it, and it can show the worker's own words.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from euphrates.core.errors import ArgumentError, EuphratesError, short_repr

# The longest reply line a client reads (the newline aside). A view's answer is a few
# bytes and a review's a few dozen; the bound stops a runaway worker from filling the
# host's memory, and the server gives its pipe readers the same limit.
MAX_LINE = 1 << 20


class WireError(EuphratesError, ValueError):
    """A worker's reply that breaks the protocol: not JSON, not an object, out of step
    with the request, or missing what its kind of reply must hold."""


class RefusedError(WireError):
    """A well-formed reply saying the worker could not answer; `reason` is its message."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"the worker could not answer: {reason}")


# --------------------------------------------------------------------- framing
def dump_line(doc: Mapping[str, Any]) -> bytes:
    """One JSON object as one line; compact, and ASCII so that no byte of it can be a
    newline but the last."""
    return json.dumps(doc, separators=(",", ":")).encode() + b"\n"


def load_object(line: bytes, limit: int | None = MAX_LINE) -> dict[str, Any]:
    """The JSON object a line holds, or a WireError saying why there is none."""
    body = line.rstrip(b"\r\n")
    if limit is not None and len(body) > limit:
        raise WireError(f"the reply is {len(body)} bytes long, more than the {limit} allowed")
    if not body.strip():
        raise WireError("the reply is an empty line")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WireError(f"the reply is not UTF-8 text (byte {e.start})") from None
    try:
        doc = json.loads(text)
    except RecursionError:
        raise WireError("the reply is not JSON: it is nested too deeply") from None
    except ValueError as e:
        raise WireError(f"the reply is not JSON ({e})") from None
    if not isinstance(doc, dict):
        raise WireError(f"the reply is not an object but {_kind(doc)}: {short_repr(doc)}")
    return doc


# --------------------------------------------------------------------- requests
def _check_id(request_id: object) -> int:
    if isinstance(request_id, bool) or not isinstance(request_id, int):
        raise ArgumentError(f"a request id is an integer, not {short_repr(request_id)}")
    return request_id


def decision_request(game: str, bot: str, seed: int, view: Mapping[str, Any]) -> dict[str, Any]:
    """The request for `bot`'s action on `view` (the seat's view, nothing more)."""
    return {"game": game, "bot": bot, "seed": seed, "view": view}


def review_request(
    game: str, seed: int, view: Mapping[str, Any], action: str, depth: str = "full"
) -> dict[str, Any]:
    """The request for the review of `action` from its mover's `view` before it, at
    `depth` (bots/review.py, DEPTHS)."""
    return {"game": game, "seed": seed, "view": view, "action": action, "depth": depth}


def encode(request: Mapping[str, Any], request_id: int) -> bytes:
    """The line that sends `request` as request `request_id`. The id is the client's
    to give, so a request that brings one of its own is refused rather than silently
    sent under the wrong number."""
    if "id" in request:
        raise ArgumentError("the request already holds an 'id'; the client attaches it")
    return dump_line({"id": _check_id(request_id), **request})


# --------------------------------------------------------------------- replies
def decode(line: bytes, expected_id: int) -> dict[str, Any]:
    """The reply a line holds, once it is checked to answer request `expected_id`.

    An `error` member raises RefusedError with the worker's message. A reply to
    another request raises WireError: the host and the worker are out of step, and
    the only safe thing left is to end the worker."""
    expected_id = _check_id(expected_id)
    reply = load_object(line)
    if "id" not in reply:
        raise WireError("the reply has no 'id'")
    rid = reply["id"]
    if rid is None and isinstance(reply.get("error"), str):
        # The worker could not even read the request (bots/worker.py `handle`).
        raise WireError(f"the worker could not read request {expected_id}: {reply['error']}")
    if isinstance(rid, bool) or not isinstance(rid, int):
        raise WireError(f"the reply's 'id' is not an integer but {short_repr(rid)}")
    if rid != expected_id:
        raise WireError(f"the reply answered request {rid}, not {expected_id}")
    if "error" in reply:
        reason = reply["error"]
        if not isinstance(reason, str):
            raise WireError(f"the reply's 'error' is not text but {short_repr(reason)}")
        raise RefusedError(reason)
    return reply


def action_of(reply: Mapping[str, Any]) -> str:
    """The action text of a decision's reply (whether it is legal is the caller's to
    judge: only it holds the view)."""
    action = reply.get("action")
    if not isinstance(action, str):
        raise WireError(f"the reply's 'action' is not text but {short_repr(action)}")
    return action


@dataclass(frozen=True)
class Alternative:
    """The move a review judges better than the one played, and the chance after it."""

    action: str
    after: float
    error: float = 0.0


@dataclass(frozen=True)
class Review:
    """A move's review as a worker answers it (bots/review.py `review_move`)."""

    before: float
    after: float
    best: Alternative | None
    estimate: str
    kind: str = "action"
    forced: bool = False
    why: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """`review_move`'s reply, with the estimate: what match/reviewdoc.py makes a row of."""
        best = None
        if self.best is not None:
            best = {"action": self.best.action, "after": self.best.after, "error": self.best.error}
        return {
            "kind": self.kind,
            "forced": self.forced,
            "before": self.before,
            "after": self.after,
            "best": best,
            "why": self.why,
            "estimate": self.estimate,
        }


def _number(value: object) -> float | None:
    """A finite JSON number, else None. `true` is not one (Python says it is an int),
    and NaN is refused because the review goes on to browsers, whose JSON has none."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def review_of(reply: Mapping[str, Any]) -> Review:
    """The review a review request's reply holds."""
    before, after = _number(reply.get("before")), _number(reply.get("after"))
    if before is None or after is None:
        raise WireError(
            "the reply's chances are not numbers: before "
            f"{short_repr(reply.get('before'))}, after {short_repr(reply.get('after'))}"
        )
    best = reply.get("best")
    alternative = None
    if best is not None:
        text = best.get("action") if isinstance(best, dict) else None
        chance = _number(best.get("after")) if isinstance(best, dict) else None
        if not isinstance(text, str) or chance is None:
            raise WireError(
                f"the reply's 'best' is neither null nor {{action, after}}: {short_repr(best)}"
            )
        alternative = Alternative(text, chance, _number(best.get("error")) or 0.0)
    estimate = reply.get("estimate")
    if not isinstance(estimate, str):
        raise WireError(f"the reply's 'estimate' is not text but {short_repr(estimate)}")
    kind = reply.get("kind", "action")
    why = reply.get("why")
    if (
        not isinstance(kind, str)
        or not isinstance(reply.get("forced", False), bool)
        or not (
            why is None
            or (
                isinstance(why, dict)
                and str(why.get("key")).startswith("review.why.")
                and isinstance(why.get("params", {}), dict)
            )
        )
    ):
        raise WireError(f"the reply's kind, forced or why are malformed: {short_repr(reply)}")
    return Review(before, after, alternative, estimate, kind, bool(reply.get("forced")), why)


def _kind(doc: object) -> str:
    """A JSON value's kind, in JSON's words."""
    if doc is None:
        return "null"
    if isinstance(doc, bool):
        return "a boolean"
    if isinstance(doc, int | float):
        return "a number"
    if isinstance(doc, str):
        return "a string"
    return "a list"
