"""Remote play exposed to strangers, with real processes: idle crowds, silent links, hostile lines.

A ``cescacs host`` (and ``cescacs serve-ssh``) on 127.0.0.1, real ``cescacs
join`` processes and the system's ``ssh`` in pseudo-terminals, and strangers
as raw sockets from the same address: whatever they do, a player gets in, a
player whose link went silent gets their seat back, and the host neither
crashes, nor hangs, nor grows.
"""

from __future__ import annotations

import asyncio
import base64
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.hostile import fuzz_host
from tests.helpers.remote import TOKEN, HostProcess, ServerProcess, hosted_moves
from tests.helpers.ssh import make_keys, ssh_command, visit
from tests.helpers.terminal import PATIENCE, POSIX_ONLY, Terminal

pytestmark = POSIX_ONLY

STRANGERS = 200


def player(environment: dict[str, str], host: HostProcess, seat: str, name: str) -> Terminal:
    """``cescacs join`` for ``seat`` in a terminal of its own, once its seats line says it is seated."""
    terminal = Terminal(environment, [*host.join_args, "--as", seat, "--name", name], live=True)
    terminal.wait_for("Move:")
    terminal.wait_for("(you)")
    return terminal


def idle_crowd(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from this address that never say a word (each one is accepted by the host)."""
    crowd = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        crowd.append(sock)
    return crowd


@pytest.fixture
def quick_host(environment: dict[str, str]) -> Iterator[HostProcess]:
    """A host that drops a client silent for 3 s (pinged after 1 s; a seat's silent link answers within 1 s)."""
    with HostProcess(environment, ["--silence", "3"]) as hosted:
        yield hosted


def test_200_idle_connections_from_one_address_never_keep_a_player_out(
    environment: dict[str, str], quick_host: HostProcess
) -> None:
    crowd = idle_crowd(quick_host.port, STRANGERS)
    started = time.monotonic()
    ana: Terminal | None = None
    try:
        ana = player(environment, quick_host, "white", "Ana")  # from the same address as the crowd
        seconds = time.monotonic() - started
        assert seconds < PATIENCE, seconds  # the figure (well under 5 s) is measured by benchmarks/exposure.py
    finally:
        for sock in crowd:
            sock.close()
        if ana is not None:
            ana.close()
    assert b"Traceback" not in quick_host.output


def test_a_player_whose_client_stopped_answering_takes_the_seat_with_a_new_process(
    environment: dict[str, str], quick_host: HostProcess, tmp_path: Path
) -> None:
    """The first client is stopped (SIGSTOP: its connection stays open and says nothing, as after a network
    drop without FIN); the player's new ``cescacs join --as white`` gets the seat within the answer time, the
    old link is closed, and the game goes on with the new process."""
    old = player(environment, quick_host, "white", "Ana")
    new: Terminal | None = None
    black: Terminal | None = None
    try:
        black = player(environment, quick_host, "black", "Bo")
        old.process.send_signal(signal.SIGSTOP)
        new = player(environment, quick_host, "white", "Ana")
        new.type("/h6-h12\r")
        black.wait_for("White played H6-H12")
        quick_host.wait_for(b"Ana plays White")
    finally:
        old.process.send_signal(signal.SIGCONT)
        for terminal in (old, new, black):
            if terminal is not None:
                terminal.close()
    assert hosted_moves(tmp_path / "data") == ["H6-H12"]


# --- over SSH ----------------------------------------------------------------------------------------

needs_ssh = pytest.mark.skipif(shutil.which("ssh") is None, reason="the system's ssh client (openssh-client)")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("asyncssh")
    return make_keys(tmp_path_factory.mktemp("keys"))


def ssh_server(environment: dict[str, str], keys: Path, *options: str) -> ServerProcess:
    return ServerProcess(environment, ["serve-ssh", "--port", "0", "--host-key", str(keys / "host"), *options])


@needs_ssh
def test_200_idle_connections_never_keep_an_ssh_visitor_out(environment: dict[str, str], keys: Path) -> None:
    server = ssh_server(environment, keys)
    crowd = idle_crowd(server.port, STRANGERS)
    ana: Terminal | None = None
    try:
        ana = visit(environment, keys, server, "ana", "lobby")  # from the same address as the crowd
    finally:
        for sock in crowd:
            sock.close()
        if ana is not None:
            ana.close()
        server.stop()
    assert b"Traceback" not in server.output


@needs_ssh
def test_a_full_ssh_server_says_so_in_a_sentence_openssh_prints(environment: dict[str, str], keys: Path) -> None:
    server = ssh_server(environment, keys, "--max-visitors", "1")
    ana = visit(environment, keys, server, "ana", "lobby")
    try:
        bo = subprocess.run(
            [*ssh_command(keys, server, "bo", log_level="INFO"), "-tt", "lobby"],
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
    finally:
        ana.close()
        server.stop()
    assert bo.returncode == 255
    assert f"Received disconnect from 127.0.0.1 port {server.port}:12: the server has 1 visitor already" in bo.stderr


def server_files(root: Path, *, own: tuple[Path, ...]) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and time, except under ``own`` (a visitor's folder, the room's
    game): what a visitor must leave untouched."""
    return {
        str(path): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in root.rglob("*")
        if path.is_file() and not any(path.is_relative_to(folder) for folder in own)
    }


OSC52 = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]+)(?:\x07|\x1b\\)")


@needs_ssh
def test_an_ssh_visitors_save_open_screenshot_and_settings_leave_every_server_file_untouched(
    environment: dict[str, str], keys: Path, tmp_path: Path
) -> None:
    """As the issue found it: Ctrl+S asked for a path on the server, the palette's Screenshot wrote in the server
    user's Downloads.  Now the record reaches the visitor by OSC 52, Ctrl+O asks for no path, the screenshot is
    refused with a reason, a theme is kept in the visitor's own folder, and no other file of the server changes."""
    home, work = tmp_path / "home", tmp_path / "work"
    for folder in (home, work):
        folder.mkdir()
    (home / ".bashrc").write_text("# the server user's own\n")
    server = ServerProcess(
        environment | {"HOME": str(home)},
        ["serve-ssh", "--port", "0", "--host-key", str(keys / "host")],
        cwd=work,
    )
    data = tmp_path / "data"
    ana = Terminal(environment, ["-tt", "room"], live=True, program=ssh_command(keys, server, "ana"))
    try:
        ana.wait_for("Move:")
        ana.wait_for("(you)")
        own = (data / "visitors", data / "rooms")
        before = server_files(tmp_path, own=own)
        ana.type("/h6-h12\r")
        ana.wait_for_text("White played H6-H12")
        ana.read_until(ana.in_move_box, "the move box's footer")
        ana.leave_move_box()
        seen = len(ana.output)
        ana.type("\x13")  # Ctrl+S
        ana.wait_for_text("the server keeps no file for you", since=seen)
        (sent,) = OSC52.findall(ana.output[seen:])
        record = base64.b64decode(sent).decode()
        assert '[Variant "C\'escacs"]' in record and "H6-H12" in record
        ana.type("\x0f")  # Ctrl+O: no file dialog (and no record goes into a game held by a room)
        ana.wait_for_text("a record cannot be opened into a game played from two places")
        seen = len(ana.output)
        ana.type("\x10")  # Ctrl+P: the command palette
        ana.wait_for_screen("Search for commands")
        ana.type("Screenshot")
        ana.read_until(lambda: any(line.strip() == "Screenshot" for line in ana.screen.display), "the command found")
        ana.type("\r")
        ana.wait_for_text("a screenshot would be a file on the server", since=seen)
        ana.type("T")  # another theme, kept for this visitor
        ana.read_until(lambda: any((data / "visitors").rglob("settings.toml")), "the visitor's settings")
        after = server_files(tmp_path, own=own)
    finally:
        ana.close()
        server.stop()
    assert after == before  # no file of the server was written, none appeared (~/Downloads, the working folder)
    assert not (home / "Downloads").exists() and list(work.iterdir()) == []
    (settings,) = (data / "visitors").rglob("settings.toml")
    assert "theme" in settings.read_text() and "engine" not in settings.read_text().replace('engine = ""', "")


# --- hostile lines -----------------------------------------------------------------------------------

FUZZ_LINES = 2400
"""The test's share; ``python benchmarks/remote_fuzz.py`` sends 10,000 and more, and measures the host's memory."""


def resident_kilobytes(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]


def test_thousands_of_hostile_lines_never_crash_or_hang_the_host_and_the_real_game_goes_on(
    environment: dict[str, str],
) -> None:
    """Surrogates, controls, huge and negative numbers, wrong types, floods and strangers, while two people play:
    every burst is answered, nothing prints a traceback, the host's memory stays put, the game goes on."""
    host = HostProcess(environment)
    try:
        warm = asyncio.run(fuzz_host(host.port, TOKEN, lines=300, seed=99))
        before = resident_kilobytes(host.process.pid)
        report = asyncio.run(fuzz_host(host.port, TOKEN, lines=FUZZ_LINES, seed=1))
        after = resident_kilobytes(host.process.pid)
    finally:
        host.stop()
    assert warm.problems == [] and report.problems == []
    assert report.lines >= FUZZ_LINES and report.answered_bursts > 0 and report.strangers_shown_out == 3
    assert report.floods_told == 1 and report.moves_played >= 4
    assert b"Traceback" not in host.output and b"internal" not in host.output
    assert after - before < 20_000, (before, after)  # flat: the figure is measured by benchmarks/remote_fuzz.py
