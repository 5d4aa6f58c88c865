"""cescacs-web in the visitor's language: the browser's Accept-Language, read warily, chooses the pages' and the
game's language unless ``--lang`` or the language the browser chose in the app says otherwise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("textual_serve", reason="the web extra is part of the test extra")

import aiohttp

from cescacs_tui import i18n
from cescacs_tui.i18n import locale_environment
from cescacs_tui.web.languages import MAX_HEADER, MAX_RANGES, browser_language
from cescacs_tui.web.server import BrowserAppService
from tests.helpers.web import WebServer


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("ca", "ca"),
        ("ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7", "ca"),
        ("es-ES", "es"),
        ("ES-es", "es"),
        ("de-DE,de;q=0.9,es;q=0.5,ca;q=0.4", "es"),  # the best the interface speaks
        ("en;q=0.5, ca;q=0.8", "ca"),  # weight, not order
        ("es;q=0.8, ca;q=0.8", "es"),  # equal weights: the first named
        ("ca;q=0, es", "es"),  # q=0: not this one
        ("ca;q=1.000", "ca"),
        ("de, fr", None),
        ("*", None),
        ("", None),
        (None, None),
        ("ca;q=2", None),  # malformed weights are skipped, not errors
        ("ca;q=0.5555", None),
        ("ca;q=-1", None),
        ("ca;q=nan", None),
        ("ca;x=1", None),
        ("ca;q=0.5;q=1", None),
        ("c@t,es", "es"),  # a malformed range is skipped, the rest is read
        ("ca-" + "x" * 9, None),
        (";;;,,,", None),
        ("\x00ca", None),
    ],
)
def test_the_header_is_read_as_the_rfc_says(header: str | None, language: str | None) -> None:
    assert browser_language(header) == language


def test_a_hostile_header_is_not_read_past_its_limits() -> None:
    assert browser_language("de," * MAX_RANGES + "ca") is None  # beyond the ranges read
    assert browser_language("de," * (MAX_RANGES - 1) + "ca") == "ca"
    assert browser_language("x" * (MAX_HEADER - 1) + ",ca") is None  # beyond the characters read
    assert browser_language("de," + " " * (MAX_HEADER - 10) + "ca;q=0.5") is None  # a range halved by the cut
    assert browser_language("ca,de;q=0.5" + ",de" * 10**6) == "ca"  # a megabyte costs no more than its first bytes


@given(st.text(max_size=300))
def test_any_header_gives_a_language_of_the_interface_or_none(header: str) -> None:
    assert browser_language(header) in (*i18n.LANGUAGES, None)


def test_the_browsers_language_reaches_its_process_as_its_messages_locale(tmp_path: Path) -> None:
    from cescacs_tui.session.policy import LaunchKind, Policy
    from cescacs_tui.web.browsers import Browser

    environment = locale_environment({"LC_ALL": "C.UTF-8", "LANG": "en_GB.UTF-8", "HOME": "/h"}, "ca")
    assert environment == {"LC_CTYPE": "C.UTF-8", "LC_MESSAGES": "ca_ES.UTF-8", "LANG": "en_GB.UTF-8", "HOME": "/h"}
    assert i18n.language_from_locale(environment) == "ca"
    # The app's own choice still comes first: --lang, then its setting, then this locale.
    assert i18n.choose_language(None, "es", environment) == "es"

    async def nothing(*_args: object) -> None:
        return None

    service = BrowserAppService(
        "true",
        browser=Browser("b" * 43, tmp_path),
        policy=Policy(LaunchKind.WEB),
        language="es",
        write_bytes=nothing,
        write_str=nothing,
        close=nothing,
        download_manager=None,
    )
    assert i18n.language_from_locale(service._build_environment()) == "es"
    assert "CESCACS_VISITOR" in service._build_environment()  # the app starts as a web visitor's
    service.language = None
    assert service._build_environment().get("LC_MESSAGES") != "es_ES.UTF-8"


# --- a real server -----------------------------------------------------------------------------


async def _page(server: WebServer, session: aiohttp.ClientSession, **headers: str) -> str:
    async with session.get(server.origin, headers=headers) as response:
        assert response.status == 200
        return await response.text()


def _lang(page: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', page)
    assert found is not None
    return found.group(1)


async def test_the_page_and_the_game_follow_accept_language_and_the_browsers_own_choice(tmp_path: Path) -> None:
    from tests.helpers.web import Tab

    server = WebServer(tmp_path)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            page = await _page(server, session, **{"Accept-Language": "ca-ES,ca;q=0.9,en;q=0.5"})
            assert _lang(page) == "ca" and ">Comença<" in page and 'data-other-tab="Aquesta partida' in page
            headers = {"Origin": server.origin, "Accept-Language": "ca-ES,ca;q=0.9"}
            async with session.ws_connect(f"{server.origin}/ws?width=120&height=40", headers=headers) as ws:
                tab = Tab(ws)
                assert await tab.read_until("Juguen les blanques"), tab.screen()[-2000:]
            assert _lang(await _page(server, session, **{"Accept-Language": "es"})) == "es"
            assert _lang(await _page(server, session, **{"Accept-Language": "de"})) == "en"  # the server's own
            # The language the browser chose in the app wins over its header, as it does in the game.
            (config,) = (server.state).glob("*/config")
            (config / "settings.toml").write_text('language = "es"\n', encoding="utf-8")
            page = await _page(server, session, **{"Accept-Language": "ca"})
            assert _lang(page) == "es" and ">Empezar<" in page
    finally:
        server.stop()


async def test_lang_gives_every_visitor_that_language(tmp_path: Path) -> None:
    from tests.helpers.web import Tab

    server = WebServer(tmp_path, "--lang", "es")
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            page = await _page(server, session, **{"Accept-Language": "ca"})
            assert _lang(page) == "es"
            headers = {"Origin": server.origin, "Accept-Language": "ca"}
            async with session.ws_connect(f"{server.origin}/ws?width=120&height=40", headers=headers) as ws:
                tab = Tab(ws)
                assert await tab.read_until("Juegan las blancas"), tab.screen()[-2000:]
    finally:
        server.stop()


def test_the_servers_refusals_of_its_options_are_said_in_the_servers_language() -> None:
    from cescacs_tui.web.site import Site, SiteError

    try:
        i18n.set_language("es")
        with pytest.raises(SiteError, match="escucha en todas las interfaces"):
            Site.served("0.0.0.0", 8000)
        with pytest.raises(SiteError, match="no es la dirección de un sitio"):
            Site.served("0.0.0.0", 8000, "ftp://x/y")
    finally:
        i18n.set_language("en")
    with pytest.raises(SiteError, match="listens on every interface"):
        Site.served("0.0.0.0", 8000)
