"""Ratings, match statistics and the SPRT, checked against hand-computed
values and the fishtest/fastchess test vector."""

from __future__ import annotations

import math
import random

import pytest

from bingwa.tournament.sprt import (
    PAIR_SCORES,
    Sprt,
    SprtError,
    llr_logistic,
    llr_normalized,
    mle_with_t,
)
from bingwa.tournament.stats import (
    GameScore,
    RatingError,
    elo_from_score,
    fit,
    likelihood_of_superiority,
    matchup,
    pentanomial_elo,
    pentanomial_nelo,
    rate,
)


def games_from(south: str, north: str, wins: int, draws: int, losses: int, pair_base: int = 0):
    """South's wins, draws and losses as GameScores (each game alone)."""
    out = [GameScore(south, north, 1.0) for _ in range(wins)]
    out += [GameScore(south, north, 0.5) for _ in range(draws)]
    out += [GameScore(south, north, 0.0) for _ in range(losses)]
    return out


def test_elo_from_score_is_the_logistic_formula():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_from_score(1.0) == math.inf


def test_two_players_with_colours_match_the_hand_computed_fit():
    # A scores 8/10 as South and 6/10 as North against B. The likelihood is
    # maximal when both colour cells are fitted exactly:
    #   d + h = 400 log10(0.8 / 0.2),  d - h = 400 log10(0.6 / 0.4)
    games = games_from("A", "B", 7, 2, 1) + games_from("B", "A", 3, 2, 5)
    ratings, advantage, regularised = fit(games, ["A", "B"], anchor="B", prior_draws=0)
    plus = 400 * math.log10(4)
    minus = 400 * math.log10(1.5)
    assert ratings["B"] == 0
    assert ratings["A"] == pytest.approx((plus + minus) / 2, abs=1e-6)
    assert advantage == pytest.approx((plus - minus) / 2, abs=1e-6)
    assert not regularised


def test_three_consistent_players_are_spaced_by_their_logits():
    # 75% for A over B and for B over C, 90% for A over C: odds 3, 3, 9 are
    # consistent, so the fit is exact: 400 log10 3 apart, no colour term.
    games = []
    for south, north, share in (("A", "B", 3), ("B", "C", 3), ("A", "C", 9)):
        for first, second in ((south, north), (north, south)):
            sign = 1 if first == south else -1
            wins, losses = (share, 1) if sign == 1 else (1, share)
            games += games_from(first, second, 4 * wins, 0, 4 * losses)
    ratings, advantage, _ = fit(games, ["A", "B", "C"], anchor="C", prior_draws=0)
    step = 400 * math.log10(3)
    assert ratings["C"] == 0
    assert ratings["B"] == pytest.approx(step, abs=1e-6)
    assert ratings["A"] == pytest.approx(2 * step, abs=1e-6)
    assert advantage == pytest.approx(0, abs=1e-6)


def test_without_an_anchor_the_mean_rating_is_zero():
    games = games_from("A", "B", 6, 2, 2) + games_from("B", "A", 2, 2, 6)
    ratings, _, _ = fit(games, ["A", "B"], anchor=None, prior_draws=0)
    assert ratings["A"] + ratings["B"] == pytest.approx(0, abs=1e-9)
    assert ratings["A"] > 0


def test_a_perfect_score_has_no_finite_maximum_without_the_prior():
    games = games_from("A", "B", 5, 0, 0) + games_from("B", "A", 0, 0, 5)
    with pytest.raises(RatingError, match="infinite"):
        fit(games, ["A", "B"], anchor="B", prior_draws=0)
    ratings, _, regularised = fit(games, ["A", "B"], anchor="B", prior_draws=1)
    assert regularised
    # 10 wins plus one virtual draw: 10.5 / 11 scored
    assert ratings["A"] == pytest.approx(elo_from_score(10.5 / 11), abs=0.5)


def test_an_anchor_that_never_played_is_an_error():
    with pytest.raises(RatingError, match="anchor"):
        fit(games_from("A", "B", 1, 1, 1), ["A", "B"], anchor="random")


def paired_games(a: str, b: str, pair_results, start: int = 0):
    """Colour-swapped pairs: each item is (a's points as South, a's points
    as North)."""
    out = []
    for k, (as_south, as_north) in enumerate(pair_results, start):
        out.append(GameScore(a, b, as_south, k))
        out.append(GameScore(b, a, 1 - as_north, k))
    return out


def test_matchup_counts_wdl_and_pentanomial_from_each_side():
    games = paired_games("A", "B", [(1, 1), (1, 0.5), (1, 0), (0.5, 0.5), (0, 0), (1, 1)])
    m = matchup(games, "A", "B")
    assert (m.wins, m.draws, m.losses) == (6, 3, 3)
    # [LL, LD, WL+DD, WD, WW]
    assert m.penta == [1, 0, 2, 1, 2]
    other = matchup(games, "B", "A")
    assert other.penta == [2, 1, 2, 0, 1]
    assert (other.wins, other.losses) == (3, 6)


def test_likelihood_of_superiority():
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    # (W - L) / sqrt(2 (W + L)) = 10 / sqrt(40)
    assert likelihood_of_superiority(15, 5) == pytest.approx(0.5 * (1 + math.erf(10 / math.sqrt(40))))


def test_pentanomial_elo_and_nelo_are_centred_on_the_mean_score():
    even = pentanomial_elo([1, 2, 4, 2, 1])
    assert even.value == pytest.approx(0)
    assert even.low < 0 < even.high
    # mean pair score 0.625 per game
    ahead = pentanomial_elo([0, 1, 2, 3, 2])
    assert ahead.value == pytest.approx(elo_from_score((0.25 + 1.0 + 2.25 + 2.0) / 8))
    nelo = pentanomial_nelo([0, 1, 2, 3, 2])
    assert nelo.value > 0 and nelo.low < nelo.value < nelo.high


def test_bootstrap_intervals_hold_the_estimate_and_narrow_with_more_pairs():
    rng = random.Random(3)
    results = [(rng.choice((1, 1, 0.5, 0)), rng.choice((1, 0.5, 0, 0))) for _ in range(400)]
    few = rate(paired_games("A", "random", results[:40]), bootstrap=200, rng=random.Random(1))
    many = rate(paired_games("A", "random", results), bootstrap=200, rng=random.Random(1))
    for table in (few, many):
        (ratings,) = table
        assert ratings.anchor == "random"
        est = ratings.ratings["A"]
        assert est.low <= est.value <= est.high
        assert ratings.ratings["random"].value == 0
    assert many[0].ratings["A"].error < few[0].ratings["A"].error


def test_bootstrap_is_deterministic_for_a_seed():
    games = paired_games("A", "B", [(1, 0.5), (0, 1), (0.5, 0.5), (1, 1)] * 5)
    first = rate(games, anchor="B", bootstrap=100, rng=random.Random(7))
    second = rate(games, anchor="B", bootstrap=100, rng=random.Random(7))
    assert first[0].ratings == second[0].ratings


def test_disconnected_groups_are_rated_apart_anchor_first():
    games = paired_games("A", "random", [(1, 0.5)] * 4) + paired_games("X", "Y", [(1, 1), (0, 0.5)] * 3)
    tables = rate(games, anchor="random", bootstrap=20)
    assert [t.anchor for t in tables] == ["random", None]
    assert set(tables[1].ratings) == {"X", "Y"}


# -- SPRT -----------------------------------------------------------------------
def test_sprt_test_vector_from_fishtest_and_fastchess():
    llr = llr_normalized([365, 16618, 36229, 16974, 390], 0, 2)
    assert llr == pytest.approx(2.25, abs=0.005)


def test_sprt_bounds_follow_the_error_rates():
    sprt = Sprt(0, 2, 0.05, 0.05)
    assert sprt.lower == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper == pytest.approx(2.944, abs=1e-3)
    assert Sprt(0, 2, 0.05, 0.1).lower == pytest.approx(math.log(0.1 / 0.95))


def test_constrained_distribution_has_the_hypothesis_t_value():
    counts = [30, 80, 150, 90, 25]
    n = sum(counts)
    for t in (-0.05, 0.0, 0.02, 0.1):
        p = mle_with_t([c / n for c in counts], PAIR_SCORES, t)
        mu = sum(pi * a for pi, a in zip(p, PAIR_SCORES))
        sigma = math.sqrt(sum(pi * (a - mu) ** 2 for pi, a in zip(p, PAIR_SCORES)))
        assert sum(p) == pytest.approx(1)
        assert (mu - 0.5) / sigma == pytest.approx(t, abs=1e-9)


def test_sprt_decides_for_clear_records_and_waits_on_even_ones():
    sprt = Sprt(0, 10)
    assert sprt.decision([0, 2, 10, 40, 60]) == "H1"
    assert sprt.decision([60, 40, 10, 2, 0]) == "H0"
    assert sprt.decision([3, 10, 20, 10, 3]) is None
    # a one-sided record still moves the test (unseen outcomes get 1e-3)
    assert llr_normalized([0, 0, 0, 0, 20], 0, 50) > 3
    assert llr_normalized([20, 0, 0, 0, 0], 0, 50) < -3


def test_sprt_symmetry_of_mirrored_records():
    counts = [10, 30, 50, 35, 12]
    assert llr_normalized(counts, -3, 3) == pytest.approx(-llr_normalized(counts[::-1], -3, 3), abs=1e-9)
    assert llr_logistic(counts, -3, 3) == pytest.approx(-llr_logistic(counts[::-1], -3, 3), abs=1e-9)


def test_sprt_rejects_bad_parameters():
    with pytest.raises(SprtError):
        Sprt(5, 0)
    with pytest.raises(SprtError):
        Sprt(0, 5, alpha=0.6, beta=0.5)
    with pytest.raises(SprtError):
        Sprt(0, 5, model="bayesian")
    with pytest.raises(SprtError):
        llr_normalized([1, 2, 3, 4], 0, 5)


def test_a_perfect_score_gets_an_interval_open_on_one_side_not_a_zero_width_one():
    # greedy won all 20 games against the anchor: every bootstrap resample is
    # the same record, and the rating is bounded below only
    games = [GameScore("random", "greedy", 0.0, i) for i in range(10)]
    games += [GameScore("greedy", "random", 1.0, i) for i in range(10)]
    (table,) = rate(games, "random", bootstrap=50)
    greedy = table.ratings["greedy"]
    assert greedy.high == math.inf
    # Wilson: 20 wins out of 20 bound the score below by 20 / (20 + z^2)
    assert greedy.low == pytest.approx(elo_from_score(20 / (20 + 1.959964 ** 2)), abs=0.5)
    assert greedy.low < greedy.value
    (mirror,) = rate(games, "greedy", bootstrap=50)
    assert mirror.ratings["random"].low == -math.inf
    assert mirror.ratings["random"].high == pytest.approx(-greedy.low, abs=0.5)


def test_a_one_sided_match_keeps_an_honest_elo_interval():
    everything = pentanomial_elo([0, 0, 0, 0, 10])
    assert everything.high == math.inf and 0 < everything.low < math.inf
    nothing = pentanomial_elo([10, 0, 0, 0, 0])
    assert nothing.low == -math.inf and -math.inf < nothing.high < 0
    # every pair split the points: the normal interval has no width, Wilson's has
    even = pentanomial_elo([0, 0, 10, 0, 0])
    assert even.low < 0 < even.high
