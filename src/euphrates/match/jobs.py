"""Job processes: a tournament's games played in parallel (`python -m euphrates.match.jobs`).

A job is a host: it deals each game it is given, keeps the true state, and seats the
bots in worker processes of its own, one per seat, kept from game to game. Jobs are
fresh interpreters started with `subprocess` (never forked from a process that holds a
state), die with the tournament (`bots.process`), and take their next game only when
they hand back the last, so a slow game never holds up the others.

Requests and replies are JSON lines:

    {"setup": {...}, "index": 12}
    -> {"index": 12, "result": {...}, "record_name": "game-00012.json", "record": "..."}
    -> {"index": 12, "error": "bot worker for greedy: exited without answering ..."}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from euphrates.bots.process import Child, ChildError, child_setup, ready, serve
from euphrates.bots.remote import WorkerProcess
from euphrates.core.errors import EuphratesError
from euphrates.match.hosting import GameResult, PlayedOne, Setup, play_one, seat_workers

JOB_MODULE = "euphrates.match.jobs"


class JobError(ChildError):
    """A job process failed, or a game it hosted did (a bot's worker died, say)."""


class _Host:
    """The job's side: the workers of its seats, replaced if one has died."""

    def __init__(self) -> None:
        self.workers: list[WorkerProcess] = []

    def handle(self, line: bytes) -> dict[str, Any]:
        index: Any = None
        try:
            request = json.loads(line)
            index = request["index"]
            setup = Setup.from_json(request["setup"])
            seat_workers(self.workers, setup.players)
            played = play_one(setup, int(index), self.workers)
        except (EuphratesError, ValueError, KeyError, TypeError) as e:
            return {"index": index, "error": str(e)}
        return {
            "index": index,
            "result": played.result.to_json(),
            "record_name": played.record_name,
            "record": played.record_text,
        }


def main(argv: Sequence[str] | None = None) -> int:
    requests, replies = child_setup(sys.argv[1:] if argv is None else argv)
    host = _Host()
    try:
        return serve(requests, replies, host.handle)
    finally:
        for w in host.workers:
            w.close(grace=0.5)


def run_in_jobs(
    setup: Setup, todo: Sequence[int], jobs: int, keep: Callable[[PlayedOne], None]
) -> None:
    """Play games `todo` in `jobs` job processes, handing each finished one to `keep` in
    the order they finish. On any failure or interruption the jobs are killed (their
    workers die with them) and the error goes on."""
    pending = list(todo)
    children = [Child(JOB_MODULE, f"tournament job {k}") for k in range(min(jobs, len(pending)))]
    busy: dict[Child, int] = {}
    try:

        def give(child: Child) -> None:
            index = pending.pop(0)
            child.send({"setup": setup.to_json(), "index": index})
            busy[child] = index

        for child in children:
            give(child)
        while busy:
            for child in list(ready(list(busy), None)):
                busy.pop(child)
                reply = child.receive(None)
                if "error" in reply:
                    raise JobError(str(reply["error"]))
                keep(
                    PlayedOne(
                        GameResult.from_json(reply["result"]),
                        str(reply["record_name"]),
                        str(reply["record"]),
                    )
                )
                if pending:
                    give(child)
    except ChildError as e:
        for child in children:
            child.close(grace=0)
        raise JobError(str(e)) from None
    except BaseException:
        for child in children:
            child.close(grace=0)
        raise
    for child in children:
        child.close()


if __name__ == "__main__":
    sys.exit(main())
