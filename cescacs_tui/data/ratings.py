"""Glicko-2 ratings, and what a C'escacs result scores: one module for every rating the project keeps.

Mark Glickman's Glicko-2 system ("Example of the Glicko-2 system",
glicko.net/glicko/glicko2.pdf): a player is a rating, a rating deviation (how
sure the rating is) and a volatility (how erratic the player's results are).
:func:`rate` is the paper's steps 2 to 8 for one player and the games of one
rating period, the volatility found with the Illinois algorithm of its step 5;
the paper's own example is in the tests.  Nothing here knows where a rating
is kept: the C'escacs server keeps one per account and pool (live and
correspondence), the puzzles one per player in the data directory.

The server rates each game when it ends, as its own rating period (as most
game servers do); a player who has not played for a while is less certain,
which :func:`idle` applies first (the paper's step 6 for each empty period).

C'escacs scores are not chess's: a stalemate is a win by the minimum score
(RULES.md 9.5 and 10.1), so White's share of a result's points is the score a
rating sees: 3-0 is 1, 2-1 is 2/3, 1-1 is 1/2, 1-2 is 1/3 and 0-3 is 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.outcome import BLACK_MINIMUM_WIN, BLACK_WINS, DRAW, WHITE_MINIMUM_WIN, WHITE_WINS
from ..core.pieces import WHITE, Colour

__all__ = [
    "DEFAULT_TAU",
    "MAX_DEVIATION",
    "Rating",
    "Score",
    "expected_score",
    "idle",
    "rate",
    "rate_game",
    "score_for",
]

SCALE: Final = 173.7178
"""Glicko-2's conversion between the Glicko scale (1500 ± 350) and its own (0 ± 2.015): ``(r - 1500) / SCALE``."""
CENTRE: Final = 1500.0
MAX_DEVIATION: Final = 350.0
"""A new player's deviation, and the most an idle player's grows to."""
DEFAULT_VOLATILITY: Final = 0.06
DEFAULT_TAU: Final = 0.5
"""The system constant τ that bounds how fast the volatility changes (the paper: 0.3 to 1.2; its example: 0.5)."""
EPSILON: Final = 0.000001
"""The volatility's convergence tolerance (the paper's step 5)."""

WHITE_SCORES: Final[dict[str, float]] = {
    WHITE_WINS: 1.0,
    WHITE_MINIMUM_WIN: 2 / 3,
    DRAW: 0.5,
    BLACK_MINIMUM_WIN: 1 / 3,
    BLACK_WINS: 0.0,
}
"""White's score for each result of a finished game: its share of the result's three points."""


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility, on the Glicko scale (a new player: 1500, 350, 0.06)."""

    rating: float = CENTRE
    deviation: float = MAX_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        for value in (self.rating, self.deviation, self.volatility):
            if not math.isfinite(value):
                raise ValueError(f"a rating is made of finite numbers, not {self!r}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's deviation and volatility are positive, not {self!r}")

    @property
    def mu(self) -> float:
        return (self.rating - CENTRE) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    @classmethod
    def from_scale(cls, mu: float, phi: float, volatility: float) -> Rating:
        """A rating from Glicko-2's own scale."""
        return cls(mu * SCALE + CENTRE, phi * SCALE, volatility)


@dataclass(frozen=True)
class Score:
    """One game of a rating period: the opponent as rated before it, and the player's score (0 to 1)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a score is from 0 to 1, not {self.score!r}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, g: float) -> float:
    return 1.0 / (1.0 + math.exp(-g * (mu - opponent_mu)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return _expected(player.mu, opponent.mu, _g(opponent.phi))


def rate(player: Rating, scores: Sequence[Score], *, tau: float = DEFAULT_TAU) -> Rating:
    """``player``'s rating after a rating period in which they played ``scores`` (Glickman's steps 2-8).

    A period without games only makes the rating less certain (step 6 alone).
    """
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not scores:
        return Rating.from_scale(mu, math.sqrt(phi * phi + sigma * sigma), sigma)
    weights = []
    for game in scores:
        g = _g(game.opponent.phi)
        weights.append((g, _expected(mu, game.opponent.mu, g), game.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in weights)
    improvement = sum(g * (s - e) for g, e, s in weights)
    delta = v * improvement
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    return Rating.from_scale(mu + new_phi * new_phi * improvement, new_phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """The new volatility σ' (step 5): the root of ``f`` found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def idle(player: Rating, periods: int) -> Rating:
    """``player`` after ``periods`` rating periods without a game: the deviation grows (step 6 each period),
    never beyond :data:`MAX_DEVIATION`."""
    if periods <= 0:
        return player
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Rating(player.rating, min(phi * SCALE, MAX_DEVIATION), player.volatility)


def score_for(result: str, colour: Colour) -> float:
    """What ``result`` (``3-0``... RULES.md 10.1) scores for ``colour``: 1, 2/3, 1/2, 1/3 or 0.

    Raises :class:`KeyError` for ``"*"`` or anything that is not the result of a finished game.
    """
    white = WHITE_SCORES[result]
    return white if colour == WHITE else 1.0 - white


def rate_game(white: Rating, black: Rating, result: str, *, tau: float = DEFAULT_TAU) -> tuple[Rating, Rating]:
    """White's and Black's ratings after one game between them that ended in ``result``, each rated against
    the other as they were before it."""
    score = WHITE_SCORES[result]
    return (
        rate(white, [Score(black, score)], tau=tau),
        rate(black, [Score(white, 1.0 - score)], tau=tau),
    )
