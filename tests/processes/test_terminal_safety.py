"""A record written to attack the terminal, opened by the real command in a pseudo-terminal.

Everything the app writes is read back: none of the record's escape
sequences may be in it, while its text is on the screen, made visible.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.crafted import NEVER_WRITTEN, RECORD, SHOWN_SAFE
from tests.helpers.terminal import POSIX_ONLY, Terminal, terminal_environment

pytestmark = POSIX_ONLY


def test_a_crafted_record_writes_none_of_its_escape_sequences_to_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "crafted.ctl-pgn"
    record.write_text(RECORD, encoding="utf-8")
    terminal = Terminal(terminal_environment(tmp_path), [str(record)])
    try:
        terminal.wait_for("Move:")  # the clocks with the players' names, the last move's comments
        terminal.type("v")  # the whole record as text: every tag and comment
        terminal.wait_for("CTL-PGN")
        terminal.type("\x1b")
        terminal.read_until(lambda: not terminal.shows("CTL-PGN"), "the record's text closed")
        terminal.type("{")  # the start: the record's introduction
        terminal.wait_for("intro")
        assert terminal.quit() == 0
    finally:
        terminal.close()
    written = terminal.output
    assert {name for name, sequence in NEVER_WRITTEN.items() if sequence in written} == set()
    assert SHOWN_SAFE in written  # the text is shown, made harmless
