"""The real ``cescacs --plain`` command: in a pipe, in a script, in a pseudo-terminal, stopped by signals.

Each run has its own data directory, so the autosave it writes is the one
checked, and the next run is offered that game back.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from cescacs_tui.cli import launch, main
from cescacs_tui.core.pieces import NAMES
from cescacs_tui.data.autosave import read_autosave
from cescacs_tui.plain.run import PIPE_ANSWERS
from tests.helpers.games import FOOLS_MATE
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal

ESC = b"\x1b"
REAL_INTERACTIVE = launch.interactive
"""The check itself: conftest makes every test see a terminal at both ends."""


def cescacs(environment: dict[str, str], text: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``cescacs ARGS`` with ``text`` piped in (its output is a pipe too)."""
    return subprocess.run(
        [sys.executable, "-m", "cescacs_tui", *args],
        input=text.encode(),
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )


def saved_moves(tmp_path: Path) -> list[str]:
    saved = read_autosave(tmp_path / "data" / "autosave.json")
    return [] if saved is None else [node.san for node in saved.game.nodes]


def test_the_fools_mate_piped_in_is_announced_in_words_with_no_escape_byte(environment, tmp_path) -> None:
    lines = [*FOOLS_MATE[:5], "this is not a move", *FOOLS_MATE[5:]]
    result = cescacs(environment, "\n".join(lines) + "\n", "--plain")
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert ESC not in result.stdout
    out = result.stdout.decode().splitlines()
    announced = [line for line in out if line.startswith(("White ", "Black ")) and line.split()[1] in NAMES.values()]
    assert len(announced) == len(FOOLS_MATE)  # every move, the mover and the piece in full
    assert "this: not a command or a move. Type help for the commands." in out
    assert announced[5] == "Black Knight G25 to L17. White to move."  # the game went on after the bad line
    assert announced[-1] == "Black Pegasus L5 to H6, checkmate. Game over: Black mates (0-3)."
    assert out[-1] == "End of input. Goodbye."
    assert not (tmp_path / "data" / "autosave.json").exists()  # a finished game leaves nothing to resume


def test_a_pipe_gets_the_plain_mode_without_asking_for_it(environment) -> None:
    result = cescacs(environment, "e7-e13\n")
    assert result.returncode == 0
    assert b"White Pawn E7 to E13, triple step. Black to move." in result.stdout
    assert ESC not in result.stdout


def test_the_plain_mode_never_imports_textual(environment) -> None:
    code = (
        "import sys\n"
        "from cescacs_tui.cli import main\n"
        "status = main(['--plain'])\n"
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], input=b"e7-e13\nb\nhelp\n", capture_output=True, env=environment, timeout=60
    )
    assert result.stderr.decode().strip() == "0 []"


def test_end_of_input_keeps_the_game_and_the_next_run_resumes_it_or_starts_afresh(environment, tmp_path) -> None:
    first = cescacs(environment, "e7-e13\ne21-e15\n", "--plain")
    assert first.returncode == 0
    assert (
        first.stdout.decode().splitlines()[-1]
        == "End of input. Goodbye. The game is saved: cescacs offers to resume it."
    )
    assert saved_moves(tmp_path) == ["E7-E13", "E21-E15"]

    again = cescacs(environment, "l\n", "--plain").stdout.decode()
    assert "An unfinished game was found (2 half-moves, White to move). Resume it?" in again
    assert "Resume: input is not a terminal, so the safe answer is taken" in again
    assert "Last move 1: Black Pawn E21 to E15, triple step. White to move." in again

    afresh = cescacs(environment, "l\n", "--plain", "--new").stdout.decode()
    assert "New game: as asked on the command line (--resume or --new)." in afresh
    assert "No move has been played yet. White to move." in afresh


def test_a_record_and_a_position_are_opened_in_the_plain_mode(environment, tmp_path) -> None:
    record = tmp_path / "game.ctl-pgn"
    record.write_text('[Variant "C\'escacs"]\n\n1. H6-H12 I23-I19 2. JF6-C15 *\n', encoding="utf-8")
    out = cescacs(environment, "l\n", "--plain", str(record)).stdout.decode()
    assert "Last move 2: White Bishop F6 to C15. Black to move." in out
    out = cescacs(environment, "p\n", "--plain", "--pdtl", "/27:1k/1:1K/ w -- - 0 1").stdout.decode()
    assert "White, 1 piece: King G1." in out


def test_bad_arguments_exit_2_without_a_traceback(environment, tmp_path) -> None:
    result = cescacs(environment, "", "--plain", "--pdtl", "not a position")
    assert result.returncode == 2 and b"Traceback" not in result.stderr and b"PDTL" in result.stderr
    result = cescacs(environment, "", "--plain", "--resume", "--new")
    assert result.returncode == 2 and b"not allowed with" in result.stderr


def test_the_app_is_drawn_only_in_a_terminal_or_for_a_driver_of_textuals_own(monkeypatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert not REAL_INTERACTIVE()  # pytest's streams are no terminal
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")  # as textual-serve starts it
    assert REAL_INTERACTIVE()


def test_resume_and_new_are_plain_mode_options(capsys) -> None:
    assert launch.interactive()  # as conftest makes it: the full app would start
    assert main(["--new"]) == 2
    assert "--resume and --new are options of the plain mode" in capsys.readouterr().err


@POSIX_ONLY
def test_sigterm_ends_the_session_cleanly_with_the_game_saved(environment, tmp_path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"e7-e13\n")
    process.stdin.flush()
    deadline = time.monotonic() + PATIENCE
    while b"Black to move." not in process.stdout.readline():
        assert time.monotonic() < deadline
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, err
    assert (
        out.decode().splitlines()[-1] == "SIGTERM: stopping. Goodbye. The game is saved: cescacs offers to resume it."
    )
    assert saved_moves(tmp_path) == ["E7-E13"]


# --- in a real terminal ------------------------------------------------------------------------


@POSIX_ONLY
def test_in_a_terminal_the_plain_mode_writes_no_escape_sequence_and_asks_to_resume(environment, tmp_path) -> None:
    terminal = Terminal(environment, ["--plain"])
    try:
        terminal.wait_for("Type help for the commands")
        terminal.type("e7-e13\rb\rx f14\rm e21\rhelp\r")  # one burst, as a paste or an SSH link delivers it
        terminal.wait_for("Black Pawn E21, 4 moves")
        terminal.type("\x04")  # Ctrl+D: end of input
        terminal.read_until(lambda: terminal.process.poll() is not None, "the session to end")
    finally:
        code = terminal.close()
    assert code == 0
    assert ESC not in terminal.output
    assert b"White Pawn E7 to E13, triple step. Black to move." in terminal.output
    assert saved_moves(tmp_path) == ["E7-E13"]

    again = Terminal(environment, ["--plain"])
    try:
        again.wait_for("Resume it? y: Resume, n: New game (an empty line: Resume).")
        again.type("\r")
        again.wait_for("Resumed the game saved")
        # Ctrl+C: the harness's terminal is not the process's controlling terminal, so the SIGINT a
        # keyboard would raise is sent directly
        again.process.send_signal(signal.SIGINT)
        again.read_until(lambda: again.process.poll() is not None, "Ctrl+C to end the session")
    finally:
        code = again.close()
    assert code == 0
    assert ESC not in again.output
    assert b"Interrupted. Goodbye. The game is saved" in again.output
    assert saved_moves(tmp_path) == ["E7-E13"]


@POSIX_ONLY
def test_sighup_when_the_terminal_closes_saves_the_game(environment, tmp_path) -> None:
    terminal = Terminal(environment, ["--plain", "--new"])
    try:
        terminal.wait_for("White to move.")
        terminal.type("h6-h12\r")
        terminal.wait_for("Black to move.")
        os.kill(terminal.process.pid, signal.SIGHUP)
        terminal.read_until(lambda: terminal.process.poll() is not None, "SIGHUP to end the session")
    finally:
        code = terminal.close()
    assert code == 0
    assert saved_moves(tmp_path) == ["H6-H12"]


def test_new_games_take_the_players_and_clock_of_the_settings_and_only_game_problems_are_said(
    environment, tmp_path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text(
        'theme = "textual-dark"\nwhite = "Ros, Xus"\ntime_control = "300+5"\n', encoding="utf-8"
    )
    out = cescacs(environment, "c\n", "--plain").stdout.decode().splitlines()
    assert out[1] == "White (Ros, Xus) to move."  # no warning about the theme: only the app draws themes
    assert out[2] == "Clock 5 min + 5 s: White 5 min; Black 5 min. The clock starts with the first move."
    (config / "settings.toml").write_text('time_control = "9x9"\n', encoding="utf-8")
    out = cescacs(environment, "c\n", "--plain", "--new").stdout.decode().splitlines()
    assert out[1].startswith(f'Warning: {config / "settings.toml"}: time_control = "9x9": ')
    assert "This game has no clock." in out


@POSIX_ONLY
def test_a_second_plain_session_plays_a_separate_game_while_the_first_owns_the_autosave(environment, tmp_path) -> None:
    first = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    assert first.stdin is not None and first.stdout is not None
    try:
        first.stdin.write(b"e7-e13\n")
        first.stdin.flush()
        while b"Black to move." not in first.stdout.readline():
            assert first.poll() is None
        second = cescacs(environment, "h6-h12\n", "--plain").stdout.decode().splitlines()
        assert second[1].startswith("The saved game is open in another cescacs (")
        assert second[2] == f"Separate game: {PIPE_ANSWERS}"
        assert second[3] == "A separate game, saved as autosave-2.json."
        assert "White Pawn H6 to H12, triple step. Black to move." in second
    finally:
        first.communicate(b"", timeout=PATIENCE)
    assert first.returncode == 0
    assert saved_moves(tmp_path) == ["E7-E13"]  # the first game was never written over
    separate = read_autosave(tmp_path / "data" / "autosave-2.json")
    assert separate is not None and [node.san for node in separate.game.nodes] == ["H6-H12"]


def test_a_clock_given_on_the_command_line_times_the_new_game(environment, tmp_path) -> None:
    result = cescacs(environment, "e7-e13\n", "--plain", "--clock", "180+2")
    assert result.returncode == 0, result.stderr
    saved = read_autosave(tmp_path / "data" / "autosave.json")
    assert saved is not None and saved.game.tags["TimeControl"] == "180+2"


@POSIX_ONLY
def test_a_flag_that_falls_is_announced_before_the_next_line(environment) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui", "--plain", "--clock", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"e7-e13\n")  # Black's two seconds run; no other line is typed
        process.stdin.flush()
        deadline = time.monotonic() + PATIENCE
        said = b""
        while b"on time" not in said:
            left = deadline - time.monotonic()
            assert left > 0, said
            if select.select([process.stdout], [], [], left)[0]:
                said += os.read(process.stdout.fileno(), 4096)
        assert b"White wins on time" in said
    finally:
        process.stdin.close()
        process.wait(timeout=PATIENCE)
        process.stdout.close()
        if process.stderr is not None:
            process.stderr.close()


def test_cescacs_learn_in_a_pipe_says_the_lessons_in_words_and_keeps_the_progress(environment, tmp_path) -> None:
    result = cescacs(environment, "castling\nkrr-hih\n", "learn")
    assert result.returncode == 0, result.stderr
    assert ESC not in result.stdout
    out = result.stdout.decode().splitlines()
    assert "Lesson 13 of 18: Castling." in out
    assert any(
        line.startswith("White castles KRR-HIH") and line.endswith("Well done: that is the task.") for line in out
    )
    assert out[-1] == "Goodbye."
    assert (tmp_path / "data" / "progress.json").read_text().count('"castling"') == 1
    again = cescacs(environment, "list\nquit\n", "learn", "--plain")
    assert "13. castling: Castling (done)" in again.stdout.decode().splitlines()


def test_cescacs_learn_refuses_an_unknown_lesson_in_the_app_with_status_2(environment) -> None:
    code = (
        "import sys\nfrom cescacs_tui.cli import launch, main\nlaunch.interactive = lambda: True\n"
        "sys.exit(main(['learn', 'x\\x1b[2J']))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, env=environment, timeout=60)
    assert result.returncode == 2
    assert b"no such lesson" in result.stderr and ESC not in result.stderr and b"Traceback" not in result.stderr
