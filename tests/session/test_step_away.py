"""The game waits while another screen covers it (GameSession.step_away and come_back): a clock that can pause is
paused and resumed, a clock the player paused stays paused, the computer's move while away leaves the player's clock
paused, and a clock that cannot pause (a server's game) keeps running, said."""

from __future__ import annotations

import datetime
import json

from cescacs_tui.core import BLACK, WHITE
from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.remote.lobby_link import Reply
from cescacs_tui.remote.server_game import ServerGame
from cescacs_tui.session import GameSession, Tone
from cescacs_tui.session.players import HUMAN, Contender
from tests.helpers.clock import FakeTime

FIVE_MINUTES = TimeControl(ClockKind.SUDDEN_DEATH, base=300)


def timed(now: FakeTime) -> GameSession:
    """A game at one board whose clocks run: White has moved, Black's clock runs."""
    session = GameSession(Game.new(time_control=FIVE_MINUTES, time_source=now))
    assert session.play_text("E7-E13").done
    return session


def left(session: GameSession, colour: object) -> float:
    clock = session.game.clock
    assert clock is not None
    return clock.remaining(colour)  # type: ignore[arg-type]


def test_the_clock_waits_while_the_player_is_away_and_runs_again_on_return() -> None:
    now = FakeTime()
    session = timed(now)
    now.advance(10)
    assert session.step_away().text is None and session.away
    now.advance(600)  # a long review: no flag falls
    assert left(session, BLACK) == 290 and not session.check_time().text
    session.come_back()
    assert not session.away and session.game.clock is not None and session.game.clock.running is BLACK
    now.advance(5)
    assert left(session, BLACK) == 285


def test_a_clock_the_player_paused_stays_paused() -> None:
    now = FakeTime()
    session = timed(now)
    session.pause_clock()
    session.step_away()
    session.come_back()
    assert session.game.clock is not None and session.game.clock.paused


def test_the_computers_move_while_away_leaves_the_players_clock_waiting() -> None:
    now = FakeTime()
    session = timed(now)
    session.players = (HUMAN, Contender(3))
    session.step_away()
    now.advance(30)  # the computer thinks, its clock paused too
    reply = session.game.position.parse_move("E21-E15")
    assert session.play_computer(reply).done
    now.advance(100)
    assert left(session, BLACK) == 300 and left(session, WHITE) == 300
    session.come_back()
    now.advance(7)
    assert left(session, WHITE) == 293


def test_nothing_to_pause_without_a_running_clock() -> None:
    session = GameSession(Game.new(time_control=FIVE_MINUTES))  # the first move starts the clocks
    assert session.step_away().text is None
    session.come_back()
    assert session.game.clock is not None and not session.game.clock.paused and session.game.clock.running is None


def test_a_server_games_clock_keeps_running_and_the_player_is_told() -> None:
    moment = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.UTC)
    port = ServerGame(7, lambda argv: True, now=lambda: moment)
    session = GameSession(port=port)
    game = Game.new(white="ana", black="bo")
    game.tags["TimeControl"] = "300"
    deadline = (moment + datetime.timedelta(seconds=250)).isoformat()
    state = {"id": 7, "status": "playing", "kind": "live", "time_control": "300", "to_move": "white",
             "your_side": "white", "deadline": deadline}  # fmt: skip
    port.load(Reply(write_pgn(game)), Reply(json.dumps(state)))
    assert session.game.clock is not None and session.game.clock.running is WHITE
    said = session.step_away()
    assert said.tone is Tone.INFO
    assert said.text == "the game's clock keeps running meanwhile: a server game's clock cannot be paused"
    assert session.game.clock.running is WHITE and not session.game.clock.paused
    session.come_back()
    assert session.game.clock.running is WHITE
