"""Players on the session: the computer's turn refuses the player's moves, takeback and redo reach the person's turn,
the players are saved and resumed, the record names the computer.  No engine runs here: the computer's moves are
played through :meth:`GameSession.play_computer`, as :mod:`cescacs_tui.session.opponent` plays them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cescacs_tui.core import WHITE
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.core.pieces import BLACK
from cescacs_tui.data.autosave import load_autosave
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.slots import AutosaveSlot
from cescacs_tui.engine.levels import LEVELS
from cescacs_tui.session import Confirm, GameSession, Tone
from cescacs_tui.session.players import (
    DEFAULT_LEVEL,
    HUMAN,
    LEVEL_COUNT,
    TWO_PEOPLE,
    Contender,
    computer_name,
    human_side,
    parse_player,
    player_names,
    players_from,
    takeback_plies,
)
from tests.helpers.games import FOOLS_MATE

COMPUTER_BLACK = (HUMAN, Contender(3))


def against_computer(*moves: str) -> GameSession:
    """A session where a person plays White against the computer, after ``moves`` (White's, then the computer's)."""
    session = GameSession(Game.new(black=computer_name(3)))
    session.players = COMPUTER_BLACK
    for ply, text in enumerate(moves):
        if ply % 2 == 0:
            assert session.play_text(text).done
        else:
            assert session.play_computer(session.game.position.parse_move(text)).done
    return session


def test_two_people_by_default_and_the_computer_is_never_to_move_then() -> None:
    session = GameSession()
    assert session.players == TWO_PEOPLE and not session.against_computer
    session.play_text("E7-E13")
    assert not session.computer_to_move


def test_while_the_computer_is_to_move_the_players_moves_are_refused_with_the_reason() -> None:
    session = against_computer("E7-E13")
    assert session.computer_to_move
    reason = "the computer is thinking: wait for its move, or take yours back with u"
    refused = session.play_text("E21-E15")
    assert refused.tone is Tone.ERROR and refused.text == f"E21-E15: {reason}"
    assert session.pick(session.game.position.king(BLACK)).text == reason
    assert session.selection is None
    for action in ("claim_draw", "hint"):
        assert session.refusal(action) == reason
    for action in ("takeback", "resign", "review_back", "review_start", "new_game"):
        assert session.refusal(action) is None, action
    assert session.game.ply == 1


def test_the_computer_takes_no_draw_offer_typed_or_asked() -> None:
    session = against_computer("E7-E13", "E21-E15")
    refused = session.play_text("H6-H12 (=)")
    assert refused.tone is Tone.ERROR and "the computer plays on" in (refused.text or "")
    assert session.game.ply == 2  # nothing played
    session.play_text("H6-H12")
    session.play_computer(session.game.position.parse_move("H22-H16"))
    assert session.refusal("offer_draw") == "the computer plays on: it takes no draw offers"


def test_takeback_against_the_computer_undoes_its_reply_too_and_redo_replays_both() -> None:
    session = against_computer("E7-E13", "E21-E15", "H6-H12", "H22-H16")
    said = session.takeback()
    assert said.text == "took back H6-H12 and the computer's reply H22-H16"
    assert session.game.moves == session.game.moves[:2] and session.game.ply == 2
    assert session.game.position.turn == WHITE and not session.computer_to_move
    again = session.redo()
    assert again.text == "replayed H6-H12 and the computer's reply H22-H16"
    assert session.game.ply == 4 and not session.computer_to_move


def test_takeback_while_the_computer_thinks_undoes_only_the_persons_move() -> None:
    session = against_computer("E7-E13", "E21-E15", "H6-H12")
    assert session.computer_to_move
    assert session.takeback().text == "took back H6-H12"
    assert session.game.ply == 2 and not session.computer_to_move
    assert session.redo().text == "replayed H6-H12"  # the computer had not answered: it is to think again
    assert session.game.ply == 3 and session.computer_to_move


def test_between_two_people_a_takeback_is_one_half_move() -> None:
    session = GameSession()
    session.play_text("E7-E13")
    session.play_text("E21-E15")
    assert session.takeback().text == "took back E21-E15"


def test_the_person_resigns_even_while_the_computer_is_to_move() -> None:
    session = against_computer("E7-E13")
    question = session.resign().question
    assert isinstance(question, Confirm) and question.prompt.startswith("White resigns")
    question.answer(True)
    assert session.game.result.startswith("0-")  # White lost


def test_the_computers_move_keeps_the_review_where_the_player_left_it() -> None:
    session = against_computer("E7-E13", "E21-E15", "H6-H12")
    session.review_start()
    played = session.play_computer(session.game.position.parse_move("H22-H16"))
    assert played.text == "Black played H22-H16" and played.done
    assert session.game.ply == 4 and session.shown.cursor == 0


def test_the_computer_plays_only_its_own_turn_and_its_moves_end_games() -> None:
    session = GameSession()
    session.players = (Contender(1), Contender(1))  # two computers: every turn is the computer's
    for ply, text in enumerate(FOOLS_MATE):
        assert session.computer_to_move
        played = session.play_computer(session.game.position.parse_move(text))
        assert played.done, (ply, played.text)
    assert session.game.is_over and not session.computer_to_move
    assert session.play_computer(session.game.nodes[0].move).tone is Tone.ERROR
    people = GameSession()
    assert people.play_computer(people.game.position.parse_move("E7-E13")).tone is Tone.ERROR


def test_the_seats_are_saved_with_the_autosave_and_come_back_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    slot = AutosaveSlot.acquire(path)
    session = GameSession(Game.new(black=computer_name(3)), store=AutosaveStore(slot))
    session.start_game(session.game, players=COMPUTER_BLACK)
    session.play_text("E7-E13")
    slot.release()
    saved = load_autosave(path).saved
    assert saved is not None and saved.options["players"] == ["human", "computer:3"]
    again = GameSession()
    resumed = again.offer_resume(saved)
    assert resumed.question is not None
    resumed.question.answer(True)  # type: ignore[arg-type]
    assert again.players == COMPUTER_BLACK and again.computer_to_move


def test_an_opened_record_is_for_people_and_a_new_game_keeps_the_seats_unless_told() -> None:
    session = against_computer("E7-E13")
    session.start_game(Game.new())
    assert session.players == COMPUTER_BLACK  # a new game against the same opponent
    session.show_record(Game.new(), 1, "a.ctl-pgn")
    assert session.players == TWO_PEOPLE


@pytest.mark.parametrize(
    "kept",
    [None, "computer:3", ["human"], ["human", 3], ["human", "computer:11"], ["robot", "human"], ["x", "y", "z"]],
)
def test_seats_that_cannot_be_read_back_are_two_people(kept: object) -> None:
    assert players_from({} if kept is None else {"players": kept}) == TWO_PEOPLE


def test_the_record_names_the_computer() -> None:
    white, black = player_names((Contender(7), HUMAN), "Ada", "Grace")
    assert (white, black) == ("cescacs-tui level 7", "Grace")
    record = write_pgn(Game.new(white=white, black=black))
    assert '[White "cescacs-tui level 7"]' in record and '[Black "Grace"]' in record
    assert human_side((Contender(7), HUMAN)) == BLACK and human_side(TWO_PEOPLE) is None
    assert human_side((Contender(1), Contender(2))) is None


@pytest.mark.slow
def test_a_session_and_the_plain_mode_load_no_search_and_no_engine_client_until_the_computer_plays() -> None:
    code = (
        "import sys\n"
        "import cescacs_tui.plain.run\n"
        "from cescacs_tui.session import GameSession\n"
        "from cescacs_tui.session.players import Contender, HUMAN\n"
        "session = GameSession()\n"
        "session.players = (HUMAN, Contender(3))\n"
        "session.play_text('E7-E13'); session.takeback()\n"
        "print(sorted(m for m in sys.modules if m.startswith('cescacs_tui.engine.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_the_seats_know_as_many_levels_as_the_engine() -> None:
    assert len(LEVELS) == LEVEL_COUNT


@pytest.mark.parametrize(
    ("text", "player"),
    [
        ("human", HUMAN),
        ("Computer", Contender(DEFAULT_LEVEL)),
        ("computer:1", Contender(1)),
        (" COMPUTER:10 ", Contender(10)),
    ],
)
def test_parse_player(text: str, player: Contender) -> None:
    assert parse_player(text) == player
    assert parse_player(str(player)) == player


@pytest.mark.parametrize("text", ["", "computer:0", "computer:11", "computer:", "robot", "human:3", "computer:x\x1b"])
def test_a_bad_player_says_what_is_accepted(text: str) -> None:
    with pytest.raises(ValueError, match="use 'human', 'computer' or 'computer:N' with N from 1 to 10") as info:
        parse_player(text)
    assert "\x1b" not in str(info.value)


def test_takeback_against_the_computer_goes_back_to_the_persons_last_move() -> None:
    game = Game.new()
    for text in ("E7-E13", "E21-E15", "F8-F12", "F20-F16"):
        game.play_text(text)
    moves = game.moves
    people = (HUMAN, HUMAN)
    white_plays_the_computer = (HUMAN, Contender(5))
    black_plays_the_computer = (Contender(5), HUMAN)
    assert takeback_plies(moves, WHITE, people) == 1
    assert takeback_plies(moves, WHITE, (Contender(1), Contender(2))) == 1
    assert takeback_plies(moves, WHITE, white_plays_the_computer) == 2  # the reply and White's move
    assert takeback_plies(moves[:3], WHITE, white_plays_the_computer) == 1  # while the computer thinks
    assert takeback_plies(moves, WHITE, black_plays_the_computer) == 1  # Black just moved
    assert takeback_plies(moves[:3], WHITE, black_plays_the_computer) == 2
    assert takeback_plies(moves[:1], WHITE, black_plays_the_computer) == 1  # only the computer moved
    assert takeback_plies([], WHITE, white_plays_the_computer) == 0
    assert takeback_plies(moves[:1], BLACK, black_plays_the_computer) == 1  # a start with Black to move
