"""The game served to a browser: textual-serve's page and websocket drive a real cescacs process."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    port = free_port()
    env = {**os.environ, "CESCACS_DATA_DIR": str(tmp_path / "data"), "CESCACS_CONFIG_DIR": str(tmp_path / "config")}
    process = subprocess.Popen(
        [sys.executable, "-m", "cescacs_tui.web", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def visible_text(chunks: list[bytes]) -> str:
    """The characters the terminal output draws, without escape sequences."""
    text = b"".join(chunks).decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", text)


async def read_until(ws: aiohttp.ClientWebSocketResponse, chunks: list[bytes], needle: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        if message.type == aiohttp.WSMsgType.BINARY:
            chunks.append(message.data)
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            break
        if needle in visible_text(chunks).replace(" ", ""):
            return True
    return False


async def test_the_page_and_a_game_played_through_the_websocket(server: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(server) as response:
            page = await response.text()
        assert response.status == 200
        assert "C&#39;escacs" in page or "C'escacs" in page
        assert "/ws" in page
        async with session.ws_connect(f"{server}/ws?width=120&height=40") as ws:
            chunks: list[bytes] = []
            assert await read_until(ws, chunks, "Whitetomove", 60), visible_text(chunks)[-2000:]
            for key in "/e7-e13\r":  # one keystroke at a time, as the browser's terminal sends them
                await ws.send_str(json.dumps(["stdin", key]))
                await asyncio.sleep(0.05)
            assert await read_until(ws, chunks, "WhiteplayedE7-E13", 30), visible_text(chunks)[-2000:]
