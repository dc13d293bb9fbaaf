"""The sequential probability ratio test that gates strength changes.

The test is the generalised SPRT on normalised Elo over pentanomial counts,
as fishtest and fastchess compute it. Each colour-reversed pair of games
scores 0, 1/4, 1/2, 3/4 or 1 (per game). Hypothesis H_k says the normalised
Elo is ``nelo_k``:

    nelo = (mu - 1/2) / (sqrt(2) sigma) * 800 / ln 10

with mu and sigma the mean and standard deviation of the pair score (so
sqrt(2) sigma is the standard deviation per game). Under each hypothesis the
distribution of the five outcomes is the maximum-likelihood one among those
that satisfy it, and

    LLR = N sum_i phat_i ln(p1_i / p0_i)

over N pairs with observed frequencies phat. The test stops with H1 when
LLR >= ln((1 - beta) / alpha), with H0 when LLR <= ln(beta / (1 - alpha)).

The constrained maximum (derived with a Lagrange multiplier theta): the
stationary point satisfies p_i = phat_i / (1 + theta b_i) with

    b_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma) ** 2) / 2,

t = (mu - 1/2) / sigma the hypothesis' t-value and mu, sigma taken at p.
It is found by fixed-point iteration; at each step theta solves
sum_i phat_i b_i / (1 + theta b_i) = 0, which is monotone in theta on the
interval where every 1 + theta b_i > 0.

An outcome never seen gets a count of 1e-3, so that a one-sided record (a
clearly stronger engine winning every pair) still moves the LLR.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import NELO_SCALE, PAIR_SCORES, score_from_elo

EPSILON_COUNT = 1e-3
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)


class SprtError(ValueError):
    """Bounds or error rates a test cannot use."""


def _moments(p: Sequence[float], a: Sequence[float]) -> tuple[float, float]:
    mu = sum(pi * ai for pi, ai in zip(p, a))
    var = sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a))
    return mu, var


def _secular_root(phat: Sequence[float], b: Sequence[float]) -> float:
    """theta with sum phat_i b_i / (1 + theta b_i) = 0 and every
    1 + theta b_i > 0 (bisection: the sum falls as theta grows)."""
    high_b = max(b)
    low_b = min(b)
    if high_b <= 0 or low_b >= 0:
        return 0.0  # the constraint already holds or cannot be met: stay put
    lo = -1.0 / high_b
    hi = -1.0 / low_b
    for _ in range(200):
        mid = (lo + hi) / 2
        value = sum(p * bi / (1 + mid * bi) for p, bi in zip(phat, b))
        if value > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2


def mle_with_t(phat: Sequence[float], a: Sequence[float], t: float, ref: float = 0.5) -> list[float]:
    """The distribution over outcomes ``a`` closest in likelihood to
    ``phat`` among those with (mu - ref) / sigma = t."""
    p = [1.0 / len(a)] * len(a)
    for _ in range(50):
        mu, var = _moments(p, a)
        sigma = math.sqrt(var)
        b = [ai - ref - t * sigma * (1 + ((ai - mu) / sigma) ** 2) / 2 for ai in a]
        theta = _secular_root(phat, b)
        new = [pi / (1 + theta * bi) for pi, bi in zip(phat, b)]
        total = sum(new)
        new = [x / total for x in new]
        if max(abs(x - y) for x, y in zip(new, p)) < 1e-12:
            return new
        p = new
    return p


def mle_with_mean(phat: Sequence[float], a: Sequence[float], mean: float) -> list[float]:
    """The distribution closest in likelihood to ``phat`` with expected
    score ``mean`` (the logistic-Elo hypotheses)."""
    b = [ai - mean for ai in a]
    theta = _secular_root(phat, b)
    p = [pi / (1 + theta * bi) for pi, bi in zip(phat, b)]
    total = sum(p)
    return [x / total for x in p]


def _regularise(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else EPSILON_COUNT for c in counts]


def llr_normalized(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    """Log-likelihood ratio of H1 (normalised Elo ``nelo1``) against H0
    (``nelo0``) for pentanomial counts [LL, LD, WL+DD, WD, WW], or for
    trinomial counts [L, D, W] of unpaired games."""
    if sum(counts) <= 0:
        return 0.0
    a: Sequence[float]
    if len(counts) == 5:
        a, per_game = PAIR_SCORES, math.sqrt(2.0)
    elif len(counts) == 3:
        a, per_game = TRINOMIAL_SCORES, 1.0
    else:
        raise SprtError("counts are pentanomial (5) or trinomial (3)")
    reg = _regularise(counts)
    n = sum(reg)
    phat = [c / n for c in reg]
    t0 = nelo0 / NELO_SCALE * per_game
    t1 = nelo1 / NELO_SCALE * per_game
    p0 = mle_with_t(phat, a, t0)
    p1 = mle_with_t(phat, a, t1)
    return n * sum(ph * math.log(x1 / x0) for ph, x0, x1 in zip(phat, p0, p1))


def llr_logistic(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The same test with logistic Elo hypotheses (expected score fixed)."""
    if sum(counts) <= 0:
        return 0.0
    a = PAIR_SCORES if len(counts) == 5 else TRINOMIAL_SCORES
    reg = _regularise(counts)
    n = sum(reg)
    phat = [c / n for c in reg]
    p0 = mle_with_mean(phat, a, score_from_elo(elo0))
    p1 = mle_with_mean(phat, a, score_from_elo(elo1))
    return n * sum(ph * math.log(x1 / x0) for ph, x0, x1 in zip(phat, p0, p1))


@dataclass(frozen=True)
class Sprt:
    """One test: H0 elo0 against H1 elo1 at error rates alpha and beta.
    ``model`` is 'normalized' (fishtest, fastchess) or 'logistic'."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise SprtError(f"alpha and beta must be in (0, 1) with a sum below 1, not {self.alpha}, {self.beta}")
        if self.elo0 >= self.elo1:
            raise SprtError(f"elo0 must be below elo1, not {self.elo0} >= {self.elo1}")
        if self.model not in ("normalized", "logistic"):
            raise SprtError(f"model is normalized or logistic, not {self.model!r}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        if self.model == "logistic":
            return llr_logistic(counts, self.elo0, self.elo1)
        return llr_normalized(counts, self.elo0, self.elo1)

    def decision(self, counts: Sequence[float]) -> str | None:
        """'H1', 'H0', or None while the test goes on."""
        llr = self.llr(counts)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None
