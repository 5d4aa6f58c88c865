"""Moves and game states said in words (session/words.py): every kind of move, check and ending.

The positions come from the rule vectors (tests/data/rules_vectors.jsonl) or
are built with tests/helpers/builders.py; each move is picked by its CTL-AN,
so the words are checked against what the notation says of the same move.
"""

from __future__ import annotations

import math

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.session.words import announce_last_move, describe_move, duration_words, or_list, situation
from tests.helpers.builders import pdtl, position
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, play
from tests.helpers.reference import RULE_VECTOR_BY_RULE


def said(start: Position, ctl_an: str) -> str:
    move = start.parse_move(ctl_an)
    before = start.to_pdtl()
    words = describe_move(start, move)
    assert start.to_pdtl() == before  # the position is left as it was
    return words


def vector(rule: str) -> Position:
    return Position.from_pdtl(RULE_VECTOR_BY_RULE[rule]["pdtl"])


@pytest.mark.parametrize(
    ("rule", "move", "words"),
    [
        ("pawn-oblique", "D10-D14", "White Pawn D10 to D14, double step"),
        ("king-leap", "KG1-F2", "White King G1 to F2"),
        ("king-leap", "KG1-H6", "White King G1 to H6, King's leap"),
        ("king-leap", "KG1×F6", "White King G1 takes Black Pawn on F6, King's leap"),
        ("promotion-capture", "JF6×K18+∞", "White Bishop F6 takes Black Pawn on K18, check from afar"),
        ("promotion-capture", "A21×NB24=D", "White Pawn A21 takes Black Knight on B24, promoting to Queen"),
        ("promotion-choices", "B22-B24=J", "White Pawn B22 to B24, promoting to Bishop of the black hexes"),
        ("awaiting-promotion", "B22-B24=&", "White Pawn B22 to B24, awaiting promotion"),
        ("forced-promotion", "P21=J", "White promotes the Pawn on P21 to Bishop of the black hexes"),
        ("en-passant-double", "C11@D14", "White Pawn C11 to D14, taking Black Pawn on D12 en passant"),
        ("en-passant-triple", "F12@@G9", "Black Pawn F12 to G9, taking White Pawn on G13 en passant"),
        ("en-passant-triple", "H14@G11", "Black Pawn H14 to G11, taking White Pawn on G13 en passant"),
        ("scornful-capture", "E15@F14", "Black Pawn E15 takes the scornful White Pawn on F14"),
        ("scornful-capture", "G21-G15", "Black Pawn G21 to G15, triple step"),
        (
            "scornful-capture-promotes",
            "L21@X22=D+∞",
            "White Pawn L21 takes the scornful Black Pawn on X22, promoting to Queen, check from afar",
        ),
        ("castling-krk", "KRK-HIO", "White castles KRK-HIO: King G1 to H6, Rook I3 to I5"),
        (
            "castling-krr",
            "KRR-HGG+∞",
            "White castles KRR-HGG: King G1 to H6, Rook I3 to G5 and Rook C3 to G7, check from afar",
        ),
        ("castling-black", "KRK-HIO", "Black castles KRK-HIO: King G27 to H22, Rook I25 to I23"),
    ],
)
def test_every_kind_of_move_is_said_in_full(rule: str, move: str, words: str) -> None:
    assert said(vector(rule), move) == words


def test_a_scornful_step_is_named() -> None:
    # E13 faces the Black pawn on E15; stepping obliquely away from it is scornful (RULES.md 6.5)
    assert said(position("KG1 kG27 PE13 pE15"), "E13-F14") == "White Pawn E13 to F14, a scornful step"


@pytest.mark.parametrize(
    ("spec", "move", "check"),
    [
        ("KG1 kF20 DC5", "DC5-G17+^", "adjoining check"),
        ("KG1 kF20 DT12", "DT12-E17+^", "adjoining check"),
        ("KG1 kF20 RF10 NF18", "NF18-I19++", "double check"),
        ("KG1 kF20 RC3", "RC3-F6+∞", "check from afar"),
    ],
)
def test_each_kind_of_check_is_said(spec: str, move: str, check: str) -> None:
    assert said(position(spec), move).endswith(f", {check}")


def test_checkmate_and_the_result_are_announced_after_the_last_move_of_the_fools_mate() -> None:
    game = Game.new()
    play(game, *FOOLS_MATE)
    assert announce_last_move(game) == "Black Pegasus L5 to H6, checkmate. Game over: Black mates (0-3)."


def test_the_announcement_says_the_move_then_whose_turn_it_is() -> None:
    game = Game.new()
    play(game, "E7-E13")
    assert announce_last_move(game) == "White Pawn E7 to E13, triple step. Black to move."
    assert announce_last_move(Game.new()) == "White to move."


def test_the_check_is_said_once_in_an_announcement_and_in_the_situation_alone() -> None:
    game = Game.new(pdtl=pdtl("KG1 kF20 RC3"))
    play(game, "RC3-F6+∞")
    assert announce_last_move(game) == "White Rook C3 to F6, check from afar. Black to move."
    assert situation(game) == "Black to move, in check from afar."


def test_the_situation_names_the_players_and_the_forced_promotion() -> None:
    start = RULE_VECTOR_BY_RULE["forced-promotion"]["pdtl"]
    game = Game(Position.from_pdtl(start), tags={"White": "Ros, Xus", "Black": "?"})
    assert situation(game) == ("White (Ros, Xus) to move. White must first promote the Pawn on P21: Bishop (P21=J).")


def test_the_situation_says_a_draw_offer_and_a_claimable_draw() -> None:
    game = Game.new()
    play(game, "E7-E13")
    game.offer_draw()
    assert situation(game) == "Black to move. White offers a draw."
    game = Game.new()
    play(game, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    assert situation(game) == "White to move. White may claim a draw (threefold repetition)."


@pytest.mark.parametrize(
    ("rule", "ending"),
    [
        ("stalemate-white", "Game over: White is stalemated: a minimum win for Black (1-2)."),
        ("insufficient-material-minor", "Game over: draw: insufficient material to mate (1-1)."),
    ],
)
def test_the_situation_says_how_a_game_ended(rule: str, ending: str) -> None:
    assert situation(Game(vector(rule))) == ending


def test_a_resignation_is_said_with_the_result() -> None:
    game = Game.new()
    game.resign(game.position.turn)
    assert situation(game) == "Game over: White resigns (0-3)."


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(300, "5 min"), (298.2, "4 min 59 s"), (3723, "1 h 2 min 3 s"), (9.66, "9.7 s"), (0, "0.0 s"), (-1, "0.0 s")],
)
def test_clock_times_in_words(seconds: float, words: str) -> None:
    assert duration_words(seconds) == words


def test_an_unlimited_time_and_lists_with_or() -> None:
    assert duration_words(math.inf) == "unlimited"
    assert [or_list(items) for items in (["a"], ["a", "b"], ["a", "b", "c"])] == ["a", "a or b", "a, b or c"]


def test_a_clock_game_announces_moves_like_any_other() -> None:
    game = Game.new(time_control=TimeControl.from_tag("300"))
    play(game, "E7-E13")
    assert announce_last_move(game) == "White Pawn E7 to E13, triple step. Black to move."
