"""Drivers for the engine protocol: in process (:class:`Conversation`), or the real command (:class:`EngineProcess`)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from cescacs_tui.engine.protocol import EngineProtocol
from tests.helpers.waiting import PATIENCE


class Conversation:
    """An :class:`EngineProtocol` in this process, its output collected line by line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._seen = 0
        self._changed = threading.Condition()
        self.protocol = EngineProtocol(self._write)

    def _write(self, line: str) -> None:
        with self._changed:
            self.lines.append(line)
            self._changed.notify_all()

    def send(self, *commands: str) -> None:
        for command in commands:
            assert self.protocol.handle(command) or command == "quit"

    def new_lines(self) -> list[str]:
        """Lines written since the last call."""
        with self._changed:
            out = self.lines[self._seen :]
            self._seen = len(self.lines)
        return out

    def wait_for(self, done: Callable[[str], bool], what: str) -> list[str]:
        """Wait for a line satisfying ``done``; the lines up to it (those not returned before)."""
        deadline = time.monotonic() + PATIENCE
        with self._changed:
            while True:
                for i in range(self._seen, len(self.lines)):
                    if done(self.lines[i]):
                        out = self.lines[self._seen : i + 1]
                        self._seen = i + 1
                        return out
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"waited {PATIENCE} s for {what}; got {self.lines[-10:]}")
                self._changed.wait(remaining)

    def bestmove(self) -> list[str]:
        return self.wait_for(lambda line: line.startswith("bestmove "), "bestmove")

    def close(self) -> None:
        self.protocol.wait(stop=True)


class EngineProcess:
    """``python -m cescacs_tui engine`` with pipes: bytes in, lines out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.output = b""

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_until(self, marker: bytes, what: str) -> bytes:
        """Read stdout until ``marker`` has appeared (after what was returned before); everything new."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + PATIENCE
        while marker not in self.output:
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {PATIENCE} s for {what}; got {self.output[-800:]!r}")
            if select.select([stdout], [], [], 0.05)[0]:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise AssertionError(f"the engine closed its output before {what}; got {self.output[-800:]!r}")
                self.output += chunk
        at = self.output.index(marker) + len(marker)
        out, self.output = self.output[:at], self.output[at:]
        return out

    def finish(self) -> tuple[int, bytes, bytes]:
        """Close stdin and return the exit status, the rest of stdout and stderr."""
        out, err = self.process.communicate(timeout=PATIENCE)
        return self.process.returncode, self.output + out, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=PATIENCE)
