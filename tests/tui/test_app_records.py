"""Copying, viewing, saving and opening records from the app."""

from __future__ import annotations

from pathlib import Path

import pyperclip
import pytest
from textual.command import CommandList

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.files import PathDialog
from cescacs_tui.tui.dialogs.questions import TextDialog
from tests.helpers.app import message
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.waiting import until


def played(*moves: str) -> Game:
    game = Game.new(white="Ros, Xus", black="Sasal, Cesc")
    play(game, *moves)
    return game


@pytest.fixture
def no_local_clipboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """As over SSH: pyperclip finds no clipboard mechanism."""

    def fail(text: str) -> None:
        raise pyperclip.PyperclipException("Pyperclip could not find a copy/paste mechanism for your system.")

    monkeypatch.setattr(pyperclip, "copy", fail)


async def test_copy_puts_the_exact_ctl_pgn_in_the_clipboard(no_local_clipboard: None) -> None:
    app = CescacsApp(played("E7-E13", "E21-E15"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        assert app.clipboard == write_pgn(app.game)
        assert "OSC 52" in message(app)
        assert "no local clipboard" in message(app)  # pyperclip failed: said, not crashed
        assert app.is_running


async def test_copy_also_uses_a_local_clipboard_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    app = CescacsApp(played("E7-E13"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        assert copied == [write_pgn(app.game)]
        assert "system clipboard" in message(app)


async def test_copy_pdtl_copies_the_position_shown(no_local_clipboard: None) -> None:
    app = CescacsApp(played("E7-E13", "E21-E15"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("Y")
        assert app.clipboard == app.game.position.to_pdtl()
        await pilot.press("left_square_bracket", "Y")  # while reviewing: the reviewed position
        assert app.clipboard == app.game.position_at(1).to_pdtl()


async def test_copy_from_the_command_palette(no_local_clipboard: None) -> None:
    app = CescacsApp(played("E7-E13"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"copy game")
        found = app.screen.query_one(CommandList)  # the palette searches in a task of its own

        def first_found() -> str:
            return str(found.highlighted_option.prompt) if found.highlighted_option is not None else ""

        await until(lambda: first_found().startswith("Copy game (CTL-PGN)"), "the palette to find the command")
        await pilot.press("enter")
        await until(lambda: app.clipboard == write_pgn(app.game), "the game copied")


async def test_view_record_shows_the_text_to_copy_by_hand() -> None:
    app = CescacsApp(played("E7-E13"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v")
        assert isinstance(app.screen, TextDialog)
        body = str(app.screen.query_one("#text-body").render())
        assert "1. E7-E13 :" in body and app.game.position.to_pdtl() in body


async def test_save_then_open_the_record(tmp_path: Path) -> None:
    target = tmp_path / "mate.ctl-pgn"
    app = CescacsApp(played(*FOOLS_MATE))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PathDialog)
        field = app.screen.query_one("#path-input")
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert "saved" in message(app)
    (saved,) = read_pgn(target.read_text(encoding="utf-8"))
    assert [n.san for n in saved.nodes] == [n.san for n in app.game.nodes]

    fresh = CescacsApp()
    async with fresh.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        field = fresh.screen.query_one("#path-input")
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert (fresh.game.result, fresh.game.termination) == ("0-3", "Black mates")
        assert fresh.board.view.codes == fresh.game.position.board_codes


async def test_a_hot_seat_game_saved_says_it_was_played_over_the_board(tmp_path: Path) -> None:
    target = tmp_path / "hot-seat.ctl-pgn"
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        await until(lambda: len(app.game.nodes) == 1, "the move to be played")
        await pilot.press("escape", "ctrl+s")
        await until(lambda: isinstance(app.screen, PathDialog), "the save dialog")
        app.screen.query_one("#path-input").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(lambda: target.exists(), "the record to be written")
    (saved,) = read_pgn(target.read_text(encoding="utf-8"))  # our reader reads what the writer wrote
    assert saved.tags["Mode"] == "OTB" and [n.san for n in saved.nodes] == ["E7-E13"]


async def test_a_broken_record_is_explained_and_the_game_kept(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ctl-pgn"
    bad.write_text('[Variant "C\'escacs"]\n\n1. E7-E13, E21-E15\n2. EE5-E11\n', encoding="utf-8")
    app = CescacsApp(played("F8-F12"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.game_screen.apply(app.session.open_record(bad))
        await pilot.pause()
        assert "line 4, column 4" in message(app) and "Elephant on E5 cannot go to E11" in message(app)
        assert [n.san for n in app.game.nodes] == ["F8-F12"]


async def test_text_from_a_record_is_never_markup(tmp_path: Path) -> None:
    record = tmp_path / "markup.ctl-pgn"
    record.write_text('[Variant "C\'escacs"]\n[White "[bold red]Mallory[/]"]\n\n1. E7-E13 :\n*\n', encoding="utf-8")
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        app.game_screen.apply(app.session.open_record(record))
        await pilot.pause()
        await pilot.press("u")  # back to White's turn: the status names White's player
        assert "[bold red]Mallory[/]" in str(app.query_one("#status").render())
