"""``cescacs serve-ssh --db``, the C'escacs server, reached with the system's ``ssh`` client.

Each visitor is the real ``ssh``: a command (``ssh -p P host play 1 H6-H12``)
answered as text or JSON with its exit status, or the lobby in words, fed
lines through a pipe.  The server is the real ``cescacs serve-ssh`` on a free
loopback port; the PostgreSQL test starts two of them on one database.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui.server.lobby import BEAT
from tests.helpers.postgres import PrivatePostgres
from tests.helpers.remote import ServerProcess
from tests.helpers.ssh import make_keys, ssh_command
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal
from tests.helpers.waiting import wait_until

asyncssh = pytest.importorskip("asyncssh")
pytestmark = [
    POSIX_ONLY,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="the system's ssh client (openssh-client)"),
]


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_keys(tmp_path_factory.mktemp("keys"))


def serve(environment: dict[str, str], keys: Path, db: str, *more: str) -> ServerProcess:
    return ServerProcess(environment, ["serve-ssh", "--port", "0", "--host-key", str(keys / "host"), "--db", db, *more])


@pytest.fixture
def server(environment: dict[str, str], keys: Path, tmp_path: Path) -> Iterator[ServerProcess]:
    served = serve(environment, keys, str(tmp_path / "server.sqlite"))
    try:
        yield served
    finally:
        served.stop()


def ssh(keys: Path, server: ServerProcess, who: str, *command: str) -> subprocess.CompletedProcess[str]:
    """``ssh -p PORT who@127.0.0.1 COMMAND``, as a script runs it: its output and exit status."""
    return subprocess.run(
        [*ssh_command(keys, server, who), *command], capture_output=True, text=True, timeout=PATIENCE, check=False
    )


def said(keys: Path, server: ServerProcess, who: str, *command: str) -> str:
    """What a command that must succeed printed."""
    done = ssh(keys, server, who, *command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done.stdout


def refused(keys: Path, server: ServerProcess, who: str, *command: str) -> str:
    """The reason a command that must be refused gave (exit status 2)."""
    done = ssh(keys, server, who, *command)
    assert done.returncode == 2, (command, done.stdout, done.stderr)
    return done.stdout


class Lobby:
    """``ssh -p PORT who@127.0.0.1`` with no command: the lobby in words, read line by line through a pipe."""

    def __init__(self, keys: Path, server: ServerProcess, who: str) -> None:
        self.process = subprocess.Popen(
            ssh_command(keys, server, who), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.output = b""

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def wait_for(self, text: str, *, within: float = PATIENCE, since: int = 0) -> float:
        """Read until ``text`` is in the output after ``since``; how long it took."""
        started = time.monotonic()
        stdout = self.process.stdout
        assert stdout is not None
        while text.encode() not in self.output[since:]:
            if time.monotonic() - started > within:
                raise AssertionError(f"waited {within} s for {text!r}; the lobby said {self.output[-800:]!r}")
            if select.select([stdout], [], [], 0.05)[0]:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise AssertionError(f"the lobby ended before {text!r}: {self.output[-800:]!r}")
                self.output += chunk
        return time.monotonic() - started

    def close(self) -> int:
        if self.process.poll() is None and self.process.stdin is not None:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=PATIENCE)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def test_two_keys_register_play_a_correspondence_game_and_a_killed_server_loses_no_move(
    environment: dict[str, str], keys: Path, tmp_path: Path
) -> None:
    db = str(tmp_path / "server.sqlite")
    server = serve(environment, keys, db)
    try:
        assert "no account" in refused(keys, server, "ana", "games")
        assert "ana" in said(keys, server, "ana", "register", "ana")
        said(keys, server, "bo", "register", "bo")
        assert "looks too much like bo" in refused(keys, server, "cy", "register", "B0")  # a zero for the o
        said(keys, server, "cy", "register", "cy")
        game = json.loads(said(keys, server, "ana", "challenge", "bo", "--days", "2", "--as", "white", "--json"))
        said(keys, server, "bo", "accept", str(game["id"]))
        number = str(game["id"])
        said(keys, server, "ana", "play", number, "H6-H12")
        assert "not your move" in refused(keys, server, "ana", "play", number, "I23-I19")
        assert "you do not play in it" in refused(keys, server, "cy", "play", number, "I23-I19")
        assert "Z99" in refused(keys, server, "bo", "play", number, "Z99-Z100")
        said(keys, server, "bo", "play", number, "I23-I19")
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=PATIENCE)
    finally:
        server.stop()
    server = serve(environment, keys, db)
    try:
        games = json.loads(said(keys, server, "ana", "games", "--json"))
        assert [(entry["id"], entry["ply"], entry["your_side"]) for entry in games] == [(game["id"], 2, "white")]
        assert games[0]["deadline"] is not None
        assert "H6-H12" in said(keys, server, "bo", "pgn", number)
        said(keys, server, "bo", "resign", number)
        table = json.loads(said(keys, server, "ana", "ratings", "correspondence", "--json"))
        assert {entry["name"] for entry in table} == {"ana", "bo"}
        assert len({entry["rating"] for entry in table}) == 2  # the winner gained what the loser lost
    finally:
        server.stop()


def test_two_players_in_one_game_through_two_connections_hear_each_others_moves(
    keys: Path, server: ServerProcess
) -> None:
    said(keys, server, "ana", "register", "ana")
    said(keys, server, "bo", "register", "bo")
    ana, bo = Lobby(keys, server, "ana"), Lobby(keys, server, "bo")
    try:
        ana.wait_for("Welcome, ana")
        bo.wait_for("Welcome, bo")
        ana.type("challenge bo --clock 600+5 --as white")
        bo.wait_for("challenges you: accept 1")
        bo.type("accept 1")
        ana.wait_for("your move")  # bo accepted
        ana.type("play 1 H6-H12")
        ana.wait_for("H6-H12", within=10)
        bo.wait_for("H6-H12", within=10)
        bo.type("play 1 I23-I19")
        ana.wait_for("I23-I19")
        ana.type("quit")
        assert ana.close() == 0
    finally:
        ana.close()
        bo.close()


def test_the_lobby_in_words_on_a_terminal_echoes_and_edits_what_the_visitor_types(
    environment: dict[str, str], keys: Path, server: ServerProcess
) -> None:
    said(keys, server, "ana", "register", "ana")
    terminal = Terminal(environment, ["-tt", "plain"], live=True, program=ssh_command(keys, server, "ana"))
    try:
        terminal.wait_for("Welcome, ana")
        terminal.type("seekx\x7f --days 2\r")  # a typo rubbed out, in one burst
        terminal.wait_for("seekx\b \b --days 2\r\n")  # echoed, the x rubbed out on the visitor's screen
        terminal.wait_for("game 1: your seek (2 days per move) is open to anyone")
        terminal.type("\x04")
        assert terminal.wait_for_exit() == 0
    finally:
        terminal.close()


def test_a_terminal_gets_the_lobby_app_which_plays_a_move_the_other_player_sees(
    environment: dict[str, str], keys: Path, server: ServerProcess
) -> None:
    said(keys, server, "ana", "register", "ana")
    said(keys, server, "bo", "register", "bo")
    said(keys, server, "bo", "challenge", "ana", "--days", "2", "--as", "black")
    said(keys, server, "ana", "accept", "1")
    terminal = Terminal(environment, ["-tt"], live=True, program=ssh_command(keys, server, "ana"))
    try:
        terminal.wait_for_screen("you are ana")  # the lobby app's first paint
        terminal.wait_for_screen("your move, until")
        terminal.type("o")  # the game under the cursor: the first, where it is ana's move
        terminal.wait_for_screen("Move:")
        terminal.type("/H6-H12\r")
        wait_until(lambda: json.loads(said(keys, server, "bo", "games", "--json"))[0]["ply"] == 1, "ana's move")
        terminal.wait_for_screen("bo's move, until")
        said(keys, server, "bo", "play", "1", "I23-I19")
        terminal.wait_for_screen("I23-I19")  # told by the server, read again by the app
        terminal.type("\x11")  # Ctrl+Q
        status = terminal.wait_for_exit()
        assert status == 0, (status, terminal.text()[-3000:])
    finally:
        terminal.close()
    assert "H6-H12" in said(keys, server, "bo", "pgn", "1")


def test_the_notification_hook_is_run_for_the_player_whose_move_it_becomes(
    environment: dict[str, str], keys: Path, tmp_path: Path
) -> None:
    told = tmp_path / "told"
    hook = f"sh -c 'echo \"$1 $2\" >> {told}' hook"
    server = serve(environment, keys, str(tmp_path / "server.sqlite"), "--notify", hook)
    try:
        said(keys, server, "ana", "register", "ana")
        said(keys, server, "bo", "register", "bo")
        said(keys, server, "ana", "challenge", "bo", "--days", "2", "--as", "white")
        said(keys, server, "bo", "accept", "1")
        said(keys, server, "ana", "play", "1", "H6-H12")
        wait_until(lambda: told.is_file() and "bo 1\n" in told.read_text(), "the hook to tell bo")
    finally:
        server.stop()


def test_a_visitors_lang_chooses_the_language_of_the_answers(
    environment: dict[str, str], keys: Path, server: ServerProcess
) -> None:
    *options, destination = ssh_command(keys, server, "ana")
    catalan = environment | {"LANG": "ca_ES.UTF-8"}
    done = subprocess.run(
        [*options, "-o", "SendEnv=LANG", destination, "games"],
        capture_output=True, text=True, timeout=PATIENCE, env=catalan, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "la vostra clau encara no té compte" in done.stdout, done


def test_a_command_it_cannot_read_is_refused_with_a_reason(keys: Path, server: ServerProcess) -> None:
    assert "quote" in refused(keys, server, "ana", "games 'unclosed")
    assert "no command" in refused(keys, server, "ana", "fly")
    assert "register NAME" in said(keys, server, "ana", "help")


def test_on_postgresql_a_move_through_one_server_process_is_told_on_the_other_before_its_heartbeat(
    environment: dict[str, str], keys: Path, postgres_server: PrivatePostgres
) -> None:
    db = postgres_server.new_database()
    one = serve(environment, keys, db)
    other: ServerProcess | None = None
    ana: Lobby | None = None
    try:
        other = serve(environment, keys, db)
        said(keys, one, "ana", "register", "ana")
        said(keys, other, "bo", "register", "bo")
        game = json.loads(said(keys, other, "bo", "challenge", "ana", "--days", "1", "--as", "black", "--json"))
        said(keys, one, "ana", "accept", str(game["id"]))
        ana = Lobby(keys, one, "ana")  # on the first process
        ana.wait_for("your move")
        ana.type(f"play {game['id']} H6-H12")
        ana.wait_for("bo's move")
        seen = len(ana.output)
        said(keys, other, "bo", "play", str(game["id"]), "I23-I19")  # through the second process
        started = time.monotonic()
        ana.wait_for("I23-I19", since=seen)
        # Told by the other process's NOTIFY (in well under a second on an idle machine), not by this process's
        # next heartbeat, which would make the lobby read its games again anyway: that comes every BEAT (30 s).
        assert time.monotonic() - started < BEAT.total_seconds() / 3
    finally:
        if ana is not None:
            ana.close()
        if other is not None:
            other.stop()
        one.stop()


@pytest.mark.parametrize("contents", [b"not a database, garbage\n" * 40, None])
def test_a_database_it_cannot_open_is_said_with_status_2_and_no_traceback(
    environment: dict[str, str], keys: Path, tmp_path: Path, contents: bytes | None
) -> None:
    db = tmp_path / "server.sqlite"
    if contents is None:
        db = tmp_path / "a file" / "server.sqlite"
        (tmp_path / "a file").write_text("a file where a folder should be")
    else:
        db.write_bytes(contents)
    done = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "serve-ssh", "--port", "0", "--host-key", str(keys / "host"),
         "--db", str(db)],
        capture_output=True, text=True, env=environment, timeout=PATIENCE, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "the server's database cannot be opened" in done.stderr and "Traceback" not in done.stderr


async def test_one_connection_holds_a_few_lobby_sessions_at_once_and_no_more(keys: Path, server: ServerProcess) -> None:
    async with asyncssh.connect(
        "127.0.0.1", server.port, username="ana", client_keys=[str(keys / "ana")], known_hosts=None
    ) as connection:
        lobbies = [await connection.create_process() for _ in range(4)]
        for lobby in lobbies:
            await lobby.stdout.readuntil("quit leaves).")
        refused = await connection.run("help")
        assert refused.exit_status == 2 and "at most 4 sessions at once" in str(refused.stdout)
        lobbies[0].stdin.write_eof()
        await lobbies[0].wait()
        assert (await connection.run("help")).exit_status == 0  # a session ended: room for another
        for lobby in lobbies[1:]:
            lobby.stdin.write_eof()
            await lobby.wait()
