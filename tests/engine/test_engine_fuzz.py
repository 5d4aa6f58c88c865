"""The engine protocol is total: any line gets answers or one error line, and the engine keeps answering.

Issue 22 found ``position moves E7-E13`` (no setup before ``moves``) ending
``cescacs engine`` with a traceback.  Here random conversations, built from
the protocol's own words, numbers of every shape (huge, signed, non-ASCII
digits), moves, PDTL fragments and control characters, are sent in process
(hypothesis) and to the real command; after each, ``stop`` and ``isready``
must still be answered, and nothing may be an internal error or a traceback.
``CESCACS_FUZZ_EXAMPLES`` raises the number of conversations for a longer soak.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core import INITIAL_PDTL, Position
from cescacs_tui.engine.protocol import INTERNAL_ERROR, MAX_MOVES
from tests.helpers.engine import Conversation, EngineProcess
from tests.helpers.random_games import budget
from tests.helpers.reference import POSITIONS

EXAMPLES = int(os.environ.get("CESCACS_FUZZ_EXAMPLES", "150"))

START_MOVES = [str(m) for m in Position.initial().legal_moves()]
PDTLS = [INITIAL_PDTL, *(row["pdtl"] for row in POSITIONS[::25])]
COMMANDS = ["uci", "isready", "debug", "ucinewgame", "setoption", "position", "go", "stop", "ponderhit", "register"]
WORDS = [
    *("startpos", "pdtl", "moves", "fen", "name", "value", "on", "off", "true", "false"),
    *("Level", "Hash", "Castling", "Seed", "Move", "Overhead", "MoveOverhead", "UCI_Elo", "UCI_LimitStrength"),
    *("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder", "mate"),
    *("searchmoves", "KRK-HIO", "P21=J", "F26-F28=D", "E7-E13+^", "Z99-A1", "E7-", "=", "-", "+", "x"),
]
NUMBERS = [
    *("0", "1", "2", "3", "10", "-1", "-0", "+5", "007", "100", "1000", "5000", "4096", "4097"),
    *("9" * 19, "9" * 400, "-" + "9" * 30, "1e9", "1e999", "0x10", "1_000", "inf", "nan", "٣", "３", "²"),
]
NOISE = ["\x1b[31m", "\x00", "\u202e", "\u200b", "\t", "\x7f", "é", "\ufffd", "\U0001f600"]


def token(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind <= 2:
        return draw(st.sampled_from(WORDS))
    if kind <= 4:
        return draw(st.sampled_from(NUMBERS))
    if kind <= 6:
        return draw(st.sampled_from(START_MOVES))
    if kind == 7:
        return draw(st.sampled_from(PDTLS)).split()[draw(st.integers(0, 5))]
    if kind == 8:
        return draw(st.sampled_from(NOISE)) + draw(st.sampled_from(WORDS))
    return draw(st.text(min_size=1, max_size=12).filter(lambda text: not text.isspace()))


@st.composite
def command_line(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 5))
    if kind == 0:  # a position with a real PDTL and moves, perhaps cut or disordered
        words = ["position", "pdtl", *draw(st.sampled_from(PDTLS)).split()]
        cut = draw(st.integers(1, len(words)))
        return " ".join(words[:cut] + draw(st.lists(st.sampled_from(["moves", *START_MOVES]), max_size=4)))
    if kind == 1:  # a clock or a budget for go, with numbers of any shape
        pairs = draw(st.lists(st.tuples(st.sampled_from(WORDS[19:31]), st.sampled_from(NUMBERS)), max_size=4))
        return "go " + " ".join(f"{word} {number}" for word, number in pairs)
    command = draw(st.sampled_from(COMMANDS)) if kind < 5 else draw(st.sampled_from(WORDS))
    return " ".join([command, *(token(draw) for _ in range(draw(st.integers(0, 6))))])


def assert_answers_and_goes_on(conversation: Conversation) -> None:
    conversation.send("stop")
    conversation.send("isready")
    conversation.wait_for(lambda line: line == "readyok", "readyok after the conversation")
    for line in conversation.lines:
        assert INTERNAL_ERROR not in line, line
        assert line.isprintable(), line
        if line.startswith("info string"):
            assert line.startswith("info string error: "), line


@pytest.mark.slow
@budget(EXAMPLES)
@given(st.lists(command_line(), min_size=1, max_size=12))
def test_random_conversations_get_answers_or_errors_and_the_engine_keeps_answering(lines):
    conversation = Conversation()
    try:
        for line in lines:
            conversation.send(line)
        assert_answers_and_goes_on(conversation)
    finally:
        conversation.close()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("position moves E7-E13", "position: expected 'startpos' or 'pdtl PDTL'"),
        ("position moves", "position: expected 'startpos' or 'pdtl PDTL'"),
        ("go wtime " + "9" * 400, "go: wtime needs a whole number"),
        ("go movetime 1e999", "go: movetime needs a whole number"),
        ("go depth ٣", "go: depth needs a whole number, not '٣'"),
        ("setoption name Level value ٣", "setoption Level: '٣' is not a whole number"),
        ("setoption name Level value 1_0", "setoption Level: '1_0' is not a whole number"),
        ("setoption name value 3", "setoption: unknown option ''"),
        ("position startpos moves " + "E7-E13" * 10, "position: move 1 'E7-E13E7-E13E7-E13"),
        ("position startpos moves " + "G3-H8 " * (MAX_MOVES + 1), f"position: {MAX_MOVES + 1} moves are more than"),
    ],
)
def test_lines_that_once_crashed_or_could_hang_get_one_error(command, message):
    conversation = Conversation()
    try:
        conversation.send(command)
        lines = conversation.new_lines()
        assert len(lines) == 1 and lines[0].startswith("info string error: " + message), lines
        assert conversation.protocol.position == Position.initial()
        assert_answers_and_goes_on(conversation)
    finally:
        conversation.close()


def test_a_failing_search_still_answers_a_legal_move(monkeypatch):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the search")

    monkeypatch.setattr("cescacs_tui.engine.protocol.choose_move", broken)
    conversation = Conversation()
    try:
        conversation.send("position startpos", "go depth 3")
        lines = conversation.bestmove()
        assert lines[0] == f"info string error: go: {INTERNAL_ERROR} (RuntimeError('a bug in the search'))"
        assert lines[-1].split()[1] in START_MOVES
    finally:
        conversation.close()


@pytest.mark.slow
def test_the_issue_22_line_through_the_real_command():
    engine = EngineProcess()
    try:
        engine.write(b"position moves E7-E13\nisready\n")
        answered = engine.read_until(b"readyok\n", "readyok")
        assert answered.startswith(b"info string error: position: expected 'startpos'"), answered
        status, _, stderr = engine.finish()
    finally:
        engine.kill()
    assert status == 0 and stderr == b""


@pytest.mark.slow
def test_random_bytes_through_the_real_command_never_give_a_traceback():
    rng = random.Random(22)
    vocabulary = [w.encode() for w in COMMANDS + WORDS + NUMBERS + START_MOVES + NOISE]
    lines = []
    for _ in range(400):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 8))]
        if rng.random() < 0.2:
            words.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))).replace(b"\n", b""))
        lines.append(b" ".join(words))
    engine = EngineProcess()
    try:
        engine.write(b"\n".join(lines) + b"\nstop\nisready\n")
        engine.read_until(b"readyok\n", "readyok after 400 random lines")
        engine.write(b"stop\nquit\n")
        status, output, stderr = engine.finish()
    finally:
        engine.kill()
    assert status == 0 and stderr == b"", stderr[-2000:]
    assert INTERNAL_ERROR.encode() not in output
