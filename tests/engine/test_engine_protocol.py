"""The engine's UCI-style protocol (docs/engine-protocol.md): every command, bad input, and stop at once.

Most tests talk to an :class:`EngineProtocol` in process; the last ones run
the real ``cescacs engine`` command and write their bytes in one burst, the
way a front end or a person at a terminal delivers them.  No timing is
asserted beyond generous deadlines for an answer to arrive at all.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cescacs_tui.core import INITIAL_PDTL, WHITE, Position
from cescacs_tui.core.build_info import build
from cescacs_tui.core.safe_text import printable
from cescacs_tui.engine.levels import LEVELS
from cescacs_tui.engine.protocol import MAX_LINE, OPTIONS, parse_go
from cescacs_tui.engine.search import Limits
from tests.helpers.builders import pdtl
from tests.helpers.engine import PATIENCE, Conversation, EngineProcess
from tests.helpers.reference import load_jsonl

MATES = load_jsonl("mates.jsonl")

# From the mate suite: White mates at once with I17-C17 only, and the position after it.
MATE_IN_ONE = next(r["pdtl"] for r in MATES if r["mate_in"] == 1 and r["solutions"] == ["I17-C17"])
MATE = "I17-C17"
CHECKMATED = Position.from_pdtl(MATE_IN_ONE)
CHECKMATED.push(CHECKMATED.parse_move(MATE))


@pytest.fixture
def engine():
    conversation = Conversation()
    yield conversation
    conversation.close()


def legal_names(position: Position) -> set[str]:
    return {str(m) for m in position.legal_moves()}


def test_uci_names_the_engine_declares_its_options_and_ends_with_uciok(engine):
    engine.send("uci")
    lines = engine.wait_for(lambda line: line == "uciok", "uciok")
    assert lines[0] == f"id name cescacs-tui engine ({build()})"  # which build runs: compiled or pure Python
    assert lines[1].startswith("id author ")
    declared = [line for line in lines if line.startswith("option ")]
    assert declared == [option.declaration() for option in OPTIONS]
    assert "option name Level type spin default 10 min 1 max 10" in declared
    assert "option name UCI_LimitStrength type check default false" in declared
    weakest, strongest = LEVELS[0].elo, LEVELS[-1].elo  # UCI_Elo's range is the ladder's
    assert f"option name UCI_Elo type spin default {strongest} min {weakest} max {strongest}" in declared
    assert lines[-1] == "uciok"


def test_isready_answers_readyok_also_during_a_search(engine):
    engine.send("isready")
    assert engine.wait_for(lambda line: True, "readyok") == ["readyok"]
    engine.send("position startpos", "go infinite", "isready")
    engine.wait_for(lambda line: line == "readyok", "readyok while searching")
    engine.send("stop")
    engine.bestmove()


def test_go_depth_answers_a_legal_move_after_info_lines(engine):
    engine.send("position startpos", "go depth 2")
    lines = engine.bestmove()
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos, lines
    first = infos[0].split()
    for field in ("depth", "seldepth", "score", "nodes", "nps", "time", "pv"):
        assert field in first
    assert first[first.index("score") + 1] == "cp"
    best = lines[-1].split()[1]
    assert best in legal_names(Position.initial())
    # the reported line starts with the move played
    assert infos[-1].split("pv ")[1].split()[0] == best


def test_position_with_moves_in_the_canonical_form_and_ctl_an(engine):
    engine.send("position startpos moves E7-E13 E21-E15 NG3-H8", "go depth 1")
    position = Position.initial()
    for text in ("E7-E13", "E21-E15", "G3-H8"):
        position.push(position.parse_move(text))
    assert engine.bestmove()[-1].split()[1] in legal_names(position)
    assert engine.protocol.position == position


def test_position_pdtl_with_moves(engine):
    rook_endgame = pdtl("kG27 rC25 KG1 RC3", castling="--", number=30)
    engine.send(f"position pdtl {rook_endgame} moves C3-C5", "go depth 1")
    position = Position.from_pdtl(rook_endgame)
    position.push(position.parse_move("C3-C5"))
    assert engine.protocol.position == position
    assert engine.bestmove()[-1].split()[1] in legal_names(position)


def test_promotion_in_place_and_castling_tokens_are_accepted(engine):
    # RULES.md 7.5: after JB18×NC21 GD26×JC21 White's only move is the in-place promotion P21=J
    forced = (
        "/28:v/27:dk/26:1jg/25:2nr/24:r1jep/23:3epp/22:p2jp2/21:P1g1p3/20:3p3/19:3e4/17:2p5/16:1Re4/15:3p4"
        "/14:1pP4/8:3P3/7:3PP3/6:2P1P2/5:2EEPP/4:PEJEP/3:1NNR/2:GJG/1:DK/0:V/ w KRkr - 0 14"
    )
    engine.send(f"position pdtl {forced}", "go depth 3")
    assert engine.bestmove()[-1] == "bestmove P21=J"
    castle = "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"
    engine.send(f"position pdtl {castle} moves KRK-HIO", "isready")
    engine.wait_for(lambda line: line == "readyok", "readyok")
    assert engine.new_lines() == []  # no error
    assert engine.protocol.position.king(WHITE) != Position.from_pdtl(castle).king(WHITE)


def test_go_finds_the_mate_in_one_and_reports_the_mate_score(engine):
    engine.send(f"position pdtl {MATE_IN_ONE}", "go depth 3")
    lines = engine.bestmove()
    assert lines[-1] == f"bestmove {MATE}"
    assert "score mate 1" in lines[-2]


def test_a_position_without_moves_answers_bestmove_none(engine):
    engine.send(f"position pdtl {CHECKMATED.to_pdtl()}", "go movetime 100")
    lines = engine.bestmove()
    assert lines[-1] == "bestmove (none)"
    assert "score mate 0" in lines[-2]


@pytest.mark.slow
def test_go_nodes_movetime_and_clock_forms(engine):
    for go in (
        "go nodes 300",
        "go movetime 150",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go wtime 500 movestogo 5",
    ):
        engine.send("position startpos", go)
        assert engine.bestmove()[-1].split()[1] in legal_names(Position.initial()), go


def test_stop_during_go_infinite_answers_with_a_legal_move(engine):
    engine.send("position startpos moves F8-F12", "go infinite")
    engine.wait_for(lambda line: line.startswith("info depth 2"), "the search to be under way")
    engine.send("stop")  # handle() returns only when the search has answered
    lines = engine.new_lines()
    assert lines[-1].startswith("bestmove ")
    position = Position.initial()
    position.push(position.parse_move("F8-F12"))
    assert lines[-1].split()[1] in legal_names(position)


def test_go_infinite_does_not_answer_before_stop_even_when_its_search_ends(engine):
    engine.send(f"position pdtl {MATE_IN_ONE}", "setoption name Level value 1", "go infinite")
    engine.wait_for(lambda line: line.startswith("info depth 1"), "the level-1 search (depth 1 only) to finish")
    engine.send("isready")
    engine.wait_for(lambda line: line == "readyok", "readyok")
    assert not any(line.startswith("bestmove") for line in engine.lines)
    engine.send("stop")
    assert engine.new_lines()[-1] == f"bestmove {MATE}"


def test_stop_and_ucinewgame_when_idle_are_quiet(engine):
    engine.send("stop", "ucinewgame", "isready")
    assert engine.wait_for(lambda line: True, "readyok") == ["readyok"]


def test_ucinewgame_resets_the_position_and_the_tables(engine):
    engine.send("position startpos moves E7-E13", "go depth 2")
    engine.bestmove()
    assert engine.protocol.searcher.table
    engine.send("ucinewgame")
    assert engine.protocol.position == Position.initial()
    assert not engine.protocol.searcher.table


def test_setoption_changes_each_option(engine):
    engine.send(
        "setoption name Level value 3",
        "setoption name hash value 2",  # option names are case-insensitive
        "setoption name Castling value false",
        "setoption name Seed value 7",
        "setoption name Move Overhead value 0",
    )
    assert engine.new_lines() == []
    assert engine.protocol.options == {
        "Level": 3,
        "Hash": 2,
        "Castling": False,
        "Seed": 7,
        "Move Overhead": 0,
        "UCI_LimitStrength": False,
        "UCI_Elo": LEVELS[-1].elo,
    }
    engine.send("setoption name moveoverhead value 40")  # names match without case or spaces (0.3's spelling)
    assert engine.new_lines() == []
    assert engine.protocol.options["Move Overhead"] == 40
    assert engine.protocol.searcher.hash_entries == 2 * (1 << 20) // 200
    # Castling applies from the next position command: the beginners' rule (RULES.md 11.1)
    engine.send("position startpos")
    assert not engine.protocol.position.castling_enabled


def test_uci_elo_plays_at_that_strength_on_the_ladder_when_strength_is_limited(engine):
    seventh = LEVELS[6]
    assert seventh.nodes is not None
    engine.send("setoption name UCI_Elo value " + str(seventh.elo), "position startpos", "go nodes 12000")
    engine.bestmove()
    assert engine.protocol.searcher.nodes >= 12000  # not limited yet: Level 10 searches them all
    engine.send("setoption name UCI_LimitStrength value true", "go nodes 12000")
    engine.bestmove()
    assert engine.protocol.searcher.nodes <= seventh.nodes + 64  # level 7's budget (read every 16 nodes)
    engine.send(f"setoption name UCI_Elo value {LEVELS[0].elo}", "go nodes 12000")
    depths = [line.split()[2] for line in engine.bestmove() if line.startswith("info depth")]
    assert depths and set(depths) == {"1"}  # level 1: one ply
    engine.send("setoption name UCI_LimitStrength value false", "setoption name Level value 1")
    assert engine.protocol.options["UCI_Elo"] == LEVELS[0].elo  # kept for the next time strength is limited


def test_the_documents_give_each_level_the_elo_the_engine_has():
    docs = Path(__file__).resolve().parents[2] / "docs"
    for page, column in (("engine-protocol.md", 5), ("playing.md", 2)):
        text = (docs / page).read_text(encoding="utf-8")
        table = text[text.index("| level |") :].split("\n\n")[0].splitlines()[2:]
        said = [row.split("|")[column].split()[0] for row in table]
        assert said == [str(lv.elo) for lv in LEVELS], page
    protocol = (docs / "engine-protocol.md").read_text(encoding="utf-8")
    assert f"| `UCI_Elo` | {LEVELS[0].elo}–{LEVELS[-1].elo} | {LEVELS[-1].elo} |" in protocol


def test_a_seed_makes_a_weak_level_repeat_its_moves():
    def moves() -> list[str]:
        conversation = Conversation()
        conversation.send("setoption name Level value 2", "setoption name Seed value 11", "ucinewgame")
        out = []
        for played in ("", " moves E7-E13", " moves E7-E13 E21-E15"):
            conversation.send(f"position startpos{played}", "go depth 1")
            out.append(conversation.bestmove()[-1])
        conversation.close()
        return out

    assert moves() == moves()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("setoption name Level value 11", "setoption Level: 11 is not between 1 and 10"),
        ("setoption name Level value three", "setoption Level: 'three' is not a whole number"),
        ("setoption name Castling value maybe", "setoption Castling: 'maybe' is not true or false"),
        (
            f"setoption name UCI_Elo value {LEVELS[-1].elo + 1}",
            f"setoption UCI_Elo: {LEVELS[-1].elo + 1} is not between {LEVELS[0].elo} and {LEVELS[-1].elo}",
        ),
        ("setoption name Threads value 2", "setoption: unknown option 'Threads'"),
        ("setoption name Level", "setoption Level: a value is needed"),
        ("setoption Level 3", "setoption: expected 'setoption name NAME [value VALUE]'"),
        ("position", "position: expected 'startpos' or 'pdtl PDTL', then optionally 'moves ...'"),
        ("position fen rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1", "position fen: C'escacs positions are given as"),
        ("position startpos extra", "position startpos: unexpected 'extra'"),
        ("position startpos moves E7-E13 E7-E13", "position: move 2 'E7-E13' cannot be played"),
        ("position startpos moves Z99-A1", "position: move 1 'Z99-A1' cannot be played"),
        ("position pdtl", "position pdtl: the PDTL is missing"),
        ("position pdtl /28:v/ w - - 0 1", "position pdtl: PDTL"),
        ("position somewhere", "position: expected startpos or pdtl, not 'somewhere'"),
        ("go depth", "go: depth needs a number"),
        ("go depth -3", "go: depth must be at least 1"),
        ("go movetime soon", "go: movetime needs a whole number, not 'soon'"),
        ("go ponder", "go: unknown or unsupported parameter 'ponder'"),
        ("go btime 1000", "go: no wtime for the side to move"),
        ("ponderhit", "ponderhit: pondering is not supported"),
        ("debug maybe", "debug: expected on or off"),
        ("frobnicate now", "unknown command 'frobnicate'"),
    ],
)
def test_bad_input_gets_one_error_line_and_the_engine_keeps_going(engine, command, message):
    before = engine.protocol.position
    engine.send(command)
    lines = engine.new_lines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("info string error: " + message), lines[0]
    assert engine.protocol.position == before  # a refused position changes nothing
    engine.send("isready")
    assert engine.wait_for(lambda line: True, "readyok") == ["readyok"]


def test_control_characters_are_never_echoed(engine):
    engine.send("\x1b[2J\x1b]0;owned\x07 now", "position startpos moves E7-E13\x1b[31m")
    lines = engine.new_lines()
    assert len(lines) == 2
    for line in lines:
        assert line.isprintable(), line
        assert "\x1b" not in line and "\x07" not in line
    assert "\u241b[2J" in lines[0]  # ESC shown as its control picture, as everywhere in cescacs-tui
    assert printable("a\x00b\u202ec") == "a\u2400b\ufffdc"
    assert printable("x" * 100, 10) == "x" * 10 + "..."


def test_commands_that_need_an_idle_engine_are_refused_while_it_searches(engine):
    engine.send("position startpos", "go infinite", "go depth 1", "ucinewgame", "setoption name Level value 2")
    errors = [line for line in engine.new_lines() if line.startswith("info string error")]
    assert [e.split(":")[1].strip() for e in errors] == ["go", "ucinewgame", "setoption"]
    engine.send("position startpos moves E7-E13")  # allowed: it is for the next go
    engine.send("stop")
    assert engine.new_lines()[-1].split()[1] in legal_names(Position.initial())


def test_quit_during_a_search_ends_it(engine):
    engine.send("position startpos", "go infinite")
    assert engine.protocol.handle("quit") is False
    assert engine.lines[-1].startswith("bestmove ")


def test_the_end_of_input_finishes_a_bounded_search_and_stops_an_infinite_one():
    bounded = Conversation()
    bounded.protocol.run(["position startpos", "go depth 2"])
    assert bounded.lines[-1].startswith("bestmove ")
    assert any(line.startswith("info depth 2") for line in bounded.lines)
    infinite = Conversation()
    infinite.protocol.run(["position startpos", "go infinite"])
    assert infinite.lines[-1].startswith("bestmove ")


def test_parse_go():
    assert parse_go([], 0) == Limits(infinite=True)
    assert parse_go(["infinite"], 0) == Limits(infinite=True)
    assert parse_go(["movetime", "1500"], 0) == Limits(movetime=1.5)
    assert parse_go(["wtime", "60000", "btime", "-5", "winc", "1000"], 1) == Limits(
        white_time=60.0, black_time=0.0, white_increment=1.0
    )
    assert parse_go(["depth", "4", "nodes", "900"], 0) == Limits(depth=4, nodes=900)


# --- the real command ---------------------------------------------------------------------


@pytest.mark.slow
def test_the_cescacs_engine_command_in_one_burst_of_bytes():
    engine = EngineProcess()
    try:
        engine.write(
            b"uci\nisready\nucinewgame\nsetoption name Level value 2\n"
            b"position startpos moves E7-E13\ngo nodes 500\n"
            b"\xff\xfe garbage \x1b[31m\n\n   \nposition startpos\n"
        )
        assert b"uciok\n" in engine.read_until(b"readyok\n", "readyok")
        first = engine.read_until(b"bestmove ", "the first bestmove") + engine.read_until(b"\n", "its end")
        engine.write(b"go depth 1\n")  # after the answer: a go during a search is refused, whatever the timing
        second = engine.read_until(b"bestmove ", "the second bestmove") + engine.read_until(b"\n", "its end")
        # undecodable bytes become U+FFFD (printable), the escape character is escaped
        assert "info string error: unknown command '\ufffd\ufffd'".encode() in first + second
        assert b"\x1b" not in first + second
        status, _, err = engine.finish()
        assert status == 0
        assert err == b""
    finally:
        engine.kill()


@pytest.mark.slow
def test_the_command_stops_at_once_during_go_infinite_and_quits():
    engine = EngineProcess()
    try:
        engine.write(b"position startpos\ngo infinite\n")
        engine.read_until(b"info depth 2 ", "the search to be under way")
        engine.write(b"stop\n")
        answer = engine.read_until(b"bestmove ", "bestmove") + engine.read_until(b"\n", "its end")
        assert answer.split(b"bestmove ")[1].strip().decode() in legal_names(Position.initial())
        engine.write(b"isready\n")
        engine.read_until(b"readyok\n", "readyok after stop")
        engine.write(b"quit\n")
        assert engine.process.wait(timeout=30) == 0
    finally:
        engine.kill()


@pytest.mark.slow
def test_an_over_long_line_is_refused_and_the_engine_goes_on():
    engine = EngineProcess()
    try:
        engine.write(b"position startpos moves " + b"E7-E13 " * (MAX_LINE // 7 + 10) + b"\nisready\n")
        out = engine.read_until(b"readyok\n", "readyok after the long line")
        assert out == f"info string error: line longer than {MAX_LINE} bytes ignored\nreadyok\n".encode()
    finally:
        engine.kill()


def test_engine_help_mentions_the_protocol(capsys):
    from cescacs_tui.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["engine", "--help"])
    assert exit_info.value.code == 0
    assert "docs/engine-protocol.md" in capsys.readouterr().out


def test_startpos_is_the_initial_position(engine):
    engine.send("position startpos")
    assert engine.protocol.position.to_pdtl() == INITIAL_PDTL


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")
def test_a_person_typing_into_cescacs_engine_in_a_terminal():
    """In a pseudo-terminal (line editing, echo) the commands typed in one burst are followed in order."""
    import pty

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "engine"], stdin=terminal, stdout=terminal, stderr=terminal
    )
    os.close(terminal)
    output = b""
    try:
        os.write(controller, b"uci\rposition startpos moves E7-E13\rgo depth 2\risready\rbogus\x1b[A\rquit\r")
        deadline = time.monotonic() + PATIENCE
        while process.poll() is None or select.select([controller], [], [], 0)[0]:
            if time.monotonic() > deadline:
                raise AssertionError(f"the engine did not finish: {output[-400:]!r}")
            if select.select([controller], [], [], 0.05)[0]:
                try:
                    output += os.read(controller, 1 << 16)
                except OSError:  # the process closed the terminal
                    break
        assert process.wait(timeout=PATIENCE) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    text = output.decode("utf-8", errors="replace")
    assert "uciok" in text and "readyok" in text
    assert "info string error: unknown command 'bogus\u241b[A'" in text
    best = text.split("bestmove ")[1].split()[0]
    position = Position.initial()
    position.push(position.parse_move("E7-E13"))
    assert best in legal_names(position)
