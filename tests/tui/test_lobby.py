"""The server's lobby app (``ssh -t host`` on ``serve-ssh --db``), driven as a visitor drives it.

The server's side is real: a SQLite database in the test's folder, the
lobby on it, and each visitor's link served as ``serve-ssh --db`` serves it
(scripts/lobby_stage.py), in the test's event loop.  Ana has the app; bo is
another visitor's link, sending the same commands his app or his ``ssh``
would.  What the app shows comes through the link only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from cescacs_tui.remote.lobby_link import LobbyLink
from cescacs_tui.server.lobby import Terms
from cescacs_tui.tui.dialogs.ask_word import WordDialog
from cescacs_tui.tui.lobby_app import LobbyApp
from cescacs_tui.tui.screens.lobby import LobbyScreen
from cescacs_tui.tui.screens.server_game import ServerGameScreen
from scripts.lobby_stage import Stage
from tests.helpers.app import answer
from tests.helpers.waiting import until


def rows(app: LobbyApp) -> list[str]:
    """The lobby's list as it reads now, headings included."""
    options = app.screen.query_one("#lobby-list", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def said(app: LobbyApp) -> str:
    return str(app.screen.query_one("#lobby-message").render())


async def type_word(app: LobbyApp, text: str) -> None:
    """Type ``text`` into the one-line question on top, once it is there."""
    await until(lambda: isinstance(app.screen, WordDialog) and app.screen.query(Input), "the question")
    app.screen.query_one(Input).value = text


async def loaded(app: LobbyApp) -> LobbyScreen:
    await until(lambda: app.lobby is not None and app.lobby.loaded, "the lobby to be read")
    assert app.lobby is not None
    return app.lobby


@pytest.fixture
async def stage(tmp_path: Path) -> AsyncIterator[Stage]:
    stage = await Stage.open(tmp_path)
    yield stage
    await stage.close()


async def test_a_seek_accepted_and_moves_made_show_on_the_other_players_screen_as_they_happen(stage: Stage) -> None:
    await stage.register("ana", "bo")
    other = stage.link("bo")
    await other.open()
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await loaded(app)
        await pilot.press("s")
        await answer(pilot, "3")  # 3 days per move
        await until(lambda: any("your seek" in row for row in rows(app)), "ana's seek in her lobby")
        assert "game 1: your seek (3 days per move) is open to anyone" in said(app)
        assert (await other.ask("accept", "1")).ok  # bo takes it, from elsewhere
        await until(lambda: lobby.view.your_move, "the game, ana's move, in her lobby")
        assert any("ana - bo" in row and "your move, until 2026-03-04 12:00 UTC" in row for row in rows(app))
        await pilot.press("enter")  # the game under the cursor
        await until(lambda: isinstance(app.screen, ServerGameScreen) and app.screen.port.entry, "the game")
        screen = app.screen
        assert isinstance(screen, ServerGameScreen)
        assert screen.port.colour is not None and screen.port.colour.name == "WHITE"
        await pilot.press("slash", *"H6-H12", "enter")
        await until(lambda: screen.port.entry is not None and screen.port.entry.ply == 1, "ana's move stored")
        assert "H6-H12" in (await other.ask("pgn", "1")).text
        await pilot.press("slash", *"E7-E13", "enter")  # not her move now: refused here, nothing sent
        assert "the server takes a move only from the player to move" in str(screen.query_one("#message").render())
        assert (await other.ask("play", "1", "I23-I19")).ok
        await until(lambda: len(app.session.game.nodes) == 2, "bo's move on ana's board")
        assert app.session.game.nodes[-1].san == "I23-I19"
        record = (await other.ask("pgn", "1")).text
        for tag in ('[Mode "ICS"]', '[WhiteType "human"]', '[BlackType "human"]', "[AnnotatorId "):
            assert tag in record
        assert app.session.game.tags.get("Mode") == "ICS"  # the app's copy is the server's record
        await pilot.press("ctrl+l")
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
    await other.close()


async def test_a_challenge_to_the_visitor_is_accepted_or_declined_from_the_lobby(stage: Stage) -> None:
    await stage.register("ana", "bo")
    other = stage.link("bo")
    await other.open()
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await loaded(app)
        assert (await other.ask("challenge", "ana", "--days", "2")).ok
        assert (await other.ask("challenge", "ana", "--clock", "600+5")).ok
        await until(lambda: len(lobby.view.challenges) == 2, "two challenges to ana")
        assert "Challenges to you" in rows(app)
        await pilot.press("d")  # the first challenge, under the cursor
        await until(lambda: len(lobby.view.challenges) == 1, "the declined challenge gone")
        await pilot.press("a")
        await until(lambda: lobby.view.your_move or lobby.view.their_move, "the accepted game under way")
        assert (await other.ask("games", "--json")).json()[0]["status"] == "playing"


async def test_a_key_without_a_name_is_asked_for_one_and_then_can_seek_and_challenge(stage: Stage) -> None:
    await stage.register("bo")
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await loaded(app)
        await type_word(app, "B0")  # a look-alike of bo's name: refused, with the reason
        await pilot.press("enter")
        await until(lambda: "looks too much like bo" in said(app), "the refusal")
        assert lobby.view.name is None
        await pilot.press("r")
        await type_word(app, "ana")
        await pilot.press("enter")
        await until(lambda: lobby.view.name == "ana", "her name")
        await pilot.press("c")
        await type_word(app, "bo")
        await pilot.press("enter")
        await answer(pilot, "r")  # live, 10 min + 5 s
        await until(lambda: lobby.view.offers, "her challenge")
        assert "your challenge to bo" in rows(app)[1]


async def test_a_game_of_others_is_watched_and_no_move_can_be_sent_in_it(stage: Stage) -> None:
    bo, cy = await stage.register("bo", "cy")
    await stage.register("ana")
    game = await stage.lobby.accept(cy, (await stage.lobby.seek(bo, Terms.correspondence(3))).id)
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await loaded(app)
        assert [entry.id for entry in lobby.view.watch] == [game.id]
        await pilot.press("o")
        await until(lambda: isinstance(app.screen, ServerGameScreen) and app.screen.port.entry, "the game")
        screen = app.screen
        assert isinstance(screen, ServerGameScreen) and screen.port.watching
        await pilot.press("slash", *"H6-H12", "enter")
        assert "you are watching" in str(screen.query_one("#message").render())
        await stage.lobby.play(bo, game.id, "H6-H12")
        await until(lambda: len(app.session.game.nodes) == 1, "the move, seen by the watcher")


async def test_the_link_closing_is_said_and_nothing_breaks(stage: Stage) -> None:
    await stage.register("ana")
    link = stage.link("ana")
    app = LobbyApp(link, now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(app)
        await stage.drop_links()
        await until(lambda: link.closed, "the link to close")
        await until(lambda: "the server has closed the link" in said(app), "the app to say so")
        await pilot.press("s")  # no dialog, no traceback: the visitor can only leave
        await pilot.press("o", "a", "d")


def test_the_link_is_given_only_by_the_server() -> None:
    assert LobbyLink.from_environment({}) is None
    assert LobbyLink.from_environment({"CESCACS_LOBBY_FD": "not a number"}) is None
    assert LobbyLink.from_environment({"CESCACS_LOBBY_FD": "987654"}) is None  # no such descriptor


EVERY_KEY = [
    *(chr(code) for code in range(0x21, 0x7F)),
    "space", "enter", "tab", "shift+tab", "escape", "backspace", "delete", "up", "down", "left", "right",
    "home", "end", "pageup", "pagedown", "insert",
    *(f"f{number}" for number in range(1, 13)),
    *(f"ctrl+{letter}" for letter in "abdefghijklmnoprstuvwxyz"),  # not Ctrl+Q (quit) nor Ctrl+C
]  # fmt: skip
"""What a visitor's keyboard can send, but leaving."""


async def test_a_visitor_pressing_every_key_in_the_lobby_and_its_game_reaches_nothing_of_the_server(
    stage: Stage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pyperclip

    from cescacs_tui.session.policy import LaunchKind, Policy
    from cescacs_tui.tui.dialogs.files import PathDialog

    host = tmp_path / "host"
    host.mkdir()
    (host / "secret.txt").write_text("the host's own file")
    monkeypatch.chdir(host)
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    opened: list[str] = []
    monkeypatch.setattr(LobbyApp, "open_url", lambda self, url, **options: opened.append(url))
    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    await stage.lobby.seek(bo, Terms.correspondence(2))
    app = LobbyApp(stage.link("ana"), policy=Policy(LaunchKind.SSH), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(app)
        for where in ("lobby", "game"):
            if where == "game":
                app.open_game(game.id)
                await until(lambda: isinstance(app.screen, ServerGameScreen), "the game's screen")
            for key in EVERY_KEY:
                await pilot.press(key)
                assert not any(isinstance(screen, PathDialog) for screen in app.screen_stack), key
                if app.screen is not app.screen_stack[0] and not isinstance(app.screen, ServerGameScreen):
                    await pilot.press("escape")  # a dialog the key opened: closed, the next key for the screen
        assert app.is_running
    assert sorted(path.name for path in host.iterdir()) == ["secret.txt"]
    assert copied == [] and opened == []


async def open_game(app: LobbyApp, number: int) -> ServerGameScreen:
    app.open_game(number)
    await until(lambda: isinstance(app.screen, ServerGameScreen) and app.screen.port.entry, "the game")
    assert isinstance(app.screen, ServerGameScreen)
    return app.screen


async def test_a_draw_is_offered_with_a_move_and_accepted_by_the_other_player(stage: Stage) -> None:
    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    other = stage.link("bo")
    await other.open()
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(app)
        screen = await open_game(app, game.id)
        await pilot.press("o")  # before her move: refused here, with the reason
        assert "a draw is offered after your own move" in str(screen.query_one("#message").render())
        await pilot.press("slash", *"H6-H12", "enter")
        await until(lambda: screen.port.entry is not None and screen.port.entry.ply == 1, "her move")
        await pilot.press("escape", "o")
        await until(lambda: app.session.game.draw_offered_by is not None, "her offer, as the server has it")
        assert (await other.ask("show", str(game.id), "--json")).json()["draw_offer"] == "white"
        assert (await other.ask("draw", str(game.id))).ok  # bo accepts
        await until(lambda: app.session.game.is_over, "the draw on her board")
        assert app.session.game.result == "1-1"


async def test_a_resignation_is_confirmed_then_sent_and_the_game_ends(stage: Stage) -> None:
    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(app)
        screen = await open_game(app, game.id)
        await pilot.press("r")
        await answer(pilot, "y")
        await until(lambda: app.session.game.is_over, "the resignation on her board")
        assert (await stage.lobby.look(game.id))[0].result == "0-3"
        await pilot.press("slash", *"H6-H12", "enter")
        assert "the game is over" in str(screen.query_one("#message").render())


@pytest.mark.parametrize(
    ("code", "heading", "answer_words"),
    [("ca", "Us toca", "la vostra oferta"), ("es", "Os toca", "vuestra oferta")],
)
async def test_the_lobby_speaks_the_visitors_language_and_so_do_the_servers_answers(
    stage: Stage, code: str, heading: str, answer_words: str
) -> None:
    from cescacs_tui import i18n

    ana, bo = await stage.register("ana", "bo")
    await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    i18n.set_language(code)  # the app's process speaks the visitor's language; the link answers in it too
    try:
        app = LobbyApp(stage.link("ana", code), now=lambda: stage.now[0])
        async with app.run_test(size=(120, 40)) as pilot:
            await loaded(app)
            assert heading in rows(app)
            await pilot.press("s")
            await answer(pilot, "3")
            await until(lambda: answer_words in said(app), "the server's answer in the visitor's language")
    finally:
        i18n.set_language("en")


async def test_the_puzzles_over_a_server_game_say_that_its_clock_keeps_running(stage: Stage) -> None:
    from cescacs_tui.tui.screens.puzzles import PuzzleScreen

    ana, bo = await stage.register("ana", "bo")
    game = await stage.lobby.accept(bo, (await stage.lobby.challenge(ana, "bo", Terms.correspondence(3))).id)
    app = LobbyApp(stage.link("ana"), now=lambda: stage.now[0])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await loaded(app)
        screen = await open_game(app, game.id)
        clock = app.session.game.clock
        assert clock is not None and clock.running is not None
        {command.title: command for command in app.get_system_commands(app.screen)}["Puzzles"].callback()
        await until(lambda: isinstance(app.screen, PuzzleScreen) and bool(app.screen.query("#puzzle-deck")), "puzzles")
        told = "the game's clock keeps running meanwhile: a server game's clock cannot be paused"
        await until(lambda: told in [str(each.message) for each in app._notifications], "the player told")
        assert clock.running is not None and not clock.paused
        await pilot.press("escape")
        await until(lambda: app.screen is screen, "the game again")
        assert clock.running is not None and not clock.paused
