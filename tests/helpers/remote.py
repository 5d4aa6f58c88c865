"""Drivers for remote play: peers that record what a coordinator tells them, raw protocol clients, a host process."""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from cescacs_tui.core.errors import CescacsError
from cescacs_tui.data.autosave import read_autosave
from cescacs_tui.remote.coordinator import Coordinator, Member
from cescacs_tui.remote.protocol import Hello, LineRefused, Seat, parse_request
from tests.helpers.terminal import PATIENCE

TOKEN = "test-token-0123456789"


class RecordingPeer:
    """A connection as the coordinator sees it, keeping every line it was sent."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.closed: LineRefused | None = None
        self.is_closed = False

    def send(self, line: bytes) -> None:
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        self.lines.append(json.loads(line))

    def close(self, error: LineRefused | None = None) -> None:
        self.is_closed = True
        self.closed = error

    @property
    def states(self) -> list[dict[str, Any]]:
        return [line for line in self.lines if line["type"] == "state"]

    @property
    def last(self) -> dict[str, Any]:
        return self.states[-1]

    def said(self) -> list[str]:
        return [state["said"] for state in self.states if state["said"]]


def hello(seat: str | None = None, *, client: str = "", name: str = "", token: str = TOKEN) -> Hello:
    return Hello(1, token, None if seat in (None, "any") else Seat(seat), name or "?", client)


_identities = itertools.count()


def seat(
    coordinator: Coordinator, wanted: str | None = None, *, client: str = "", name: str = ""
) -> tuple[Member, RecordingPeer]:
    """Join ``coordinator`` as a new client (``client``: an identity of its own unless given)."""
    peer = RecordingPeer()
    member = coordinator.join(peer, hello(wanted, client=client or f"client-{next(_identities)}", name=name))
    assert member is not None
    return member, peer


def request(coordinator: Coordinator, member: Member, message: Mapping[str, Any]) -> LineRefused | None:
    """Send ``message`` as its JSON line would arrive; the refusal, if any."""
    try:
        coordinator.handle(member, parse_request(json.dumps(message).encode()))
    except LineRefused as error:
        return error
    return None


def canonical(coordinator: Coordinator, text: str) -> str:
    """``text`` (CTL-AN, as the model games are written) in the canonical form the protocol takes."""
    try:
        return str(coordinator.game.position.parse_move(text))
    except CescacsError:
        return text  # not a move here: sent as it is, to be refused


def move(coordinator: Coordinator, member: Member, text: str, *, draw: bool = False) -> LineRefused | None:
    """Request ``text`` (CTL-AN) as a move of ``member``."""
    message = {"type": "move", "move": canonical(coordinator, text), "ply": coordinator.game.ply, "draw": draw}
    return request(coordinator, member, message)


class LineClient:
    """A raw protocol client over a real socket (what a hostile or a test program would do)."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.socket = socket.create_connection((host, port), timeout=PATIENCE)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.socket.sendall(data)

    def send_json(self, message: Mapping[str, Any]) -> None:
        self.send(json.dumps(message).encode() + b"\n")

    def hello(self, seat: str = "any", *, client: str = "", token: str = TOKEN, name: str = "") -> dict[str, Any]:
        self.send_json({"type": "hello", "protocol": 1, "token": token, "seat": seat, "client": client, "name": name})
        return self.read()

    def read(self) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            chunk = self.socket.recv(1 << 16)
            if not chunk:
                raise ConnectionError(f"the coordinator closed the connection; unread: {self.buffer[:200]!r}")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        message: dict[str, Any] = json.loads(line)
        return message

    def read_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            message = self.read()
            if done(message):
                return message
        raise AssertionError("the coordinator never sent the line waited for")

    def closed_by_peer(self) -> bool:
        """Whether the coordinator has closed this connection (reading what is left on the way)."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            try:
                chunk = self.socket.recv(1 << 16)
            except ConnectionResetError:
                return True
            if not chunk:
                return True
            self.buffer += chunk
        return False

    def close(self) -> None:
        self.socket.close()


class CommandProcess:
    """``cescacs ARGS`` as a process whose output is read as it comes."""

    def __init__(self, env: dict[str, str], args: Sequence[str], *, cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
        )
        self.output = b""

    def read_until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        stdout = self.process.stdout
        assert stdout is not None
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {PATIENCE} s for {what}; the process said {self.output[-800:]!r}")
            if select.select([stdout], [], [], 0.1)[0]:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"the process ended ({self.process.returncode}): {self.output[-800:]!r}")
                self.output += chunk

    def wait_for(self, text: bytes) -> None:
        self.read_until(lambda: text in self.output, repr(text))

    def line_after(self, text: bytes) -> str:
        """The rest of the line of output after ``text``, once the whole line is there."""
        pattern = re.compile(re.escape(text) + rb"([^\n]*)\n")
        self.read_until(lambda: pattern.search(self.output) is not None, repr(text))
        found = pattern.search(self.output)
        assert found is not None
        return found.group(1).decode()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        code = self.process.wait(timeout=PATIENCE)
        assert self.process.stdout is not None
        self.output += self.process.stdout.read()
        return code

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


class HostProcess(CommandProcess):
    """``cescacs host`` on a free port of 127.0.0.1, its join command parsed."""

    def __init__(self, env: dict[str, str], args: Sequence[str] = ()) -> None:
        super().__init__(env, ["host", "--port", "0", "--token", TOKEN, *args])
        try:
            words = ["cescacs", "join", *self.line_after(b": cescacs join ").split()]  # "Join with:", in any language
        except BaseException:
            self.stop()  # a host that never said how to join is not left running
            raise
        self.join_args = words[1:]
        self.port = int(self.join_args[1].rpartition(":")[2])


class ServerProcess(CommandProcess):
    """``cescacs serve-ssh`` on a free port of 127.0.0.1."""

    def __init__(self, env: dict[str, str], args: Sequence[str], *, cwd: Path | None = None) -> None:
        super().__init__(env, args, cwd=cwd)
        try:
            self.port = int(self.line_after(b"over SSH on 127.0.0.1:").split()[0])
        except BaseException:
            self.stop()
            raise


def hosted_moves(data: Path) -> list[str]:
    """The moves of the game a host keeps in ``data`` (its autosave), ``[]`` if there is none."""
    saved = read_autosave(data / "hosted" / "autosave.json")  # read only: polled while the host writes it
    return [] if saved is None else [node.san for node in saved.game.nodes]


def archived(data: Path) -> list[Path]:
    folder = data / "hosted" / "games"
    return sorted(folder.glob("*.ctl-pgn")) if folder.is_dir() else []
