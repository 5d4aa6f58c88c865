"""Questions that cannot be answered by accident (tui/dialogs/questions.py): keys that came too soon asked again, safe
defaults, safe text.  The dialogs' clock is injected and each key says when it arrived: no test depends on
the machine's speed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual._time import get_time
from textual.app import App
from textual.widget import Widget
from textual.widgets import Button, Label

from cescacs_tui.core.game import Game
from cescacs_tui.data.autosave import read_autosave, save_autosave
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.questions import SETTLE_SECONDS, ChoiceDialog, ConfirmDialog, DeliberateDialog
from tests.helpers.app import answer
from tests.helpers.clock import FakeTime
from tests.helpers.waiting import until

MOVE = Game.new().position.parse_move("E7-E13")


class Host(App[None]):
    """An app that asks one question and keeps the answer."""

    def __init__(self, dialog: DeliberateDialog[Any]) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


def arrive(app: App[Any], key: str, character: str | None, at: float) -> None:
    """A key as the terminal delivers it, read at the time ``at`` (``Message.time``), however late it is handled."""
    event = events.Key(key, character)
    event.time = at
    app.post_message(event)


SHOWN = 1000.0
"""When the dialogs of these tests are shown, on their injected clock (the keys say when they arrived on it)."""


@pytest.mark.parametrize(
    ("dialog", "keys", "on_escape"),
    [
        (ConfirmDialog("Resign?", clock=FakeTime(SHOWN)), [("y", "y")], False),
        (ConfirmDialog("Resign?", clock=FakeTime(SHOWN)), [("enter", "\r")], False),
        (ConfirmDialog("Resume?", default=True, clock=FakeTime(SHOWN)), [("n", "n"), ("enter", "\r")], True),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)], clock=FakeTime(SHOWN)), [("j", "j")], None),
        (ChoiceDialog("Promote to:", [("J", "Bishop", MOVE)], clock=FakeTime(SHOWN)), [("enter", "\r")], None),
    ],
    ids=["y", "Enter", "n Enter", "a letter", "Enter on a choice"],
)
async def test_keys_that_arrive_too_soon_answer_nothing_and_ask_to_be_pressed_again(dialog, keys, on_escape):
    app = Host(dialog)
    async with app.run_test() as pilot:
        note = dialog.query_one("#too-soon", Label)
        assert not note.display
        for key, character in keys:  # a burst: before the question was shown, and just after
            arrive(app, key, character, SHOWN - 0.01)
            arrive(app, key, character, SHOWN + SETTLE_SECONDS - 0.01)
        await pilot.pause()
        assert app.screen is dialog and app.answers == []
        assert note.display and "press it again" in str(note.render())  # never dropped without a word
        arrive(app, "escape", "\x1b", SHOWN + SETTLE_SECONDS)  # the same key, once the question could be read
        await pilot.pause()
        assert app.answers == [on_escape]


async def test_a_key_that_arrived_in_time_counts_however_late_it_is_handled():
    """The guard compares times of arrival, not the time of a repaint: a busy machine drops no answer."""
    clock = FakeTime(SHOWN)
    dialog = ConfirmDialog("Resign?", clock=clock)
    app = Host(dialog)
    async with app.run_test() as pilot:
        clock.advance(30.0)  # the machine is so busy that the key is handled half a minute after it arrived
        arrive(app, "n", "n", SHOWN + 0.3)
        await pilot.pause()
        assert app.answers == [False]


async def test_a_key_of_the_burst_that_asked_the_question_answers_nothing_and_asks_again():
    """``Ry`` in one read: the ``y`` was routed to the board before the question came (it resigned)."""
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        arrived = get_time()
        arrive(app, "r", "r", arrived)
        arrive(app, "y", "y", arrived)
        await until(lambda: isinstance(app.screen, ConfirmDialog), "the question r asks")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog) and not app.game.is_over
        assert dialog.query_one("#too-soon", Label).display
        assert dialog._shown_at is not None
        arrive(app, "y", "y", dialog._shown_at + SETTLE_SECONDS)  # pressed again, once it could be read
        await pilot.pause()
        assert app.game.is_over and app.game.result == "0-3"


async def test_a_click_too_soon_answers_nothing_and_asks_again():
    dialog = ConfirmDialog("Resign?", clock=FakeTime(get_time() + 3600))  # shown an hour from now: every click is soon
    app = Host(dialog)
    async with app.run_test() as pilot:
        await pilot.click("#yes")
        await pilot.pause()  # the press is a message of its own, handled after the click
        await pilot.pause()
        assert app.answers == []
        assert dialog.query_one("#too-soon", Label).display


async def test_a_click_once_the_question_could_be_read_counts():
    dialog = ConfirmDialog("Resign?")
    app = Host(dialog)
    async with app.run_test() as pilot:
        await answer(pilot)  # waits until it listens
        await pilot.click("#yes")
        await pilot.pause()
        await pilot.pause()
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


def release_and_click(app: App[Any], widget: Widget, at: float) -> None:
    """A click as the terminal delivers it: the button's release read at ``at``, the click Textual makes of it."""
    up = events.MouseUp(widget, 1, 0, 0, 0, 1, False, False, False)
    up.time = at
    widget.post_message(up)
    widget.post_message(events.Click(widget, 1, 0, 0, 0, 1, False, False, False))


async def test_a_click_that_arrived_too_soon_answers_nothing_however_late_it_is_handled():
    """A press is made when the click is handled: it is dated by the release that arrived, not by then."""
    clock = FakeTime(get_time() - 30.0)  # shown half a minute ago: a click handled now would count by its message
    shown = clock()
    dialog = ConfirmDialog("Resign?", clock=clock)
    app = Host(dialog)
    async with app.run_test() as pilot:
        target = dialog.query_one("#yes", Button)
        release_and_click(app, target, shown + SETTLE_SECONDS - 0.01)  # the release arrived just too soon
        await until(lambda: dialog.query_one("#too-soon", Label).display, "the note asking to press again", 10)
        assert app.answers == []
        await until(lambda: not target.has_class("-active"), "the button's press to end")  # till then it is deaf
        release_and_click(app, target, shown + SETTLE_SECONDS)  # clicked again, once the question could be read
        await until(lambda: app.answers != [], "the answer", patience=10)
        assert app.answers == [True]
        await pilot.pause()


class SlowToDraw(ConfirmDialog):
    """A question that a loaded machine draws ``delay`` seconds (on the dialog's clock) after mounting it."""

    def __init__(self, clock: FakeTime, delay: float) -> None:
        super().__init__("Resign?", clock=clock)
        self._fake_clock = clock
        self._delay = delay

    def on_mount(self) -> None:
        self.call_next(self._fake_clock.advance, self._delay)  # once mounted: its first frame comes this much later


@pytest.mark.parametrize("answer_by", ["key", "click"])
async def test_the_guard_counts_from_the_first_paint_not_from_the_mount(answer_by: str) -> None:
    """Mounted at SHOWN, drawn 10 s later: an answer a moment after the drawing is too soon, though the window
    counted from the mount would long have passed; one a full window after the drawing counts."""
    clock = FakeTime(SHOWN)
    dialog = SlowToDraw(clock, delay=10.0)
    app = Host(dialog)
    drawn = SHOWN + 10.0
    async with app.run_test() as pilot:
        await until(lambda: dialog._shown_at is not None, "the question's first frame")
        assert dialog._shown_at == drawn
        target = dialog.query_one("#yes", Button)

        def respond(at: float) -> None:
            if answer_by == "key":
                arrive(app, "y", "y", at)
            else:
                release_and_click(app, target, at)

        respond(drawn + SETTLE_SECONDS - 0.01)  # long after the mount, just too soon after the drawing
        await until(lambda: dialog.query_one("#too-soon", Label).display, "the note asking to press again", 10)
        assert app.answers == []
        await until(lambda: not target.has_class("-active"), "the button's press to end")
        respond(drawn + SETTLE_SECONDS)
        await until(lambda: app.answers != [], "the answer", patience=10)
        assert app.answers == [True]
        await pilot.pause()


@pytest.mark.parametrize(("language", "yes"), [("en", "y"), ("ca", "s"), ("es", "s")])
async def test_a_question_shows_and_takes_the_keys_of_the_players_language(language: str, yes: str) -> None:
    from cescacs_tui import i18n

    i18n.set_language(language)
    try:
        dialog = ConfirmDialog("Sure?")
        app = Host(dialog)
        async with app.run_test() as pilot:
            labels = [str(button.label) for button in dialog.query(Button)]
            assert labels[0].endswith(f"({yes})") and labels[1].endswith("(n)")
            wrong = "s" if yes == "y" else "x"  # s is no answer in English
            await answer(pilot, wrong)
            assert app.answers == [] and app.screen is dialog
            await pilot.press(yes)
            assert app.answers == [True]
    finally:
        i18n.set_language("en")


async def test_the_english_yes_is_understood_in_every_language_as_the_plain_mode_reads_it() -> None:
    from cescacs_tui import i18n

    i18n.set_language("es")
    try:
        dialog = ConfirmDialog("Sure?")
        app = Host(dialog)
        async with app.run_test() as pilot:
            await answer(pilot, "y")
            assert app.answers == [True]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "resign"), [("ca", "abandona"), ("es", "abandonar"), ("en", "resign")])
async def test_the_app_and_the_plain_mode_ask_with_the_same_keys_in_each_language(language: str, resign: str) -> None:
    from cescacs_tui import i18n
    from tests.helpers.plain import Typist

    i18n.set_language(language)
    try:
        plain = " ".join(Typist().type(resign))
        app = CescacsApp(Game.new())
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("r")
            await until(lambda: isinstance(app.screen, ConfirmDialog), "the question r asks")
            buttons = [str(button.label) for button in app.screen.query(Button)]
        for button in buttons:  # "Sí (s)" in the dialog, "s: Sí" in the plain mode
            word, key = button[:-4], button[-2]
            assert f"{key}: {word}" in plain, (button, plain)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(
    ("options", "words"),
    [([("1", "King's leap", MOVE), ("2", "Castling", MOVE)], "the number"), ([("J", "Bishop", MOVE)], "the letter")],
)
async def test_a_choice_says_how_to_choose_in_the_words_of_its_keys(options: list[Any], words: str) -> None:
    dialog = ChoiceDialog("Which?", options)
    app = Host(dialog)
    async with app.run_test():
        assert f"Enter or {words} chooses" in str(dialog.query_one("#choice-hint", Label).render())


@pytest.mark.parametrize("language", ["en", "ca", "es"])
async def test_the_help_fits_an_80_column_terminal_wrapping_each_line_under_itself(language: str) -> None:
    from cescacs_tui import i18n
    from cescacs_tui.tui.dialogs.help import help_plain

    i18n.set_language(language)
    try:
        app = CescacsApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await until(lambda: app.screen.query("#text-body"), "the help")
            await pilot.pause()
            body = app.screen.query_one("#text-body")
            width = body.content_region.width
            shown = [strip.text.rstrip() for strip in body.render_lines(body.content_region.reset_offset)]
        assert 60 <= width < 80
        page = help_plain(width=width)
        assert shown[: len(page.splitlines())] == page.splitlines()  # the page is laid out as the widget shows it
        lines = page.splitlines()
        assert max(len(line) for line in lines) <= width  # the guide's lines ran to 86 columns
        assert sorted(page.split()) == sorted(help_plain(width=1000).split())  # every word there, none cut
        keys, guide = page.split("\nCTL-AN\n")
        for line in keys.split("\n\nAlso")[0].splitlines():  # a key's description wraps under itself
            assert line == line.lstrip() or line.startswith("  ")
            assert not line.startswith("  ") or line[2] != " " or line.startswith(" " * 20), line
        for line in guide.splitlines():  # so does an example's
            assert not line.startswith(" " * 3) or line.startswith(" " * 16), line
    finally:
        i18n.set_language("en")
