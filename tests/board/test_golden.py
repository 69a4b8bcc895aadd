"""Golden legal-action counts along fixed seeded games, as python-chess's perft counts:
any change in what is legal shows up here. Regenerate deliberately, after a rules
change has been reviewed, with `python -m tests.board.test_golden`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from euphrates.board import BOARD
from euphrates.core.rng import Rng

GOLDEN = Path(__file__).with_name("golden_counts.json")
CASES = [(p, s, adv) for p in (2, 3, 4) for s in (1, 2, 3) for adv in (False,)] + [
    (3, 4, True),
    (4, 5, True),
]
DECISIONS = 80


def counts(players: int, seed: int, advanced: bool) -> list[int]:
    game = BOARD.new_game(players, seed, {"advanced": advanced})
    rng = Rng(seed * 1_000_003 + players)
    out = []
    for _ in range(DECISIONS):
        if game.is_over():
            break
        out.append(game.legal_action_count())
        game.apply(game.random_action(rng))
    return out


def key(players: int, seed: int, advanced: bool) -> str:
    return f"{players}p-seed{seed}-{'advanced' if advanced else 'standard'}"


@pytest.mark.parametrize(("players", "seed", "advanced"), CASES)
def test_golden_legal_action_counts(players: int, seed: int, advanced: bool) -> None:
    golden = json.loads(GOLDEN.read_text())
    assert counts(players, seed, advanced) == golden[key(players, seed, advanced)]


def test_first_decision_counted_by_hand() -> None:
    """The opening count, worked out from board-map.md alone: tiles on any empty square
    of their kind (B-12), leaders on land next to a temple (B-8), catastrophes anywhere
    but on the treasures' temples (B-15), every distinct discard (B-16), and pass."""
    rows = [
        "....~~~~~.T.~...",
        ".C..~.......~..C",
        "...~~T......~~..",
        "~~~~.........~~~",
        ".............T~~",
        "..............~.",
        "~~~~....T...~~~.",
        ".C.~~~~.....~...",
        "......~~~~~~~.C.",
        ".....T..........",
        "..........T.....",
    ]
    temples = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in "TC"}
    river = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "~"}
    land = {(x, y) for x in range(16) for y in range(11)} - river - temples
    beside = {(x + dx, y + dy) for x, y in temples for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    leader_squares = len(land & beside)
    game = BOARD.new_game(2, 1)
    hand = game.hands[game.active]
    tiles = sum(len(river) if c == 1 else len(land) for c in range(4) if hand[c])
    swaps = (hand[0] + 1) * (hand[1] + 1) * (hand[2] + 1) * (hand[3] + 1) - 1
    expected = tiles + 4 * leader_squares + (176 - len(temples)) + swaps + 1
    assert game.legal_action_count() == expected


if __name__ == "__main__":
    table = {key(*case): counts(*case) for case in CASES}
    lines = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
    GOLDEN.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {GOLDEN}")
