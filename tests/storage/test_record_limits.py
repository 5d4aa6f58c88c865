"""Records under the file limit that took minutes or gigabytes are read, or refused at their first error (issue 22).

Each shape is the issue's, at a size where the old reader took seconds to
minutes (its figures are in benchmarks/readers.py, which measures the growth):
what is asserted here is the answer, a game or the first problem with its
line and column, never a time.
"""

from __future__ import annotations

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.errors import InvalidMoveError, PGNError
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.core.pgn_syntax import (
    MAX_COMMENT_CHARS,
    MAX_HALF_MOVES,
    MAX_RECORD_TOKENS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    parse_records,
)
from cescacs_tui.data.records import MAX_FILE_BYTES

HEADER = '[Variant "C\'escacs"]\n\n'


def refusal(text: str) -> str:
    with pytest.raises(PGNError) as caught:
        read_pgn(text)
    return str(caught.value)


def test_a_run_of_spaces_in_a_move_costs_its_length_not_its_fourth_power() -> None:
    """``'C' + ' ' * 160 + 'x'`` took two seconds; a hundred thousand spaces would have taken years."""
    with pytest.raises(InvalidMoveError, match="not a CTL-AN move"):
        Position.initial().parse_move("C" + " " * 100_000 + "x")


def test_a_move_repeated_to_the_file_limit_is_refused_at_its_first_illegal_one() -> None:
    text = HEADER + "1. E7-E13 " + "E7-E13 " * ((MAX_FILE_BYTES - 40) // 7) + "*\n"
    assert refusal(text).startswith("line 3, column 11: move 1 (Black) E7-E13: there is no piece on E7")


def test_an_illegal_move_before_a_syntax_error_is_the_error_reported() -> None:
    """The first problem in the text, not the first the syntax reader meets after reading everything."""
    assert refusal(HEADER + "1. E7-E14 E21-E15 2. H6-H12 } *\n").startswith("line 3, column 4: move 1 (White) E7-E14")
    assert refusal(HEADER + "1. E7-E13 E21-E15 } *\n").startswith("line 3, column 19: '}' without a '{'")


@pytest.mark.slow
def test_flat_variations_beyond_the_half_move_limit_are_refused() -> None:
    text = HEADER + "1. E7-E13 " + "(1. E7-E11) " * (MAX_HALF_MOVES + 10) + "*\n"
    said = refusal(text)
    assert f"the record holds more than {MAX_HALF_MOVES} half-moves" in said and "line 3, column" in said


@pytest.mark.slow
def test_as_many_variations_as_the_limit_allows_are_read() -> None:
    (game,) = read_pgn(HEADER + "1. E7-E13 " + "(1. E7-E11 {why not}) " * (MAX_HALF_MOVES - 1) + "*\n")
    assert len(game.nodes[0].variations) == MAX_HALF_MOVES - 1
    assert read_pgn(write_pgn(game))[0].nodes[0].variations[-1][0].comments == ["why not"]


@pytest.mark.slow
@pytest.mark.parametrize("unit", ["{c} ", "$1 ", "1. "], ids=["comments", "NAGs", "move numbers"])
def test_a_million_small_tokens_are_refused_at_the_token_limit(unit: str) -> None:
    said = refusal(HEADER + "1. E7-E13 " + unit * (MAX_FILE_BYTES // len(unit) - 10) + "*\n")
    assert f"the record holds more than {MAX_RECORD_TOKENS} tokens" in said


def test_more_tags_than_the_limit_are_refused_at_the_first_one_too_many() -> None:
    said = refusal(HEADER.replace("\n\n", "\n") + '[Annotator "x"]\n' * 280_000 + "\n*\n")
    assert said.startswith(f"line {MAX_TAGS + 1}, column 1: the record holds more than {MAX_TAGS} tags")


def test_a_name_of_megabytes_is_refused_without_megabytes_of_backtracking() -> None:
    said = refusal('[Variant "C\'escacs"]\n[White "' + "x" * (MAX_FILE_BYTES - 40) + '"]\n\n*\n')
    assert said.startswith("line 2, column 1: a tag value of") and f"at most {MAX_TAG_CHARS} characters" in said
    (game,) = read_pgn('[Variant "C\'escacs"]\n[White "' + "x" * MAX_TAG_CHARS + '"]\n\n*\n')
    assert len(game.tags["White"]) == MAX_TAG_CHARS


def test_a_comment_beyond_the_limit_is_refused_at_its_brace() -> None:
    said = refusal(HEADER + "1. E7-E13 {" + "x" * (MAX_COMMENT_CHARS + 1) + "} *\n")
    assert said.startswith(f"line 3, column 11: a comment of {MAX_COMMENT_CHARS + 1} characters is too long")
    (game,) = read_pgn(HEADER + "1. E7-E13 {" + "x" * MAX_COMMENT_CHARS + "} *\n")
    assert len(game.nodes[0].comments[0]) == MAX_COMMENT_CHARS


def test_notes_after_moves_on_one_long_line_cost_their_length() -> None:
    """Each ``//`` looked back to the start of its line: the square of the line's length."""
    said = refusal(HEADER + "1. E7-E13 " + "x //" * (MAX_FILE_BYTES // 4 - 10) + " *\n")
    assert said.startswith("line 3, column 11: move 1 (Black) x: not a CTL-AN move")


def test_the_limits_count_per_record_so_a_file_of_many_games_is_read() -> None:
    one = HEADER + "1. H6-H12 I23-I19 *\n\n"
    records = parse_records(one * (MAX_TAGS + 5))
    assert len(records) == MAX_TAGS + 5
    assert len(read_pgn(one * 300)) == 300


def test_the_writer_refuses_what_the_reader_would_refuse_so_no_save_becomes_damaged(tmp_path) -> None:
    """A 5,000-character name given through the API was saved, and the autosave then read as damaged (scripts/fuzz.py
    found it): the writer now says so, and the save is refused with a reason instead."""
    from cescacs_tui.core.game import Game
    from cescacs_tui.data.autosave import AutosaveWriteError, save_autosave

    game = Game.new(white="x" * (MAX_TAG_CHARS + 1))
    game.play_text("E7-E13")
    with pytest.raises(PGNError, match="cannot be written"):
        write_pgn(game)
    with pytest.raises(AutosaveWriteError, match="could not be written for the autosave"):
        save_autosave(game, {}, tmp_path / "autosave.json")
    game.tags["White"] = "x" * MAX_TAG_CHARS
    game.nodes[0].comments.append("y" * (MAX_COMMENT_CHARS + 1))
    with pytest.raises(PGNError, match="a comment holds"):
        write_pgn(game)
