"""Final scoring shared by both games (B-32, C-18).

Each treasure is a wildcard a player assigns to a colour to maximise their own
ranking. Players compare their weakest colour first, then the next weakest, and so
on; adding each wildcard to the currently weakest colour maximises that sorted vector
(it is the greedy "water filling" that maximises every prefix of the sorted scores).
"""

from __future__ import annotations

from collections.abc import Sequence

from euphrates.core.protocol import Outcome


def assign_wildcards(points: Sequence[int], wildcards: int) -> tuple[int, ...]:
    """How many wildcards go to each colour: each to the currently weakest colour
    (the lowest colour index among equals, so the result is deterministic)."""
    totals = list(points)
    given = [0] * len(points)
    for _ in range(wildcards):
        weakest = min(range(len(totals)), key=lambda c: (totals[c], c))
        totals[weakest] += 1
        given[weakest] += 1
    return tuple(given)


def rank_key(totals: Sequence[int]) -> tuple[int, ...]:
    """Sort key: the colours from weakest to strongest; larger is better."""
    return tuple(sorted(totals))


def final_outcome(points: Sequence[Sequence[int]], wildcards: Sequence[int]) -> Outcome:
    """Assign every player's wildcards, then place the players (equal results share)."""
    assigned = [assign_wildcards(p, w) for p, w in zip(points, wildcards, strict=True)]
    totals = [
        tuple(p + a for p, a in zip(ps, ws, strict=True))
        for ps, ws in zip(points, assigned, strict=True)
    ]
    keys = [rank_key(t) for t in totals]
    places = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
    return Outcome(
        points=tuple(tuple(p) for p in points),
        wildcards=tuple(assigned),
        totals=tuple(totals),
        places=places,
    )
