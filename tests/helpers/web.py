"""A real cescacs-web for the web tests: started on a free port, its output read as a page's terminal draws it."""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.waiting import PATIENCE


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_environment(tmp_path: Path) -> dict[str, str]:
    locale = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")  # English unless a test asks otherwise
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "CESCACS")) and k not in locale}
    return {**env, "CESCACS_DATA_DIR": str(tmp_path / "data"), "CESCACS_CONFIG_DIR": str(tmp_path / "config")}


class WebServer:
    """A ``cescacs-web`` process on a free port of 127.0.0.1, ready once it says where it serves."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        self.port = free_port()
        self.state = tmp_path / "browsers"
        command = [sys.executable, "-m", "cescacs_tui.web", "--port", str(self.port), "--state-dir", str(self.state)]
        self.process = subprocess.Popen(
            [*command, *options],
            env=server_environment(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        ready = b""
        deadline = time.monotonic() + PATIENCE
        while b"\n" not in ready and time.monotonic() < deadline and self.process.poll() is None:
            if select.select([self.process.stdout], [], [], 0.1)[0]:
                ready += os.read(self.process.stdout.fileno(), 4096)
        assert f"http://127.0.0.1:{self.port}".encode() in ready, ready  # in the server's language
        self.origin = f"http://127.0.0.1:{self.port}"

    def app_processes(self) -> list[int]:
        """The ``cescacs`` processes it runs (its children)."""
        pid = self.process.pid
        children: list[int] = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            children += [int(child) for child in (task / "children").read_text().split()]
        return children

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it; a server that does not stop is killed, and the test fails."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def visible_text(chunks: list[bytes]) -> str:
    """The characters the terminal output draws, without escape sequences or spaces."""
    text = b"".join(chunks).decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;?<>]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\s", "", text)
