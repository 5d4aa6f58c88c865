"""CTL-PGN writing and reading (NOTATION.md 6-8): layout, round trips, tolerance, errors."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cescacs_tui.core import WHITE, Position
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game, Node
from cescacs_tui.core.pgn import MAX_VARIATION_DEPTH, PGNError, count_games, iter_pgn, read_pgn, write_pgn
from cescacs_tui.data.records import MAX_FILE_BYTES, load_pgn_file, save_pgn_file
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, play

GAMES = Path(__file__).parents[1] / "data" / "games"


def shape(nodes: list[Node]) -> list:
    """What a record says about a line, recursively (for round-trip comparisons)."""
    return [
        (str(n.move), n.san, n.assessment, n.draw_offer, n.comments, n.clock, [shape(v) for v in n.variations])
        for n in nodes
    ]


def summary(game: Game) -> tuple:
    return (
        game.tags,
        game.repeated_tags,
        game.start.to_pdtl(),
        game.intro_comments,
        shape(game.nodes),
        game.result,
        game.termination,
        game.final_comments,
    )


def test_writer_layout_for_a_finished_game() -> None:
    game = Game.new(white="Ros, Xus", black="Sasal, Cesc")
    game.tags["Date"] = "2025-06-01"
    play(game, *FOOLS_MATE)
    text = write_pgn(game)
    assert text == (
        '[Variant "C\'escacs"]\n[Event "CG"]\n[Site "?"]\n[Date "2025-06-01"]\n[Round "-"]\n'
        '[White "Ros, Xus"]\n[Black "Sasal, Cesc"]\n[Result "0-3"]\n[Annotator "cescacs-tui"]\n[Mode "OTB"]\n'
        "\n"
        "1. H6-H12, I23-I19\n2. JF6-C15, GH26-Z11\n3. L5-L7, NG25-L17\n4. EH4-H8, GZ11-L5\n"
        "5. I5-I9, NL17-G9\n6. K4-K10, GL5-H6#\n0-3\n"
    )


def test_writer_ends_an_unfinished_record_with_the_end_indicator() -> None:
    game = Game.new()
    play(game, "E7-E13")
    text = write_pgn(game)
    assert text.endswith("\n1. E7-E13 :\n*\n")


def test_writer_starts_with_an_ellipsis_when_black_moves_first() -> None:
    game = Game.new(pdtl="/27:1k/19:2r5/9:5R2/1:1K/ b -- - 0 40")
    play(game, "RC19-C21", "RI9-I11")
    text = write_pgn(game)
    assert '[PDTL "/27:1k/19:2r5/9:5R2/1:1K/ b -- - 0 40"]' in text
    assert "\n40. \u2026, RC19-C21\n41. RI9-I11 :\n*\n" in text


def test_writer_uses_question_numbering_for_an_unknown_move_number() -> None:
    game = Game.new(pdtl="/27:1k/19:2r5/9:5R2/1:1K/ b -- - 0 ?")
    play(game, "RC19-C21", "RI9-I11", "RC21-C23")
    assert "\n1? \u2026, RC19-C21\n2. RI9-I11, RC21-C23 :\n" in write_pgn(game)
    again = read_pgn(write_pgn(game))[0]
    assert [n.san for n in again.nodes] == ["RC19-C21", "RI9-I11", "RC21-C23"]


def test_writer_records_the_ending_that_moves_cannot_show() -> None:
    game = Game.new()
    play(game, "E7-E13", "E21-E15")
    game.resign(WHITE)
    text = write_pgn(game)
    assert text.endswith("1. E7-E13, E21-E15 :\n0-3\n{: White resigns }\n")
    again = read_pgn(text)[0]
    assert (again.result, again.termination) == ("0-3", "White resigns")


def test_draw_offer_and_agreement_round_trip() -> None:
    game = Game.new()
    play(game, "E7-E13")
    game.offer_draw()
    game.accept_draw()
    text = write_pgn(game)
    assert "1. E7-E13 (=):\n1-1\n{: draw by agreement }" in text
    again = read_pgn(text)[0]
    assert again.nodes[0].draw_offer and again.termination == "draw by agreement"


def test_no_castling_option_is_recorded_and_read_back() -> None:
    game = Game.new(castling=False)
    play(game, "E7-E13")
    text = write_pgn(game)
    assert '[Castling "No"]' in text and "{ Played without castling. }" in text
    again = read_pgn(text)[0]
    assert again.castling_enabled is False


def test_a_game_without_castling_from_a_pdtl_records_it_in_a_tag() -> None:
    # the audit's case: only a comment was written, so the record read back as a game with castling
    pdtl = "/27:1k/3:R2R/1:1K/ w RKR- - 0 1"
    for game in (Game.new(pdtl=pdtl, castling=False), Game(Position.from_pdtl(pdtl, castling=False))):
        text = write_pgn(game)
        assert '[Castling "No"]' in text
        (again,) = read_pgn(text)
        assert again.castling_enabled is False
        assert "KRR-HIH" not in {str(m) for m in again.position.legal_moves()}
    with_castling = Game(Position.from_pdtl(pdtl), tags={"Castling": "No"})  # a tag that contradicts the game
    assert "Castling" not in write_pgn(with_castling)


def test_clock_times_round_trip_as_clk_comments() -> None:
    now = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, base=900, increment=10), time_source=now)
    play(game, "E7-E13")
    now.now += 75
    play(game, "E21-E15")
    text = write_pgn(game)
    assert '[TimeControl "900+10"]' in text
    assert "{: @W [%clk 0:15:10] }\n{: @B [%clk 0:13:55] }" in text
    again = read_pgn(text)[0]
    assert [n.clock for n in again.nodes] == [910, 835]
    assert again.nodes[0].comments == [] and again.nodes[1].comments == []
    assert again.clock is not None and again.clock.remaining(WHITE) == 910


@pytest.mark.parametrize("path", sorted(GAMES.glob("site-*fools-mate*.txt")) + sorted(GAMES.glob("site-file*.txt")))
def test_read_write_read_gives_the_same_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8").partition("\n")[2]
    for game in read_pgn(text):
        written = write_pgn(game)
        (again,) = read_pgn(written)
        assert summary(again) == summary(game)
        assert write_pgn(again) == written


def test_fan_record_round_trips() -> None:
    game = Game.new()
    play(game, *FOOLS_MATE[:6])
    text = write_pgn(game, fan=True)
    assert '[Redefine "FAN"]' in text
    assert "\u2657F6-C15" in text  # ♗F6-C15: the White Bishop glyph
    assert "\U0001fa53H26-Z11" in text  # the Black Pegasus glyph
    assert [n.san for n in read_pgn(text)[0].nodes] == [n.san for n in game.nodes]


def test_redefined_letters_are_honoured_in_moves_and_pdtl() -> None:
    text = (
        '[Variant "C\'escacs"]\n[Redefine "A@J, C@N, T@R"]\n'
        '[PDTL "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/'
        '6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1"]\n\n'
        "1. AF6-C15, CG25-H20\n*\n"
    )
    (game,) = read_pgn(text)
    assert [n.san for n in game.nodes] == ["JF6-C15", "NG25-H20"]
    assert game.start.castling_rights(WHITE).queens_rook


def test_undeclared_alias_is_tolerated_but_strict_mode_rejects_it() -> None:
    text = '[Variant "C\'escacs"]\n\n1. AF6-C15 :\n*\n'
    (game,) = read_pgn(text)
    assert any("did not declare" in w for w in game.warnings)
    with pytest.raises(PGNError, match="did not declare"):
        read_pgn(text, strict=True)


def test_tolerated_forms_in_one_record() -> None:
    text = (
        '\ufeff[Variant "C\'escacs"]\r\n[Result "*"]\r\n\r\n'
        "1. E7\u2010E13 !?, E21-E15\r\n"
        "2. F8-F12, F20-F16 ??\r\n"
        "3. E13*F16, E15\u00d7F12\r\n"
        "4. JF6-D12 $1 {a NAG} ,D22-D18\r\n"
    )
    (game,) = read_pgn(text)
    assert [n.san for n in game.nodes][4:] == ["E13×F16", "E15×F12", "JF6-D12", "D22-D18"]
    assert game.nodes[0].assessment == "!?" and game.nodes[3].assessment == "??"
    assert game.nodes[6].comments == ["a NAG"]


def test_several_games_in_one_text() -> None:
    one = '[Variant "C\'escacs"]\n\n1. E7-E13 :\n*\n'
    two = '[Variant "C\'escacs"]\n\n1. F8-F12, F20-F16 :\n*\n'
    games = read_pgn(one + "\n" + two)
    assert [g.ply for g in games] == [1, 2]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('[Variant "C\'escacs"]\n\n1. E7-E13, E21-E15\n2. EE5-E11\n', 4, 4, "Elephant on E5 cannot go to E11"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13, E21-E15\n2. F8xF12\n', 4, 4, "'x' is not a capture sign"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13 { unclosed\n', 3, 11, "comment is never closed"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13 (1. F8-F12\n', 3, 11, "variation is never closed"),
        ('[Variant "Grand C\'escacs"]\n\n1. E7-E13\n', 1, 1, "Grand C'escacs is not supported"),
        ('[Variant "C\'escacs"\n\n1. E7-E13\n', 1, 1, "malformed tag"),
        ('[Variant "C\'escacs"]\n[PDTL "/27:1k/ w -- - 0 1"]\n\n1. E7-E13\n', 2, 1, "White King is missing"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13, E21-E15 2. E13-E15\n', 3, 23, "cannot go to E15"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13, NE3-D8\n', 3, 12, "there is a White Knight on E3"),
        ('[Variant "C\'escacs"]\n\n1. E7-E13\n2. E21-E15\n', 4, 4, "but Black is to move"),
    ],
)
def test_bad_records_fail_with_line_column_and_reason(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(PGNError) as caught:
        read_pgn(text)
    error = caught.value
    assert (error.line, error.column) == (line, column)
    assert words in str(error)


def test_the_first_illegal_move_in_a_variation_is_reported() -> None:
    text = '[Variant "C\'escacs"]\n\n1. E7-E13, E21-E15\n(1. …, E21-E11)\n*\n'
    with pytest.raises(PGNError) as caught:
        read_pgn(text)
    assert caught.value.line == 4 and "E21" in str(caught.value)


def test_comments_are_kept_verbatim_never_interpreted() -> None:
    text = '[Variant "C\'escacs"]\n\n{ [bold red]not markup[/] }\n1. E7-E13 :\n*\n'
    (game,) = read_pgn(text)
    assert game.intro_comments == [" [bold red]not markup[/] "]
    assert "{ [bold red]not markup[/] }" in write_pgn(game)


def test_files_that_are_not_text_or_too_large_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "binary.ctl-pgn"
    binary.write_bytes(b'[Variant "C\'escacs"]\x00\x01')
    with pytest.raises(PGNError, match="not a text file"):
        load_pgn_file(binary)
    latin = tmp_path / "latin.ctl-pgn"
    latin.write_bytes('[Event "Café"]'.encode("latin-1"))
    with pytest.raises(PGNError, match="not UTF-8"):
        load_pgn_file(latin)
    huge = tmp_path / "huge.ctl-pgn"
    huge.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(PGNError, match="refused"):
        load_pgn_file(huge)


def test_save_and_load_a_file(tmp_path: Path) -> None:
    game = Game.new()
    play(game, *FOOLS_MATE)
    path = tmp_path / "fools.ctl-pgn"
    save_pgn_file(game, path)
    (again,) = load_pgn_file(path)
    assert summary(again) == summary(game)
    assert [p.name for p in tmp_path.iterdir()] == ["fools.ctl-pgn"]  # no temporary file left behind


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(
        alphabet=st.sampled_from([*list("[]{}()\"'.,:;*?!@#=&+^-‐…◇$ \n\t0123456789EFGKNRJDVTPWCX×∞/"), "\x00", "é"]),
        max_size=200,
    )
)
def test_reader_only_raises_its_documented_error(text: str) -> None:
    with contextlib.suppress(PGNError):
        read_pgn(text)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1.", "E7-E13", ",", "E21-E15", "2.", "(", ")", "{c}", "*", "3-0", "…", '[X "y"]', "\n"]),
        max_size=25,
    )
)
def test_reader_on_plausible_token_soup_only_raises_its_documented_error(tokens: list[str]) -> None:
    with contextlib.suppress(PGNError):
        read_pgn('[Variant "C\'escacs"]\n' + " ".join(tokens))


# --- total: bounded nesting and numbers, ASCII digits, lazy reading ----------------------------------------

FIRST_MOVES = sorted(Position.initial().ctl_an(m) for m in Position.initial().legal_moves())


def nested(depth: int) -> str:
    """A record whose first move has a variation, with a variation inside it, ``depth`` levels deep."""
    opening = "".join(f"(1. {FIRST_MOVES[level % len(FIRST_MOVES)]} " for level in range(depth))
    return f'[Variant "C\'escacs"]\n\n1. H6-H12 {opening}{")" * depth} *\n'


def test_variations_nested_up_to_the_limit_are_read_and_written_back() -> None:
    (game,) = read_pgn(nested(MAX_VARIATION_DEPTH))
    depth, line = 0, game.nodes
    while line[0].variations:
        depth, line = depth + 1, line[0].variations[0]
    assert depth == MAX_VARIATION_DEPTH
    assert shape(read_pgn(write_pgn(game))[0].nodes) == shape(game.nodes)


@pytest.mark.parametrize("depth", [MAX_VARIATION_DEPTH + 1, 986, 5000])
def test_variations_nested_deeper_are_a_clear_error(depth: int) -> None:
    # 986 levels used to exhaust the stack (RecursionError)
    with pytest.raises(PGNError, match=f"nested more than {MAX_VARIATION_DEPTH} deep") as caught:
        read_pgn(nested(depth))
    assert caught.value.line == 3 and caught.value.column is not None


def test_the_writer_refuses_a_tree_deeper_than_a_record_can_hold() -> None:
    # 497 levels used to exhaust the writer's stack, and with it every autosave
    game = Game.new()
    play(game, "H6-H12")
    start, move = Position.initial(), Position.initial().parse_move("E7-E13")
    line = [Node.before(start, move, 1)]
    for _ in range(600):
        node = Node.before(start, move, 1)
        node.variations = [line]
        line = [node]
    game.nodes[0].variations = [line]
    with pytest.raises(PGNError, match="nested more than"):
        write_pgn(game)


@pytest.mark.parametrize(
    "text",
    [
        '[Variant "C\'escacs"]\n\n' + "9" * 5001 + ". H6-H12 *\n",  # a move number
        '[Variant "C\'escacs"]\n\n1234567. H6-H12 *\n',
        '[Variant "C\'escacs"]\n\n1. H6-H12 $' + "9" * 5001 + " *\n",  # a NAG
    ],
)
def test_huge_numbers_in_the_move_text_are_a_clear_error(text: str) -> None:
    with pytest.raises(PGNError, match="too large"):
        read_pgn(text)


def test_a_clk_with_huge_hours_is_not_a_clock_time() -> None:
    # 5,001-digit hours used to crash the reader; the comment is kept as written
    comment = " [%clk " + "9" * 5001 + ":00:00] "
    (game,) = read_pgn(f'[Variant "C\'escacs"]\n\n1. H6-H12 {{{comment}}} *\n')
    assert game.nodes[0].clock is None and game.nodes[0].comments == [comment]
    assert write_pgn(game)


@pytest.mark.parametrize("value", ["9" * 999, "1" * 7, "900+" + "9" * 400, "*" + "9" * 999, "1e300"])
def test_a_huge_time_control_is_ignored_with_a_warning(value: str) -> None:
    (game,) = read_pgn(f'[Variant "C\'escacs"]\n[TimeControl "{value}"]\n\n1. H6-H12 *\n')
    assert game.clock is None
    assert any("TimeControl" in warning for warning in game.warnings)


def test_a_tag_value_beyond_the_limit_is_refused_at_its_line() -> None:
    with pytest.raises(PGNError, match="line 2, column 1: a tag value of 5001 characters is too long"):
        read_pgn(f'[Variant "C\'escacs"]\n[TimeControl "{"9" * 5001}"]\n\n1. H6-H12 *\n')


@pytest.mark.parametrize(
    "moves",
    ["\u0661. H6-H12 *", "1. H6-H\u0661\u0662 *", "1. H6-H12 $\u0661 *", "1. H6-H12 (\u0661. E7-E13) *"],
)
def test_only_ascii_digits_are_digits_in_a_record(moves: str) -> None:
    with pytest.raises(PGNError):
        read_pgn(f'[Variant "C\'escacs"]\n\n{moves}\n')


def test_a_result_tag_that_is_no_result_is_tolerated_not_a_crash() -> None:
    text = '[Variant "C\'escacs"]\n[Result "White won"]\n\n1. H6-H12\n'
    (game,) = read_pgn(text)
    assert game.outcome is None and any("not a result" in warning for warning in game.warnings)
    with pytest.raises(PGNError, match="not a result"):
        read_pgn(text, strict=True)
    (spaced,) = read_pgn('[Variant "C\'escacs"]\n[Result "0 - 3"]\n\n1. H6-H12 :\n')
    assert spaced.result == "0-3"


def test_warnings_and_errors_from_a_record_are_printable() -> None:
    (game,) = read_pgn('[Variant "C\'escacs"]\n[Result "3-0\x1b]52;c;eA==\x07"]\n\n' + " ".join(FOOLS_MATE) + "\n")
    assert game.warnings and all(warning.isprintable() for warning in game.warnings)
    with pytest.raises(PGNError) as caught:
        read_pgn('[Variant "C\'escacs"]\n\n1. H6-H12\x1b7\x9b2J *\n')
    assert str(caught.value).isprintable() and "H6-H12␛7\ufffd2J" in str(caught.value)  # shown, never obeyed


def test_a_lone_surrogate_is_written_as_a_replacement_character() -> None:
    game = Game.new(white="Ros\ud800")
    game.intro_comments.append("bad \udfff")
    text = write_pgn(game)
    assert text.encode("utf-8") and "Ros\ufffd" in text and "bad \ufffd" in text


TWO_GOOD_THEN_BROKEN = (
    '[Variant "C\'escacs"]\n[Round "1"]\n\n1. H6-H12 *\n\n'
    '[Variant "C\'escacs"]\n[Round "2"]\n\n1. E7-E13 *\n\n'
    '[Variant "C\'escacs"]\n[Round "3"]\n\n1. E7-E15 *\n'
)


def test_games_are_read_lazily_and_can_be_capped() -> None:
    with pytest.raises(PGNError, match="line 14"):
        read_pgn(TWO_GOOD_THEN_BROKEN)
    assert [g.tags["Round"] for g in read_pgn(TWO_GOOD_THEN_BROKEN, max_games=2)] == ["1", "2"]
    assert read_pgn(TWO_GOOD_THEN_BROKEN, max_games=0) == []
    games = iter_pgn(TWO_GOOD_THEN_BROKEN)
    assert next(games).tags["Round"] == "1"
    assert next(games).tags["Round"] == "2"
    with pytest.raises(PGNError):
        next(games)


def test_the_rest_of_a_capped_text_is_not_even_scanned() -> None:
    # after the first game, text the scanner refuses at once ("}" without "{"): never reached
    assert len(read_pgn('[Variant "C\'escacs"]\n\n1. H6-H12 *\n\n[Round "2"]\n\n}}}', max_games=1)) == 1


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   \n", 0),
        ("1. H6-H12 *\n", 1),  # a record without tags
        (TWO_GOOD_THEN_BROKEN, 3),
        ("1. H6-H12 *\n\n" + TWO_GOOD_THEN_BROKEN, 4),
        ('[Variant "C\'escacs"]\n{ a comment\n[Not "a tag"]\n}\n1. H6-H12 *\n', 1),
    ],
)
def test_count_games_agrees_with_reading(text: str, count: int) -> None:
    assert count_games(text) == count
    with contextlib.suppress(PGNError):
        assert len(read_pgn(text)) == count


@pytest.mark.slow
def test_count_games_of_many_records() -> None:
    text = "".join(f'[Variant "C\'escacs"]\n[Round "{n}"]\n\n1. H6-H12 *\n\n' for n in range(1000))
    assert count_games(text) == 1000 == len(read_pgn(text))


def test_an_assessment_on_the_last_move_of_an_unfinished_record_reads_back() -> None:
    """The writer glues the end indicator to a spaced assessment (``I23-I19 ?!:``); the reader refused it (found by
    scripts/fuzz.py, issue 22)."""
    (game,) = read_pgn('[Variant "C\'escacs"]\n\n1. H6-H12 ?!, I23-I19 ?! *\n')
    written = write_pgn(game)
    assert "I23-I19 ?!:" in written
    (again,) = read_pgn(written)
    assert again.moves == game.moves and [node.assessment for node in again.nodes] == ["?!", "?!"]


def test_a_comment_ends_its_line_even_where_a_variation_ends_after_it() -> None:
    """NOTATION.md 7.4.2: the ``}`` ends a line, so a variation that ends on a comment closes on the next line."""
    record = (
        '[Variant "C\'escacs"]\n\n1. H6-H12, H22-H16\n(1. E7-E13\n.{ @W: the other pawn }\n)\n'
        "(1. …, D22-D16\n.{: @B [%clk 0:05:00] }\n)\n2. E7-E13 *\n"
    )
    (game,) = read_pgn(record)
    written = write_pgn(game)
    for line in written.splitlines():
        if "{" in line:
            assert line.lstrip(".").startswith("{") and line.rstrip().endswith("}"), line
    assert "\n)\n" in written
    assert shape(read_pgn(written)[0].nodes) == shape(game.nodes)
    assert read_pgn(written)[0].nodes[0].variations[0][0].comments == game.nodes[0].variations[0][0].comments
