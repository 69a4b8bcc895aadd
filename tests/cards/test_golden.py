"""Golden legal-action counts along fixed seeded random games, as python-chess's perft
counts: any change in what is legal shows up here. Regenerate deliberately, after a
rules change has been reviewed, with `python -m tests.cards.test_golden`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from euphrates.cards import CARDS
from euphrates.core.rng import Rng

GOLDEN = Path(__file__).with_name("golden_counts.json")
CASES = [(p, s) for p in (2, 3, 4) for s in (1, 2, 3)]
DECISIONS = 60


def counts(players: int, seed: int) -> list[int]:
    s = CARDS.new_game(players, seed)
    rng = Rng(1000 + seed)
    out = []
    for _ in range(DECISIONS):
        out.append(s.legal_action_count())
        s.apply(s.random_action(rng))
    return out


def key(players: int, seed: int) -> str:
    return f"{players}p-seed{seed}"


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_golden_legal_action_counts(players: int, seed: int) -> None:
    """Like perft: the number of legal actions at each of the first 60 decisions."""
    golden = json.loads(GOLDEN.read_text())
    assert counts(players, seed) == golden[key(players, seed)]


if __name__ == "__main__":
    table = {key(*case): counts(*case) for case in CASES}
    lines = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
    GOLDEN.write_text("{\n" + lines + "\n}\n")
    print(f"wrote {GOLDEN}")
