"""cescacs-web left open to strangers: no folder listed, idle games ended (saved), forgotten browsers removed.

A real ``cescacs-web`` on 127.0.0.1, driven as a page would be (aiohttp);
each browser's game is a real ``cescacs`` process.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")

from cescacs_tui.web.browsers import SEEN, Browser, forget_browsers, new_browser_id
from tests.helpers.web import WebServer, browser

DAY = 86400.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web_server = WebServer(tmp_path_factory.mktemp("web"))
    yield web_server
    web_server.stop()


@pytest.mark.parametrize("path", ["/static/", "/static", "/static/css", "/static/css/", "/static/js/", "/cescacs/"])
async def test_no_folder_of_the_server_is_ever_listed(server: WebServer, path: str) -> None:
    async with browser(server) as visitor:
        status, body, _ = await visitor.load(path)
    assert status == 404 and "Index of" not in body


async def test_the_files_themselves_are_still_served(server: WebServer) -> None:
    async with browser(server) as visitor:
        status, body, _ = await visitor.load("/static/css/xterm.css")
    assert status == 200 and ".xterm" in body


async def test_a_visitors_process_is_started_as_a_web_visitor_with_the_servers_engine_places(
    server: WebServer,
) -> None:
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        (app,) = server.app_processes()
        environment = dict(
            entry.split("=", 1) for entry in Path(f"/proc/{app}/environ").read_text().split("\0") if "=" in entry
        )
    described = json.loads(environment["CESCACS_VISITOR"])
    assert described["kind"] == "web" and described["engines"]["count"] == 2
    assert "CESCACS_WEB_PASSWORD" not in environment


async def test_the_idle_time_counts_from_when_the_game_is_first_shown(tmp_path: Path) -> None:
    from cescacs_tui.session.policy import LaunchKind, Policy
    from cescacs_tui.web.server import BrowserAppService

    sent: list[bytes] = []

    async def write_bytes(data: bytes) -> None:
        sent.append(data)

    async def ignore(*_: object) -> None:
        return None

    service = BrowserAppService(
        "true",
        browser=Browser(new_browser_id(), tmp_path),
        policy=Policy(LaunchKind.WEB),
        write_bytes=write_bytes,
        write_str=ignore,
        close=ignore,
        download_manager=None,
    )
    service.last_input -= 100  # a start that took 100 s on a busy server
    started = service.last_input
    await service.on_data(b"first frame")
    shown = service.last_input
    assert shown >= started + 100 and sent == [b"first frame"]
    await service.on_data(b"a clock tick")  # the app's own output is not the visitor's activity
    assert service.last_input == shown


async def test_a_game_left_without_a_key_is_ended_saved_and_resumed_on_return(tmp_path: Path) -> None:
    server = WebServer(tmp_path, "--idle-minutes", "0.15")  # 9 s without a key, counted from the first frame
    try:
        async with browser(server) as visitor:
            async with visitor.tab() as tab:
                assert await tab.read_until("White to move")
                await tab.type("/e7-e13\r")
                assert await tab.read_until("White played E7-E13")
                assert await tab.wait_closed() == 4004  # the page says why, and offers to play again
            deadline = time.monotonic() + 20
            while server.app_processes() and time.monotonic() < deadline:  # the process ended, the place is free
                await visitor.load("/never-there")  # wait by asking, not by sleeping blind
            assert server.app_processes() == []
            (autosave,) = server.state.glob("*/data/autosave.json")
            assert "E7-E13" in json.loads(autosave.read_text(encoding="utf-8"))["pgn"]
            async with visitor.tab() as again:
                assert await again.read_until("Resume it?"), again.screen()[-2000:]
    finally:
        server.stop()
    assert b"Traceback" not in server.said


def aged(folder: Path, days: float) -> Path:
    """Mark ``folder``'s browser as last seen ``days`` ago."""
    seen = time.time() - days * DAY
    os.utime(folder / SEEN, (seen, seen))
    return folder


def a_browser(root: Path) -> Path:
    visitor = Browser(new_browser_id(), root)
    visitor.prepare()
    (visitor.data_dir / "autosave.json").write_text("{}")
    return visitor.directory


def test_the_folders_of_browsers_not_seen_for_a_while_are_forgotten(tmp_path: Path) -> None:
    old, recent, playing = (a_browser(tmp_path) for _ in range(3))
    aged(old, 31)
    aged(playing, 90)
    aged(recent, 29)
    other = tmp_path / "not-a-browser"
    other.mkdir()
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    link = tmp_path / ("0" * 32)
    link.symlink_to(outside, target_is_directory=True)
    assert forget_browsers(tmp_path, 30 * DAY, keep={playing.name}) == 1
    assert not old.exists() and recent.exists() and playing.exists() and other.exists()
    assert (outside / "keep").exists()  # a link is never followed out of the state folder


async def test_the_server_forgets_old_browsers_when_it_starts(tmp_path: Path) -> None:
    state = tmp_path / "browsers"
    old, recent = a_browser(state), a_browser(state)
    aged(old, 10)
    server = WebServer(tmp_path, "--forget-days", "7")
    try:
        deadline = time.monotonic() + 20
        while old.exists() and time.monotonic() < deadline:
            async with browser(server) as visitor:  # a page load between looks: waiting by asking
                await visitor.load("/")
        assert not old.exists() and recent.exists()
    finally:
        server.stop()
