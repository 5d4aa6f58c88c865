"""Statistics of engine matches played in game pairs: Elo with its confidence interval, and the SPRT.

Each opening is played twice, the colours exchanged, and a pair scores 0,
½, 1, 1½ or 2 points: the *pentanomial* counts of those five outcomes are
what the statistics use.  The two games of a pair are correlated (the same
opening favours the same side), and counting pairs instead of games takes
that into account: the variance is smaller than the game counts alone
(the trinomial wins/draws/losses) would suggest, so fewer games decide.

The sequential probability ratio test (SPRT) answers "is the first engine
at least ``elo1`` stronger, or at most ``elo0``?" after every pair, and
stops as soon as the evidence is strong enough for the error rates
``alpha`` (accepting ``elo1`` wrongly) and ``beta`` (accepting ``elo0``
wrongly).  The log-likelihood ratio is the generalised one of the
pentanomial model (M. Van den Bergh's, used by fishtest): the maximum
likelihood distributions of pair scores whose expected score is that of
``elo0`` and of ``elo1`` (logistic Elo), compared on the observed counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

PAIR_SCORES: Final = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The score of a pair (its points over 2) for each pentanomial count: 0, ½, 1, 1½, 2 points."""
REGULARISATION: Final = 1e-3
"""Added to every pentanomial count, so no outcome has probability 0 (the estimates need all five)."""
Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic model)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The logistic Elo difference of an expected score (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def pair_points(first: float, second: float) -> int:
    """The pentanomial index (0-4) of a pair whose games scored ``first`` and ``second`` (each 0, ½ or 1)."""
    return round(2 * (first + second))


def _distribution(counts: Sequence[float]) -> tuple[float, list[float]]:
    """The number of pairs and the regularised frequencies of the five outcomes."""
    regularised = [c + REGULARISATION for c in counts]
    total = sum(regularised)
    return sum(counts), [c / total for c in regularised]


def _constrained(frequencies: Sequence[float], score: float) -> list[float]:
    """The distribution nearest ``frequencies`` (maximum likelihood) whose expected pair score is ``score``.

    It is ``p_i / (1 + x (a_i - score))`` for the ``x`` that makes the mean
    ``score`` (Van den Bergh, "The maximum likelihood estimate of a
    multinomial with a given expectation"): found by bisection, since the
    mean falls as ``x`` grows.
    """
    shifted = [a - score for a in PAIR_SCORES]
    low = -1 / max(shifted) + 1e-12
    high = -1 / min(shifted) - 1e-12

    def mean(x: float) -> float:
        return sum(p * a / (1 + x * a) for p, a in zip(frequencies, shifted, strict=True))

    for _ in range(200):
        middle = (low + high) / 2
        if mean(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return [p / (1 + x * a) for p, a in zip(frequencies, shifted, strict=True)]


def log_likelihood_ratio(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of ``elo1`` against ``elo0`` given the pentanomial ``counts``."""
    pairs, frequencies = _distribution(counts)
    if pairs == 0:
        return 0.0
    h0 = _constrained(frequencies, expected_score(elo0))
    h1 = _constrained(frequencies, expected_score(elo1))
    return pairs * sum(p * math.log(q1 / q0) for p, q0, q1 in zip(frequencies, h0, h1, strict=True))


@dataclass(frozen=True)
class Estimate:
    """The first player's score and Elo from pentanomial counts, with 95% confidence intervals."""

    pairs: int
    score: float
    score_low: float
    score_high: float

    @property
    def elo(self) -> float:
        return elo_of(self.score)

    @property
    def elo_low(self) -> float:
        return elo_of(self.score_low)

    @property
    def elo_high(self) -> float:
        return elo_of(self.score_high)

    def describe(self) -> str:
        """``'+12.3 Elo [-4.0, +28.9] (53.5% ±2.3%)'``."""
        if self.pairs == 0:
            return "no games"
        margin = (self.score_high - self.score_low) / 2
        return (
            f"{self.elo:+.1f} Elo [{self.elo_low:+.1f}, {self.elo_high:+.1f}]"
            f" ({100 * self.score:.1f}% ±{100 * margin:.1f}%)"
        )


def estimate(counts: Sequence[int]) -> Estimate:
    """The score per game and its 95% interval from the pentanomial ``counts`` (the pairs' variance)."""
    pairs = sum(counts)
    if pairs == 0:
        return Estimate(0, 0.5, 0.0, 1.0)
    frequencies = [c / pairs for c in counts]
    score = sum(p * a for p, a in zip(frequencies, PAIR_SCORES, strict=True))
    variance = sum(p * (a - score) ** 2 for p, a in zip(frequencies, PAIR_SCORES, strict=True))
    margin = Z95 * math.sqrt(variance / pairs)
    return Estimate(pairs, score, max(0.0, score - margin), min(1.0, score + margin))


@dataclass(frozen=True)
class SPRT:
    """A sequential test of ``elo1`` against ``elo0`` (logistic Elo) with error rates ``alpha`` and ``beta``."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        """Below this log-likelihood ratio, ``elo0`` is accepted (the change is rejected)."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Above this, ``elo1`` is accepted (the change passes)."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        return log_likelihood_ratio(counts, self.elo0, self.elo1)

    def verdict(self, counts: Sequence[int]) -> str | None:
        """``'H1'`` (accepted: at least ``elo1``), ``'H0'`` (rejected) or ``None`` (play on)."""
        llr = self.llr(counts)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self, counts: Sequence[int]) -> str:
        """``'LLR 1.23 (-2.94, 2.94) [0, 5]'``."""
        return f"LLR {self.llr(counts):.2f} ({self.lower:.2f}, {self.upper:.2f}) [{self.elo0:g}, {self.elo1:g}]"


__all__ = [
    "PAIR_SCORES",
    "SPRT",
    "Estimate",
    "elo_of",
    "estimate",
    "expected_score",
    "log_likelihood_ratio",
    "pair_points",
]
