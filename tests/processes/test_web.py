"""cescacs-web as a browser meets it: a real server on 127.0.0.1, driven by aiohttp as a page would.

Each test talks HTTP and the websocket protocol of textual-serve's page to a
``cescacs-web`` process with a free port; the games are real ``cescacs``
processes.  What is proved: only this site's page may drive the app (Origin
and Host), each browser has its own game, a visitor can never read a file of
the server, the session limit holds, the page asks no other site for
anything, and the command's mistakes are one line with exit status 2.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")

import aiohttp

from tests.helpers.terminal import READING_SECONDS
from tests.helpers.waiting import until
from tests.helpers.web import PATIENCE, Tab, WebServer, browser, server_environment


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web_server = WebServer(tmp_path_factory.mktemp("web"))
    yield web_server
    web_server.stop()


def in_move_list(screen: str, move: str) -> bool:
    """Whether the move list shows ``move`` as the first move (the current one is marked ▸)."""
    return re.search(rf"1\.▸?{re.escape(move)}", screen) is not None


async def handshake_status(server: WebServer, **headers: str) -> int:
    """The status of a websocket handshake with these headers, by a browser that loaded the page."""
    async with browser(server) as visitor:
        try:
            async with visitor.session.ws_connect(f"{server.origin}/ws", headers=headers):
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


# --- only our own page may drive the app --------------------------------------------


async def test_a_foreign_page_cannot_open_the_websocket(server: WebServer) -> None:
    assert await handshake_status(server, Origin="http://evil.example") == 403
    assert await handshake_status(server, Origin=f"http://127.0.0.1:{server.port + 1}") == 403
    assert server.app_processes() == []


async def test_origin_null_and_no_origin_are_refused(server: WebServer) -> None:
    assert await handshake_status(server, Origin="null") == 403
    assert await handshake_status(server) == 403


async def test_a_rebound_host_name_is_refused_even_with_its_own_origin(server: WebServer) -> None:
    rebound = f"evil.example:{server.port}"
    assert await handshake_status(server, Origin=f"http://{rebound}", Host=rebound) == 403
    async with aiohttp.ClientSession() as session, session.get(server.origin, headers={"Host": rebound}) as page:
        assert page.status == 403 and "Set-Cookie" not in page.headers


async def test_no_websocket_without_the_pages_cookie(server: WebServer) -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{server.origin}/ws", headers={"Origin": server.origin})
        assert refused.value.status == 403
        forged = {"Cookie": "cescacs_browser=../../../../etc/passwd", "Origin": server.origin}
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await session.ws_connect(f"{server.origin}/ws", headers=forged)
    assert server.app_processes() == []


async def test_the_own_page_plays_and_every_loopback_name_is_its_own(server: WebServer) -> None:
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move"), tab.screen()[-2000:]
        await tab.type("/e7-e13\r")
        assert await tab.read_until("White played E7-E13"), tab.screen()[-2000:]
    localhost = f"http://localhost:{server.port}"
    assert await handshake_status(server, Origin=localhost, Host=f"localhost:{server.port}") == 101


async def test_the_cookie_is_httponly_strict_and_long_lived(server: WebServer) -> None:
    async with aiohttp.ClientSession() as session, session.get(server.origin) as page:
        cookie = page.headers["Set-Cookie"]
    assert re.match(r"cescacs_browser=[A-Za-z0-9_-]{43};", cookie)
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie and "Max-Age=" in cookie


async def test_arriving_by_a_link_from_another_site_keeps_the_browsers_game(server: WebServer) -> None:
    """A cross-site navigation carries no SameSite=Strict cookie: the page reloads itself rather than replace it."""
    async with aiohttp.ClientSession() as session:
        async with session.get(server.origin, headers={"Sec-Fetch-Site": "cross-site"}) as page:
            body = await page.text()
        assert page.status == 200 and "Set-Cookie" not in page.headers
        assert '<meta http-equiv="refresh" content="0">' in body and "/ws" not in body


async def test_esc_and_a_key_typed_right_after_it_are_two_keys(server: WebServer) -> None:
    """The page sends each key in a message of its own: Esc then "/" 30 ms later leave the box and come back."""
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        await tab.type("/")  # the move box has the focus before the next key is handled
        await tab.burst("e7")
        await tab.type("\x1b/")  # Esc: back to the board; "/": the box again, its "e7" selected (typing replaces it)
        await tab.burst("f8-f12\r")
        assert await tab.read_until("White played F8-F12"), tab.screen()[-2000:]


async def test_malformed_messages_are_ignored_and_the_game_goes_on(server: WebServer) -> None:
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        for junk in (
            "not json",
            "{}",
            "[]",
            '["stdin"]',
            '["stdin", 42]',
            '["stdin", ""]',  # Textual's input parser would take it for the end of input
            '["stdin", "\\ud800"]',
            '["resize", {"width": 1000000000, "height": 1000000000}]',
            '["resize", {"width": "80"}]',
            '["resize", 5]',
            '["ping", {"x": 1}]',
            '["unknown", 1]',
        ):
            await tab.ws.send_str(junk)
        await tab.ws.send_bytes(b"\x00\xff")
        await tab.type("/e7-e13\r")
        assert await tab.read_until("White played E7-E13"), tab.screen()[-2000:]


# --- one game per browser -------------------------------------------------------------


async def test_two_browsers_never_share_a_game_and_a_reload_resumes_its_own(server: WebServer) -> None:
    async with browser(server) as first, browser(server) as second:
        async with first.tab() as tab:
            assert await tab.read_until("White to move")
            await tab.type("/e7-e13\r")
            assert await tab.read_until("White played E7-E13")
        async with second.tab() as tab:
            assert await tab.read_until("White to move")
            await tab.type("/f8-f12\r")
            assert await tab.read_until("White played F8-F12")
            assert "unfinishedgame" not in tab.screen() and not in_move_list(tab.screen(), "E7-E13")
        for visitor, move in ((first, "E7-E13"), (second, "F8-F12")):
            await visitor.load()  # the reload: same cookie
            async with visitor.tab() as tab:
                assert await tab.read_until("Resume it?"), tab.screen()[-2000:]
                await asyncio.sleep(READING_SECONDS)  # a question takes keys once a person could have read it
                await tab.type("y")
                assert await tab.read_until("resumed the game"), tab.screen()[-2000:]
                assert await tab.read_until_shown(partial(in_move_list, move=move))
                other = "F8-F12" if move == "E7-E13" else "E7-E13"
                assert not in_move_list(tab.screen(), other)


async def test_each_browser_keeps_its_game_in_a_directory_of_its_own(server: WebServer) -> None:
    before = set(server.state.iterdir()) if server.state.exists() else set()
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        await tab.type("/e7-e13\r")
        assert await tab.read_until("White played E7-E13")
    (directory,) = set(server.state.iterdir()) - before
    autosave = directory / "data" / "autosave.json"
    assert "E7-E13" in json.loads(autosave.read_text(encoding="utf-8"))["pgn"]
    cookie = next(c for c in visitor.session.cookie_jar if c.key == "cescacs_browser").value
    assert cookie not in directory.name


async def test_a_second_tab_takes_the_game_over_and_the_first_is_told(server: WebServer) -> None:
    async with browser(server) as visitor, visitor.tab() as first:
        assert await first.read_until("White to move")
        await first.type("/e7-e13\r")
        assert await first.read_until("White played E7-E13")
        async with visitor.tab() as second:
            assert await first.wait_closed() == 4001
            assert await second.read_until("Resume it?"), second.screen()[-2000:]


# --- no file of the server ---------------------------------------------------------------


async def test_a_visitor_cannot_make_the_app_read_a_server_file(server: WebServer, tmp_path: Path) -> None:
    """Typing a record's path wherever a path could go (Open, then Enter or Open; the move box) never opens it."""
    secret = tmp_path / "secret.ctl-pgn"
    secret.write_text('[Variant "C\'escacs"]\n[White "SECRETWHITE"]\n\n1. E7-E13 *\n', encoding="utf-8")
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        await tab.type("\x0f")  # Ctrl+O
        assert await tab.read_until("Open a"), tab.screen()[-2000:]  # whichever dialog it is
        await tab.burst(f"{secret}\r")  # Enter, where a file dialog would open the path
        assert await tab.read_until(secret.name), tab.screen()[-2000:]
        await tab.type("\x0f")  # Ctrl+O again: the paste box's Open
        assert not await tab.read_until("SECRETWHITE", 3), "the server's file was opened"
        assert await tab.read_until("column"), tab.screen()[-2000:]  # what was typed is read as a PDTL, and refused
        assert "Openagame" in tab.screen()
        await tab.type("\x1b/")  # the paste box closed, then the move box (the keys are handled in order)
        await tab.burst(f"{secret}\r")
        assert await tab.read_until("not a CTL-AN move"), tab.screen()[-2000:]
        await tab.type("\x13")  # Ctrl+S: a download, no path asked
        assert await tab.read_until("sent to your browser"), tab.screen()[-2000:]
        screen = tab.screen()
    assert "SECRETWHITE" not in screen
    assert "OpenaCTL-PGNrecord" not in screen and "SavethegameasCTL-PGN" not in screen  # no file dialog at all
    assert secret.read_text(encoding="utf-8").count("SECRETWHITE") == 1  # nor was it written


async def test_save_is_a_download_for_this_browser_only(server: WebServer) -> None:
    async with browser(server) as visitor, browser(server) as stranger, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        await tab.type("/e7-e13\r")
        assert await tab.read_until("White played E7-E13")
        await tab.type("\x13")  # Ctrl+S
        assert await tab.read_until("sent to your browser")
        deadline = time.monotonic() + PATIENCE
        while not any(isinstance(t, list) and t[0] == "deliver_file_start" for t in tab.texts):
            assert time.monotonic() < deadline, tab.texts
            await tab.read_until("never shown", 0.2)
        key = next(t[1] for t in tab.texts if isinstance(t, list) and t[0] == "deliver_file_start")
        status, _, _ = await stranger.load(f"/download/{key}")
        assert status == 404
        status, record, response = await visitor.load(f"/download/{key}")
        assert status == 200 and "1. E7-E13" in record
        disposition = response.headers["Content-Disposition"]
        assert re.fullmatch(r"attachment; filename=cescacs-[A-Za-z0-9._-]+\.ctl-pgn", disposition)


# --- the page ---------------------------------------------------------------------------


class Links(HTMLParser):
    """Every address a page makes the browser fetch or go to."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_title = tag == "title"
        for name, value in attrs:
            if name in ("src", "href", "action", "data-session-websocket-url") and value is not None:
                self.addresses.append(value)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False


ABSOLUTE = re.compile(r"""(?:[a-z][a-z0-9+.-]*:)?//[^\s"'`)]+""", re.I)
"""A URL with a host in it (``https://x``, ``//x``, ``ws://x``)."""
NAMESPACES = {"http://www.w3.org/2000/svg"}
"""An SVG's namespace is a name, not a request."""


async def test_the_page_has_a_title_an_icon_and_asks_no_other_site(server: WebServer) -> None:
    async with browser(server) as visitor:
        status, page, response = await visitor.load()
        assert status == 200
        policy = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
        links = Links()
        links.feed(page)
        assert links.title == "C'escacs"
        assert 'rel="icon"' in page
        assert links.addresses and all(not ABSOLUTE.match(address) for address in links.addresses), links.addresses
        fetched = {address for address in links.addresses if address.endswith((".js", ".css", ".svg", ".ttf"))}
        assert len(fetched) >= 5
        for address in [*sorted(fetched), "/favicon.ico"]:
            async with visitor.session.get(f"{server.origin}/{address.lstrip('/')}") as response:
                assert response.status == 200, address
                body = (await response.read()).decode("utf-8", "replace")
            if address.startswith("cescacs/"):  # our own files: not one absolute address
                assert set(ABSOLUTE.findall(body)) <= NAMESPACES, address
            if address.endswith(".css"):
                assert all(not ABSOLUTE.match(url) for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", body)), address
                assert "@import" not in body


# --- the limit on sessions ---------------------------------------------------------------


async def test_beyond_max_sessions_the_page_says_full_and_no_process_starts(tmp_path: Path) -> None:
    server = WebServer(tmp_path, "--max-sessions", "1")
    try:
        async with browser(server) as first, browser(server) as second, first.tab() as tab:
            assert await tab.read_until("White to move")
            assert len(server.app_processes()) == 1
            status, page, _ = await second.load()
            assert status == 503 and "The server is full" in page and "/ws" not in page
            async with second.tab() as refused:
                assert await refused.wait_closed() == 4003
                assert refused.screen() == ""
            assert len(server.app_processes()) == 1
            status, _, _ = await first.load()  # the browser already playing still gets its page
            assert status == 200
        deadline = time.monotonic() + PATIENCE
        while server.app_processes() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert server.app_processes() == []  # the tab closed, the process went, the place is free
        async with browser(server) as third, third.tab() as tab:
            assert await tab.read_until("White to move")
    finally:
        server.stop()


async def test_stopping_the_server_ends_its_games(tmp_path: Path) -> None:
    server = WebServer(tmp_path)
    async with browser(server) as visitor, visitor.tab() as tab:
        assert await tab.read_until("White to move")
        (app,) = server.app_processes()
        assert "cescacs_tui" in Path(f"/proc/{app}/cmdline").read_text()
        server.stop()
        assert server.process.returncode == 0
        assert await tab.wait_closed() is not None
    assert not Path(f"/proc/{app}").exists()


async def test_an_app_that_is_killed_ends_its_tab_at_once_and_the_browser_plays_on(tmp_path: Path) -> None:
    """The app killed (the kernel out of memory, an operator's kill -9): the page says the game ended without
    waiting for a key, and a reload starts a game again."""
    server = WebServer(tmp_path)
    try:
        async with browser(server) as visitor:
            async with visitor.tab() as tab:
                assert await tab.read_until("White to move")
                (app,) = server.app_processes()
                os.kill(app, signal.SIGKILL)
                assert await tab.wait_closed() is not None
            await until(lambda: not server.app_processes(), "the killed app to be reaped and its place freed")
            async with visitor.tab() as again:
                assert await again.read_until("White to move"), again.screen()[-2000:]
    finally:
        server.stop()
    assert b"Traceback" not in server.said


# --- a password ----------------------------------------------------------------------------


async def test_a_stop_cancelled_midway_still_ends_the_app_then_is_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stopping cancels a tab's handler while it stops its app (aiohttp, after its shutdown time): the
    place must not be freed while the process lives, and the cancellation must not be lost.  textual-serve's relay
    of the app's output returns normally when cancelled, so the stop swallowed it; cancelled while it asked the app
    to quit, the stop left without waiting for the process."""
    from textual_serve.download_manager import DownloadManager

    from cescacs_tui.session.policy import LaunchKind, Policy
    from cescacs_tui.web import server as web_server
    from cescacs_tui.web.browsers import Browser, new_browser_id

    monkeypatch.setattr(web_server, "STOP_SECONDS", 0.5)

    async def ignore(*_: object) -> None:
        return None

    deaf = "import time; print('__GANGLION__', flush=True); time.sleep(600)"  # a Textual app that ignores "quit"
    service = web_server.BrowserAppService(
        f"exec {sys.executable} -c {deaf!r}",
        browser=Browser(new_browser_id(), tmp_path),
        policy=Policy(LaunchKind.WEB),
        write_bytes=ignore,
        write_str=ignore,
        close=ignore,
        download_manager=DownloadManager(),
    )
    await service.start(80, 24)
    for cancelled_after in (1, 2, 3, 4):  # steps into the stop: asking the app to quit, then waiting for it
        stopping = asyncio.ensure_future(service.stop())
        for _ in range(cancelled_after):
            await asyncio.sleep(0)
        stopping.cancel()
        await asyncio.wait([stopping])
        assert stopping.cancelled()
        process = service._process
        assert process is not None and process.returncode is not None, cancelled_after  # killed first
        await service.start(80, 24)  # the next round's app
    await service.stop()


async def test_with_a_password_nothing_plays_before_it_is_given(tmp_path: Path) -> None:
    server = WebServer(tmp_path, "--password", "open sesame")
    try:
        async with browser(server) as visitor:
            status, page, _ = await visitor.load()
            assert status == 200 and 'type="password"' in page and "/ws" not in page
            assert await handshake_status(server, Origin=server.origin) == 403
            login = f"{server.origin}/login"
            async with visitor.session.post(login, data={"password": "guess"}, headers={"Origin": server.origin}) as no:
                assert no.status == 403 and "Wrong password" in await no.text()
            foreign = {"Origin": "http://evil.example"}
            async with visitor.session.post(login, data={"password": "open sesame"}, headers=foreign) as no:
                assert no.status == 403
            async with visitor.session.post(
                login, data={"password": "open sesame"}, headers={"Origin": server.origin}, allow_redirects=False
            ) as yes:
                assert yes.status == 303
            status, page, _ = await visitor.load()
            assert status == 200 and "textual-terminal" in page
            async with visitor.tab() as tab:
                assert await tab.read_until("White to move")
        async with browser(server) as linked:  # a link that carries the password, kept out of the address bar
            status, _, response = await linked.load("/?token=open%20sesame")
            assert status == 303 and response.headers["Location"] == "./"
            status, page, _ = await linked.load()
            assert "textual-terminal" in page
    finally:
        server.stop()


# --- the command's mistakes ------------------------------------------------------------------


def run_command(*options: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cescacs_tui.web", *options],
        env=server_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--port", "99999"), "'99999' is not a whole number from 1 to 65535"),
        (("--port", "http"), "'http' is not a whole number from 1 to 65535"),
        (("--port", "\u0668\u0660\u0660\u0660"), "is not a whole number from 1 to 65535 (digits 0-9)"),
        (("--host", "0.0.0.0"), "--public-url"),
        (("--host", "a" * 100_000), "is not a host name or address"),
        (("--public-url", "https://example.org/chess"), "scheme, host and port"),
        (("--max-sessions", "0"), "'0' is not a whole number from 1 to 100000"),
        (("--max-sessions", "\u0663"), "is not a whole number from 1 to 100000"),
        (("--engines", "\u0662"), "is not a whole number from 0 to 1000"),
        (("--idle-minutes", "inf"), "is not a number from 0 to 1000000"),
    ],
)
def test_a_mistake_is_one_line_and_exit_status_2(options: tuple[str, ...], says: str, tmp_path: Path) -> None:
    result = run_command(*options, tmp_path=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_port_in_use_is_one_line_and_exit_status_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_command("--port", str(port), tmp_path=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"cescacs-web: error: cannot listen on 127.0.0.1:{port}: "
        "the port is already in use (another cescacs-web? choose another with --port)"
    ]


# --- textual serve, for local use ----------------------------------------------------------------


async def test_plain_textual_serve_still_serves_the_full_app(tmp_path: Path) -> None:
    """``textual serve cescacs`` (textual-dev) runs textual-serve's own server: the full app, not the plain mode."""
    from tests.helpers.web import free_port

    port = free_port()
    command = f"{sys.executable} -m cescacs_tui"
    serve = f"from textual_serve.server import Server; Server({command!r}, port={port}).serve()"
    process = subprocess.Popen(
        [sys.executable, "-c", serve],
        env=server_environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + PATIENCE
            while True:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/") as page:
                        assert page.status == 200
                    break
                except aiohttp.ClientConnectionError:
                    assert time.monotonic() < deadline and process.poll() is None, "textual-serve did not start"
                    await asyncio.sleep(0.2)
            async with session.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40") as ws:
                tab = Tab(ws)
                assert await tab.read_until("Move:"), tab.screen()[-2000:]  # the move box: the full-screen app
                await tab.burst("/e7-e13\r")
                assert await tab.read_until("White played E7-E13"), tab.screen()[-2000:]
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)
