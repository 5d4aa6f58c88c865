"""The puzzle screen (tui/screens/puzzles.py) through the pilot: a wrong move then a retry, hints, the solution
played on the board and typed, the forced reply played for the player; the rating kept and read again after a
restart; the theme filter; P from the game screen, and the visitor policy's decision on where the rating lives."""

from __future__ import annotations

import random
from pathlib import Path

from textual.pilot import Pilot

from cescacs_tui.core import parse_hex
from cescacs_tui.data.progress import MemoryProgress, ProgressFile, progress_path
from cescacs_tui.learn.puzzles import Attempt, Puzzle, Verdict, bundled_puzzles
from cescacs_tui.learn.trainer import Trainer, player_trainer
from cescacs_tui.session.policy import LaunchKind, Policy
from cescacs_tui.session.selection import Picker
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.puzzle_app import PuzzleApp
from cescacs_tui.tui.screens.puzzles import PuzzleScreen
from cescacs_tui.tui.widgets.filter_select import FilterSelect
from tests.helpers.waiting import until

MATE_IN_2 = "P12376af6d"
"""DP15×EE21+^, KE23-D26, GI21-G25#: a mate in 2 whose first move forks."""


def kept_in(folder: Path) -> ProgressFile:
    """The progress file of a data directory, read now."""
    return ProgressFile(progress_path(folder))


def puzzle(ident: str) -> Puzzle:
    return next(p for p in bundled_puzzles() if p.id == ident)


def wrong_move(p: Puzzle) -> str:
    """A legal first move that is not the solution (and mates no faster)."""
    position = p.start()
    for move in position.legal_moves():
        text = position.ctl_an(move)
        if Attempt(p).play(text).verdict is Verdict.WRONG:
            return text
    raise AssertionError("no wrong move")


def said(app: PuzzleApp) -> str:
    return str(app.screen.query_one("#puzzle-message").render())


async def click(pilot: Pilot[None], screen: PuzzleScreen, name: str) -> None:
    region = screen.board.hex_region(parse_hex(name))
    await pilot.click("#puzzle-board", offset=(region.x + region.width // 2, region.y))


async def type_move(pilot: Pilot[None], text: str) -> None:
    await pilot.press("slash", *text, "enter")


async def test_a_puzzle_played_through_the_pilot_wrong_then_retried_with_hints_and_the_rating_kept(
    tmp_path: Path,
) -> None:
    the_puzzle = puzzle(MATE_IN_2)
    trainer = Trainer({"bundled": [the_puzzle]}, store=kept_in(tmp_path), chooser=random.Random(1))
    app = PuzzleApp(trainer)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await pilot.pause()
        assert "White to move: mate in 2" in str(screen.query_one("#puzzle-task").render())
        await type_move(pilot, wrong_move(the_puzzle))
        assert "is not the solution" in said(app)
        assert trainer.progress.tried == 1 and trainer.progress.solved == 0
        lost = trainer.progress.rating.rating
        assert lost < 1500 and kept_in(tmp_path).progress.puzzles.rating.rating == lost  # kept at once
        await pilot.press("escape", "r")  # Esc: from the move box to the board
        assert trainer.attempt is not None and trainer.attempt.done == 0
        await pilot.press("h")
        assert "hint: move the Queen on P15" in said(app)
        await pilot.press("h")
        assert "hint: DP15×EE21+^" in said(app)
        await click(pilot, screen, "P15")  # the solution's first move on the board: the Queen, then its target
        await click(pilot, screen, "E21")
        assert "right; the reply is KE23-D26" in said(app)
        await type_move(pilot, "GI21-G25")
        assert "solved" in said(app)
        assert trainer.progress.tried == 1  # a lost try is not rated again when solved after
    again = player_trainer(kept_in(tmp_path))
    assert again.progress.rating.rating == lost and again.progress.tried == 1  # after a restart


async def test_a_puzzle_solved_at_once_raises_the_rating_and_n_gives_another(tmp_path: Path) -> None:
    trainer = Trainer({"bundled": [puzzle(MATE_IN_2), puzzle("P06a970e43")]}, store=kept_in(tmp_path))
    trainer.theme = "mate-in-2"
    app = PuzzleApp(trainer)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for move in ("P15-E21", "GI21-G25"):
            await type_move(pilot, move)
        assert "solved" in said(app) and trainer.progress.rating.rating > 1500
        assert "mate in 2" in str(app.screen.query_one("#puzzle-title").render())  # the themes, once solved
        trainer.theme = None
        await pilot.press("escape", "n")
        assert trainer.attempt is not None and trainer.attempt.puzzle.id == "P06a970e43"  # not the one just shown
    assert kept_in(tmp_path).progress.puzzles.solved == 1


async def test_the_theme_list_filters_the_puzzles(tmp_path: Path) -> None:
    trainer = Trainer({"bundled": bundled_puzzles()}, store=kept_in(tmp_path), chooser=random.Random(2))
    app = PuzzleApp(trainer)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        select = app.screen.query_one("#puzzle-theme", FilterSelect)
        select.focus()
        await pilot.press(*"promo", "enter")
        await until(lambda: trainer.theme == "promotion", "the theme chosen")
        assert trainer.attempt is not None and "promotion" in trainer.attempt.puzzle.themes


async def test_the_palette_opens_the_puzzles_over_the_game_and_a_visitor_keeps_the_rating_in_their_own_folder(
    tmp_path: Path,
) -> None:
    app = CescacsApp(policy=Policy(LaunchKind.SSH))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        {command.title: command for command in app.get_system_commands(app.screen)}["Puzzles"].callback()
        await until(lambda: isinstance(app.screen, PuzzleScreen), "the puzzles")
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        assert not isinstance(screen.trainer.store, MemoryProgress)  # kept in the folder the server gave them
        assert "mine" in screen.trainer.decks
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen, "the game again")


async def test_a_promotion_on_the_board_asks_which_piece_and_solves(tmp_path: Path) -> None:
    from cescacs_tui.tui.dialogs.questions import ChoiceDialog
    from tests.helpers.app import answer

    the_puzzle = puzzle("P10b51b179")  # C21-C25=D#: which piece the pawn becomes is the puzzle
    trainer = Trainer({"bundled": [the_puzzle]}, store=kept_in(tmp_path))
    app = PuzzleApp(trainer)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await pilot.pause()
        await click(pilot, screen, "C21")
        await click(pilot, screen, "C25")
        await until(lambda: isinstance(app.screen, ChoiceDialog), "the choice of a piece")
        start = the_puzzle.start()
        picker = Picker(start)  # the moves the dialog offers, in its order, numbered from 1
        picker.pick(parse_hex("C21"))
        offered = [start.ctl_an(move) for move in picker.pick(parse_hex("C25")).moves]
        await answer(pilot, str(offered.index("C21-C25=D#") + 1))
        await until(lambda: trainer.attempt is not None and trainer.attempt.solved, "the puzzle solved")
        assert "solved" in said(app) and trainer.progress.solved == 1


async def test_with_the_vim_keys_h_moves_the_cursor_and_capital_h_is_the_hint(tmp_path: Path) -> None:
    """``cescacs puzzles`` takes the player's keymap as the game does: the vim keys move the board's cursor."""
    from cescacs_tui.data.settings import Settings

    app = PuzzleApp(Trainer({"bundled": [puzzle(MATE_IN_2)]}), settings=Settings(vim_keys=True))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await until(lambda: screen.trainer.attempt is not None, "the puzzle")
        await pilot.pause()
        start = screen.board.cursor
        await pilot.press("h")
        await until(lambda: screen.board.cursor != start, "the cursor moved")
        assert "hint" not in said(app)
        await pilot.press("H")
        await until(lambda: "hint: move the Queen on P15" in said(app), "the hint")
