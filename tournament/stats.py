"""Ratings and match statistics from game results.

(Past 600 lines: the match statistics, the rating fit and its bootstrap
read the same GameScore values and intervals; apart, each would carry a
copy of them.)

Ratings are Bradley-Terry (logistic) Elo fitted by maximum likelihood over
every game, with one extra parameter for the first player's advantage: in a
game between South ``s`` and North ``n`` South's expected score is

    E = 1 / (1 + 10 ** (-(r_s - r_n + h) / 400))

and a draw counts as half a win (the likelihood of a game scoring ``x`` for
South is E**x * (1 - E)**(1 - x), as in Ordo). The ratings are anchored: one
named player is fixed at 0 (bingwa anchors to ``random``), or, with no
anchor, the mean rating is 0.

When some player won or lost every game the maximum-likelihood ratings are
infinite. The fit then adds one virtual draw between every two players who
met (half with each colour) and says so in ``Ratings.regularised``; the
point estimate is otherwise the plain maximum-likelihood one.

95% intervals come from a bootstrap over game pairs: the two games of one
opening with colours swapped are resampled together, stratified by the two
engines that played them (the schedule fixed how many pairs each matchup
plays), and refitted. Pentanomial counts, W/D/L and the likelihood of
superiority describe one matchup at a time.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

LN10_400 = math.log(10) / 400  # Elo points to natural logistic units
NELO_SCALE = 800 / math.log(10)  # normalised Elo per unit of t-value
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # pentanomial outcomes, per game


class RatingError(ValueError):
    """Ratings asked for data that cannot give them (no games, an anchor
    nobody knows, players nobody connects)."""


class GameScore(NamedTuple):
    """One finished game as the ratings see it: the two players, South's
    points (1, 0.5 or 0) and the unit it is resampled with (the pair key:
    the two colour-swapped games of one opening share it; None = alone)."""

    south: str
    north: str
    points: float
    pair: Hashable = None


# -- elementary formulas ------------------------------------------------------
def elo_from_score(score: float) -> float:
    """Elo difference for an expected score in (0, 1): -400 log10(1/s - 1).
    Infinite at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def signed_elo(value: float) -> str:
    """An Elo figure as people read it: with its sign, no decimals, and
    never ``-0``."""
    return f"{round(value):+d}" if math.isfinite(value) else f"{value:+}"


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """P(the player is stronger) from wins and losses (draws carry no
    information): 1/2 (1 + erf((W - L) / sqrt(2 (W + L))))."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def normal_quantile(p: float) -> float:
    """The standard normal distribution's quantile (bisection on erf: the
    few calls made do not need a closed-form approximation)."""
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class MatchElo:
    """Elo of one engine over another from W/L/D, as cutechess computes
    and prints it (a normal interval on the mean game score, mapped to
    Elo; LOS from wins and losses)."""

    difference: float
    margin: float
    los: float
    draw_ratio: float
    # every game scored the same (one side won them all, or all drawn): the
    # normal interval has no width, so Wilson's bounds it, as the ratings
    # do; after all wins or all losses it is open on one side
    low: float | None = None
    high: float | None = None

    @classmethod
    def from_wld(cls, wins: int, losses: int, draws: int) -> MatchElo:
        n = wins + losses + draws
        if n == 0:
            return cls(0.0, math.inf, 0.5, 0.0)
        w, lo, d = wins / n, losses / n, draws / n
        mu = w + d / 2
        los = likelihood_of_superiority(wins, losses)
        z = normal_quantile(0.975)
        if wins == n or losses == n or draws == n:
            low, high = wilson_interval(mu, n, z)
            return cls(elo_from_score(mu), (elo_from_score(high) - elo_from_score(low)) / 2, los, d,
                       elo_from_score(low), elo_from_score(high))
        stdev = math.sqrt(w * (1 - mu) ** 2 + lo * mu ** 2 + d * (0.5 - mu) ** 2) / math.sqrt(n)
        margin = (elo_from_score(mu + z * stdev) - elo_from_score(mu - z * stdev)) / 2
        return cls(elo_from_score(mu), margin, los, d)

    def line(self) -> str:
        tail = f"LOS: {100 * self.los:.1f} %, DrawRatio: {100 * self.draw_ratio:.1f} %"
        if self.low is not None and self.high is not None and not math.isfinite(self.difference):
            # one side won every game: the interval the ratings print for a perfect score
            return (f"Elo difference: [{signed_elo(self.low)}, {signed_elo(self.high)}] "
                    f"one-sided, {tail}")
        return f"Elo difference: {self.difference:.1f} +/- {self.margin:.1f}, {tail}"


@dataclass(frozen=True)
class Estimate:
    """A value with a 95% interval."""

    value: float
    low: float
    high: float

    @property
    def error(self) -> float:
        """Half the interval's width (the ``±`` people read)."""
        return (self.high - self.low) / 2


def wilson_interval(score: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a mean score over ``n`` games (or
    pairs): unlike the normal one it keeps a width at 0 % and 100 %
    (n / (n + z^2) is the lower bound after n wins out of n)."""
    if n <= 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if score <= 0 else low), (1.0 if score >= 1 else high)


def _score_interval(mean: float, var: float, n: int, z: float) -> tuple[float, float]:
    """The normal interval of a mean score; Wilson's when every game (or
    pair) scored the same, where the normal one has no width at all."""
    if var <= 0:
        return wilson_interval(mean, n, z)
    half = z * math.sqrt(var / n)
    return mean - half, mean + half


def _mean_var(counts: Sequence[float], values: Sequence[float]) -> tuple[int, float, float]:
    total = sum(counts)
    if total <= 0:
        return 0, 0.5, 0.0
    mean = sum(c * v for c, v in zip(counts, values)) / total
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / total
    return int(total), mean, var


def pentanomial_elo(penta: Sequence[int], z: float = 1.959964) -> Estimate:
    """Logistic Elo with its 95% interval from pentanomial counts (the
    variance of the mean comes from the pairs, as fastchess reports it)."""
    pairs, mean, var = _mean_var(penta, PAIR_SCORES)
    if pairs == 0:
        return Estimate(0.0, -math.inf, math.inf)
    low, high = _score_interval(mean, var, pairs, z)
    return Estimate(elo_from_score(mean), elo_from_score(low), elo_from_score(high))


def pentanomial_nelo(penta: Sequence[int], z: float = 1.959964) -> Estimate:
    """Normalised Elo, (s - 1/2) / sigma * 800 / ln 10 with sigma per game
    = sqrt(2) x the standard deviation of the pair score, and its 95%
    interval."""
    pairs, mean, var = _mean_var(penta, PAIR_SCORES)
    if pairs == 0 or var <= 0:
        return Estimate(0.0, -math.inf, math.inf)
    sigma = math.sqrt(2.0 * var)
    value = (mean - 0.5) / sigma * NELO_SCALE
    half = z * math.sqrt(var / pairs) / sigma * NELO_SCALE
    return Estimate(value, value - half, value + half)


# -- one matchup ----------------------------------------------------------------
@dataclass
class Matchup:
    """What ``player`` did against ``opponent``: W/D/L over every game and
    pentanomial counts [LL, LD, WL+DD, WD, WW] over complete pairs."""

    player: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5

    @property
    def los(self) -> float:
        return likelihood_of_superiority(self.wins, self.losses)

    def elo(self) -> Estimate:
        """Elo of ``player`` over ``opponent`` from the pentanomial counts
        (from W/D/L when no pair is complete)."""
        if sum(self.penta):
            return pentanomial_elo(self.penta)
        n, mean, var = _mean_var([self.losses, self.draws, self.wins], (0.0, 0.5, 1.0))
        if n == 0:
            return Estimate(0.0, -math.inf, math.inf)
        low, high = _score_interval(mean, var, n, 1.959964)
        return Estimate(elo_from_score(mean), elo_from_score(low), elo_from_score(high))


def matchup(games: Iterable[GameScore], player: str, opponent: str) -> Matchup:
    """W/D/L and pentanomial counts of ``player`` against ``opponent``."""
    result = Matchup(player, opponent)
    by_pair: dict[Hashable, list[float]] = defaultdict(list)
    for g in games:
        if {g.south, g.north} != {player, opponent} or player == opponent:
            continue
        points = g.points if g.south == player else 1.0 - g.points
        if points == 1.0:
            result.wins += 1
        elif points == 0.0:
            result.losses += 1
        else:
            result.draws += 1
        if g.pair is not None:
            by_pair[g.pair].append(points)
    for pair_points in by_pair.values():
        if len(pair_points) == 2:
            result.penta[round(2 * sum(pair_points))] += 1
    return result


def matchups(games: Sequence[GameScore], order: Sequence[str]) -> list[Matchup]:
    """The matchup of every two engines that met, each pair once, in
    ``order`` (the earlier engine as the player): the tables' rows."""
    met = (matchup(games, a, b) for i, a in enumerate(order) for b in order[i + 1:])
    return [m for m in met if m.games]


def pentanomial(games: Iterable[GameScore], player: str, opponent: str) -> list[int]:
    return matchup(games, player, opponent).penta


# -- the rating fit -----------------------------------------------------------
def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are tiny)."""
    n = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ZeroDivisionError("singular system")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


Cells = dict[tuple[int, int], list[float]]  # (south, north) -> [games, south's points]


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


def _loglik(cells: Cells, r: list[float], h: float) -> float:
    total = 0.0
    for (s, n), (games, points) in cells.items():
        x = r[s] - r[n] + h
        total += points * _log_sigmoid(x) + (games - points) * _log_sigmoid(-x)
    return total


class _Diverged(Exception):
    pass


def _newton(cells: Cells, k: int, anchor: int | None, first_move: bool,
            start: tuple[list[float], float] | None = None) -> tuple[list[float], float]:
    """Maximise the likelihood over ratings (natural units) and the
    first-player term. The free parameters are every rating but the
    anchor's (or all but the last, re-centred at the end, with no anchor)
    and h. Raises _Diverged when the maximum is at infinity."""
    fixed = anchor if anchor is not None else k - 1
    free = [i for i in range(k) if i != fixed]
    index = {p: j for j, p in enumerate(free)}
    dim = len(free) + (1 if first_move else 0)
    r, h = ([0.0] * k, 0.0) if start is None else (list(start[0]), start[1] if first_move else 0.0)
    r = [x - r[fixed] for x in r]  # the fixed player sits at 0
    current = _loglik(cells, r, h)
    for _ in range(100):
        grad = [0.0] * dim
        hess = [[0.0] * dim for _ in range(dim)]
        for (s, n), (games, points) in cells.items():
            e = 1.0 / (1.0 + math.exp(-(r[s] - r[n] + h)))
            g = points - games * e
            w = games * e * (1.0 - e)
            terms = []
            if s in index:
                terms.append((index[s], 1.0))
            if n in index:
                terms.append((index[n], -1.0))
            if first_move:
                terms.append((dim - 1, 1.0))
            for i, si in terms:
                grad[i] += si * g
                for j, sj in terms:
                    hess[i][j] += si * sj * w
        if dim == 0:
            break
        try:
            step = _solve(hess, grad)
        except ZeroDivisionError:
            raise _Diverged from None
        # Newton steps shrink fast at a finite maximum; towards a maximum at
        # infinity they stay near 1 (log-odds), so the cap below is reached.
        if max(abs(x) for x in step) < 1e-9:  # 1e-9 logistic units: 2e-7 Elo
            break
        scale = 1.0
        while True:
            r_new = r[:]
            for p, j in index.items():
                r_new[p] += scale * step[j]
            h_new = h + scale * step[-1] if first_move else 0.0
            value = _loglik(cells, r_new, h_new)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        r, h, current = r_new, h_new, value
        if max(abs(x) for x in r) > 40 or abs(h) > 40:  # beyond ~7000 Elo: at infinity
            raise _Diverged
    else:
        raise _Diverged
    if anchor is None:
        mean = sum(r) / k
        r = [x - mean for x in r]
    return r, h


def _cells(games: Iterable[GameScore], index: dict[str, int]) -> Cells:
    cells: Cells = defaultdict(lambda: [0.0, 0.0])
    for g in games:
        cell = cells[index[g.south], index[g.north]]
        cell[0] += 1
        cell[1] += g.points
    return dict(cells)


def _with_prior(cells: Cells, draws: float) -> Cells:
    """``draws`` virtual draws between every two players who met, split
    over both colours."""
    out: Cells = {key: value[:] for key, value in cells.items()}
    met = {frozenset(key) for key in cells if key[0] != key[1]}
    for pair in met:
        a, b = sorted(pair)
        for key in ((a, b), (b, a)):
            cell = out.setdefault(key, [0.0, 0.0])
            cell[0] += draws / 2
            cell[1] += draws / 4
    return out


def fit(
    games: Sequence[GameScore],
    players: Sequence[str],
    anchor: str | None = None,
    *,
    first_move: bool = True,
    prior_draws: float = 1.0,
) -> tuple[dict[str, float], float, bool]:
    """Maximum-likelihood Elo ratings of ``players`` (connected by
    ``games``), the first player's advantage in Elo, and whether the
    virtual-draw prior had to be used. ``prior_draws=0`` never uses it
    (RatingError when the maximum is at infinity)."""
    index = {p: i for i, p in enumerate(players)}
    if anchor is not None and anchor not in index:
        raise RatingError(f"anchor {anchor!r} played no game")
    return fit_cells(_cells(games, index), players, anchor, first_move, prior_draws)


def fit_cells(
    cells: Cells,
    players: Sequence[str],
    anchor: str | None,
    first_move: bool,
    prior_draws: float,
    start: tuple[dict[str, float], float] | None = None,
) -> tuple[dict[str, float], float, bool]:
    """The fit of aggregated games: ``cells[(south, north)]`` = [games,
    South's points], players by index. ``start`` (ratings and first-move
    term in Elo, e.g. the point fit when bootstrapping) starts Newton's
    method close to the answer."""
    a = players.index(anchor) if anchor is not None else None
    regularised = False
    first = None
    if start is not None:
        first = ([start[0][p] * LN10_400 for p in players], start[1] * LN10_400)
    try:
        r, h = _newton(cells, len(players), a, first_move, first)
    except _Diverged:
        if prior_draws <= 0:
            raise RatingError("a player won or lost every game: ratings are infinite") from None
        regularised = True
        try:
            r, h = _newton(_with_prior(cells, prior_draws), len(players), a, first_move)
        except _Diverged:  # only colours never swapped can do this
            r, h = _newton(_with_prior(cells, prior_draws), len(players), a, False)
    ratings = {p: r[i] / LN10_400 for i, p in enumerate(players)}
    return ratings, h / LN10_400, regularised


def components(games: Iterable[GameScore]) -> list[list[str]]:
    """Players grouped by who is connected to whom through games, largest
    group first, names sorted within each."""
    parent: dict[str, str] = {}

    def root(p: str) -> str:
        while parent.setdefault(p, p) != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for g in games:
        parent[root(g.south)] = root(g.north)
    groups: dict[str, list[str]] = defaultdict(list)
    for p in list(parent):
        groups[root(p)].append(p)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g))


@dataclass
class Ratings:
    """Ratings of one connected group of players."""

    ratings: dict[str, Estimate]
    first_move: Estimate  # Elo advantage of moving first
    anchor: str | None
    games: dict[str, int]  # games played by each player
    points: dict[str, float]
    regularised: bool = False

    def ranked(self) -> list[str]:
        return sorted(self.ratings, key=lambda p: (-self.ratings[p].value, p))


Unit = tuple[tuple[int, int, float], ...]  # (south, north, south's points) per game


def _unit_types(
    games: Sequence[GameScore], index: dict[str, int]
) -> list[tuple[list[Unit], list[int]]]:
    """Resampling units (a pair, or a game played alone) grouped by
    matchup, each group as its distinct units and how often each occurs:
    a bootstrap draw is then a multinomial draw over a handful of kinds."""
    by_pair: dict[tuple[frozenset[str], Hashable], list[GameScore]] = defaultdict(list)
    kinds: dict[frozenset[str], Counter[Unit]] = defaultdict(Counter)
    for g in games:
        players = frozenset((g.south, g.north))
        if g.pair is None:
            kinds[players][((index[g.south], index[g.north], g.points),)] += 1
        else:
            by_pair[(players, g.pair)].append(g)
    for (players, _), unit in by_pair.items():
        key = tuple(sorted((index[g.south], index[g.north], g.points) for g in unit))
        kinds[players][key] += 1
    return [(list(c), list(c.values())) for c in kinds.values()]


def rate(
    games: Sequence[GameScore],
    anchor: str | None = "random",
    *,
    bootstrap: int = 1000,
    rng: random.Random | None = None,
    first_move: bool = True,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
) -> list[Ratings]:
    """Ratings with bootstrap intervals for each connected group of
    players, the anchor's group first. The anchor fixes 0 in its group;
    the other groups (and every group when ``anchor`` is None or absent)
    are centred on their mean."""
    if not games:
        raise RatingError("no games to rate")
    rng = rng or random.Random(0)
    tables = []
    for group in components(games):
        members = set(group)
        sub = [g for g in games if g.south in members]
        a = anchor if anchor in members else None
        tables.append(_rate_group(sub, group, a, bootstrap, rng, first_move, prior_draws, confidence))
    tables.sort(key=lambda t: t.anchor is None)
    return tables


def _rate_group(
    games: Sequence[GameScore],
    players: list[str],
    anchor: str | None,
    bootstrap: int,
    rng: random.Random,
    first_move: bool,
    prior_draws: float,
    confidence: float,
) -> Ratings:
    point, adv, regularised = fit(games, players, anchor, first_move=first_move, prior_draws=prior_draws)
    samples: dict[str, list[float]] = {p: [] for p in players}
    adv_samples: list[float] = []
    # each matchup's units as a population of kind numbers: drawing from it
    # uniformly is cheaper than a weighted draw
    groups = [(kinds, [i for i, c in enumerate(counts) for _ in range(c)])
              for kinds, counts in _unit_types(games, {p: i for i, p in enumerate(players)})]
    for _ in range(bootstrap):
        cells: Cells = defaultdict(lambda: [0.0, 0.0])
        for kinds, population in groups:
            drawn = Counter(rng.choices(population, k=len(population)))
            for kind, times in drawn.items():
                for s, n, pts in kinds[kind]:
                    cell = cells[s, n]
                    cell[0] += times
                    cell[1] += times * pts
        try:
            r, h, _ = fit_cells(dict(cells), players, anchor, first_move, prior_draws or 1.0, (point, adv))
        except RatingError:
            continue
        for p in players:
            samples[p].append(r[p])
        adv_samples.append(h)

    def interval(value: float, xs: list[float]) -> Estimate:
        if not xs:
            return Estimate(value, value, value)
        xs.sort()
        tail = (1 - confidence) / 2
        lo = xs[min(len(xs) - 1, int(tail * len(xs)))]
        hi = xs[min(len(xs) - 1, int((1 - tail) * len(xs)))]
        return Estimate(value, min(lo, value), max(hi, value))

    played: Counter[str] = Counter()
    points: dict[str, float] = defaultdict(float)
    for g in games:
        played[g.south] += 1
        played[g.north] += 1
        points[g.south] += g.points
        points[g.north] += 1 - g.points
    estimates = {p: interval(point[p], samples[p]) for p in players}
    for p in players:
        if p != anchor and points[p] in (0, played[p]):
            estimates[p] = _perfect_score_interval(p, estimates[p], games, point, confidence)
    return Ratings(
        ratings=estimates,
        first_move=interval(adv, adv_samples),
        anchor=anchor,
        games=dict(played),
        points=dict(points),
        regularised=regularised,
    )


def _perfect_score_interval(player: str, estimate: Estimate, games: Sequence[GameScore],
                            point: dict[str, float], confidence: float) -> Estimate:
    """A player who won (or lost) every game: the data bound its rating on
    one side only, and every bootstrap resample is the same record, so the
    bootstrap interval has no width. The open side goes to infinity; the
    other is Wilson's bound on the score over those games, taken against
    the opponents' mean rating (at their estimates)."""
    opponents = [g.north if g.south == player else g.south for g in games if player in (g.south, g.north)]
    z = normal_quantile(1 - (1 - confidence) / 2)
    level = sum(point[o] for o in opponents) / len(opponents)
    worst_of_perfect, _ = wilson_interval(1.0, len(opponents), z)
    if all((g.points == 1.0) == (g.south == player) for g in games if player in (g.south, g.north)):
        low = level + elo_from_score(worst_of_perfect)
        return Estimate(estimate.value, min(estimate.low, estimate.value, low), math.inf)
    high = level + elo_from_score(1.0 - worst_of_perfect)  # lost every game: the mirror image
    return Estimate(estimate.value, -math.inf, max(estimate.high, estimate.value, high))
