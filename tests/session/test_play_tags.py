"""The spec's Mode, WhiteType and BlackType tags (NOTATION.md 7.3.3) in computer, remote and SSH games' records."""

from __future__ import annotations

import argparse

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.session import GameSession
from cescacs_tui.session.players import HUMAN, parse_player


def tags_of(game: Game) -> dict[str, str]:
    """The tags the record says, read back from what the writer wrote."""
    return dict(read_pgn(write_pgn(game))[0].tags)


def test_a_game_against_the_computer_is_written_over_the_board_with_a_program_on_its_side() -> None:
    session = GameSession()
    session.players = (HUMAN, parse_player("computer:5"))
    tags = tags_of(session.game)
    assert (tags["Mode"], tags["WhiteType"], tags["BlackType"]) == ("OTB", "human", "program")


def test_a_new_game_against_the_computer_gets_the_tags_too() -> None:
    session = GameSession()
    session.port.start_game(Game.new(), players=(parse_player("computer:2"), HUMAN))
    tags = tags_of(session.game)
    assert (tags["Mode"], tags["WhiteType"], tags["BlackType"]) == ("OTB", "program", "human")


def test_a_hot_seat_game_is_written_over_the_board_as_notation_md_recommends() -> None:
    session = GameSession()
    session.players = (HUMAN, HUMAN)
    assert tags_of(session.game)["Mode"] == "OTB"  # NOTATION.md 7.5: the tags of a game played in the TUI


def test_a_record_opened_keeps_the_tags_it_had() -> None:
    session = GameSession()
    record = write_pgn(Game.new()).replace('[Mode "OTB"]\n', '[Mode "EM"]\n')
    session.show_record(read_pgn(record)[0], 1, "mail.ctl-pgn")
    assert tags_of(session.game)["Mode"] == "EM" and "WhiteType" not in tags_of(session.game)


@pytest.mark.parametrize(("mode", "written"), [("PEER_TO_PEER", "TC"), ("CHESS_SERVER", "ICS")])
def test_the_games_of_a_host_and_of_an_ssh_server_say_how_they_were_played(mode: str, written: str) -> None:
    from cescacs_tui.cli.remote import _game_factory
    from cescacs_tui.session import players

    new_game = _game_factory(argparse.Namespace(time=None, no_castling=False), getattr(players, mode))
    tags = tags_of(new_game())
    assert (tags["Mode"], tags["WhiteType"], tags["BlackType"]) == (written, "human", "human")
