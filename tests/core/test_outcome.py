"""Typed outcomes (RULES.md 9.5, 10): one place turns an ending and a winner into a result and words.

Position decides the endings of the position alone, Game those that need its history or its players;
both build an :class:`Outcome`, and no other module of the package writes a result literal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cescacs_tui.core import BLACK, WHITE, ClaimStatus, Ending, Outcome, Position
from cescacs_tui.core.game import Game, GameError
from cescacs_tui.core.outcome import (
    FIFTY_MOVE_PLIES,
    FIVEFOLD_REPETITIONS,
    RESULTS,
    SEVENTY_FIVE_MOVE_PLIES,
    THREEFOLD_REPETITIONS,
)
from tests.helpers.builders import position
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, play

PACKAGE = Path(__file__).resolve().parents[2] / "cescacs_tui"


@pytest.mark.parametrize(
    ("outcome", "result", "words"),
    [
        (Outcome.checkmate(WHITE), "3-0", "White mates"),
        (Outcome.checkmate(BLACK), "0-3", "Black mates"),
        (Outcome.stalemate(WHITE), "2-1", "Black is stalemated: a minimum win for White"),
        (Outcome.stalemate(BLACK), "1-2", "White is stalemated: a minimum win for Black"),
        (Outcome.resignation(WHITE), "0-3", "White resigns"),
        (Outcome.time_forfeit(BLACK), "3-0", "White wins on time"),
        (Outcome.draw(Ending.FIVEFOLD_REPETITION), "1-1", "draw by fivefold repetition"),
        (Outcome.draw(Ending.SEVENTY_FIVE_MOVES), "1-1", "draw by the seventy-five-move rule"),
        (Outcome.draw(Ending.INSUFFICIENT_MATERIAL), "1-1", "draw: insufficient material to mate"),
        (Outcome.draw(Ending.AGREEMENT), "1-1", "draw by agreement"),
        (
            Outcome.draw(Ending.THREEFOLD_REPETITION, claimed_by=BLACK),
            "1-1",
            "draw by threefold repetition (claimed by Black)",
        ),
        (Outcome.recorded("2-1"), "2-1", "White wins by stalemate (as recorded)"),
        (Outcome.recorded("1-1"), "1-1", "draw (as recorded)"),
        (Outcome.recorded("0-3", Ending.RESIGNATION, note="White resigns"), "0-3", "White resigns"),
    ],
)
def test_result_and_words_are_derived_from_the_ending_and_the_winner(outcome, result, words):
    assert outcome.result == result
    assert outcome.reason == words
    assert outcome.winner == {"3-0": WHITE, "2-1": WHITE, "0-3": BLACK, "1-2": BLACK, "1-1": None}[result]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Outcome(Ending.CHECKMATE),  # a mate has a winner
        lambda: Outcome(Ending.AGREEMENT, WHITE),  # a draw has none
        lambda: Outcome(Ending.STALEMATE, WHITE),  # a stalemate is a minimum win
        lambda: Outcome(Ending.CHECKMATE, WHITE, minimum=True),  # and only a stalemate
        lambda: Outcome(Ending.RESIGNATION, WHITE, claimed_by=BLACK),  # only a draw is claimed
        lambda: Outcome.recorded("*"),  # an unfinished game has no outcome
        lambda: Outcome.recorded("3-1"),
    ],
)
def test_impossible_outcomes_are_refused(make):
    with pytest.raises(ValueError):
        make()


def test_a_recorded_ending_that_contradicts_the_result_is_kept_as_a_recorded_result():
    outcome = Outcome.recorded("1-1", Ending.RESIGNATION, note="White resigns")
    assert (outcome.ending, outcome.result, outcome.reason) == (Ending.RECORDED, "1-1", "White resigns")


def test_every_finished_result_is_one_outcome():
    finished = [result for result in RESULTS if result != "*"]
    assert sorted(Outcome.recorded(result).result for result in finished) == sorted(finished)


def test_the_thresholds_are_the_rules():
    assert (SEVENTY_FIVE_MOVE_PLIES, FIFTY_MOVE_PLIES, FIVEFOLD_REPETITIONS, THREEFOLD_REPETITIONS) == (150, 100, 5, 3)


def test_no_result_literal_outside_the_outcome_module():
    literal = re.compile(r"""["'](3-0|0-3|2-1|1-2|1-1)["']""")
    offenders = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "outcome.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert offenders == []


# --- Position: the endings of the position alone ------------------------------------------------


def test_position_outcome_of_a_mate_and_its_result_string():
    mate = Position.from_pdtl("/28:k/26:1D1/21:4N3/7:K7/ b -- - 0 1")
    assert mate.outcome() == Outcome.checkmate(WHITE)
    assert mate.result() == "3-0"
    assert Position.initial().outcome() is None and Position.initial().result() is None


def test_position_predicates_of_the_move_rules():
    assert position("KF10 kF18 RP13", clock=SEVENTY_FIVE_MOVE_PLIES).is_seventy_five_moves()
    assert not position("KF10 kF18 RP13", clock=SEVENTY_FIVE_MOVE_PLIES - 1).is_seventy_five_moves()
    assert position("KF10 kF18 RP13", clock=FIFTY_MOVE_PLIES).can_claim_fifty_moves()
    assert not position("KF10 kF18 RP13", clock=FIFTY_MOVE_PLIES - 1).can_claim_fifty_moves()
    assert position("KF10 kF18 RP13", clock=150).outcome() == Outcome.draw(Ending.SEVENTY_FIVE_MOVES)
    assert position("KF10 kF18 NP13").outcome() == Outcome.draw(Ending.INSUFFICIENT_MATERIAL)


def test_mate_on_the_150th_half_move_wins():
    # RULES.md 10.2: the Black King on F28, mated by the Queen on F26 protected by the Knight on G21
    mate = Position.from_pdtl("/28:k/26:1D1/21:4N3/7:K7/ b -- - 150 80")
    assert mate.is_seventy_five_moves()
    assert mate.outcome() == Outcome.checkmate(WHITE)


# --- Game: history, players, and what may be claimed --------------------------------------------


def test_game_outcome_after_the_fools_mate():
    game = Game.new()
    play(game, *FOOLS_MATE)
    assert game.outcome == Outcome.checkmate(BLACK)
    assert (game.result, game.termination) == ("0-3", "Black mates")
    assert game.tags["Result"] == "0-3"


def test_repetition_predicates_and_the_fivefold_draw():
    game = Game.new()
    assert not game.can_claim_threefold_repetition()
    play(game, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)  # the start position for the third time
    assert game.repetitions() == 3 and game.can_claim_threefold_repetition()
    assert not game.is_fivefold_repetition()
    play(game, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    assert game.is_fivefold_repetition()
    assert game.outcome == Outcome.draw(Ending.FIVEFOLD_REPETITION)
    assert not game.can_claim_threefold_repetition()  # the game is over


def test_fifty_move_predicate_of_the_game():
    game = Game(position("KF10 kF18 RP13 rZ15", clock=99))
    assert not game.can_claim_fifty_moves()
    play(game, "RP13-P15")
    assert game.can_claim_fifty_moves()
    assert game.claim_draw() == Outcome.draw(Ending.FIFTY_MOVES, claimed_by=BLACK)


def test_claim_status_explains_what_is_missing():
    game = Game.new()
    play(game, *KNIGHT_SHUFFLE, "NG3-H8", "NG25-H20", "NH8-G3")
    status = game.claim_status()
    assert status == ClaimStatus(WHITE.opponent, 2, 7)
    assert (status.claimable, status.repetitions_needed, status.half_moves_needed) == (None, 1, 93)
    text = status.explain()
    assert "occurred twice" in text and "needs 3" in text
    assert "7 half-moves" in text and "93 more" in text


def test_claim_without_grounds_is_refused_with_the_explanation():
    game = Game.new()
    play(game, "NG3-H8")
    with pytest.raises(GameError) as caught:
        game.claim_draw()
    assert str(caught.value) == game.claim_status().explain()
    assert "occurred once" in str(caught.value) and "1 half-move " in str(caught.value)
    assert game.outcome is None


def test_claim_status_when_a_claim_is_possible_and_after_the_end():
    game = Game.new()
    play(game, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    status = game.claim_status()
    assert status.claimable is Ending.THREEFOLD_REPETITION
    assert status.explain() == "White may claim a draw by threefold repetition (this position has occurred 3 times)"
    fifty = Game(position("KF10 kF18 RP13", clock=120)).claim_status()
    assert fifty.claimable is Ending.FIFTY_MOVES and "120 half-moves" in fifty.explain()
    game.resign(WHITE)
    assert game.claim_status().claimable is None
    assert "over" in game.claim_status().explain()
