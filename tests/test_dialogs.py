"""Questions that cannot be answered by accident (tui/dialogs.py): deaf until seen, safe defaults, safe text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.widgets import Button

from cescacs_tui.app import CescacsApp
from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import read_autosave, save_autosave
from cescacs_tui.tui import dialogs
from cescacs_tui.tui.dialogs import ChoiceDialog, ConfirmDialog, DeliberateDialog
from tests.helpers.app import answer
from tests.helpers.waiting import PATIENCE, until

MOVE = Game.new().position.parse_move("E7-E13")


class Host(App[None]):
    """An app that asks one question and keeps the answer."""

    def __init__(self, dialog: DeliberateDialog[object]) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


@pytest.fixture
def reading_time(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Sets how long a dialog stays deaf after it was painted (``SETTLE_SECONDS``): the test, not the machine's
    speed, decides whether an answer comes too soon (``PATIENCE``) or after the question was read (0)."""
    return lambda seconds: monkeypatch.setattr(dialogs, "SETTLE_SECONDS", seconds)


def burst(app: App[object], *keys: tuple[str, str | None]) -> None:
    """Keys as the terminal delivers a burst: all queued at once, none waiting for the one before."""
    for key, character in keys:
        app.post_message(events.Key(key, character))


@pytest.mark.parametrize(
    ("dialog", "keys", "on_escape"),
    [
        (ConfirmDialog("Resign?"), [("y", "y")], False),
        (ConfirmDialog("Resign?"), [("enter", "\r")], False),
        (ConfirmDialog("Resume?", default=True), [("n", "n"), ("enter", "\r")], True),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)]), [("j", "j")], None),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)]), [("enter", "\r")], None),
    ],
    ids=["y", "Enter", "n Enter", "a letter", "Enter on a choice"],
)
async def test_keys_that_come_before_the_dialog_was_seen_answer_nothing(dialog, keys, on_escape, reading_time):
    reading_time(PATIENCE)
    app = Host(dialog)
    async with app.run_test() as pilot:
        burst(app, *keys)  # they arrive with the dialog, as a burst would
        await pilot.pause()
        assert app.screen is dialog and not dialog.listening and app.answers == []
        reading_time(0)
        await answer(pilot, "escape")  # once seen, it listens
        assert app.answers == [on_escape]


async def test_a_click_too_soon_is_ignored_and_a_later_one_counts(reading_time):
    reading_time(PATIENCE)
    dialog = ConfirmDialog("Resign?")
    app = Host(dialog)
    async with app.run_test() as pilot:
        await pilot.click("#yes")
        await pilot.pause()
        assert app.answers == []
        reading_time(0)
        await answer(pilot)
        yes = dialog.query_one("#yes", Button)
        await until(lambda: not yes.has_class("-active"), "the button's flash (Textual ignores clicks meanwhile)")
        await pilot.click("#yes")
        await pilot.pause()  # the press is a message of its own, handled after the click
        assert app.answers == [True]


@pytest.mark.parametrize(
    ("options", "key", "expected"),
    [
        ({}, "enter", False),  # the default is No: resign? abandon?
        ({}, "y", True),
        ({}, "n", False),
        ({}, "escape", False),  # Esc too gives the safe answer
        ({"default": True}, "enter", True),  # resume? (No starts afresh)
        ({"default": True}, "escape", True),
        ({"default": True}, "n", False),
    ],
)
async def test_enter_and_esc_give_the_default_answer(options, key, expected):
    dialog = ConfirmDialog("Sure?", **options)
    app = Host(dialog)
    async with app.run_test() as pilot:
        await answer(pilot, key)
        assert app.answers == [expected]


@pytest.mark.parametrize("default", [False, True])
async def test_the_default_answer_has_the_focus_from_the_first_frame_and_the_other_is_a_warning(default):
    dialog = ConfirmDialog("Sure?", default=default)
    app = Host(dialog)
    async with app.run_test():
        focused, other = ("#yes", "#no") if default else ("#no", "#yes")
        assert app.focused is dialog.query_one(focused)  # before on_mount could move it: Enter in a burst
        assert dialog.query_one(other, Button).variant == "error"


async def test_the_resume_question_resumes_unless_new_game_is_chosen(tmp_path: Path):
    path = tmp_path / "autosave.json"
    game = Game.new()
    game.play(MOVE)
    save_autosave(game, {}, path)
    for key, kept in (("escape", True), ("enter", True), ("n", False)):
        saved = read_autosave(path)
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
