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


async def test_the_clock_waits_while_the_review_or_the_puzzles_cover_the_game() -> None:
    """A player who leaves the board for the review or the puzzles finds the clock as they left it, running again."""
    from cescacs_tui.tui.screens.puzzles import PuzzleScreen
    from cescacs_tui.tui.screens.review import ReviewScreen
    from tests.helpers.review import instant_review
    from tests.helpers.waiting import until

    now = FakeTime()
    game = Game.new(
        white="Ana", black="Bru", time_control=TimeControl(ClockKind.SUDDEN_DEATH, base=120), time_source=now
    )
    app = CescacsApp(game, reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_move(pilot, "e7-e13")
        clock = app.game.clock
        assert clock is not None
        now.advance(10)
        await pilot.press("ctrl+r")
        await until(lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, "the review")
        now.advance(500)  # longer than Black has: no flag falls while the game is covered
        app.query_one(ClockPanel).refresh_clock()  # what the panel's timer does
        assert clock.remaining(BLACK) == 110 and app.game.outcome is None and clock.paused
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen and not clock.paused, "the game again, its clock running")
        assert clock.running is BLACK
        now.advance(5)
        assert clock.remaining(BLACK) == 105
        {command.title: command for command in app.get_system_commands(app.screen)}["Puzzles"].callback()
        await until(lambda: isinstance(app.screen, PuzzleScreen) and bool(app.screen.query("#puzzle-deck")), "puzzles")
        await pilot.pause()
        now.advance(300)
        assert clock.remaining(BLACK) == 105 and clock.paused
        puzzles = app.screen
        assert isinstance(puzzles, PuzzleScreen)
        puzzles.action_leave()
        await until(lambda: app.screen is app.game_screen and not clock.paused, "the game again, its clock running")
        now.advance(1)
        assert clock.remaining(BLACK) == 104 and clock.running is BLACK
        await pilot.press("p")  # the player's own pause
        await pilot.press("ctrl+r")
        await until(lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, "the review")
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen, "the game again")
        await pilot.pause()
        assert clock.paused  # still the player's pause: only they resume it
