"""A peer's record read once for both ports (remote/peer_record.py): one game, or the same translated reason, which
the coordinator's client (RemoteGame) and the server's game (ServerGame) each put after their own words."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.remote.coordinator import Coordinator
from cescacs_tui.remote.lobby_link import Reply
from cescacs_tui.remote.peer_record import PeerRecordError, one_game
from cescacs_tui.remote.port import RemoteGame
from cescacs_tui.remote.server_game import ServerGame
from cescacs_tui.session import GameSession, Tone
from tests.helpers.remote import TOKEN

ONE = write_pgn(Game.new())


def test_one_game_is_the_game_of_the_record() -> None:
    game = Game.new()
    game.play_text("H6-H12")
    assert [node.san for node in one_game(write_pgn(game)).nodes] == ["H6-H12"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "0 games instead of one"), (ONE + "\n" + ONE, "2 games instead of one"), ('[Event "x"]\n\nZ9-Z99 *', "")],
)
def test_a_record_that_is_not_one_game_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(PeerRecordError) as refused:
        one_game(text)
    assert str(refused.value) and reason in str(refused.value)


def test_both_ports_refuse_such_a_record_with_the_same_reason_after_their_own_words() -> None:
    two = ONE + "\n" + ONE
    remote = RemoteGame(lambda request: True)
    GameSession(port=remote)
    said = remote.apply(replace(Coordinator(Game.new(), token=TOKEN).snapshot(), pgn=two))
    assert said.tone is Tone.ERROR
    assert said.text == "the coordinator sent a record this client cannot read: 2 games instead of one"
    server = ServerGame(7, lambda argv: True)
    GameSession(port=server)
    said = server.load(Reply(two), Reply(json.dumps({"id": 7, "status": "active", "kind": "live"})))
    assert said.tone is Tone.ERROR
    assert said.text == "the server sent a record this app cannot read: 2 games instead of one"
