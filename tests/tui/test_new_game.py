"""The new game dialog, driven from the keyboard through Textual's pilot at 80x24."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from cescacs_tui.core import INITIAL_PDTL, PDTLError, Position
from cescacs_tui.core.clock import NO_CLOCK, PRESETS, ClockError, TimeControl
from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.engine.levels import LEVELS, level
from cescacs_tui.session.players import HUMAN, Contender
from cescacs_tui.tui.dialogs.new_game import NewGameDialog, NewGameOptions, seat_choices

_MISSING = object()


class DialogApp(App[None]):
    """Pushes the dialog at start and keeps what it returns."""

    def __init__(self, defaults: NewGameOptions | None = None) -> None:
        super().__init__()
        self.defaults = defaults
        self.result: object = _MISSING

    def on_mount(self) -> None:
        self.push_screen(NewGameDialog(self.defaults), self._done)

    def _done(self, options: NewGameOptions | None) -> None:
        self.result = options


def focused_id(app: App[None]) -> str | None:
    return app.focused.id if app.focused is not None else None


async def tab_to(pilot: Pilot[None], app: App[None], widget_id: str) -> None:
    """Press Tab until ``widget_id`` has focus (at most a round of the dialog)."""
    for _ in range(12):
        if focused_id(app) == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached #{widget_id}; focus is on #{focused_id(app)}")


def note(app: App[None], selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def choose_preset(pilot: Pilot[None], app: DialogApp, index: int) -> None:
    """Open the time control list from the keyboard and pick the option at ``index`` (from "No clock")."""
    await tab_to(pilot, app, "preset")
    await pilot.press("enter")  # opens the list: Enter does not start the game here
    assert app.result is _MISSING
    await pilot.press("home", *["down"] * index, "enter")
    await pilot.pause()


async def test_defaults_and_enter() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameDialog)
        assert focused_id(app) == "white"
        await pilot.press("enter")
        await pilot.pause()
    assert app.result == NewGameOptions("", "", NO_CLOCK, True, "first-move", None)


async def test_names_typed_and_trimmed() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*" Ada ", "tab", "tab", *"Grace", "enter")  # the first Tab goes to White's seat
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert (app.result.white, app.result.black) == ("Ada", "Grace")
    assert app.result.players == (HUMAN, HUMAN)


async def test_the_computer_chosen_for_a_side_with_its_level() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "black-seat")
        await pilot.press("enter", "down", "down", "down", "enter")  # Human, then levels 1, 2, 3
        await pilot.pause()
        assert app.screen.query_one("#black", Input).disabled  # the computer's name is its own
        assert not app.screen.query_one("#white", Input).disabled
        shown = app.screen.query_one("#black-seat #label", Static).render()
        assert str(shown) == f"Computer, level 3 ({level(3).elo} Elo)"  # its strength on the ladder
        room = app.screen.query_one("#black-seat #label", Static).size.width
        assert room >= len("Ordinador, nivell 10 (0000 Elo)")  # the longest label, Catalan's, fits whole
        await pilot.press("enter")  # on a list, Enter opens it (as on the time control's)
        await pilot.press("escape")
        await pilot.click("#start")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.players == (HUMAN, Contender(3))
    game = app.result.create_game()
    assert (game.tags["White"], game.tags["Black"]) == ("?", "cescacs-tui level 3")


def test_the_seat_list_offers_each_level_with_its_elo_on_the_ladder() -> None:
    labels = [str(label) for label, _ in seat_choices()]
    assert labels == ["Human"] + [f"Computer, level {lv.number} ({lv.elo} Elo)" for lv in LEVELS]


async def test_a_computer_default_starts_on_its_seat_list() -> None:
    app = DialogApp(NewGameOptions("Ada", white_player=Contender(10)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert focused_id(app) == "white-seat"  # the name field is greyed: the focus cannot start there
        await pilot.press("enter", "home", "enter")  # back to Human
        await pilot.pause()
        assert not app.screen.query_one("#white", Input).disabled
        await pilot.click("#start")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.players == (HUMAN, HUMAN) and app.result.white == "Ada"


async def test_constructor_defaults_fill_the_fields() -> None:
    defaults = NewGameOptions("Alice", "Bob", PRESETS["Blitz 3+2"], castling=False, clock_starts="now")
    app = DialogApp(defaults)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#custom-row").display  # a preset: no custom field
        assert note(app, "#tc-note") == "3 min + 2 s"
        await pilot.press("enter")
        await pilot.pause()
    assert app.result == defaults


async def test_choosing_a_preset() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_preset(pilot, app, list(PRESETS).index("Rapid 10+5"))
        assert note(app, "#tc-note") == "10 min + 5 s"
        assert focused_id(app) == "preset"
        await pilot.press("tab", "enter")  # Enter on the next field starts
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.time_control == PRESETS["Rapid 10+5"]


async def test_escape_in_the_open_list_only_closes_it() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "preset")
        await pilot.press("enter", "down", "escape")
        await pilot.pause()
        assert isinstance(app.screen, NewGameDialog)
        assert app.result is _MISSING


async def test_custom_tag_valid() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.screen.query_one("#custom-row").display
        await choose_preset(pilot, app, len(PRESETS))  # "Custom…", after the presets
        assert app.screen.query_one("#custom-row").display
        await pilot.press("tab")
        assert focused_id(app) == "custom"
        await pilot.press(*"900+10")
        await pilot.pause()
        assert note(app, "#tc-note") == "15 min + 10 s"
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.time_control == TimeControl.from_tag("900+10")


async def test_custom_tag_invalid_shows_the_error_and_stays_open() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_preset(pilot, app, len(PRESETS))
        await pilot.press("tab", *"300x3", "enter")
        await pilot.pause()
        assert app.result is _MISSING
        assert isinstance(app.screen, NewGameDialog)
        with pytest.raises(ClockError) as error:
            TimeControl.from_tag("300x3")
        assert note(app, "#tc-note") == str(error.value)
        assert app.screen.query_one("#tc-note").has_class("-error")
        await pilot.press("backspace", "backspace", *"d3", "enter")  # corrected: now it starts
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.time_control == TimeControl.from_tag("300d3")


async def test_empty_custom_tag_is_refused_when_starting() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_preset(pilot, app, len(PRESETS))
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert app.result is _MISSING
        assert "not understood" in note(app, "#tc-note")
        assert focused_id(app) == "custom"


async def test_no_castling_checkbox_space_toggles_enter_starts() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "no-castling")
        await pilot.press("space")
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.castling is False


async def test_clock_start_choice() -> None:
    app = DialogApp(NewGameOptions(time_control=PRESETS["Blitz 5+0"]))
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "clock-starts")
        await pilot.press("down")  # the arrows choose
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.clock_starts == "now"
    assert app.result.time_control == PRESETS["Blitz 5+0"]


async def test_clock_start_choice_skipped_without_clock() -> None:
    app = DialogApp()  # no clock: the choice does not apply and Tab passes it by
    async with app.run_test(size=(80, 24)) as pilot:
        seen = set()
        for _ in range(10):
            await pilot.press("tab")
            seen.add(focused_id(app))
        assert "clock-starts" not in seen
        assert {"white", "black", "preset", "no-castling", "pdtl", "start", "cancel"} <= seen


async def test_invalid_pdtl_shows_the_error_inline() -> None:
    bad = "xyz w - - 0 1"
    with pytest.raises(PDTLError) as error:
        Position.from_pdtl(bad)
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.screen.query_one("#pdtl-note").display
        await tab_to(pilot, app, "pdtl")
        await pilot.press(*bad, "enter")
        await pilot.pause()
        assert app.result is _MISSING
        assert isinstance(app.screen, NewGameDialog)
        assert app.screen.query_one("#pdtl-note").display
        assert note(app, "#pdtl-note") == str(error.value)
        assert focused_id(app) == "pdtl"
        await pilot.press("ctrl+u")  # clear the field: the error goes, the standard start is used
        await pilot.pause()
        assert not app.screen.query_one("#pdtl-note").display
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.pdtl is None


async def test_valid_pdtl_is_returned() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "pdtl")
        app.screen.query_one("#pdtl", Input).insert_text_at_cursor(f"  {INITIAL_PDTL} ")  # as if pasted
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, NewGameOptions)
    assert app.result.pdtl == INITIAL_PDTL


async def test_escape_cancels() -> None:
    app = DialogApp(NewGameOptions("Alice", "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"xyz", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameDialog)
    assert app.result is None


async def test_cancel_and_start_buttons() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "cancel")
        await pilot.press("enter")
        await pilot.pause()
    assert app.result is None
    app = DialogApp(NewGameOptions("Alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#start")
        await pilot.pause()
    assert app.result == NewGameOptions("Alice")


async def test_fits_at_80x24_and_scrolls_to_the_buttons() -> None:
    app = DialogApp(NewGameOptions(pdtl="not a position at all, and quite a long text too"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        frame = app.screen.query_one("#new-frame")
        assert frame.region.height <= 24 and frame.region.width <= 80
        await tab_to(pilot, app, "pdtl")
        await pilot.press("enter")  # the error takes rows
        await tab_to(pilot, app, "start")
        await pilot.pause()
        start = app.screen.query_one("#start")
        assert frame.region.contains_region(start.region)  # scrolled into view


def test_create_game_from_the_options() -> None:
    now = [500.0]
    options = NewGameOptions("Ada", "", PRESETS["Blitz 5+0"], castling=False, clock_starts="now")
    game = options.create_game(time_source=lambda: now[0])
    assert (game.tags["White"], game.tags["Black"]) == ("Ada", "?")
    assert not game.castling_enabled
    assert game.clock is not None and game.clock.running == WHITE
    now[0] += 10
    assert game.clock.remaining(WHITE) == 290
    later = NewGameOptions(time_control=PRESETS["Blitz 5+0"]).create_game(time_source=lambda: now[0])
    assert later.clock is not None and later.clock.running is None
    black_first = INITIAL_PDTL.replace(" w ", " b ")  # the side to move starts its clock
    game = NewGameOptions(time_control=PRESETS["Blitz 5+0"], clock_starts="now", pdtl=black_first).create_game()
    assert game.clock is not None and game.clock.running == BLACK


def chosen(app: App[None], widget_id: str) -> object:
    return app.screen.query_one(f"#{widget_id}", Select).value


@pytest.mark.parametrize(("typed", "preset"), [("5+5", "Blitz 5+5"), ("3+0", "Blitz 3+0"), ("30+0", "Classical 30+0")])
async def test_typing_on_the_time_control_list_filters_it(typed: str, preset: str) -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "preset")
        await pilot.press(*typed)  # on the closed list: it opens, filtered
        await pilot.press("enter")  # the first match
        await pilot.pause()
        assert chosen(app, "preset") == preset


async def test_the_filtered_list_steps_only_through_matches_and_backspace_widens_it() -> None:
    from textual.widgets import OptionList

    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "preset")
        await pilot.press(*"cus")  # "Custom…" was 14 presses of ↓ away
        await pilot.pause()
        overlay = app.screen.query_one("#preset").query_one(OptionList)
        enabled = [i for i, option in enumerate(overlay.options) if not option.disabled]
        assert enabled == [len(PRESETS)] and overlay.highlighted == len(PRESETS)
        await pilot.press("backspace", "backspace", "backspace", *"blitz")
        kept = [str(option.prompt) for option in overlay.options if not option.disabled]
        assert kept and all("Blitz" in label for label in kept)
        await pilot.press("down", "down", "enter")  # the third blitz control
        await pilot.pause()
        assert chosen(app, "preset") == [name for name in PRESETS if "Blitz" in name][2]


async def test_typing_filters_the_players_list_too() -> None:
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await tab_to(pilot, app, "black-seat")
        await pilot.press(*"level 10", "enter")  # the computer at level 10 (its Elo may hold "10" too)
        await pilot.pause()
        assert chosen(app, "black-seat") == str(Contender(10))


@pytest.mark.parametrize("language", ["en", "ca", "es"])
async def test_every_field_label_leaves_a_space_before_its_field_in_each_language(language: str) -> None:
    from rich.cells import cell_len
    from textual.widgets import Label

    from cescacs_tui import i18n

    i18n.set_language(language)
    try:
        app = DialogApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown = [label for label in app.screen.query(".field-label").results(Label) if label.region.width]
            assert len(shown) >= 6
            for label in shown:  # "Posició inicial" ran into its field
                text = str(label.render())
                assert cell_len(text) <= label.content_region.width < label.region.width, text
    finally:
        i18n.set_language("en")


def test_the_filtered_list_uses_only_textuals_public_api() -> None:
    import ast
    import inspect

    from cescacs_tui.tui.widgets import filter_select

    tree = ast.parse(inspect.getsource(filter_select))
    modules = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    modules += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    textual = [module for module in modules if module.startswith("textual")]
    assert textual and not [module for module in textual if any(part.startswith("_") for part in module.split("."))]
