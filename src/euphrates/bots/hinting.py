"""The hint's bot (`hint:1s`): the strong level's move, checked by the review.

A hint is the game's search at the strong level's budget (`search:1s`), and then the
move the review (bots/review.py) would judge it as: where the review would flag it, the
better move the review names is given instead, and checked the same way (at most
`CHECKS` times), so that a hint is never a move the review of the game would flag on the
same worlds. The check costs a second or a few more, on the hint's worker.

`hint:1s:read` (the server's) hands both the history beside the view: in the card game
the search and the check then imagine the hidden hands as read from the table
(bots/inference.py), as the game's review does, so that a hint is judged as the review
will judge it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.review import review_move
from euphrates.core.protocol import GameDefinition, View

CHECKS = 4


class HintBot(Bot):
    name = "hint"

    def __init__(
        self, seed: int, budget: str, search: Callable[[str], Bot], reads: bool = False
    ) -> None:
        """`search(game)` makes the game's search at `budget` (given by bots/levels.py,
        which knows every level); `reads`: the search and the check read the table from
        the history beside the view, where the game's are read (`hint:1s:read`)."""
        super().__init__(seed)
        self.budget = budget
        self.search = search
        self.reads_history = reads
        self.last_iterations = 0

    def describe(self) -> str:
        return f"hint:{self.budget}" + (":read" if self.reads_history else "")

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        search = self.search(game.name)
        action = search.choose(game, view)
        self.last_iterations = int(getattr(search, "last_iterations", 0))
        return checked(game.name, view, action, self.seed)


def checked(game: str, view: View, action: str, seed: int) -> str:
    """`action`, or the better move the review names for it (see the docstring)."""
    for _ in range(CHECKS):
        judged = review_move(game, view, action, seed)
        if judged["best"] is None:
            return action
        action = str(judged["best"]["action"])
    return action
