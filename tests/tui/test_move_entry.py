"""The move box under bursts of keys (tui/move_entry.py), driven as the terminal driver delivers them.

The pilot's ``press`` waits for each key to be handled; a terminal does not.
:func:`burst` queues every key at once, as one read of ``/E7-E13⏎`` does.
tests/processes/test_terminal_input.py types the same bursts into a real terminal.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

from cescacs_tui.data.settings import Settings
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.widgets.move_entry import MoveEntry, MoveInput
from tests.helpers.app import message, panels_ready

NAMES = {"/": "slash", ":": "colon", "-": "minus", "\r": "enter", "\x1b": "escape", "\x7f": "backspace"}


def burst(app: CescacsApp, text: str) -> None:
    for character in text:
        app.post_message(events.Key(NAMES.get(character, character), character))


def box(app: CescacsApp) -> MoveInput:
    return app.query_one("#move-input", MoveInput)


def sans(app: CescacsApp) -> list[str]:
    return [node.san for node in app.game.nodes]


@pytest.mark.parametrize(
    ("keys", "moves"),
    [
        ("/E7-E13\r", ["E7-E13"]),
        ("/e7-e13\re21-e15\r/f8-f12\r:f20-f16\r", ["E7-E13", "E21-E15", "F8-F12", "F20-F16"]),
        ("/gd2-b7\x7f6\r", ["GD2-B6"]),  # g and d are board keys; Backspace in the burst
    ],
)
async def test_a_burst_from_the_board_plays_its_moves_in_order(keys, moves):
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        burst(app, keys)
        await pilot.pause()
        assert sans(app) == moves
        assert app.settings == Settings()  # no board command ran (g would change the piece set)


async def test_board_command_letters_after_a_slash_are_typed_in_the_box():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        burst(app, "/RC25-C23\r")
        await pilot.pause()
        assert not app.game.is_over and app.screen is app.screen_stack[0]  # no resignation, no question
        assert "RC25-C23: there is a Black Rook on C25" in message(app)
        assert box(app).value == "RC25-C23"  # given back, to be corrected


async def test_esc_in_a_burst_leaves_the_box_before_the_next_key():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7")
        burst(app, "\x1bf")  # f is the board's: flip
        await pilot.pause()
        assert app.focused is app.board and app.board.flipped
        assert box(app).value == "e7"


async def test_slash_and_colon_in_the_box_move_nothing_and_a_colon_inside_a_move_is_typed():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", "slash", "colon", "space", "colon", *"e7", "colon", "slash")
        assert box(app).value == " e7:" and app.focused is box(app)


async def test_enter_empties_the_box_at_once_and_a_refused_move_is_given_back_unless_typing_went_on():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        assert box(app).value == "" and sans(app) == ["E7-E13"]
        await pilot.press(*"zz", "enter")
        assert box(app).value == "zz" and "zz:" in message(app)
        await box(app).action_submit()  # Enter: zz is handed over again; the app has not answered yet
        box(app).insert_text_at_cursor("a")  # the player types on
        await pilot.pause()  # the app refuses zz and gives it back...
        assert box(app).value == "a"  # ...but not into what is being typed


async def test_pasted_control_characters_are_made_visible_in_the_box():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash")
        box(app).post_message(events.Paste("E7-E13\x1b[2J\nsecond line"))
        await pilot.pause()
        assert box(app).value == "E7-E13\u241b[2J"


async def test_typing_in_the_box_does_not_lay_the_screen_out_again(monkeypatch):
    """Textual's Input lays out the whole screen on every change of its text (its virtual size); the move box,
    one line of fixed width, only repaints itself: some 4 ms less of each key at 120x40 (benchmarks/ui.py)."""
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await panels_ready(pilot)
        await pilot.press("slash")
        await pilot.pause()
        layouts = count_layouts(app.screen, monkeypatch)
        for character in "E7-E13":
            await pilot.press(NAMES.get(character, character))
        await pilot.pause()
        assert box(app).value == "E7-E13"
        assert layouts == []
        box(app).value = "E7-E13 and far more text than the box can show at once, " * 3
        box(app).action_end()
        await pilot.pause()
        assert box(app).scroll_x > 0  # its own scrolling still follows the text


async def test_the_hex_name_keeps_the_room_of_the_longest_one_shown(monkeypatch):
    """The name beside the box changes as the cursor follows the pieces; the box keeps its width (no layout of
    the screen on every other move), and only a name longer than any before widens the name's room."""
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await panels_ready(pilot)
        entry = app.query_one(MoveEntry)
        label = entry.query_one("#cursor-info")
        entry.show_hex("I23 Black Pegasus")
        await pilot.pause()
        room, box_width = label.outer_size.width, box(app).size.width
        layouts = count_layouts(app.screen, monkeypatch)
        entry.show_hex("E7")
        await pilot.pause()
        assert str(label.render()) == "E7"
        assert (label.outer_size.width, box(app).size.width, layouts) == (room, box_width, [])
        entry.show_hex("I23 Black Pegasus, and longer")
        await pilot.pause()
        assert layouts and label.outer_size.width > room


def count_layouts(screen: Any, monkeypatch: Any) -> list[object]:
    """The screen's layouts from now on, one entry each (Textual's ``_refresh_layout`` still runs)."""
    layouts: list[object] = []
    laid_out = screen._refresh_layout

    def counted(*args: Any, **kwargs: Any) -> None:
        layouts.append(args)
        laid_out(*args, **kwargs)

    monkeypatch.setattr(screen, "_refresh_layout", counted)
    return layouts
