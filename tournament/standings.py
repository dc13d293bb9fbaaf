"""Running tallies of a run, kept by the driver as games are folded in:
what the live display, the final table and the SPRT read."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from .model import PlayedGame
from .sprt import Sprt
from .stats import Estimate, GameScore, RatingError, fit, matchup, pentanomial_elo


@dataclass
class Row:
    name: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None  # maximum-likelihood Elo against the anchor (or the mean)
    error: float | None  # half-width of a normal-approximation 95% interval


class Standings:
    """Games folded so far, by variant, with tallies per engine."""

    def __init__(self, engines: list[str], variants: list[str], anchor: str | None = "random",
                 sprt: Sprt | None = None) -> None:
        self.engines = engines
        self.variants = variants
        self.anchor = anchor
        self.sprt = sprt
        self.scores: dict[str, list[GameScore]] = defaultdict(list)
        self.terminations: Counter[str] = Counter()
        self.failures: Counter[tuple[str, str]] = Counter()  # (engine, termination)
        self.done = 0
        self.decision: str | None = None

    def add(self, record: PlayedGame) -> None:
        p = record.planned
        self.scores[p.variant].append(GameScore(p.south, p.north, record.south_points, p.pair))
        self.terminations[record.termination] += 1
        if record.loser:
            self.failures[record.loser, record.termination] += 1
        self.done += 1

    def all_scores(self) -> list[GameScore]:
        return [g for v in self.variants for g in self.scores.get(v, [])]

    def rows(self, variant: str | None = None) -> list[Row]:
        """One row per engine, best first (over every variant when
        ``variant`` is None; the Elo is then per-variant-free)."""
        games = self.scores.get(variant, []) if variant else self.all_scores()
        wdl = {e: [0, 0, 0] for e in self.engines}
        for g in games:
            for name, pts in ((g.south, g.points), (g.north, 1 - g.points)):
                wdl[name][0 if pts == 1 else 2 if pts == 0 else 1] += 1
        ratings: dict[str, float] = {}
        errors: dict[str, float] = {}
        players = sorted({g.south for g in games} | {g.north for g in games})
        if len(players) >= 2:
            anchor = self.anchor if self.anchor in players else None
            try:
                ratings, _, _, errors = _fit_with_errors(games, players, anchor)
            except RatingError:
                ratings = {}
        rows = [Row(e, sum(wdl[e]), wdl[e][0], wdl[e][1], wdl[e][2], ratings.get(e), errors.get(e))
                for e in self.engines]
        rows.sort(key=lambda r: (-(r.elo if r.elo is not None else -math.inf), -r.wins, r.name))
        return rows

    def penta(self) -> list[int]:
        """Pentanomial counts of the first engine against the second (SPRT)."""
        if len(self.engines) < 2:
            return [0] * 5
        return matchup(self.all_scores(), self.engines[0], self.engines[1]).penta

    def llr(self) -> float:
        return self.sprt.llr(self.penta()) if self.sprt else 0.0

    def head_to_head(self) -> Estimate:
        return pentanomial_elo(self.penta())

    def check_sprt(self) -> str | None:
        if self.sprt and self.decision is None:
            self.decision = self.sprt.decision(self.penta())
        return self.decision


def _fit_with_errors(games: list[GameScore], players: list[str], anchor: str | None):
    """The fit plus a normal-approximation 95% half-width per player, from
    the curvature of the likelihood (cheap enough for every game; the final
    table uses the bootstrap)."""
    ratings, advantage, regularised = fit(games, players, anchor)
    errors: dict[str, float] = {}
    # Observed information of the ratings (first-move term held at its fit).
    from .stats import LN10_400

    index = {p: i for i, p in enumerate(players)}
    # with no anchor, measure from the last player, then re-centre on the mean
    fixed = index[anchor] if anchor is not None else len(players) - 1
    free = [p for p in players if index[p] != fixed]
    pos = {p: j for j, p in enumerate(free)}
    k = len(free)
    info = [[0.0] * k for _ in range(k)]
    h = advantage * LN10_400
    for g in games:
        x = (ratings[g.south] - ratings[g.north]) * LN10_400 + h
        e = 1.0 / (1.0 + math.exp(-x))
        w = e * (1.0 - e)
        for a, sa in ((g.south, 1.0), (g.north, -1.0)):
            if a not in pos:
                continue
            for b, sb in ((g.south, 1.0), (g.north, -1.0)):
                if b in pos:
                    info[pos[a]][pos[b]] += sa * sb * w
    try:
        cov = _invert(info)
    except ZeroDivisionError:
        return ratings, advantage, regularised, errors
    n = len(players)

    def variance(weights: dict[str, float]) -> float:
        return sum(weights.get(a, 0) * weights.get(b, 0) * cov[pos[a]][pos[b]]
                   for a in pos for b in pos)

    for p in players:
        if anchor is not None:
            weights = {p: 1.0} if p in pos else {}
        else:  # r_p - mean(r), with the fixed player's r = 0
            weights = {q: (1.0 if q == p else 0.0) - 1.0 / n for q in pos}
        var = variance(weights)
        errors[p] = 1.959964 * math.sqrt(max(var, 0.0)) / LN10_400
    return ratings, advantage, regularised, errors


def _invert(m: list[list[float]]) -> list[list[float]]:
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ZeroDivisionError("singular")
        a[col], a[pivot] = a[pivot], a[col]
        d = a[col][col]
        a[col] = [x / d for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [row[n:] for row in a]
