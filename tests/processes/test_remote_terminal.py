"""Two places, one game, for real: ``cescacs host`` and ``cescacs join`` processes, the players in pseudo-terminals.

The host is a headless coordinator on 127.0.0.1 with its own data directory;
each player is the real app in a pseudo-terminal, typing moves as bytes.
What the coordinator holds is read from its autosave and its archive; what
the players see, from their screens.
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from cescacs_tui.cli import _subcommand_parser
from cescacs_tui.cli.remote import MIN_TOKEN, _token, new_token
from cescacs_tui.core.errors import CescacsError
from cescacs_tui.core.pgn import read_pgn
from tests.helpers.games import FOOLS_MATE
from tests.helpers.remote import TOKEN, HostProcess, archived, hosted_moves
from tests.helpers.terminal import CRASHING_MAIN, PATIENCE, POSIX_ONLY, Terminal, crash_by_flipping

pytestmark = POSIX_ONLY


def join(environment: dict[str, str], host: HostProcess, seat: str, name: str) -> Terminal:
    """A player (or watcher) joined from a terminal of their own, with the move box focused."""
    terminal = Terminal(environment, [*host.join_args, "--as", seat, "--name", name], live=True)
    terminal.wait_for("Move:")  # the whole screen is up
    terminal.wait_for("You are watching" if seat == "watch" else "(you)")  # the seats line: seated, connected
    terminal.type("/")  # the move box keeps the focus from now on (the keys after "/" wait for the focus to move)
    return terminal


def link_up(terminal: Terminal) -> bool:
    """Whether the seats line (the screen's first) ends with the link's state "connected" (not "disconnected")."""
    return terminal.screen.display[0].rstrip().endswith(" connected")


def _holds(data: Path, expected: list[str]) -> bool:
    """Whether the host's autosave holds ``expected``, or the game is archived (it ended)."""
    return hosted_moves(data) == expected or bool(archived(data))


def play(terminal: Terminal, move: str, *, after: str | None = None) -> None:
    """Type ``move`` in the move box (:meth:`Terminal.type_move`).

    With ``after``, first wait until this player's screen says the opponent played it: the coordinator holds a
    move a moment before the other client hears of it, and a move typed in that moment is refused as out of turn.
    """
    if after is not None:
        terminal.wait_for_screen(f"played {after}")
    terminal.type_move(move)


def test_a_whole_game_played_from_two_terminals_is_seen_by_a_watcher_and_archived_by_the_host(
    environment: dict[str, str], host: HostProcess, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    white = join(environment, host, "white", "Ana")
    black = join(environment, host, "black", "Bo")
    watcher = join(environment, host, "watch", "Cy")
    try:
        white.wait_for("Bo")  # the seats line names the opponent
        play(black, "i23-i19")
        black.wait_for("it is White's turn: you play Black")
        play(watcher, "h6-h12")
        watcher.wait_for("you are watching: only White and Black play")
        assert hosted_moves(data) == []  # nothing out of turn reached the game
        for number, move in enumerate(FOOLS_MATE):
            play(white if number % 2 == 0 else black, move, after=FOOLS_MATE[number - 1] if number else None)
            expected = FOOLS_MATE[: number + 1]
            (white if number % 2 else black).read_until(
                partial(_holds, data, expected),
                f"the coordinator to hold {move}",
            )
        host.wait_for(b"the game is archived in ")
        assert host.output.count(b"Ana plays White") == 1  # join's probe before its screen opened left no trace
        for terminal in (watcher, white, black):
            terminal.wait_for("Black mates")
        (record,) = archived(data)
        game = read_pgn(record.read_text(encoding="utf-8"))[0]
        assert [node.san for node in game.nodes] == FOOLS_MATE
        assert (game.tags["White"], game.tags["Black"], game.result) == ("Ana", "Bo", "0-3")
        assert not (data / "hosted" / "autosave.json").exists()
    finally:
        for terminal in (white, black, watcher):
            terminal.close()


def test_a_player_whose_terminal_is_killed_rejoins_to_the_same_seat_and_the_game_goes_on(
    environment: dict[str, str], host: HostProcess, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    white = join(environment, host, "white", "Ana")
    black = join(environment, host, "black", "Bo")
    try:
        play(white, "h6-h12")
        play(black, "i23-i19", after="H6-H12")
        black.read_until(lambda: hosted_moves(data) == ["H6-H12", "I23-I19"], "two moves at the coordinator")
        white.process.kill()  # mid-game, at any moment: the coordinator has the game
        white.close()
        black.wait_for("○ away")  # the seats line: White is away
        white = join(environment, host, "white", "Ana")
        white.wait_for("I23-I19")  # the whole game is back on the board and in the move list
        white.wait_for("(you)")
        play(white, "jf6-c15")
        white.read_until(lambda: hosted_moves(data) == ["H6-H12", "I23-I19", "JF6-C15"], "the move after rejoining")
        black.wait_for("JF6-C15")
    finally:
        white.close()
        black.close()


def test_a_restarted_coordinator_resumes_the_game_and_the_players_reconnect_by_themselves(
    environment: dict[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    first = HostProcess(environment)
    white = join(environment, first, "white", "Ana")
    black = join(environment, first, "black", "Bo")
    again: HostProcess | None = None
    try:
        play(white, "h6-h12")
        black.read_until(lambda: hosted_moves(data) == ["H6-H12"], "the first move at the coordinator")
        first.process.send_signal(signal.SIGKILL)
        first.stop()
        white.wait_for("reconnecting…")
        black.read_until(lambda: not link_up(black), "Bo's link to go down")
        again = HostProcess(environment, ["--port", str(first.port)])  # the last --port wins
        again.wait_for(b"resumed: 1 half-move, Black (Bo) to move.")
        black.read_until(lambda: link_up(black), "Bo's link to come up again")
        play(black, "i23-i19")
        black.read_until(lambda: hosted_moves(data) == ["H6-H12", "I23-I19"], "a move after the restart")
        white.wait_for("I23-I19")
    finally:
        white.close()
        black.close()
        if again is not None:
            again.stop()


def test_a_wrong_token_is_refused_with_a_clear_message_and_status_2(
    environment: dict[str, str], host: HostProcess
) -> None:
    address = host.join_args[1]
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "join", address, "--token", "not-the-right-token"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=PATIENCE,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == f"cescacs: error: {address} refused: wrong token: ask the host for the join command"
    assert "Traceback" not in result.stderr
    assert TOKEN not in result.stderr


def test_joining_a_host_from_a_pipe_plays_in_plain_text(environment: dict[str, str], host: HostProcess) -> None:
    """Textual started on a pipe and died with a traceback and status 0 (``ssh host cescacs join ...`` without -t);
    it asked for a terminal then, and now plays in plain lines (tests/processes/test_remote_plain.py)."""
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", *host.join_args, "--as", "watch"],
        input="h6-h12\n",
        capture_output=True,
        text=True,
        env=environment,
        timeout=PATIENCE,
    )
    assert result.returncode == 0, result.stderr
    assert "You are watching." in result.stdout and "you are watching: only White and Black play" in result.stdout
    assert "Traceback" not in result.stderr and "\x1b" not in result.stdout + result.stderr


def test_a_joined_app_that_crashes_restores_the_terminal_says_so_and_exits_1(
    environment: dict[str, str], host: HostProcess
) -> None:
    """As the local app does (run_join returned 0 whatever happened)."""
    crash = "from cescacs_tui.tui.screens.game import GameScreen\nGameScreen.action_flip = lambda self: 1 / 0\n"
    program = (sys.executable, "-c", crash + CRASHING_MAIN)
    crash_by_flipping(Terminal(environment, [*host.join_args, "--as", "watch"], program=program), "You are watching")


def test_joining_with_no_coordinator_there_says_so_with_status_2(environment: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "join", "127.0.0.1:1", "--token", TOKEN],
        capture_output=True,
        text=True,
        env={k: v for k, v in environment.items() if k != "CESCACS_TOKEN"},
        timeout=PATIENCE,
    )
    assert result.returncode == 2 and "Connection refused" in result.stderr and "Traceback" not in result.stderr


def test_a_printed_join_command_reads_back_whatever_token_was_drawn() -> None:
    """A token starting with '-' would make the pasted ``--token -x…`` an option: none is ever drawn or taken."""
    parser = _subcommand_parser()
    for _ in range(200):
        token = new_token()
        assert len(token) >= MIN_TOKEN and token.isalnum()
        assert parser.parse_args(["join", "127.0.0.1:9", "--token", token]).token == token
    with pytest.raises(CescacsError, match="no '-' first"):
        _token(argparse.Namespace(token="-abcdefghijklmnop"))


def test_hosting_beyond_loopback_says_so_and_a_short_token_is_refused(environment: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "host", "--token", "short"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=PATIENCE,
    )
    assert result.returncode == 2 and "a token needs at least 12 characters" in result.stderr
    wide = HostProcess(environment, ["--bind", "0.0.0.0"])
    try:
        assert b"anyone who can reach this address and has the token can join" in wide.output
    finally:
        wide.stop()


def test_the_host_plays_in_its_own_terminal_and_the_joiner_answers_a_draw_offer(
    environment: dict[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    host = Terminal(environment, ["host", "--port", "0", "--play", "black", "--name", "Host"], live=True)
    guest: Terminal | None = None
    try:
        host.read_until(
            lambda: re.search(rb"Join with: (cescacs join \S+ --token \S+)", host.output) is not None,
            "the join command",
        )
        found = re.search(rb"Join with: cescacs join (\S+) --token (\S+)", host.output)
        assert found is not None
        host.wait_for("Move:")
        host.wait_for_text("The other player joins with")  # also shown in the app, over the board
        guest = Terminal(
            environment, ["join", found[1].decode(), "--token", found[2].decode(), "--name", "Guest"], live=True
        )
        guest.wait_for("Move:")
        guest.wait_for_text("White: Guest (you) ● here")
        host.wait_for_text("White: Guest ● here")
        guest.type("/")
        play(guest, "h6-h12 (=)")
        host.answer("White offers a draw. Do you accept?", "\r")  # Decline is the safe default
        guest.wait_for("Black declines the draw")
        assert hosted_moves(data) == ["H6-H12"]
        seen = len(guest.output)
        host.type("\x11")  # Ctrl+Q: the host leaves, its coordinator saves the game and stops
        host.read_until(lambda: host.process.poll() is not None, "the host to quit")
        assert host.process.returncode == 0 and hosted_moves(data) == ["H6-H12"]
        guest.wait_for("reconnecting…", since=seen)
    finally:
        if guest is not None:
            guest.close()
        host.close()
