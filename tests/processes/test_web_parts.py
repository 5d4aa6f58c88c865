"""cescacs-web's parts without a server: who may connect, browser identities, the session table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")

from cescacs_tui.web.browsers import Browser, browser_from_cookie, new_browser_id
from cescacs_tui.web.server import MAX_COLUMNS, MAX_ROWS, terminal_size
from cescacs_tui.web.sessions import SERVER_STOPPING, TAKEN_OVER, SessionTable
from cescacs_tui.web.site import Site, SiteError
from tests.helpers.waiting import until

LOCAL = Site.served("127.0.0.1", 8000)
PUBLIC = Site.served("0.0.0.0", 8000, "https://chess.example.org")


@pytest.mark.parametrize(
    "origin", ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000", "HTTP://LOCALHOST:8000"]
)
def test_the_pages_of_this_machine_may_drive_a_local_server(origin: str) -> None:
    assert LOCAL.allows_origin(origin)


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "",
        "null",
        "http://evil.example",
        "http://127.0.0.1:8001",
        "https://127.0.0.1:8000",
        "http://127.0.0.1",
        "http://127.0.0.1:8000.evil.example",
        "http://user@127.0.0.1:8000",
        "file://",
        "http://127.0.0.1:99999",
        "chrome-extension://abc",
    ],
)
def test_every_other_origin_is_refused(origin: str | None) -> None:
    assert not LOCAL.allows_origin(origin)


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LocalHost:8000"])
def test_the_loopback_names_are_this_server(host: str) -> None:
    assert LOCAL.allows_host(host)


@pytest.mark.parametrize(
    "host",
    [
        None,
        "",
        "evil.example:8000",  # DNS rebinding: a foreign name that resolves here
        "127.0.0.1",  # port 80: not this server
        "127.0.0.1:8001",
        "127.0.0.1:8000@evil.example",
        "127.0.0.1:8000/x",
        "127.0.0.1:http",
        "localhost.:8000",
    ],
)
def test_every_other_host_is_refused(host: str | None) -> None:
    assert not LOCAL.allows_host(host)


def test_a_public_url_is_allowed_besides_the_loopback_names() -> None:
    assert PUBLIC.allows_origin("https://chess.example.org")
    assert PUBLIC.allows_origin("https://chess.example.org:443")
    assert PUBLIC.allows_host("chess.example.org") and PUBLIC.allows_host("chess.example.org:443")
    assert PUBLIC.allows_origin("http://localhost:8000") and PUBLIC.allows_host("127.0.0.1:8000")
    assert not PUBLIC.allows_origin("http://chess.example.org")
    assert not PUBLIC.allows_origin("https://evil.example.org")
    assert PUBLIC.public_url == "https://chess.example.org" and PUBLIC.secure


def test_a_named_address_is_its_own_public_url() -> None:
    site = Site.served("192.168.1.20", 8080)
    assert site.public_url == "http://192.168.1.20:8080" and not site.secure
    assert site.allows_origin("http://192.168.1.20:8080") and site.allows_host("192.168.1.20:8080")
    assert not site.allows_host("localhost:8080")


def test_every_interface_without_a_public_url_says_what_to_set() -> None:
    for wildcard in ("0.0.0.0", "::"):
        with pytest.raises(SiteError, match="--public-url"):
            Site.served(wildcard, 8000)


@pytest.mark.parametrize("url", ["chess.example.org", "https://chess.example.org/play", "ftp://x", "https://x?a=1"])
def test_a_public_url_is_scheme_host_and_port_only(url: str) -> None:
    with pytest.raises(SiteError, match="scheme, host and port"):
        Site.served("127.0.0.1", 8000, url)


def test_browser_ids_are_random_and_only_their_own_shape_is_accepted() -> None:
    first, second = new_browser_id(), new_browser_id()
    assert first != second
    assert browser_from_cookie(first) == first
    for bad in (None, "", "../../etc", first[:-1], first + "A", first[:-2] + "/.", first[:-1] + "\n", "." * 43):
        assert browser_from_cookie(bad) is None


def test_a_browser_directory_is_a_hash_under_the_root_and_names_no_cookie(tmp_path: Path) -> None:
    browser_id = new_browser_id()
    browser = Browser(browser_id, tmp_path)
    assert browser.directory.parent == tmp_path
    assert browser_id not in str(browser.directory)
    assert Browser(new_browser_id(), tmp_path).directory != browser.directory
    browser.prepare()
    assert browser.data_dir.is_dir() and browser.config_dir.is_dir()
    assert browser.directory.stat().st_mode & 0o077 == 0


def test_the_password_cookie_belongs_to_one_browser(tmp_path: Path) -> None:
    one, other = Browser(new_browser_id(), tmp_path), Browser(new_browser_id(), tmp_path)
    token = one.auth_token("sesame")
    assert one.has_auth("sesame", token)
    assert not other.has_auth("sesame", token)
    assert not one.has_auth("other password", token)
    assert not one.has_auth("sesame", None)


@pytest.mark.parametrize(
    ("width", "height", "size"),
    [
        (80, 24, (80, 24)),
        (MAX_COLUMNS, MAX_ROWS, (MAX_COLUMNS, MAX_ROWS)),
        (MAX_COLUMNS + 1, 24, None),
        (0, 24, None),
        (-5, 24, None),
        (80.5, 24, None),
        ("80", 24, None),
        (True, 24, None),
        (10**9, 10**9, None),
    ],
)
def test_a_terminal_size_must_fit_a_screen(width: object, height: object, size: tuple[int, int] | None) -> None:
    assert terminal_size(width, height) == size


class Tab:
    """A browser tab as the session table sees it: it can be told to close, and records the code."""

    def __init__(self) -> None:
        self.closed: list[int] = []

    async def end(self, code: int) -> None:
        self.closed.append(code)


async def test_the_table_admits_up_to_its_limit() -> None:
    table = SessionTable(2)
    first = await table.admit("a", Tab().end)
    second = await table.admit("b", Tab().end)
    assert first is not None and second is not None
    assert not table.has_room_for("c") and table.has_room_for("a")
    assert await table.admit("c", Tab().end) is None
    second.release()
    assert await table.admit("c", Tab().end) is not None
    assert len(table) == 2


async def test_a_second_tab_of_a_browser_waits_for_the_first_to_end() -> None:
    table = SessionTable(1)
    old_tab = Tab()
    old = await table.admit("a", old_tab.end)
    assert old is not None
    newer = asyncio.create_task(table.admit("a", Tab().end))
    await until(lambda: old_tab.closed, "the old tab told")
    assert old_tab.closed == [TAKEN_OVER]
    assert not newer.done()  # the old process has not exited yet: no second process on one data directory
    old.release()
    session = await asyncio.wait_for(newer, 5)
    assert session is not None and session is not old and len(table) == 1
    old.release()  # a late second release does not free the new session's place
    assert len(table) == 1


async def test_stopping_ends_every_session() -> None:
    table = SessionTable(3)
    tabs = [Tab() for _ in range(3)]
    sessions = [await table.admit(name, tab.end) for name, tab in zip("abc", tabs, strict=True)]

    async def exit_when_told() -> None:
        while not all(tab.closed for tab in tabs):
            await asyncio.sleep(0.01)
        for session in sessions:
            assert session is not None
            session.release()

    await asyncio.wait_for(asyncio.gather(table.end_all(), exit_when_told()), 5)
    assert [tab.closed for tab in tabs] == [[SERVER_STOPPING]] * 3 and len(table) == 0
