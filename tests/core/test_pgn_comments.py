"""NOTATION.md 7.4.2: at most one comment per player's half-move, whatever parts of the program annotate it.

A person's words, the clock (``[%clk]``) and a review's score (``[%eval]``) on
one half-move are written as one comment, and read back apart, each as it was.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.core.pgn_comments import merge, split
from tests.helpers.clock import FakeTime
from tests.helpers.games import play

RECORD = '[Variant "C\'escacs"]\n\n'


def comments_after_each_move(text: str) -> list[int]:
    """How many comments follow each move line before the next move line (the record's layout)."""
    counts: list[int] = []
    for line in text.split("\n\n", 1)[1].splitlines():
        if re.match(r"\d+\.", line):
            counts.append(0)
        elif line.lstrip(".").startswith("{") and counts:
            counts[-1] += 1
    return counts


def clocked_game() -> Game:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, base=300, increment=0), time_source=now)
    play(game, "H6-H12")
    now.now += 1
    play(game, "I23-I19")
    return game


def test_words_a_clock_and_a_score_on_one_half_move_are_written_as_one_comment() -> None:
    game = clocked_game()
    game.nodes[0].comments += ["@W: the centre at once", ": @W [%eval 0.35]"]
    game.nodes[1].comments.append(": @B [%eval 0.20]")
    text = write_pgn(game)
    assert "{@W: the centre at once\n[%clk 0:05:00] [%eval 0.35]}" in text
    assert "{: @B [%clk 0:04:59] [%eval 0.20] }" in text
    assert text.count("{") == 2
    (back,) = read_pgn(text)
    assert [node.clock for node in back.nodes] == [300, 299]
    assert back.nodes[0].comments == ["@W: the centre at once", ": @W [%eval 0.35]"]
    assert back.nodes[1].comments == [": @B [%eval 0.20]"]
    assert write_pgn(back) == text


def test_a_record_with_a_comment_for_each_command_is_read_and_written_with_one() -> None:
    """Records written before this rule (the clock and the score apart, or two comments of words) read as before."""
    record = RECORD + "1. H6-H12\n{: @W [%clk 0:05:00] }\n{: @W [%eval 0.35] }\n{ first words }\n{ second }\n*\n"
    (game,) = read_pgn(record)
    node = game.nodes[0]
    assert node.clock == 300
    assert node.comments == [" first words ", " second ", ": @W [%eval 0.35]"]
    text = write_pgn(game)
    assert comments_after_each_move(text) == [1]
    assert "{ first words \n second \n[%clk 0:05:00] [%eval 0.35]}" in text


def test_another_programs_clock_comment_gives_the_clock_and_is_not_kept_twice() -> None:
    (game,) = read_pgn(RECORD + "1. H6-H12 { [%clk 0:04:10] } *\n")
    assert game.nodes[0].clock == 250 and game.nodes[0].comments == []
    (words,) = read_pgn(RECORD + "1. H6-H12 { [%clk 0:04:10] fast } *\n")
    assert words.nodes[0].clock == 250 and words.nodes[0].comments == [" [%clk 0:04:10] fast "]
    (again,) = read_pgn(write_pgn(words))
    assert again.nodes[0].clock == 250 and again.nodes[0].comments == [" [%clk 0:04:10] fast "]


def test_a_game_reviewed_with_a_clock_has_one_comment_per_half_move() -> None:
    game = clocked_game()
    for node in game.nodes:
        node.comments.append(f": {'@W' if node is game.nodes[0] else '@B'} [%eval 0.10]")
    text = write_pgn(game)
    assert comments_after_each_move(text) == [2]  # "1. H6-H12, I23-I19": two half-moves, a comment each
    assert text.count("{") == 2


words = st.text(st.characters(exclude_characters="{}", exclude_categories=["Cs"]), max_size=40).filter(
    lambda text: bool(text.strip()) and "[%" not in text
)


@given(
    st.lists(words, max_size=3),
    st.none() | st.integers(0, 10**6).map(lambda tenths: tenths / 10),
    st.lists(st.sampled_from(["[%eval 0.35]", "[%eval #-2]", "[%csl Ga1]"]), max_size=3),
)
def test_merge_then_split_gives_back_the_words_clock_and_commands(
    said: list[str], clock: float | None, commands: list[str]
) -> None:
    in_memory = [*said, *(f": @B {command}" for command in commands)]
    merged = merge(in_memory, clock, "@B")
    if not in_memory and clock is None:
        assert merged is None
        return
    assert merged is not None
    found = split([merged], "@B")
    assert found.words == (["\n".join(said)] if said else [])
    assert found.commands == [f": @B {command}" for command in commands]
    assert (found.clock is None) == (clock is None)
