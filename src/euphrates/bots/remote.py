"""A bot in a worker process of its own: the one way a host seats a bot.

A bot that runs in the host's process can read the true state through its caller's
frames or `gc.get_objects()`, whatever its view says. `RemoteBot` keeps the bot in a
`euphrates.bots.worker` process and sends it nothing but views, one process per seat,
so two bots never share a process and never see each other's views. It checks that
each answer is one of the view's legal actions; a worker that dies, hangs or answers
garbage (anything `bots.wire` refuses) raises a `BotError` naming the bot.

Each decision is a stateless request with a seed of its own, drawn from the bot's seed
and the decision's number (`seeds.decision_seed`), so a seeded game with iteration
budgets replays exactly although the worker keeps nothing between requests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.levels import make_bot, timeout_for
from euphrates.bots.process import Child, ChildError
from euphrates.bots.wire import RefusedError, WireError, action_of, decision_request
from euphrates.core.protocol import GameDefinition, View, check_seed
from euphrates.core.seeds import decision_seed

WORKER_MODULE = "euphrates.bots.worker"


class BotError(ChildError):
    """A bot's worker died, took too long, or answered something that is not legal."""


class WorkerProcess(Child):
    """One `euphrates.bots.worker` process. `command` replaces `python -m
    euphrates.bots.worker` (tests start a bootstrap that registers bots of their own)."""

    def __init__(
        self,
        label: str = "its worker",
        *,
        command: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(WORKER_MODULE, label, command=command, env=env)


class RemoteBot(Bot):
    """`spec` played by a worker process. The bot owns its worker unless one is passed
    in (`worker`, a tournament's seat reused from game to game); `close()` ends an owned
    worker, and a RemoteBot is a context manager that does so.

    `timeout` bounds each decision (default: generous for the bot's budget, see
    `levels.timeout_for`); it is there to catch a hung worker, not to pace play.
    """

    def __init__(
        self,
        spec: str,
        seed: int = 0,
        *,
        timeout: float | None = None,
        worker: WorkerProcess | None = None,
        command: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(check_seed(seed))
        self.spec = spec
        if command is None:
            local = make_bot(spec)  # refuse a bad name before starting a process
            self.name = local.describe()
            self.reads_history = local.reads_history
            default_timeout = timeout_for(spec)
        else:  # a bootstrap may serve bots the host does not know; the worker checks
            self.name = spec
            self.reads_history = True  # it may read it: the host cannot tell
            default_timeout = None
        self.timeout = timeout if timeout is not None else default_timeout
        self._owned = worker is None
        self.worker = worker or WorkerProcess(command=command, env=env)
        self.decisions = 0
        self.last_iterations = 0
        self.total_iterations = 0

    def reseed(self, seed: int) -> None:
        super().reseed(check_seed(seed))
        self.decisions = 0

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        seed = decision_seed(self.seed, self.decisions)
        request = decision_request(game.name, self.spec, seed, view)
        self.decisions += 1
        try:
            reply = self.worker.ask(request, self.timeout)
            action = action_of(reply)
        except RefusedError as e:
            raise BotError(f"bot {self.name} could not decide: {e.reason}") from None
        except (ChildError, WireError) as e:
            raise BotError(f"bot {self.name}: {e}") from e
        if action not in legal:
            raise BotError(
                f"bot {self.name} answered {action!r}, which is not one of the "
                f"{len(legal)} legal actions"
            )
        iterations = reply.get("iterations")
        if isinstance(iterations, int) and not isinstance(iterations, bool):
            self.last_iterations = iterations
            self.total_iterations += iterations
        return action

    def describe(self) -> str:
        return self.name

    def close(self) -> None:
        if self._owned:
            self.worker.close()

    def __enter__(self) -> RemoteBot:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def spawn_bot(spec: str, seed: int, timeout: float | None = None) -> RemoteBot:
    """A bot by name (`random`, `greedy`, `mcts:1s`, a level) in a worker of its own:
    what the terminal client and the server seat. Close it (or use `with`) when done."""
    return RemoteBot(spec, seed, timeout=timeout)
