"""Win rates with confidence intervals, and ratings from game results.

Two-player fields get a Bradley–Terry fit (Hunter's MM algorithm), reported on the Elo
scale; three- and four-player fields get OpenSkill's Plackett–Luce ratings, which are
made for multiplayer rankings. Both are computed per bot name: two seats with the
same bot and budget are one entrant.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (a shared win counts as a fraction)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry_elo(
    names: Sequence[str], results: Sequence[tuple[str, str, float]], iterations: int = 500
) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) from pairwise results (a, b, score of a in [0, 1]).

    A prior of one draw against a virtual average player keeps an unbeaten or winless
    bot's rating finite."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.5] * k  # the prior draw
    pairs: dict[tuple[int, int], float] = {}
    for a, b, score in results:
        i, j = idx[a], idx[b]
        if i == j:
            continue
        wins[i] += score
        wins[j] += 1 - score
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0.0) + 1
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denom = 1.0 / (strength[i] + 1.0)  # the virtual opponent of strength 1
            for (x, y), n in pairs.items():
                if x == i or y == i:
                    other = y if x == i else x
                    denom += n / (strength[i] + strength[other])
            new.append(wins[i] / denom)
        geo = math.exp(sum(math.log(s) for s in new) / k)
        strength = [s / geo for s in new]
    return {n: 1500 + 400 * math.log10(strength[idx[n]]) for n in names}


def openskill_ratings(
    names: Sequence[str], games: Sequence[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, float]:
    """OpenSkill (Plackett–Luce) ordinal ratings (mu − 3 sigma) from multiplayer games,
    each given as (entrants by seat, places by seat). Entrants sharing a name share a
    rating, so each game is rated as teams of one per seat and the name's rating is
    updated by the mean of its seats' updates."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    for entrants, places in games:
        teams = [[model.rating(mu=ratings[e].mu, sigma=ratings[e].sigma)] for e in entrants]
        rated = model.rate(teams, ranks=list(places))
        sums: dict[str, list[tuple[float, float]]] = {}
        for e, team in zip(entrants, rated, strict=True):
            sums.setdefault(e, []).append((team[0].mu, team[0].sigma))
        for e, vals in sums.items():
            ratings[e].mu = sum(v[0] for v in vals) / len(vals)
            ratings[e].sigma = sum(v[1] for v in vals) / len(vals)
    return {n: float(r.ordinal()) for n, r in ratings.items()}


# --- ratings of people and bots on one scale (server/ratings.py, match/ladder.py) ------

MU = 25.0
SIGMA = MU / 3
"""OpenSkill's defaults: a newcomer's μ and σ."""
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
"""The shown rating is 1000 + 40 × (μ − 3σ): OpenSkill's conservative ordinal, which a
newcomer starts at 0 (shown 1000) and which rises as σ narrows and μ grows. One unit of
μ is 40 points, so β = 25/6 (the skill difference that makes a win about 76 % likely
between two players) is some 167 points, close to what Elo gives 76 %."""
PROVISIONAL_GAMES = 10
"""A rating is provisional until this many rated games in its game and group: by then
σ has narrowed from 8.3 to about 4 against players of any strength."""


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def group_of(players: int) -> str:
    """A game's player-count group: "2" or "3-4". A two-player game is a duel, where
    blocking and tempo decide; with three or four, leading draws the others' conflicts
    and kingmaking matters, so one number for both would mean neither."""
    return "2" if players == 2 else "3-4"


def rate_game(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one game (Plackett–Luce over the full finishing order): each
    seat a team of one, `places` by seat (1 first; equal places are ties, B-32/C-18)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [Rating(float(t[0].mu), float(t[0].sigma)) for t in rated]


def places_with_abandons(places: Sequence[int], abandoned: Sequence[int]) -> list[int]:
    """The places a rating counts: the seats that stayed keep their order from the
    engine's result (ties shared), below them the seats that abandoned, the earliest
    to leave last (`abandoned`: seats in the order they left; as BGA places them)."""
    stayed = [s for s in range(len(places)) if s not in abandoned]
    out = [0] * len(places)
    for s in stayed:
        out[s] = 1 + sum(1 for o in stayed if places[o] < places[s])
    below = len(stayed)
    for i, s in enumerate(reversed(list(dict.fromkeys(abandoned)))):
        out[s] = below + 1 + i
    return out
