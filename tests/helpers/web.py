"""A real cescacs-web for the web tests: started on a free port, its output read as a page's terminal draws it;
a browser as aiohttp (its cookies, page loads and tabs), talking the page's websocket protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp

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
        self.said = bytearray(ready)
        """Everything the server has written (its output and its log), complete once it has stopped."""
        self._relay = threading.Thread(target=self._relay_output, daemon=True)
        self._relay.start()

    def _relay_output(self) -> None:
        """Keep what the server writes and copy it to this process's stderr as it comes.

        pytest shows it with a failing test's captured output, and the server
        never waits on a pipe that nobody reads (its log grows with every session).
        """
        streams = [stream for stream in (self.process.stdout, self.process.stderr) if stream is not None]
        while streams:
            for stream in select.select(streams, [], [])[0]:
                data = os.read(stream.fileno(), 1 << 16)
                if not data:
                    streams.remove(stream)
                    continue
                self.said += data
                while data:  # to stderr, which pytest captures for the test that is running
                    data = data[os.write(2, data) :]

    def app_processes(self) -> list[int]:
        """The ``cescacs`` processes it runs (its children)."""
        pid = self.process.pid
        children: list[int] = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError):  # a thread of the server that has ended meanwhile
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
        finally:
            self._relay.join(PATIENCE)


def app_packets(stream: bytes) -> list[tuple[bytes, bytes]]:
    """An app's output to textual-serve, read as textual-serve reads it: packets of a type (``D`` data, ``M``
    meta, ``P`` packed), a 4-byte length and the payload; fails at the first that is not one."""
    found: list[tuple[bytes, bytes]] = []
    while stream:
        kind, size = stream[:1], int.from_bytes(stream[1:5], "big")
        assert kind in (b"D", b"M", b"P"), f"packet {len(found)}: type {kind!r}"
        assert len(stream) >= 5 + size, f"packet {len(found)}: {size} bytes said, {len(stream) - 5} left"
        found.append((kind, stream[5 : 5 + size]))
        stream = stream[5 + size :]
    return found


def visible_text(chunks: list[bytes]) -> str:
    """The characters the terminal output draws, without escape sequences or spaces."""
    text = b"".join(chunks).decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;?<>]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\s", "", text)


class Tab:
    """One websocket of a browser's page: keys in, the terminal's output collected."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.output: list[bytes] = []
        self.texts: list[object] = []

    async def read_until(self, needle: str, seconds: float = PATIENCE) -> bool:
        """Read until the screen has shown ``needle`` (spaces ignored); False at close or timeout."""
        return await self.read_until_shown(lambda screen: needle.replace(" ", "") in screen, seconds)

    async def read_until_shown(self, shown: Callable[[str], bool], seconds: float = PATIENCE) -> bool:
        """Read until ``shown(screen)`` holds for what the screen has shown; False at close or timeout."""
        deadline = time.monotonic() + seconds
        while not shown(visible_text(self.output)):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:  # not receive(timeout=): each heartbeat ping would start its timeout again
                message = await asyncio.wait_for(self.ws.receive(), left)
            except TimeoutError:
                return False
            if message.type == aiohttp.WSMsgType.BINARY:
                self.output.append(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(json.loads(message.data))
            else:
                return False
        return True

    async def wait_closed(self, seconds: float = PATIENCE) -> int | None:
        """Read until the server closes the websocket: its close code, or ``None`` if it never does."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                message = await asyncio.wait_for(self.ws.receive(), deadline - time.monotonic())
            except TimeoutError:
                return None
            if message.type == aiohttp.WSMsgType.CLOSE:
                return int(message.data)  # the code in the server's close frame, as a page's close event has it
            if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
                return self.ws.close_code
            if message.type == aiohttp.WSMsgType.BINARY:
                self.output.append(message.data)
        return None

    async def type(self, keys: str) -> None:
        """One key at a time, as the browser's terminal sends them."""
        for key in keys:
            await self.ws.send_str(json.dumps(["stdin", key]))
            await asyncio.sleep(0.03)

    async def burst(self, text: str) -> None:
        """Text in one message, as a fast typist or a paste arrives."""
        await self.ws.send_str(json.dumps(["stdin", text]))

    def screen(self) -> str:
        return visible_text(self.output)


class Browser:
    """A browser: its cookies, its page loads, its tabs."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies for an IP address

    async def load(self, path: str = "/", **headers: str) -> tuple[int, str, aiohttp.ClientResponse]:
        async with self.session.get(self.server.origin + path, headers=headers, allow_redirects=False) as response:
            return response.status, await response.text(), response

    @contextlib.asynccontextmanager
    async def tab(self, origin: str | None = None, **headers: str) -> AsyncIterator[Tab]:
        """The page's websocket, opened as the page does (its Origin unless told otherwise)."""
        sent = {"Origin": origin or self.server.origin, **headers}
        async with self.session.ws_connect(f"{self.server.origin}/ws?width=120&height=40", headers=sent) as ws:
            yield Tab(ws)

    async def close(self) -> None:
        await self.session.close()


@contextlib.asynccontextmanager
async def browser(server: WebServer) -> AsyncIterator[Browser]:
    visitor = Browser(server)
    try:
        status, _, _ = await visitor.load()
        assert status == 200
        yield visitor
    finally:
        await visitor.close()
