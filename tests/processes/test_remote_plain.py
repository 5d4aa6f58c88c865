"""``cescacs join --plain``: a game held by a coordinator, played in plain lines.

In-process first (a :class:`PlainClient` wired to a real coordinator, its
answers delivered after each request as a link would), then for real: a
``cescacs host`` process, the other player a raw protocol client, and the
plain player a ``cescacs join`` process driven through a pipe and through a
pseudo-terminal.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.plain.output import LineWriter
from cescacs_tui.plain.remote_client import PlainClient
from cescacs_tui.remote.client import LinkStatus
from cescacs_tui.remote.coordinator import Coordinator, Member
from cescacs_tui.remote.protocol import LineRefused, SeatView, Snapshot, encode, parse_request
from cescacs_tui.session.words import describe_move
from tests.helpers.games import FOOLS_MATE
from tests.helpers.remote import TOKEN, HostProcess, LineClient, hello, hosted_moves, move, request, seat
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal

ESC = b"\x1b"


class PlainWire:
    """A plain client joined to ``coordinator``: its requests are handled at once, the answers wait for
    :meth:`deliver` (a link delivers them after the request, never inside it)."""

    def __init__(self, coordinator: Coordinator, wanted: str, name: str, *, early: Sequence[str] = ()) -> None:
        self.coordinator = coordinator
        self.screen = io.StringIO()
        self.inbox: list[bytes] = []
        self.client = PlainClient(LineWriter(self.screen), self._send, "test:1")
        self.client.link_changed(LinkStatus.CONNECTED, "")
        for line in early:  # typed before the coordinator has said anything
            self.client.typed(line)
        member = coordinator.join(self, hello(wanted, client=f"plain-{id(self)}", name=name))
        assert member is not None
        self.member: Member = member
        self.deliver()

    def send(self, line: bytes) -> None:  # the coordinator's side
        self.inbox.append(line)

    def close(self, error: LineRefused | None = None) -> None:
        if error is not None:
            self.inbox.append(encode(error.message()))

    def _send(self, message: Mapping[str, Any]) -> bool:  # the client's side
        try:
            self.coordinator.handle(self.member, parse_request(json.dumps(message).encode()))
        except LineRefused as error:
            self.inbox.append(encode(error.message()))
        return True

    def deliver(self) -> list[str]:
        """Hand the client what the coordinator sent; the lines it wrote."""
        start = len(self.screen.getvalue())
        while self.inbox:
            self.client.received(json.loads(self.inbox.pop(0)))
        return self.screen.getvalue()[start:].splitlines()

    def type(self, *lines: str) -> list[str]:
        """Type ``lines`` (each answered before the next is typed); the lines written in answer."""
        start = len(self.screen.getvalue())
        for line in lines:
            self.client.typed(line)
            self.deliver()
        return self.screen.getvalue()[start:].splitlines()

    @property
    def text(self) -> str:
        return self.screen.getvalue()


def table() -> tuple[Coordinator, Member, PlainWire]:
    """A coordinator with White a session-level player (Ana) and Black the plain client (Bo)."""
    coordinator = Coordinator(Game.new(), token=TOKEN)
    white, _ = seat(coordinator, "white", name="Ana")
    return coordinator, white, PlainWire(coordinator, "black", "Bo")


def test_the_plain_player_is_greeted_with_the_seats_and_where_the_game_stands() -> None:
    _, _, black = table()
    lines = black.text.splitlines()
    assert lines[:3] == ["Connected to test:1.", "You are playing Black.", "White: Ana, here. Black: Bo (you), here."]
    assert "White (Ana) to move." in lines and "Type who to hear who plays and who is here." in lines
    assert black.type("who") == ["White: Ana, here. Black: Bo (you), here."]
    who = "who: who plays each side and who is here (in a game played from two places)"
    assert black.type("help")[-1] == who and black.type("help who") == [who]


def test_a_player_named_in_lower_case_keeps_the_name_as_given() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    white = PlainWire(coordinator, "white", "Ana")
    seat(coordinator, "black", name="root")
    assert "root plays Black." in white.deliver()


def test_lines_typed_before_the_game_arrives_are_handled_once_it_has() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    white = PlainWire(coordinator, "white", "Ana", early=["h6-h12"])
    lines = white.text.splitlines()
    assert lines.index("Type who to hear who plays and who is here.") < lines.index("H6-H12 sent.")
    assert lines[-1] == "White Pawn H6 to H12, triple step. Black to move."
    assert [node.san for node in coordinator.game.nodes] == ["H6-H12"]


def test_the_opponents_move_is_announced_in_words_and_the_players_own_is_confirmed() -> None:
    coordinator, white, black = table()
    assert move(coordinator, white, "H6-H12") is None
    assert black.deliver() == ["White Pawn H6 to H12, triple step. Black (Bo) to move."]
    assert black.type("i23-i19") == ["I23-I19 sent.", "Black Pawn I23 to I19, double step. White (Ana) to move."]
    assert [node.san for node in coordinator.game.nodes] == ["H6-H12", "I23-I19"]
    said = black.type("e21-e19")
    assert said == ["e21-e19: it is White's turn: you play Black."] and coordinator.game.ply == 2  # nothing was sent


def test_a_takeback_request_is_a_lettered_question_and_the_answer_takes_the_moves_back() -> None:
    coordinator, white, black = table()
    move(coordinator, white, "H6-H12")
    black.deliver()
    black.type("i23-i19")
    assert request(coordinator, white, {"type": "takeback"}) is None
    assert black.deliver() == [
        "White asks to take back H6-H12, I23-I19. Do you agree? y: Accept, n: Decline (an empty line: Decline)."
    ]
    said = black.type("y")
    assert said[0] == "Answer sent."
    assert said[1].startswith("Took back: 2 half-moves: White Pawn H6 to H12") and said[1].endswith("to move.")
    assert coordinator.game.ply == 0


def test_a_request_arriving_while_another_question_waits_is_asked_once_that_is_answered() -> None:
    coordinator, white, black = table()
    move(coordinator, white, "H6-H12")
    black.deliver()
    black.type("i23-i19")
    assert black.type("resign")[-1].startswith("You resign: White wins the game. Sure?")
    request(coordinator, white, {"type": "takeback"})
    assert black.deliver() == ["White asks to take back H6-H12, I23-I19."]  # said, not asked over the other question
    said = black.type("n")
    assert said == [
        "The game goes on.",
        "White asks to take back H6-H12, I23-I19. Do you agree? y: Accept, n: Decline (an empty line: Decline).",
    ]
    black.type("n")
    assert "White declines" not in black.text and "Black declines the takeback." in black.text


def test_a_request_withdrawn_before_it_is_answered_is_said_to_be_gone() -> None:
    coordinator, white, black = table()
    move(coordinator, white, "H6-H12")
    black.deliver()
    black.type("i23-i19")
    request(coordinator, white, {"type": "takeback"})
    black.deliver()
    assert black.client.plain is not None and black.client.plain.pending is not None
    request(coordinator, white, {"type": "resign"})
    said = black.deliver()
    assert said == ["Game over: White resigns (0-3).", "That question no longer stands: nothing to answer."]
    assert black.client.plain.pending is None


def test_the_end_of_the_game_is_announced_and_new_asks_the_other_player_while_open_is_refused() -> None:
    coordinator, white, black = table()
    for number, text in enumerate(FOOLS_MATE):
        if number % 2 == 0:
            move(coordinator, white, text)
            black.deliver()
        else:
            black.type(text)
    assert black.text.splitlines()[-1] == "Black Pegasus L5 to H6, checkmate. Game over: Black mates (0-3)."
    assert black.type("open game.ctl-pgn") == [
        "A record cannot be opened into a game played from two places: open it with cescacs FILE."
    ]
    assert black.type("new 900") == ["In a game played from two places, the host chooses the clock: type new alone."]
    assert black.type("new") == ["New game asked: White answers.", "Black asks for a new game."]
    assert coordinator.request is not None and coordinator.request.kind == "new_game"


def test_the_link_dropping_and_coming_back_is_said_once_each_and_a_final_refusal_ends_the_session() -> None:
    _, _, black = table()
    start = len(black.text)
    client = black.client
    for _ in range(3):  # a link retrying says so each time: the player hears it once
        client.link_changed(LinkStatus.RECONNECTING, "cannot reach test:1 (Connection refused): reconnecting…")
    client.link_changed(LinkStatus.CONNECTED, "connected to test:1")
    assert black.text[start:].splitlines() == [
        "The connection to the game was lost: reconnecting. The board can still be asked about.",
        "Reconnected to the game.",
    ]
    assert client.running
    client.received({"type": "error", "code": "replaced", "reason": "your seat was taken over", "fatal": True})
    client.link_changed(LinkStatus.CLOSED, "your seat was taken over by a newer connection")
    assert black.text.splitlines()[-1] == "Disconnected for good: your seat was taken over by a newer connection."
    assert not client.running


# --- for real: processes, sockets, a pipe, a pseudo-terminal -------------------------------------------


class PipedPlayer:
    """``cescacs ARGS`` with its input and output pipes: what a script or a screen reader's shell gives it."""

    def __init__(self, env: dict[str, str], args: list[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.output = b""
        self.heard = 0
        """How much of the output the test has waited for: each wait looks at what came after."""

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def wait_for(self, text: str) -> None:
        """Read until ``text`` comes, after what was waited for before."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + PATIENCE
        while (found := self.output.find(text.encode(), self.heard)) < 0:
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {PATIENCE} s for {text!r}; the player read {self.output[-800:]!r}")
            if select.select([stdout], [], [], 0.1)[0]:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise AssertionError(f"the output ended before {text!r}: {self.output[-800:]!r}")
                self.output += chunk
        self.heard = found + len(text.encode())

    def end_input(self) -> int:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=PATIENCE)
        self.output += self.process.stdout.read()
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=PATIENCE)


class Opponent:
    """The other player: a raw protocol client over a real socket, keeping its own copy of the game for the plies."""

    def __init__(self, port: int, seat: str, name: str) -> None:
        self.client = LineClient(port)
        self.client.hello(seat, name=name)
        self.game = Game.new()

    def request(self, kind: str) -> None:
        self.client.send_json({"type": kind})

    def play(self, text: str) -> str:
        """Send ``text``; the words the plain player hears for it."""
        move = self.game.position.parse_move(text)
        self.client.send_json({"type": "move", "move": str(move), "ply": self.game.ply, "draw": False})
        return self.follow(text)

    def follow(self, text: str) -> str:
        """Play ``text`` (the plain player's) on this copy; the sentence announcing it."""
        move = self.game.position.parse_move(text)
        said = describe_move(self.game.position, move)
        self.game.play(move)
        return f"{said}."


@POSIX_ONLY
def test_a_whole_game_through_a_pipe_with_the_opponents_moves_announced_a_takeback_and_the_end(
    environment: dict[str, str], host: HostProcess
) -> None:
    white = Opponent(host.port, "white", "Eve\x1b[2J\x07")  # a hostile name: the plain output holds no escape
    black = PipedPlayer(environment, [*host.join_args, "--as", "black", "--name", "Bo"])  # a pipe: plain by itself
    try:
        black.wait_for("You are playing Black.")
        black.wait_for("Type who to hear who plays")
        black.wait_for(white.play("H6-H12"))  # announced while the plain player waits at its prompt
        black.type("I23-I19")
        black.wait_for("I23-I19 sent.")
        black.wait_for(white.follow("I23-I19"))
        white.request("takeback")
        black.wait_for("White asks to take back H6-H12, I23-I19. Do you agree? y: Accept, n: Decline")
        black.type("y")
        black.wait_for("Took back: 2 half-moves")
        white.game = Game.new()
        for number, text in enumerate(FOOLS_MATE):
            if number % 2 == 0:
                black.wait_for(white.play(text))
            else:
                black.type(text)
                black.wait_for(f"{text} sent.")
                black.wait_for(white.follow(text))
        black.wait_for("Game over: Black mates (0-3).")
        code = black.end_input()
    finally:
        black.kill()
        white.client.close()
    assert code == 0
    text = black.output.decode()
    assert text.count("White Pawn H6 to H12, triple step.") == 2  # before the takeback and after
    assert text.rstrip().endswith("End of input. Goodbye.")
    assert ESC not in black.output and b"\x07" not in black.output


class HostileCoordinator:
    """A server on 127.0.0.1 that speaks the protocol with escapes in all it says: a record's tags, a refusal."""

    def __init__(self) -> None:
        game = Game.new()
        game.tags["White"] = "Eve\x1b[2J\x1b]0;owned\x07"
        self.state = Snapshot(1, write_pgn(game), None, None, None, SeatView("Eve", True, True), SeatView(), 0)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:  # closed
                return
            with connection:
                hello = json.loads(connection.makefile("rb").readline())
                connection.sendall(encode({"type": "welcome", "protocol": 1, "seat": "black", "name": "Bo"}))
                if hello.get("probe"):
                    continue
                connection.sendall(encode(self.state.to_json()))
                connection.sendall(encode({"type": "error", "code": "x", "reason": "\x1b[31mred\x07", "fatal": False}))
                with contextlib.suppress(OSError):
                    while connection.recv(1 << 16):
                        pass

    def close(self) -> None:
        self.server.close()


@POSIX_ONLY
def test_what_a_hostile_coordinator_says_reaches_the_plain_player_without_an_escape(
    environment: dict[str, str],
) -> None:
    hostile = HostileCoordinator()
    player = PipedPlayer(environment, ["join", f"127.0.0.1:{hostile.port}", "--token", TOKEN, "--plain"])
    try:
        player.wait_for("White (Eve\u241b[2J\u241b]0;owned\u2407) to move.")  # the escapes shown as visible marks
        player.wait_for("\u241b[31mred\u2407.")
        player.type("who")
        player.wait_for("White: Eve, here. Black: free (you).")
        code = player.end_input()
    finally:
        player.kill()
        hostile.close()
    assert code == 0
    assert ESC not in player.output and b"\x07" not in player.output


@POSIX_ONLY
def test_in_a_terminal_join_plain_answers_a_burst_of_lines_and_ctrl_d_ends_it(
    environment: dict[str, str], host: HostProcess
) -> None:
    terminal = Terminal(environment, [*host.join_args, "--plain", "--as", "white", "--name", "Ana"])
    try:
        terminal.wait_for("Type who to hear who plays and who is here.")
        terminal.type("who\rh6-h12\rm e7\r")  # one burst, as a paste or an SSH link delivers it
        terminal.wait_for("White Pawn H6 to H12, triple step. Black to move.")
        terminal.wait_for("White: Ana (you), here. Black: free.")
        terminal.wait_for("White Pawn E7")
        terminal.type("\x04")  # Ctrl+D: end of input
        code = terminal.wait_for_exit()
    finally:
        terminal.close()
    assert code == 0
    assert ESC not in terminal.output
    assert b"End of input. Goodbye. The game goes on at the host: join it again to come back." in terminal.output


@POSIX_ONLY
def test_the_host_stopped_and_started_again_is_said_and_the_game_goes_on(
    environment: dict[str, str], host: HostProcess
) -> None:
    player = PipedPlayer(environment, [*host.join_args, "--as", "white"])
    again: HostProcess | None = None
    try:
        player.wait_for("Type who to hear")
        player.type("h6-h12")
        player.wait_for("White Pawn H6 to H12, triple step. Black to move.")
        host.stop()  # its game saved
        player.wait_for("The connection to the game was lost: reconnecting.")
        player.type("l")  # the board can still be asked about
        player.wait_for("White Pawn H6 to H12")
        player.type("e7-e13")
        player.wait_for("not connected to the game")
        again = HostProcess(environment, ["--port", str(host.port)])
        player.wait_for("Reconnected to the game.")
        player.type("l")  # the game resumed from the host's autosave
        player.wait_for("Last move 1: White Pawn H6 to H12, triple step. Black to move.")
        code = player.end_input()
    finally:
        player.kill()
        if again is not None:
            again.stop()
    assert code == 0
    assert player.output.count(b"The connection to the game was lost") == 1  # however often the link tried


@POSIX_ONLY
def test_the_host_plays_in_plain_lines_from_a_pipe_while_its_coordinator_keeps_the_game(
    environment: dict[str, str], tmp_path: Path
) -> None:
    host = PipedPlayer(environment, ["host", "--port", "0", "--token", TOKEN, "--play", "black", "--name", "Bo"])
    white: Opponent | None = None
    try:
        host.wait_for("Join with: cescacs join 127.0.0.1:")
        host.wait_for("Type who to hear who plays and who is here.")  # (the join command's line is whole by then)
        port = int(host.output.split(b"Join with: cescacs join 127.0.0.1:")[1].split()[0])
        white = Opponent(port, "white", "Ana")
        host.wait_for("Ana plays White.")
        host.wait_for(white.play("H6-H12"))
        host.type("i23-i19")
        host.wait_for("I23-I19 sent.")
        host.wait_for(white.follow("I23-I19"))
        assert hosted_moves(tmp_path / "data") == ["H6-H12", "I23-I19"]
        code = host.end_input()
    finally:
        host.kill()
        if white is not None:
            white.client.close()
    assert code == 0
    assert b"cescacs: White played" not in host.output  # the coordinator's log stays out of the player's lines
    assert ESC not in host.output
    assert hosted_moves(tmp_path / "data") == ["H6-H12", "I23-I19"]  # the game is kept for the next host


@POSIX_ONLY
@pytest.mark.parametrize(
    ("signum", "said"), [(signal.SIGINT, "Interrupted. "), (signal.SIGTERM, "SIGTERM: stopping. ")]
)
def test_ctrl_c_or_sigterm_ends_a_plain_join_with_a_goodbye_and_status_0(
    environment: dict[str, str], host: HostProcess, signum: signal.Signals, said: str
) -> None:
    player = PipedPlayer(environment, [*host.join_args, "--as", "white"])
    try:
        player.wait_for("Type who to hear")
        player.type("h6-h12")
        player.wait_for("White Pawn H6 to H12, triple step. Black to move.")
        player.process.send_signal(signum)
        code = player.end_input()
    finally:
        player.kill()
    assert code == 0
    goodbye = f"{said}Goodbye. The game goes on at the host: join it again to come back."
    assert player.output.decode().rstrip().endswith(goodbye)
