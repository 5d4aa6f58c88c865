"""The app obeys the launch's policy: a visitor's Ctrl+S, Ctrl+O, y, screenshot and engine never touch the server.

Pilot tests of the real app with each policy; the same keys with real
processes (``ssh`` against ``serve-ssh``, the browser against
``cescacs-web``) are in tests/processes/test_remote_exposure.py and the web tests.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pyperclip
import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.engine_slots import EngineSlots
from cescacs_tui.data.settings import Settings
from cescacs_tui.engine.client import DEFAULT_COMMAND
from cescacs_tui.remote.client import JoinRequest
from cescacs_tui.session import Feedback, GameSession
from cescacs_tui.session.policy import LaunchKind, Policy
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.files import PathDialog
from cescacs_tui.tui.dialogs.paste import PasteDialog
from cescacs_tui.tui.joined import RemoteApp
from cescacs_tui.tui.screens.game import GameScreen
from tests.helpers.app import message
from tests.helpers.games import FOOLS_MATE, play

SSH = Policy(LaunchKind.SSH)
WEB = Policy(LaunchKind.WEB)


@pytest.fixture
def server_clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What reached this machine's clipboard (pyperclip)."""
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    return copied


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What Textual was asked to deliver (it would write a file where the app runs, or send a download)."""
    files: list[Any] = []

    def deliver(self: object, path_or_file: Any, **options: Any) -> str:
        files.append((path_or_file.read() if isinstance(path_or_file, io.StringIO) else path_or_file, options))
        return "key"

    from textual.app import App

    monkeypatch.setattr(App, "deliver_text", deliver)
    monkeypatch.setattr(App, "deliver_binary", deliver)
    return files


async def test_an_ssh_visitors_ctrl_s_sends_the_record_to_their_terminal_and_writes_no_file(
    server_clipboard: list[str], written: list[Any]
) -> None:
    game = Game.new(white="$(touch pwned)", black="Bo")
    play(game, *FOOLS_MATE[:2])
    app = CescacsApp(game, policy=SSH)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog)
        assert app.clipboard == write_pgn(game)  # the OSC 52 sequence carries it to the visitor's terminal
        said = message(app)
        assert "the server keeps no file for you" in said and "OSC 52" in said and "v shows it" in said
    assert written == [] and server_clipboard == []


async def test_an_ssh_visitors_ctrl_o_is_a_paste_box_without_a_file_chooser() -> None:
    app = CescacsApp(policy=SSH)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, PasteDialog)
        assert not app.screen.query("#choose-file") and not app.screen.query(PathDialog)
        app.screen.query_one("#paste-text").insert('[Variant "C\'escacs"]\n\n1. E7-E13 *\n')  # type: ignore[attr-defined]
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert [node.san for node in app.game.nodes] == ["E7-E13"]


async def test_a_screenshot_is_a_download_in_the_browser_and_refused_over_ssh(written: list[Any]) -> None:
    for policy, delivered in ((WEB, 1), (SSH, 1)):  # what was delivered so far: the browser's one
        app = CescacsApp(policy=policy)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screenshots = [c for c in app.get_system_commands(app.screen) if c.title == "Screenshot"]
            assert len(screenshots) == 1  # the table's, which asks the policy; Textual's own is gone
            screenshots[0].callback()
            await pilot.pause()
            assert len(written) == delivered
            if policy is SSH:
                assert message(app) == (
                    "a screenshot would be a file on the server: your terminal can take one of its window"
                )
                app.deliver_screenshot()  # Textual's own way, called anyhow: refused too
                await pilot.pause()
                assert len(written) == 1
    svg, options = written[0]
    assert svg.startswith("<svg") and options["open_method"] == "browser"


async def test_an_ssh_visitors_app_opens_no_url_on_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url))
    app = CescacsApp(policy=SSH)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_url("https://example.org/")
    assert opened == []


async def test_a_visitor_copies_to_their_own_clipboard_only(server_clipboard: list[str]) -> None:
    for policy in (SSH, WEB):
        app = CescacsApp(policy=policy)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("y")
            assert app.clipboard == write_pgn(app.game)
            assert "OSC 52" in message(app) and "system clipboard" not in message(app)
    assert server_clipboard == []


def test_a_visitor_never_starts_the_engine_a_settings_file_names(tmp_path: Path) -> None:
    settings = Settings(engine=f"touch {tmp_path / 'pwned'}")
    places = EngineSlots(tmp_path / "places", 2)
    assert CescacsApp(settings=settings).opponent.command == ["touch", str(tmp_path / "pwned")]
    for kind in (LaunchKind.WEB, LaunchKind.SSH):
        visitor = CescacsApp(settings=settings, policy=Policy(kind, places))
        assert visitor.opponent.command == list(DEFAULT_COMMAND) and visitor.opponent.places == places


def test_the_joined_app_has_one_session_whose_engine_is_the_settings_unless_a_visitor_plays(tmp_path: Path) -> None:
    request = JoinRequest("127.0.0.1", 7469, "t" * 16, None, "Ana", "client")
    settings = Settings(engine="my-engine --fast")
    owner = RemoteApp(request, settings=settings, policy=Policy(LaunchKind.JOINED))
    assert owner.session.port is owner.remote and owner.opponent.session is owner.session
    assert owner.opponent.command == ["my-engine", "--fast"]  # h and A think with the owner's engine
    screen = owner.make_game_screen()  # the screen that answers h and A asks that engine, not one of its own
    assert screen.opponent is owner.opponent and screen.session is owner.session
    places = EngineSlots(tmp_path / "places", 2)
    visitor = RemoteApp(request, settings=settings, policy=Policy(LaunchKind.SSH, places))
    assert visitor.opponent.command == list(DEFAULT_COMMAND) and visitor.opponent.places == places


async def test_a_visitor_without_the_servers_engines_is_told_why_on_h_and_a() -> None:
    app = CescacsApp(policy=SSH)
    async with app.run_test(size=(120, 40)) as pilot:
        for key in ("h", "A"):
            await pilot.press(key)
            await pilot.pause()
            assert message(app) == "this server runs no engine for its visitors"
        assert app.opponent._client is None  # no engine process was started


async def test_a_visitor_reads_no_path_of_the_server(tmp_path: Path) -> None:
    folder = tmp_path / "visitor" / "data"
    policy = Policy.from_environment(SSH.environment(), LaunchKind.JOINED, folders=[folder])
    app = CescacsApp(policy=policy)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.notify(f"the game is archived in {folder}/games/x.ctl-pgn")
        app.game_screen.apply(Feedback(f"kept in {folder}/x.json"))
        await pilot.pause()
        shown = [n.message for n in app._notifications]
        assert shown == ["the game is archived in games/x.ctl-pgn"]
        assert message(app) == "kept in x.json"


def test_a_watcher_of_a_room_starts_no_engine_unless_the_server_allows_it(tmp_path: Path) -> None:
    class Watching(GameSession):
        @property
        def watching(self) -> bool:
            return True

    places = EngineSlots(tmp_path, 2)
    players_only = GameScreen(Watching(), policy=Policy(LaunchKind.SSH, places))
    assert players_only.refusal("hint") == "this server runs engines for its players only: watchers start none"
    assert players_only.refusal("analysis") == players_only.refusal("hint")
    everyone = GameScreen(Watching(), policy=Policy(LaunchKind.SSH, places, watchers_use_engines=True))
    assert everyone.refusal("hint") is None
