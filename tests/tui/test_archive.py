"""The archive browser (tui/dialogs/archive.py): the archived games newest first, filtered by typing, one opened
for review; Ctrl+O starts in the archive; a visitor of a server gets neither (the visitor policy's decision)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import OptionList

from cescacs_tui.core.game import Game
from cescacs_tui.data.archive import archive_dir, archive_game
from cescacs_tui.session.policy import LaunchKind, Policy
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.archive import ArchiveDialog
from cescacs_tui.tui.dialogs.files import PathDialog
from tests.helpers.app import message
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.waiting import until


def archived(white: str, black: str, moves: list[str], *, age: float, tc: str = "-") -> Path:
    """A finished (or not) game of ``white`` and ``black`` in the archive, written ``age`` seconds ago."""
    from cescacs_tui.core.clock import TimeControl

    game = Game.new(white=white, black=black, time_control=TimeControl.from_tag(tc))
    play(game, *moves)
    path = archive_game(game)
    moment = path.stat().st_mtime - age
    os.utime(path, (moment, moment))
    return path


@pytest.fixture
def games() -> list[Path]:
    return [
        archived("Ann", "Bob", FOOLS_MATE, age=300),
        archived("Cesc", "Dolors", ["E7-E13", "E21-E15"], age=100, tc="180+2"),
        archived("Eva", "Ferran", FOOLS_MATE[:4], age=200),
    ]


async def test_the_archive_lists_the_games_newest_first_and_opens_the_one_chosen(games: list[Path]) -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await until(lambda: isinstance(app.screen, ArchiveDialog), "the archive")
        dialog = app.screen
        assert isinstance(dialog, ArchiveDialog)
        lines = [str(option.prompt) for option in dialog.query_one("#archive-games", OptionList).options]
        assert [line.split("  ")[1] for line in lines] == ["Cesc – Dolors", "Eva – Ferran", "Ann – Bob"]
        assert "2 half-moves" in lines[0] and "180+2" in lines[0] and "no clock" in lines[2]
        assert "0-3" in lines[2]  # the result
        await pilot.press(*"eva", "enter")
        await pilot.pause()
        assert app.screen is app.game_screen
        assert app.game.tags["White"] == "Eva" and app.game.ply == 4


async def test_typing_filters_the_archive_in_any_case_and_without_accents(games: list[Path]) -> None:
    archived("Núria", "Pere", ["E7-E13"], age=50)
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await until(lambda: isinstance(app.screen, ArchiveDialog), "the archive")
        dialog = app.screen
        assert isinstance(dialog, ArchiveDialog)
        await pilot.press(*"NURIA")
        assert [game.white for game in dialog.shown] == ["Núria"]
        await pilot.press("escape")
        assert app.screen is app.game_screen and app.game.ply == 0


async def test_the_archive_is_in_the_command_palette() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)):
        commands = {command.title for command in app.get_system_commands(app.screen)}
        assert "Archived games" in commands


async def test_ctrl_o_starts_in_the_archive(games: list[Path]) -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+o")
        await until(lambda: isinstance(app.screen, PathDialog), "the open dialog")
        assert app.screen._initial == archive_dir()  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", [LaunchKind.SSH, LaunchKind.WEB])
async def test_a_visitor_of_a_server_cannot_browse_its_archive(games: list[Path], kind: LaunchKind) -> None:
    app = CescacsApp(policy=Policy(kind))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert app.screen is app.game_screen
        assert "the archive is the server's" in message(app)
