"""The app as cescacs-web runs it: what it writes to the server stays whole packets, whatever happens to the process.

textual-serve reads the app's stdout as packets (a type byte, a length, the
payload) and ends the session at the first one that does not decode.  A write
into a full pipe that a signal interrupts (the process stopped and continued, a
frozen container thawed) writes only part of its packet; Textual's web driver
did not write the rest, and the server lost the session (found when a
screenshot's tab stayed empty on a busy machine).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")

from textual_serve._binary_encode import load as binary_load
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from cescacs_tui.web.command import app_command
from tests.helpers.terminal import POSIX_ONLY
from tests.helpers.waiting import PATIENCE, wait_until
from tests.helpers.web import app_packets, visible_text

pytestmark = [
    POSIX_ONLY,
    pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs Linux's /proc wait channels"),
]

PIPE_SIZE = 4096
"""The app's stdout pipe, made as small as Linux allows: a frame fills it many times over, and a write that has
filled it once and waits for more room returns what it wrote if a signal comes."""
STOPS = 6
"""How many times the app is stopped and continued while it is blocked writing a frame."""
PRELUDE = b"__GANGLION__\n"
"""What the app writes first, for textual-serve to know it is a Textual app."""


def serve_environment(environment: dict[str, str], size: tuple[int, int]) -> dict[str, str]:
    """The environment textual-serve gives an app process (its web driver, truecolor, the page's size)."""

    async def nothing(*_: object) -> None:
        pass

    service = AppService("", write_bytes=nothing, write_str=nothing, close=nothing, download_manager=DownloadManager())
    return environment | service._build_environment(*size)


def send_meta(app: subprocess.Popen[bytes], meta: dict[str, object]) -> None:
    """A message of the server to the app, encoded as textual-serve encodes it."""
    assert app.stdin is not None
    app.stdin.write(AppService.encode_packet(b"M", json.dumps(meta).encode()))
    app.stdin.flush()


def blocked_writing(pid: int) -> bool:
    """Whether a thread of the process waits in a write for room in a pipe (its kernel wait channel)."""
    threads = Path(f"/proc/{pid}/task").iterdir()
    return any(thread.joinpath("wchan").read_text().endswith("pipe_write") for thread in threads)


def state(pid: int) -> str:
    """The process's state letter in /proc (``T``: stopped)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2]


def test_the_app_stopped_and_continued_while_writing_a_frame_still_writes_whole_packets(
    environment: dict[str, str], tmp_path: Path
) -> None:
    server_end, app_end = os.pipe()
    fcntl.fcntl(app_end, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    errors = tmp_path / "stderr"
    with errors.open("wb") as stderr:
        app = subprocess.Popen(
            app_command(),
            shell=True,
            stdin=subprocess.PIPE,
            stdout=app_end,
            stderr=stderr,
            env=serve_environment(environment, (200, 60)),
        )
    os.close(app_end)
    output = b""
    try:
        send_meta(app, {"type": "resize", "width": 200, "height": 60})  # as the server does once the page is open
        for _ in range(STOPS):  # each time, the app is inside a write that waits for room in the pipe
            wait_until(lambda: blocked_writing(app.pid), "the app to wait for room in its pipe")
            app.send_signal(signal.SIGSTOP)
            wait_until(lambda: state(app.pid) == "T", "the app to stop")
            app.send_signal(signal.SIGCONT)
            wait_until(lambda: state(app.pid) != "T", "the app to go on")
            output += os.read(server_end, PIPE_SIZE)
        send_meta(app, {"type": "quit"})
        while chunk := os.read(server_end, 1 << 16):
            output += chunk
        assert app.wait(timeout=PATIENCE) == 0, errors.read_text(errors="replace")
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        os.close(server_end)
    assert output.startswith(PRELUDE)
    received = app_packets(output[len(PRELUDE) :])
    frames = "".join(payload.decode() for kind, payload in received if kind == b"D")
    assert "PTABCDEFGHIKLXZ" in visible_text([frames.encode()])  # the board was drawn: its columns' letters
    for kind, payload in received:
        if kind == b"M":
            json.loads(payload)
        elif kind == b"P":
            binary_load(payload)
