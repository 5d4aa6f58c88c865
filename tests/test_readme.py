"""The README's promises: its two commands, and its code example, work as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
CI = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_opens_with_the_play_and_test_commands_and_ci_runs_the_test_one() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    play, test = blocks[0], blocks[1]
    assert README.index(play) < README.index("## ")  # before any section
    assert play.endswith(".venv/bin/cescacs")
    assert "'.[test]'" in test and "pytest" in test
    assert test in CI


def test_the_core_example_prints_what_its_comments_say() -> None:
    code = next(block for block in re.findall(r"```python\n(.*?)\n```", README, re.S) if "perft" in block)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "E7-E13"
    assert lines[1].endswith(" b RKRrkr E13@9-11 0 1")
    assert lines[2] == "68 None None"  # Black has the mirror of White's 68 first moves
    assert lines[3] == "340385"
    assert lines[4] == "True"


def test_the_session_example_prints_what_its_comments_say() -> None:
    code = next(block for block in re.findall(r"```python\n(.*?)\n```", README, re.S) if "GameSession" in block)
    out = io.StringIO()
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), scope)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ee5-e11: the Elephant on E5 cannot go to E11")
    assert lines[1] == "White played H6-H12"
    feedback = scope["feedback"]
    assert feedback.question.answer(True).text.startswith("Black resigns")  # type: ignore[attr-defined]
