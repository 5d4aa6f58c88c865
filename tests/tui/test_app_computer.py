"""A game against the computer in the app, with the real engine (seeded, a few thousand nodes a move, so the game
is the same every run): it plays to the end, with a hint, the analysis panel, a takeback and redo, and the clocks;
and a takeback while the computer thinks stops it without any move reaching the wrong position."""

from __future__ import annotations

import sys
from collections.abc import Callable

from textual.pilot import Pilot

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.data.settings import Settings
from cescacs_tui.engine.search import Limits
from cescacs_tui.session import GameSession
from cescacs_tui.session.players import HUMAN, TWO_PEOPLE, Contender, computer_name
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.screens.game import GameScreen
from cescacs_tui.tui.themes import BoardHostApp
from cescacs_tui.tui.widgets.engine_panels import AnalysisPanel, ThinkingLine
from tests.helpers import waiting
from tests.helpers.app import message
from tests.helpers.reference import load_jsonl
from tests.helpers.waiting import PATIENCE

MATE_IN_TWO = next(r["pdtl"] for r in load_jsonl("mates.jsonl") if r["mate_in"] == 2 and " w " in r["pdtl"])
"""White to move mates in two, whatever Black answers: the computer plays White."""


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    await waiting.until(done, what)
    await pilot.pause()


def computer_app(game: Game, players: tuple[Contender, Contender], limits: Limits) -> CescacsApp:
    app = CescacsApp(game, players=players)
    app.opponent.options = {"Seed": 1}
    app.opponent.limits = limits
    app.opponent.hint_limits = Limits(nodes=2000)
    app.opponent.timeout = PATIENCE
    return app


def panel_text(app: CescacsApp, kind: type[AnalysisPanel] | type[ThinkingLine]) -> str:
    return str(app.screen.query_one(kind).render())


async def test_a_game_against_the_computer_to_its_end_with_hint_analysis_takeback_and_clocks() -> None:
    game = Game.new(pdtl=MATE_IN_TWO, white=computer_name(10), time_control=TimeControl.from_tag("300+2"))
    assert game.clock is not None
    game.clock.start(WHITE)
    app = computer_app(game, (Contender(10), HUMAN), Limits(nodes=3000))
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: game.ply == 1, "the computer's first move")
        assert message(app).startswith("White played ")
        assert app.board.view.last_move  # shown as the last move, like a person's
        assert game.clock.running == BLACK and game.clock.remaining(WHITE) < 302  # its clock ran, then the increment
        assert not app.screen.query_one(ThinkingLine).display

        await pilot.press("h")
        await until(pilot, lambda: message(app).startswith("hint: "), "the hint")
        assert "from White's side" in message(app)
        assert len(app.session.preview) >= 2 and game.ply == 1  # shown on the board, not played

        await pilot.press("A")
        panel = app.screen.query_one(AnalysisPanel)
        assert panel.display
        await until(pilot, lambda: "depth" in panel_text(app, AnalysisPanel), "an analysis report")
        assert "White mates" in panel_text(app, AnalysisPanel) or "+" in panel_text(app, AnalysisPanel)

        reply = sorted(game.position.legal_moves(), key=str)[0]
        await pilot.press("slash", *str(reply), "enter")
        await until(pilot, lambda: game.is_over, "the computer's mate")
        assert game.ply == 3 and game.result == "3-0" and "White played" in message(app)
        assert app.session.refusal("hint") is not None  # no move to look for after the mate

        await pilot.press("escape", "u")  # back on the board, then take back: the mate and the person's move
        await pilot.pause()
        assert game.ply == 1 and not game.is_over and game.position.turn == BLACK
        assert "the computer's reply" in message(app)
        await until(pilot, lambda: "depth" in panel_text(app, AnalysisPanel), "the analysis of the position again")
        await pilot.press("U")
        await pilot.pause()
        assert game.ply == 3 and game.is_over  # both replayed: the computer does not think again

        await pilot.press("A")
        await pilot.pause()
        assert not panel.display and app.opponent.analysing is None
    assert app.opponent._client is None  # the engine process ended with the app


async def test_a_takeback_while_the_computer_thinks_stops_it_and_its_answer_never_reaches_the_board() -> None:
    game = Game.new(black=computer_name(10))
    app = computer_app(game, (HUMAN, Contender(10)), Limits(infinite=True))  # it thinks until stopped
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        await until(pilot, lambda: app.screen.query_one(ThinkingLine).display, "the thinking line")
        assert "The computer is thinking" in panel_text(app, ThinkingLine)
        await pilot.press(*"e21-e15", "enter")  # the move box is still open: a move for the computer is refused
        await pilot.pause()
        assert "the computer is thinking" in message(app) and game.ply == 1
        await pilot.press("escape", "u")
        await until(pilot, lambda: not app.screen.query_one(ThinkingLine).display, "the end of the thinking")
        assert game.ply == 0 and message(app) == "took back E7-E13"
        await app.opponent.stop()  # the engine has answered the stopped search: that answer would be played by now
        await pilot.pause()
        assert game.ply == 0 and not app.opponent.thinking


async def test_an_engine_setting_that_cannot_play_is_said_in_the_app_and_people_play_on() -> None:
    settings = Settings(engine=f"{sys.executable} -c \"print('garbage, not an engine')\"")
    app = CescacsApp(Game.new(), players=(Contender(3), HUMAN), settings=settings)
    app.opponent.timeout = PATIENCE
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: "the computer cannot play" in message(app), "the engine's failure")
        assert "the engine exited" in message(app) and "people play both sides now" in message(app)
        assert app.session.players == TWO_PEOPLE
        await until(pilot, lambda: not app.screen.query_one(ThinkingLine).display, "the thinking line to go")
        await pilot.press("slash", *"e7-e13", "enter")
        await pilot.pause()
        assert app.game.ply == 1


def test_the_engine_setting_is_read_and_checked() -> None:
    assert Settings.from_dict({"engine": " /usr/bin/engine --fast "}).engine == "/usr/bin/engine --fast"
    for bad in ("'unclosed", 3, "engine\x1b[31m"):
        settings = Settings.from_dict({"engine": bad})
        assert settings.engine == "" and len(settings.problems) == 1 and "engine" in str(settings.problems[0])


class ScreenApp(BoardHostApp[None]):
    """A game screen given no engine of the app's: it makes its own, and must close it."""

    def get_default_screen(self) -> GameScreen:
        return GameScreen(GameSession())


async def test_a_screen_closes_the_engine_it_started_for_a_hint() -> None:
    app = ScreenApp()
    async with app.run_test(size=(110, 36)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.opponent.hint_limits = Limits(nodes=300)
        await pilot.press("h")
        await until(pilot, lambda: message(app).startswith("hint: "), "the hint")
        assert screen.opponent._client is not None
    assert screen.opponent._client is None
