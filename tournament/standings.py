"""Running tallies of a run, kept by the driver as games are folded in:
what the live display, the final table and the SPRT read.

Everything is kept aggregated (games and points per colour cell, W/D/L,
pentanomial counts of the first two engines), so that folding a game and
reading the tallies cost the same after ten games as after ten thousand.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from .model import PlayedGame
from .sprt import Sprt
from .stats import LN10_400, Cells, Estimate, RatingError, fit_cells, pentanomial_elo

Z95 = 1.959964


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
    """Games folded so far, by variant, with tallies per engine. The SPRT
    and the head-to-head figures are those of the first engine against
    the second (new against base)."""

    def __init__(self, engines: list[str], variants: list[str], anchor: str | None = "random",
                 sprt: Sprt | None = None) -> None:
        self.engines = engines
        self.variants = variants
        self.anchor = anchor
        self.sprt = sprt
        self.cells: dict[str, dict[tuple[str, str], list[float]]] = defaultdict(dict)
        self.wdl: dict[str, dict[str, list[int]]] = defaultdict(lambda: {e: [0, 0, 0] for e in engines})
        self.terminations: Counter[str] = Counter()
        self.failures: Counter[tuple[str, str]] = Counter()  # (engine, termination)
        self.head = [0, 0, 0]  # W/D/L of engines[0] against engines[1]
        self.pentanomial = [0] * 5
        # (a, b) in entry order -> [wins, losses, draws] of a against b, every variant
        self.pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
        self._open_pairs: dict[tuple[str, int], float] = {}
        self.done = 0
        self.decision: str | None = None

    def add(self, record: PlayedGame) -> None:
        p = record.planned
        points = record.south_points
        cell = self.cells[p.variant].setdefault((p.south, p.north), [0.0, 0.0])
        cell[0] += 1
        cell[1] += points
        for name, pts in ((p.south, points), (p.north, 1 - points)):
            self.wdl[p.variant][name][_wdl_index(pts)] += 1
        self.terminations[record.termination] += 1
        a, b = self.pair_of(p.south, p.north)
        points_a = points if a == p.south else 1 - points
        self.pairs[a, b][0 if points_a == 1 else 1 if points_a == 0 else 2] += 1
        if record.loser:
            self.failures[record.loser, record.termination] += 1
        if len(self.engines) >= 2 and {p.south, p.north} == set(self.engines[:2]):
            first = points if p.south == self.engines[0] else 1 - points
            self.head[_wdl_index(first)] += 1
            key = (p.variant, p.pair)
            if key in self._open_pairs:
                self.pentanomial[round(2 * (first + self._open_pairs.pop(key)))] += 1
            else:
                self._open_pairs[key] = first
        self.done += 1

    def pair_of(self, x: str, y: str) -> tuple[str, str]:
        """The two engines in the order they were entered."""
        order = {e: i for i, e in enumerate(self.engines)}
        return (x, y) if order.get(x, 0) <= order.get(y, 0) else (y, x)

    def rows(self, variant: str | None = None) -> list[Row]:
        """One row per engine, best first: W/D/L and the maximum-likelihood
        Elo with a normal-approximation interval (the final table uses the
        bootstrap). With no variant, W/D/L over all and no Elo."""
        variants = [variant] if variant else self.variants
        wdl = {e: [sum(self.wdl[v][e][i] for v in variants) for i in range(3)] for e in self.engines}
        ratings: dict[str, float] = {}
        errors: dict[str, float] = {}
        if variant is not None:
            ratings, errors = self._ratings(variant)
        rows = [Row(e, sum(wdl[e]), wdl[e][0], wdl[e][1], wdl[e][2], ratings.get(e), errors.get(e))
                for e in self.engines]
        rows.sort(key=lambda r: (-(r.elo if r.elo is not None else -math.inf), -r.wins, r.name))
        return rows

    def _ratings(self, variant: str) -> tuple[dict[str, float], dict[str, float]]:
        named = self.cells.get(variant, {})
        players = sorted({s for s, _ in named} | {n for _, n in named})
        if len(players) < 2:
            return {}, {}
        index = {p: i for i, p in enumerate(players)}
        cells: Cells = {(index[s], index[n]): list(v) for (s, n), v in named.items()}
        anchor = self.anchor if self.anchor in index else None
        try:
            ratings, advantage, _ = fit_cells(cells, players, anchor, True, 1.0)
        except (RatingError, ZeroDivisionError):
            return {}, {}
        return ratings, _errors(cells, players, ratings, advantage, anchor)

    def penta(self) -> list[int]:
        """Pentanomial counts of the first engine against the second."""
        return list(self.pentanomial)

    def llr(self) -> float:
        return self.sprt.llr(self.pentanomial) if self.sprt else 0.0

    def head_to_head(self) -> Estimate:
        return pentanomial_elo(self.pentanomial)

    def check_sprt(self) -> str | None:
        if self.sprt and self.decision is None:
            self.decision = self.sprt.decision(self.pentanomial)
        return self.decision


def _wdl_index(points: float) -> int:
    return 0 if points == 1 else 2 if points == 0 else 1


def _errors(cells: Cells, players: list[str], ratings: dict[str, float], advantage: float,
            anchor: str | None) -> dict[str, float]:
    """Normal-approximation 95% half-widths from the curvature of the
    likelihood at its maximum (the first-move term held at its fit). With
    no anchor the ratings are measured from the last player, then
    re-centred on the mean."""
    index = {p: i for i, p in enumerate(players)}
    fixed = index[anchor] if anchor is not None else len(players) - 1
    free = [i for i in range(len(players)) if i != fixed]
    pos = {i: j for j, i in enumerate(free)}
    k = len(free)
    info = [[0.0] * k for _ in range(k)]
    r = [ratings[p] * LN10_400 for p in players]
    h = advantage * LN10_400
    for (s, n), (games, _) in cells.items():
        e = 1.0 / (1.0 + math.exp(-(r[s] - r[n] + h)))
        w = games * e * (1.0 - e)
        for a, sa in ((s, 1.0), (n, -1.0)):
            for b, sb in ((s, 1.0), (n, -1.0)):
                if a in pos and b in pos:
                    info[pos[a]][pos[b]] += sa * sb * w
    try:
        cov = _invert(info)
    except ZeroDivisionError:
        return {}
    errors = {}
    count = len(players)
    for p, i in index.items():
        if anchor is not None:
            weights = {i: 1.0} if i in pos else {}
        else:  # r_p - mean(r), with the fixed player's r = 0
            weights = {q: (1.0 if q == i else 0.0) - 1.0 / count for q in pos}
        var = sum(wa * wb * cov[pos[a]][pos[b]] for a, wa in weights.items() for b, wb in weights.items())
        errors[p] = Z95 * math.sqrt(max(var, 0.0)) / LN10_400
    return errors


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
