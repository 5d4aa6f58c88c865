"""cescacs-web in a real browser: Debian's Chromium, headless, driven by playwright.

The page loads with its title, asks no other site for anything (every request
is recorded), breaks none of its own Content-Security-Policy, and gives the
terminal the keyboard: moves are typed without a click.  Ctrl+S downloads the
record; Ctrl+O's "Choose a file…" uploads one from this computer; a phone held
upright gets a terminal that holds the whole compact board.

Playwright drives the system browser only (``/usr/bin/chromium``); it never
downloads one.  ``.ci/run`` installs both.  Without them the test is skipped,
except on CI, where it must run.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.web import PATIENCE, WebServer, visible_text

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

if not os.environ.get("CI"):
    pytest.importorskip("playwright", reason="the browser test needs playwright (pip install playwright)")
    if not CHROMIUM.exists() or shutil.which("chromium") is None:
        pytest.skip("the browser test needs Debian's chromium (apt-get install chromium)", allow_module_level=True)

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402

TYPING_MS = 60
"""A fast typist's pace between keys."""

RECORD = '[Variant "C\'escacs"]\n[White "Ros, Xus"]\n[Black "Sasal, Cesc"]\n\n1. E7-E13 D22-D16 2. F8-F12 *\n'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web_server = WebServer(tmp_path_factory.mktemp("browser"))
    yield web_server
    web_server.stop()


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        await browser.close()


class Screen:
    """What the page's terminal receives, read from its websocket, and what the page sent."""

    def __init__(self, page: Page) -> None:
        self.received: list[bytes] = []
        self.sent: list[str] = []
        self.messages: list[str] = []
        """The text frames the page received (the server's own messages, such as "choose_file")."""
        self.requests: list[str] = []
        self.problems: list[str] = []
        page.on("websocket", self._watch)
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(str(error)))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(message.text)

    def _watch(self, websocket: Any) -> None:
        websocket.on("framereceived", self._received)
        websocket.on("framesent", self._sent)

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.received.append(payload)
        else:
            self.messages.append(payload)

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            self.sent.append(payload)

    def text(self) -> str:
        return visible_text(self.received)

    async def shows(self, needle: str, seconds: float = PATIENCE) -> None:
        deadline = time.monotonic() + seconds
        while needle.replace(" ", "") not in self.text():
            assert time.monotonic() < deadline, f"waited for {needle!r}; the screen shows {self.text()[-1500:]!r}"
            await asyncio.sleep(0.1)


async def first_chooser(page: Page, screen: Screen, choosers: asyncio.Queue[Any]) -> Any:
    """The file chooser the page opens; if the app's request came too late for the browser, its button's.

    When none comes, the failure tells what the page saw: the screen, the keys it sent, the server's messages
    and whether the browser saw the player's activation (a chooser needs one)."""
    deadline = time.monotonic() + PATIENCE
    button = page.locator("#choose-record")
    while choosers.empty():
        if await button.is_visible():
            await button.click()
        if time.monotonic() > deadline:
            said = "[navigator.userActivation.isActive, navigator.userActivation.hasBeenActive]"
            activation = await page.evaluate(said)
            pytest.fail(
                f"no file chooser: activation (isActive, hasBeenActive) {activation},"
                f" page messages {screen.messages[-5:]!r}, sent {screen.sent[-8:]!r}, screen {screen.text()[-1200:]!r}"
            )
        await asyncio.sleep(0.1)
    return choosers.get_nowait()


async def open_game(chromium: Browser, server: WebServer, **context: Any) -> tuple[Page, Screen]:
    page = await (await chromium.new_context(accept_downloads=True, **context)).new_page()
    screen = Screen(page)
    await page.goto(server.origin + "/")
    await screen.shows("White to move")
    return page, screen


async def test_a_game_is_played_saved_and_opened_in_chromium(
    chromium: Browser, server: WebServer, tmp_path: Path
) -> None:
    page, screen = await open_game(chromium, server, viewport={"width": 1280, "height": 800})
    assert await page.title() == "C'escacs"
    assert await page.evaluate("document.activeElement.classList.contains('xterm-helper-textarea')")

    await page.keyboard.type("/e7-e13\r", delay=TYPING_MS)  # no click first: the terminal has the keyboard
    await screen.shows("White played E7-E13")
    await screen.shows("^p palette")  # the footer, which Textual fills only once the page said "focus"
    await page.keyboard.type("d22-d16\r", delay=TYPING_MS)  # the move box keeps the keyboard
    await screen.shows("Black played D22-D16")

    downloads: asyncio.Queue[Any] = asyncio.Queue()
    page.context.on("page", lambda popup: popup.on("download", downloads.put_nowait))  # it opens in a new tab
    page.on("download", downloads.put_nowait)
    await page.keyboard.press("Control+s")
    download = await asyncio.wait_for(downloads.get(), PATIENCE)
    assert re.fullmatch(r"cescacs-[A-Za-z0-9._-]+\.ctl-pgn", download.suggested_filename)
    saved = Path(await download.path()).read_text(encoding="utf-8")
    assert "1. E7-E13, D22-D16" in saved
    for other in page.context.pages:  # the download's tab, if the browser has not closed it yet: a page that is
        if other is not page:  # not in front opens no file chooser
            await other.close()
    await page.bring_to_front()

    record = tmp_path / "from-this-computer.ctl-pgn"
    record.write_text(RECORD, encoding="utf-8")
    await page.keyboard.press("Control+o")
    await screen.shows("Open a game")  # drawn: the box has the keyboard
    # Tab moves the focus as the app reads it (TabsAsRead): a loaded app that reads these keys at once still
    # routes each one where the Tabs before it left the focus.
    await page.keyboard.press("Tab")  # from the box to Open
    await page.keyboard.press("Tab")  # to "Choose a file…"
    choosers: asyncio.Queue[Any] = asyncio.Queue()
    page.on("filechooser", choosers.put_nowait)
    await page.keyboard.press("Enter")
    chooser = await first_chooser(page, screen, choosers)
    await chooser.set_files(str(record))
    await screen.shows("Ros, Xus")  # the file's text, in the box
    await page.keyboard.press("Control+o")
    await screen.shows("opened the record: 3 half-moves")

    origin = server.origin + "/"
    assert all(url.startswith((origin, server.origin.replace("http", "ws") + "/")) for url in screen.requests), (
        screen.requests
    )
    assert screen.problems == []  # no CSP violation, no script error


async def test_a_phone_held_upright_gets_the_whole_board(chromium: Browser, server: WebServer) -> None:
    page, screen = await open_game(
        chromium, server, viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True
    )
    sizes = [re.search(r'"width":(\d+),"height":(\d+)', sent) for sent in screen.sent if '"resize"' in sent]
    width, height = (int(part) for part in [match for match in sizes if match][-1].groups())
    assert width >= 49 + 2 and height >= 40  # the compact board (49 x 17) and the panels below it
    font = int(await page.evaluate("document.getElementById('terminal').dataset.fontSize"))
    assert font >= 10  # still legible
    await screen.shows("P T A B C D E F G H I K L X Z")  # the column letters: the board is drawn to its edge
    await page.keyboard.type("/e7-e13\r", delay=TYPING_MS)
    await screen.shows("White played E7-E13")


async def test_when_the_browser_would_refuse_the_chooser_the_page_asks_for_a_click(
    chromium: Browser, server: WebServer
) -> None:
    """The app's request for a file reaching the page after the player's key has lapsed: a button of the page."""
    context = await chromium.new_context()
    await context.add_init_script(  # as if the request came too late: the browser sees no recent key or click
        "Object.defineProperty(Navigator.prototype, 'userActivation',"
        " {get: () => ({isActive: false, hasBeenActive: true})})"
    )
    page = await context.new_page()
    screen = Screen(page)
    await page.goto(server.origin + "/")
    await screen.shows("White to move")
    choosers: asyncio.Queue[Any] = asyncio.Queue()
    page.on("filechooser", choosers.put_nowait)
    await page.keyboard.press("Control+o")
    await screen.shows("Open a game")  # drawn: the box has the keyboard
    for key in ("Tab", "Tab", "Enter"):  # to "Choose a file…", and press it
        await page.keyboard.press(key)
    button = page.locator("#choose-record")
    await button.wait_for(state="visible", timeout=PATIENCE * 1000)
    assert choosers.empty()
    await button.click()
    await asyncio.wait_for(choosers.get(), PATIENCE)
    assert not await button.is_visible()


async def take_screenshot(page: Page, screen: Screen) -> Page:
    """The command palette's Screenshot; the tab it opens, once that tab has begun loading the download."""
    popups: asyncio.Queue[Page] = asyncio.Queue()
    page.context.on("page", popups.put_nowait)
    await page.keyboard.press("Control+p")
    await screen.shows("Search for commands")
    await page.keyboard.type("Screenshot", delay=TYPING_MS)
    await page.keyboard.press("Enter")
    popup = await asyncio.wait_for(popups.get(), PATIENCE)
    await popup.wait_for_url(re.compile("/download/"), wait_until="commit", timeout=PATIENCE * 1000)
    return popup


async def test_a_screenshot_is_opened_in_the_browser_and_never_written_on_the_server(
    chromium: Browser, server: WebServer
) -> None:
    page, screen = await open_game(chromium, server, viewport={"width": 1280, "height": 800})
    files_before = {path for path in server.state.rglob("*") if path.is_file()}
    popup = await take_screenshot(page, screen)
    # Waited for by what it shows, not by its "load" event: once, on an idle machine, the popup's load event never
    # came (only "networkidle" did) and the wait ran out.  The locator waits across the popup's navigation.
    await popup.locator("svg").first.wait_for(state="attached", timeout=PATIENCE * 1000)
    svg = await popup.content()
    assert "<svg" in svg and "rich-terminal" in svg
    files_after = {path for path in server.state.rglob("*") if path.is_file()}
    assert {path for path in files_after - files_before if path.suffix == ".svg"} == set()
    assert screen.problems == []


APP_STALL_SECONDS = 5.0
"""Longer than textual-serve's own wait for a piece of a download (4 s), which left the tab empty for good."""


async def test_a_screenshot_asked_of_an_app_that_stalls_still_opens_when_the_app_answers(
    chromium: Browser, server: WebServer
) -> None:
    """The app stopped (SIGSTOP, as a starved process on a busy machine) at the moment the browser asks for the
    screenshot, for longer than textual-serve waits: the tab gets the picture once the app goes on."""
    page, screen = await open_game(chromium, server, viewport={"width": 1280, "height": 800})
    apps = server.app_processes()
    stalled: list[int] = []

    async def stall(route: Any) -> None:  # before the request leaves the browser, so before the server asks the app
        if not stalled:
            for pid in apps:
                os.kill(pid, signal.SIGSTOP)
                stalled.append(pid)
        await route.continue_()

    await page.context.route(re.compile("/download/"), stall)
    try:
        popup = await take_screenshot(page, screen)
        assert stalled, "the app was not stopped: the download was never asked for"
        await asyncio.sleep(APP_STALL_SECONDS)  # the stall itself is what is tested: a time, not a wait
    finally:
        for pid in stalled:
            os.kill(pid, signal.SIGCONT)
    await popup.locator("svg").first.wait_for(state="attached", timeout=PATIENCE * 1000)
    assert "rich-terminal" in await popup.content()


async def test_a_game_left_idle_is_closed_and_the_page_says_it_is_saved(chromium: Browser, tmp_path: Path) -> None:
    idle_server = WebServer(tmp_path, "--idle-minutes", "0.15")  # 9 s without a key, counted from the first frame
    try:
        page, screen = await open_game(chromium, idle_server, viewport={"width": 1280, "height": 800})
        await page.keyboard.type("/e7-e13\r", delay=TYPING_MS)
        await screen.shows("White played E7-E13")
        message = page.locator("#closed-message")
        await message.wait_for(state="visible", timeout=PATIENCE * 1000)
        assert "closed after a while without a key" in await message.inner_text()
        await page.locator("button.cescacs-reload").last.click()
        await screen.shows("Resume it?")  # the game was saved as the app quit
    finally:
        idle_server.stop()


async def test_a_game_whose_app_is_killed_says_so_at_once_and_plays_again(chromium: Browser, tmp_path: Path) -> None:
    """The app killed mid-game (the kernel out of memory): the page says the session ended without waiting for a
    key, and its reload button resumes the game, saved at the last move."""
    server = WebServer(tmp_path)
    try:
        page, screen = await open_game(chromium, server, viewport={"width": 1280, "height": 800})
        await page.keyboard.type("/e7-e13\r", delay=TYPING_MS)
        await screen.shows("White played E7-E13")
        (app,) = server.app_processes()
        os.kill(app, signal.SIGKILL)
        message = page.locator("#closed-message")
        await message.wait_for(state="visible", timeout=PATIENCE * 1000)
        assert await message.inner_text() == "Session ended."
        await page.locator("button.cescacs-reload").last.click()
        await screen.shows("Resume it?")
    finally:
        server.stop()
