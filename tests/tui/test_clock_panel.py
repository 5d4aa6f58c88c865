"""The clock panel: both clocks read from a ChessClock on a fake time source, through Textual's pilot.

The fake time only moves when a test says so, so every displayed time is exact; the panel is
redrawn by calling its ``refresh_clock`` (what its own timer calls) unless a test checks the timer.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical

from cescacs_tui.core.clock import ChessClock
from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import BLACK, WHITE, Colour
from cescacs_tui.tui.widgets.clock_panel import (
    FAST_REFRESH,
    SLOW_REFRESH,
    ClockPanel,
    next_redraw,
    warning_thresholds,
)
from tests.helpers.clock import DELAY_5_5, SUDDEN_5, FakeTime, fake_clock
from tests.helpers.waiting import until


class PanelApp(App[None]):
    """A ClockPanel in a side column as wide as the app's at 80x24 (31 cells with its border)."""

    CSS = "#side { width: 31; border-left: solid $panel; }"

    def __init__(self, *, hide_without_clock: bool = True) -> None:
        super().__init__()
        self.flags: list[ClockPanel.FlagFell] = []
        self._hide = hide_without_clock

    def compose(self) -> ComposeResult:
        with Vertical(id="side"):
            yield ClockPanel(id="clocks", hide_without_clock=self._hide)

    @property
    def panel(self) -> ClockPanel:
        return self.query_one(ClockPanel)

    def on_clock_panel_flag_fell(self, message: ClockPanel.FlagFell) -> None:
        self.flags.append(message)


def row(panel: ClockPanel, colour: Colour) -> str:
    """One clock's row as plain text."""
    return panel.face(colour).plain


def rows(app: PanelApp) -> list[str]:
    """The screen lines of the side column, as drawn."""
    region = app.panel.region
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip)[region.x : region.right] for strip in strips[: region.height]]


async def test_shows_both_clocks_and_the_running_time() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        await pilot.pause()
        assert row(panel, WHITE).endswith(" 5:00") and row(panel, BLACK).endswith(" 5:00")
        clock.start(WHITE)
        time.now += 75
        panel.refresh_clock()
        await pilot.pause()
        assert row(panel, WHITE).endswith(" 3:45")
        assert row(panel, BLACK).endswith(" 5:00")
        time.now += 0.25  # rounded up: 3:44.75 still shows 3:45
        panel.refresh_clock()
        assert row(panel, WHITE).endswith(" 3:45")
        time.now += 0.75
        panel.refresh_clock()
        assert row(panel, WHITE).endswith(" 3:44")


async def test_layout_two_rows_in_the_narrow_side_panel() -> None:
    """Black on top, White below (like the board), one row each, inside 28 cells; flipped swaps them."""
    clock, _ = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock, names=("Alice", "Bob"))
        await pilot.pause()
        assert panel.region.height == 2
        assert panel.face(WHITE).region.width == 28
        top, bottom = rows(app)
        assert "Bob" in top and "Alice" in bottom
        assert top.rstrip().endswith("5:00") and bottom.rstrip().endswith("5:00")
        panel.show_clock(clock, names=("Alice", "Bob"), flipped=True)
        await pilot.pause()
        top, bottom = rows(app)
        assert "Alice" in top and "Bob" in bottom


async def test_long_and_markup_like_names_are_cut_not_interpreted() -> None:
    clock, _ = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock, names=("[bold]Alice[/bold] of a very long family name", "?"))
        await pilot.pause()
        white = row(panel, WHITE)
        assert len(white) == 28
        assert "[bold]Alice" in white and "\u2026" in white
        assert white.endswith(" 5:00")
        assert "Black" in row(panel, BLACK)  # "?" shows the colour


async def test_tenths_under_ten_seconds() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        time.now += 290.5
        panel.refresh_clock()
        await pilot.pause()
        assert row(panel, WHITE).endswith(" 0:09.5")
        assert row(panel, BLACK).endswith(" 5:00")


async def test_running_marker_moves_after_press() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        assert "\u25b6" not in row(panel, WHITE) + row(panel, BLACK)  # not started
        clock.start(WHITE)
        panel.refresh_clock()
        await pilot.pause()
        assert row(panel, WHITE).startswith("\u25b6") and not row(panel, BLACK).startswith("\u25b6")
        assert panel.face(WHITE).has_class("-running") and not panel.face(BLACK).has_class("-running")
        time.now += 10
        clock.press()
        panel.refresh_clock()
        await pilot.pause()
        assert row(panel, BLACK).startswith("\u25b6") and not row(panel, WHITE).startswith("\u25b6")
        assert panel.face(BLACK).has_class("-running") and not panel.face(WHITE).has_class("-running")
        assert row(panel, WHITE).endswith(" 4:50")


async def test_running_row_is_bold_and_reversed() -> None:
    """The running side is marked by more than colour."""
    clock, _ = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(BLACK)
        panel.refresh_clock()
        await pilot.pause()
        running, waiting = panel.face(BLACK).styles.text_style, panel.face(WHITE).styles.text_style
        assert running.bold and running.reverse
        assert not waiting.reverse


async def test_paused_is_shown() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        time.now += 30
        clock.pause()
        time.now += 500  # paused: no time passes
        panel.refresh_clock()
        await pilot.pause()
        assert "paused" in row(panel, WHITE) and row(panel, WHITE).endswith(" 4:30")
        assert "paused" not in row(panel, BLACK)
        assert panel.face(WHITE).has_class("-paused") and not panel.face(WHITE).has_class("-running")
        assert panel._timer is None  # nothing runs, nothing to redraw
        clock.resume()
        panel.refresh_clock()
        assert "paused" not in row(panel, WHITE) and row(panel, WHITE).startswith("\u25b6")


@pytest.mark.parametrize(
    ("elapsed", "expected"),
    [(200, None), (271, "-warning"), (289, "-warning"), (290.5, "-error")],
)
async def test_warning_and_error_styles_when_low(elapsed: float, expected: str | None) -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        time.now += elapsed
        panel.refresh_clock()
        await pilot.pause()
        classes = {name for name in ("-warning", "-error") if panel.face(WHITE).has_class(name)}
        assert classes == ({expected} if expected else set())
        assert not panel.face(BLACK).has_class("-warning") and not panel.face(BLACK).has_class("-error")


def test_warning_thresholds() -> None:
    assert warning_thresholds(300) == (30, 10)
    assert warning_thresholds(5400) == (540, 10)  # 10% of a long game
    assert warning_thresholds(30) == (15, 10)  # never from more than half the time
    assert warning_thresholds(60) == (30, 10)


async def test_flag_fell_posted_exactly_once() -> None:
    time = FakeTime()
    game = Game.new(time_control=SUDDEN_5, time_source=time)
    clock = game.clock
    assert clock is not None
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        time.now += 299.9
        panel.refresh_clock()
        await pilot.pause()
        assert app.flags == []
        time.now += 0.1
        panel.refresh_clock()
        panel.refresh_clock()
        await pilot.pause()
        assert [(m.colour, m.clock) for m in app.flags] == [(WHITE, clock)]
        assert "flag" in row(panel, WHITE) and row(panel, WHITE).endswith(" 0:00.0")
        assert panel.face(WHITE).has_class("-flag")
        assert panel._timer is None  # a fallen flag stops the redraws
        time.now += 5
        panel.refresh_clock()
        assert game.check_time() is not None  # what the app does on FlagFell
        panel.show_clock(game.clock)
        panel.refresh_clock()
        await pilot.pause()
        assert len(app.flags) == 1
        assert "flag" in row(panel, WHITE)


async def test_flag_reported_again_only_after_the_clock_runs_again() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        before = clock.snapshot()
        time.now += 301
        assert clock.check_flag() == WHITE
        panel.refresh_clock()
        panel.refresh_clock()
        await pilot.pause()
        assert len(app.flags) == 1
        clock.restore(before)  # a takeback reopens the game
        panel.refresh_clock()
        assert "flag" not in row(panel, WHITE) and row(panel, WHITE).endswith(" 5:00")
        time.now += 300
        panel.refresh_clock()
        await pilot.pause()
        assert len(app.flags) == 2


async def test_refreshes_itself_while_running() -> None:
    clock, time = fake_clock(SUDDEN_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        panel.refresh_clock()
        time.now += 61
        await until(lambda: row(panel, WHITE).endswith(" 3:59"), "its own timer to redraw it")
        assert rows(app)[1].rstrip().endswith("3:59")
        clock.stop()
        panel.refresh_clock()
        assert panel._timer is None
        await pilot.pause()


def test_next_redraw_is_aligned_and_capped() -> None:
    assert next_redraw(14.3, 14.3) == pytest.approx(0.305)  # 15 -> 14 when 14.0 s are left
    assert next_redraw(300.0, 300.0) == SLOW_REFRESH  # a whole second away: capped
    assert next_redraw(9.95, 9.95) == pytest.approx(0.055)  # tenths: 0:10 -> 0:09.9
    assert next_redraw(5.0, 5.0) <= FAST_REFRESH
    assert next_redraw(5.0, 8.0) == FAST_REFRESH  # a simple delay holds the time, still capped
    assert next_redraw(0.001, 0.001) > 0


async def test_simple_delay_keeps_the_time_and_flag_waits_for_it() -> None:
    clock, time = fake_clock(DELAY_5_5)
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(clock)
        clock.start(WHITE)
        time.now += 3
        panel.refresh_clock()
        await pilot.pause()
        assert row(panel, WHITE).endswith(" 5:00")
        time.now += 302  # 5 s delay + 300 s: used up
        panel.refresh_clock()
        await pilot.pause()
        assert [m.colour for m in app.flags] == [WHITE]


async def test_no_clock_hidden_or_shown() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_clock(None)
        await pilot.pause()
        assert not app.panel.display
        app.panel.show_clock(ChessClock(SUDDEN_5, time_source=FakeTime()))
        await pilot.pause()
        assert app.panel.display
    app = PanelApp(hide_without_clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.panel
        panel.show_clock(None)
        await pilot.pause()
        assert panel.display and panel.region.height == 1
        assert "No clock" in rows(app)[0]


async def test_clock_shown_before_mount_refreshes_once_mounted() -> None:
    clock, time = fake_clock(SUDDEN_5)
    clock.start(BLACK)
    panel = ClockPanel()
    panel.show_clock(clock)

    class EarlyApp(App[None]):
        def compose(self) -> ComposeResult:
            yield panel

    async with EarlyApp().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert panel.face(BLACK).plain.endswith(" 5:00")
        time.now += 30
        await until(lambda: panel.face(BLACK).plain.endswith(" 4:30"), "its own timer to redraw it")
