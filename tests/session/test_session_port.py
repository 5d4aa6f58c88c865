"""Every command that changes the game goes through the session's port, whatever port it is, present or future."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.move import Move
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.remote.coordinator import Coordinator
from cescacs_tui.remote.port import RemoteGame
from cescacs_tui.session import ACTIONS, Confirm, Feedback, GamePort, GameSession, LocalGame, Scope
from cescacs_tui.session.players import Players
from tests.helpers.remote import TOKEN, hello, move, seat

COMMANDS = sorted(GamePort.__abstractmethods__ - {"blocked", "refusal"})
"""What a port must say it does: every command that changes the game."""


class Recording(GamePort):
    """A port that changes nothing and remembers which command reached it."""

    def __init__(self) -> None:
        self.reached: list[str] = []

    def _reach(self, name: str) -> Feedback:
        self.reached.append(name)
        return Feedback(name)

    def blocked(self) -> str | None:
        return None

    def refusal(self, action: str) -> str | None:
        return None

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        return self._reach("play")

    def play_computer(self, move: Move) -> Feedback:
        return self._reach("play_computer")

    def takeback(self) -> Feedback:
        return self._reach("takeback")

    def redo(self) -> Feedback:
        return self._reach("redo")

    def resign(self) -> Feedback:
        return self._reach("resign")

    def offer_draw(self) -> Feedback:
        return self._reach("offer_draw")

    def claim_draw(self) -> Feedback:
        return self._reach("claim_draw")

    def check_time(self) -> Feedback:
        return self._reach("check_time")

    def pause_clock(self) -> Feedback:
        return self._reach("pause_clock")

    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        return self._reach("start_game")

    def request_new_game(self) -> Feedback | None:
        return self._reach("request_new_game")


def _arguments(name: str) -> tuple[Any, ...]:
    parameters = [p for p in inspect.signature(getattr(GameSession, name)).parameters.values() if p.name != "self"]
    given = {"move": Game.new().position.parse_move("E7-E13"), "game": Game.new()}
    return tuple(given[p.name] for p in parameters if p.default is inspect.Parameter.empty)


@pytest.mark.parametrize("name", COMMANDS)
def test_the_sessions_command_goes_to_its_port_and_nowhere_else(name: str) -> None:
    port = Recording()
    session = GameSession(port=port)
    before = write_pgn(session.game)
    getattr(session, name)(*_arguments(name))
    assert port.reached == [name]
    assert write_pgn(session.game) == before


def test_the_typed_moves_and_the_board_picks_reach_the_port_as_plays() -> None:
    port = Recording()
    session = GameSession(port=port)
    session.play_text("E7-E13")
    session.pick(session.game.position.parse_move("E7-E13").origin)
    session.pick(session.game.position.parse_move("E7-E13").target)
    assert port.reached == ["play", "play"] and session.game.ply == 0


def test_a_port_that_does_not_say_what_a_command_does_cannot_be_made() -> None:
    said = {name: getattr(Recording, name) for name in GamePort.__abstractmethods__ if name != "redo"}
    forgetful = type("Forgetful", (GamePort,), said)  # as a port written before the command existed
    with pytest.raises(TypeError, match="redo"):
        forgetful()


def test_both_ports_say_what_every_command_does() -> None:
    for port in (LocalGame, RemoteGame):
        assert not port.__abstractmethods__, port


@pytest.mark.parametrize("name", sorted(a.name for a in ACTIONS.values() if a.scope is Scope.SESSION))
def test_no_action_of_a_joined_game_changes_its_copy_of_the_game(name: str) -> None:
    """The copy changes only when the coordinator says so (a snapshot); every action is a request, or refused."""
    coordinator = Coordinator(Game.new(), token=TOKEN)
    remote = RemoteGame(lambda request: True)  # sent, and never answered
    session = GameSession(port=remote)
    member = coordinator.join(Delivering(remote), hello("white", client="ana", name="Ana"))
    assert member is not None
    remote.link_changed(True)
    black, _ = seat(coordinator, "black", name="Bo")
    for mover, text in ((member, "E7-E13"), (black, "E21-E15"), (member, "F8-F12")):
        assert move(coordinator, mover, text) is None
    assert session.game.ply == 3
    before = write_pgn(session.game)
    feedback = getattr(session, name)()
    if isinstance(feedback.question, Confirm):
        feedback.question.answer(True)
    assert write_pgn(session.game) == before


class Delivering:
    """A coordinator's peer that hands each line to a client's port at once."""

    def __init__(self, remote: RemoteGame) -> None:
        self.remote = remote

    def send(self, line: bytes) -> None:
        self.remote.receive(json.loads(line))

    def close(self, error: object = None) -> None:
        return None
