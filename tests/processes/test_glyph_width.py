"""Measuring glyphs as the terminal draws them: the cursor-position questions and answers, in a pseudo-terminal.

The test plays the terminal: it reads what the child process writes to the
pseudo-terminal, and answers each ``ESC [ 6 n`` with where a terminal that draws
the Chess Symbols block two cells wide would have left the cursor.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cescacs_tui.core.pieces import FAN_GLYPHS, KING, PEGASUS, WYVERN
from cescacs_tui.tui.board_layout import CHESS_SYMBOLS, RISKY_GLYPHS
from cescacs_tui.tui.glyph_width import measure_widths, wide_glyphs

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")

GLYPHS = [*FAN_GLYPHS[KING], *FAN_GLYPHS[PEGASUS], *FAN_GLYPHS[WYVERN]]
CHILD = """
import json, sys
from cescacs_tui.tui.glyph_width import wide_glyphs
glyphs = json.loads(sys.argv[1])
print(json.dumps(sorted(wide_glyphs(glyphs, timeout=float(sys.argv[2])))), file=sys.stderr)
"""


def run_in_terminal(answer: bool, timeout: float = 5.0) -> tuple[list[str], bytes]:
    """Run :func:`wide_glyphs` in a child on a pseudo-terminal; answer its questions if ``answer``."""
    import pty

    controller, terminal = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps(GLYPHS), str(timeout if answer else 0.3)],
        stdin=terminal,
        stdout=terminal,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    os.close(terminal)
    seen = b""
    answered = 0
    deadline = time.monotonic() + 20
    try:
        while child.poll() is None and time.monotonic() < deadline:
            if not select.select([controller], [], [], 0.05)[0]:
                continue
            try:
                seen += os.read(controller, 4096)
            except OSError:
                break
            if answer:
                questions = re.findall(rb"\r([^\r\x1b]*)\x1b\[6n", seen)
                for glyph in questions[answered:]:
                    width = 2 if ord(glyph.decode()) in CHESS_SYMBOLS else 1
                    os.write(controller, f"\x1b[12;{1 + width}R".encode())
                answered = len(questions)
        _, errors = child.communicate(timeout=20)
    finally:
        os.close(controller)
    return json.loads(errors.decode().strip().splitlines()[-1]), seen


@pytest.mark.slow
def test_the_terminals_answers_say_which_glyphs_are_wide():
    wide, seen = run_in_terminal(answer=True)
    assert sorted(wide) == sorted(RISKY_GLYPHS)
    assert seen.count(b"\x1b[6n") == len(GLYPHS)
    assert seen.endswith(b"\r\x1b[2K")  # the line of test glyphs is wiped


@pytest.mark.slow
def test_a_terminal_that_does_not_answer_makes_no_glyph_wide():
    wide, _ = run_in_terminal(answer=False)
    assert wide == []


def test_no_terminal_no_questions(tmp_path):
    with open(tmp_path / "in", "w+b") as fake_in, open(tmp_path / "out", "w+b") as fake_out:
        assert wide_glyphs(GLYPHS, fake_in.fileno(), fake_out.fileno()) == frozenset()
    assert (tmp_path / "out").read_bytes() == b""
    assert measure_widths([], 0, 1) == {}
