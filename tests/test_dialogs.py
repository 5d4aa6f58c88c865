"""Questions that cannot be answered by accident (tui/dialogs.py): deaf until seen, safe defaults, safe text."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.widgets import Button

from cescacs_tui.app import CescacsApp
from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import load_autosave, save_autosave
from cescacs_tui.tui.dialogs import ChoiceDialog, ConfirmDialog, DeliberateDialog
from tests.helpers.app import answer

MOVE = Game.new().position.parse_move("E7-E13")


class Host(App[None]):
    """An app that asks one question and keeps the answer."""

    def __init__(self, dialog: DeliberateDialog[object]) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


def burst(app: App[object], *keys: tuple[str, str | None]) -> None:
    """Keys as the terminal delivers a burst: all queued at once, none waiting for the one before."""
    for key, character in keys:
        app.post_message(events.Key(key, character))


@pytest.mark.parametrize(
    ("dialog", "keys"),
    [
        (ConfirmDialog("Resign?"), [("y", "y")]),
        (ConfirmDialog("Resign?"), [("enter", "\r")]),
        (ConfirmDialog("Resume?", default=True, destructive=False), [("n", "n"), ("enter", "\r")]),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)]), [("j", "j")]),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)]), [("enter", "\r")]),
    ],
    ids=["y", "Enter", "n Enter", "a letter", "Enter on a choice"],
)
async def test_keys_that_come_before_the_dialog_was_seen_answer_nothing(dialog, keys):
    app = Host(dialog)
    async with app.run_test() as pilot:
        burst(app, *keys)  # they arrive with the dialog, as a burst would
        await pilot.pause()
        assert app.screen is dialog and not dialog.listening and app.answers == []
        await answer(pilot, "escape")  # once seen, it listens
        assert app.answers == [None]


async def test_a_click_too_soon_is_ignored_and_a_later_one_counts():
    dialog = ConfirmDialog("Resign?")
    app = Host(dialog)
    async with app.run_test() as pilot:
        await pilot.click("#yes")
        assert app.answers == []
        await answer(pilot)
        await pilot.click("#yes")
        assert app.answers == [True]


@pytest.mark.parametrize(
    ("options", "key", "expected"),
    [
        ({}, "enter", False),  # the default is No: resign? abandon?
        ({}, "y", True),
        ({}, "n", False),
        ({}, "escape", None),  # no choice made: the caller does the safe thing
        ({"default": True, "destructive": False}, "enter", True),  # resume? (No would drop the saved game)
        ({"default": True, "destructive": False}, "n", False),
    ],
)
async def test_enter_gives_the_default_answer_and_esc_none(options, key, expected):
    dialog = ConfirmDialog("Sure?", **options)
    app = Host(dialog)
    async with app.run_test() as pilot:
        await answer(pilot, key)
        assert app.answers == [expected]


async def test_the_destructive_answer_is_drawn_as_a_warning_and_is_never_the_default():
    dialog = ConfirmDialog("An unfinished game was found. Resume it?", default=True, destructive=False)
    app = Host(dialog)
    async with app.run_test():
        assert app.focused is dialog.query_one("#yes")
        assert dialog.query_one("#no", Button).variant == "error"
    with pytest.raises(ValueError, match="destructive"):
        ConfirmDialog("Resign?", default=True)


async def test_the_resume_question_keeps_the_saved_game_unless_new_game_is_chosen(tmp_path: Path):
    path = tmp_path / "autosave.json"
    game = Game.new()
    game.play(MOVE)
    save_autosave(game, {}, path)
    for key, kept in (("escape", True), ("enter", True), ("n", False)):
        saved = load_autosave(path)
        assert saved is not None
        app = CescacsApp(Game.new(), resume=saved)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog)
            await answer(pilot, key)
            assert (len(app.game.nodes) == 1) is kept, key


async def test_a_question_quoting_a_record_shows_it_as_safe_text():
    dialog = ConfirmDialog("Bru\x1b]0;evil\x07 offers a draw. Accept?")
    app = Host(dialog)
    async with app.run_test():
        text = str(dialog.query_one("Static").render())
        assert "Bru\u241b]0;evil\u2407" in text
