"""Glicko-2 (data/ratings.py): Glickman's own example, and what each C'escacs result scores."""

from __future__ import annotations

import math

import pytest

from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.data.ratings import MAX_DEVIATION, Rating, Score, expected_score, idle, rate, rate_game, score_for


def test_glickmans_example_gives_the_papers_rating_deviation_and_volatility() -> None:
    """The paper's example: 1500/200 beats 1400/30, loses to 1550/100 and to 1700/300 (τ = 0.5)."""
    player = Rating(1500, 200, 0.06)
    games = [Score(Rating(1400, 30), 1.0), Score(Rating(1550, 100), 0.0), Score(Rating(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)  # the paper rounds μ' to -0.2069 first: 1464.0507
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.0599960, which the paper writes 0.05999


def test_the_papers_expected_scores() -> None:
    """Step 3 of the example: E = 0.639, 0.432 and 0.303 against the three opponents."""
    player = Rating(1500, 200)
    opponents = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
    expected = [expected_score(player, other) for other in opponents]
    assert [round(e, 3) for e in expected] == [0.639, 0.432, 0.303]


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Rating(1600, 100, 0.06)
    after = rate(player, [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.sqrt(100**2 + (0.06 * 173.7178) ** 2))
    assert idle(player, 0) == player
    assert idle(player, 3).deviation == pytest.approx(math.sqrt(100**2 + 3 * (0.06 * 173.7178) ** 2))
    assert idle(player, 10_000).deviation == MAX_DEVIATION


@pytest.mark.parametrize(
    ("result", "white", "black"),
    [("3-0", 1.0, 0.0), ("2-1", 2 / 3, 1 / 3), ("1-1", 0.5, 0.5), ("1-2", 1 / 3, 2 / 3), ("0-3", 0.0, 1.0)],
)
def test_cescacs_results_score_their_share_of_three_points(result: str, white: float, black: float) -> None:
    assert score_for(result, WHITE) == pytest.approx(white)
    assert score_for(result, BLACK) == pytest.approx(black)


def test_an_unfinished_game_scores_nothing() -> None:
    with pytest.raises(KeyError):
        score_for("*", WHITE)


def test_a_stalemate_win_gains_less_than_a_mate_and_more_than_a_draw() -> None:
    even = Rating(1500, 200)
    gains = {result: rate_game(even, even, result)[0].rating - 1500 for result in ("3-0", "2-1", "1-1", "1-2", "0-3")}
    assert gains["3-0"] > gains["2-1"] > 0 > gains["1-2"] > gains["0-3"]
    assert gains["1-1"] == pytest.approx(0.0, abs=1e-9)
    assert gains["2-1"] == pytest.approx(-gains["1-2"])


def test_a_game_rates_each_side_against_the_other_as_it_was_before() -> None:
    white, black = Rating(1700, 80), Rating(1400, 300)
    new_white, new_black = rate_game(white, black, "0-3")
    assert new_white == rate(white, [Score(black, 0.0)])
    assert new_black == rate(black, [Score(white, 1.0)])
    assert new_white.rating < 1700 and new_black.rating > 1400


def test_ratings_are_finite_and_positive() -> None:
    for values in ((math.nan, 350, 0.06), (1500, 0, 0.06), (1500, 350, -1), (math.inf, 350, 0.06)):
        with pytest.raises(ValueError):
            Rating(*values)
    with pytest.raises(ValueError):
        Score(Rating(), 1.5)
