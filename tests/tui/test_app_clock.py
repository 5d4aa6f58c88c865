"""Clocks in the app, driven by an injected time source: increment, delay, pause, flag fall, takeback."""

from __future__ import annotations

from cescacs_tui.core import BLACK, WHITE, Ending
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.widgets.clock_panel import ClockPanel
from tests.helpers.app import message
from tests.helpers.clock import FakeTime


def clocked(control: TimeControl, now: FakeTime) -> CescacsApp:
    return CescacsApp(Game.new(white="Ana", black="Bru", time_control=control, time_source=now))


def face(app: CescacsApp, colour: int) -> str:
    return app.query_one(ClockPanel).face(WHITE if colour == 0 else BLACK).plain


async def type_move(pilot, text: str) -> None:
    await pilot.pause()  # the side panel with the move box is mounted after the first paint
    await pilot.press("slash", *text, "enter", "escape")


async def test_increment_is_added_after_a_move_and_shown() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.FISCHER, base=300, increment=5), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()  # the side panel is mounted just after the first paint
        assert "5:00" in face(app, 0) and "5:00" in face(app, 1)
        await type_move(pilot, "e7-e13")  # the first move starts the clocks
        now.now += 20
        await type_move(pilot, "e21-e15")
        assert app.game.clock is not None
        assert app.game.clock.remaining(WHITE) == 305
        assert app.game.clock.remaining(BLACK) == 285
        assert "5:05" in face(app, 0) and "4:45" in face(app, 1)
        assert face(app, 0).startswith("\u25b6")  # White's clock runs again


async def test_simple_delay_costs_nothing_within_the_delay() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.SIMPLE_DELAY, base=60, delay=5), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        now.now += 4
        await type_move(pilot, "e21-e15")
        assert app.game.clock is not None and app.game.clock.remaining(BLACK) == 60
        now.now += 8
        await type_move(pilot, "f8-f12")
        assert app.game.clock.remaining(WHITE) == 57


async def test_pause_freezes_the_running_clock() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.SUDDEN_DEATH, base=120), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        now.now += 10
        await pilot.press("p")
        assert "paused" in face(app, 1) and "paused" in message(app)
        now.now += 500
        app.query_one(ClockPanel).refresh_clock()
        assert app.game.clock is not None and app.game.clock.remaining(BLACK) == 110
        await pilot.press("p")
        now.now += 5
        assert app.game.clock.remaining(BLACK) == 105


async def test_flag_fall_ends_the_game_on_time() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.SUDDEN_DEATH, base=30), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        now.now += 30
        app.query_one(ClockPanel).refresh_clock()  # what the panel's timer does
        await pilot.pause()
        assert app.game.outcome is not None and app.game.outcome.ending is Ending.TIME_FORFEIT
        assert (app.game.result, app.game.termination) == ("3-0", "White wins on time")
        assert "White wins on time" in message(app)
        await type_move(pilot, "e21-e15")
        assert app.game.ply == 1  # no move after the flag


async def test_takeback_restores_both_clocks() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.FISCHER, base=300, increment=2), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        now.now += 12
        await type_move(pilot, "e21-e15")
        now.now += 7
        assert app.game.clock is not None
        before = (app.game.clock.remaining(WHITE), app.game.clock.remaining(BLACK))
        await type_move(pilot, "f8-f12")
        now.now += 40
        await pilot.press("u")
        assert (app.game.clock.remaining(WHITE), app.game.clock.remaining(BLACK)) == before
        assert app.game.clock.running == WHITE
        assert "4:55" in face(app, 0)  # 302 - 7 = 295 s


async def test_tenths_show_under_ten_seconds() -> None:
    now = FakeTime()
    app = clocked(TimeControl(ClockKind.SUDDEN_DEATH, base=20), now)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        now.now += 10.5
        app.query_one(ClockPanel).refresh_clock()
        assert "0:09.5" in face(app, 1)
