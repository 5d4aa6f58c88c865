"""A client's session of a remote game, wired to a real coordinator in-process: what is sent, refused, asked, shown."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.core.pieces import Colour
from cescacs_tui.remote.coordinator import Coordinator, Member
from cescacs_tui.remote.port import RemoteGame
from cescacs_tui.remote.protocol import LineRefused, parse_request
from cescacs_tui.session import Confirm, Feedback, GameSession, Tone
from tests.helpers.games import FOOLS_MATE
from tests.helpers.remote import TOKEN, hello


class Wire:
    """A remote session joined to a coordinator: its requests are handled at once, the answers delivered back."""

    def __init__(self, coordinator: Coordinator, seat: str | None = None, *, name: str = "") -> None:
        self.coordinator = coordinator
        self.sent: list[dict[str, Any]] = []
        self.feedback: list[Feedback] = []
        self.remote = RemoteGame(self._send)
        self.session = GameSession(port=self.remote)
        self.remote.link_changed(True)
        member = coordinator.join(self, hello(seat, client=f"wire-{id(self)}", name=name))
        assert member is not None
        self.member: Member = member

    # the coordinator's side: what it sends this client
    def send(self, line: bytes) -> None:
        self.feedback.append(self.remote.receive(json.loads(line)))

    def close(self, error: LineRefused | None = None) -> None:
        self.remote.link_changed(False, "closed")

    # the session's side: what it sends the coordinator
    def _send(self, message: Mapping[str, Any]) -> bool:
        self.sent.append(dict(message))
        try:
            self.coordinator.handle(self.member, parse_request(json.dumps(message).encode()))
        except LineRefused as error:
            self.send(json.dumps(error.message()).encode() + b"\n")
        return True

    def questions(self) -> list[Confirm]:
        return [f.question for f in self.feedback if isinstance(f.question, Confirm)]


def table(game: Game | None = None) -> tuple[Coordinator, Wire, Wire]:
    coordinator = Coordinator(game or Game.new(), token=TOKEN)
    return coordinator, Wire(coordinator, name="Ana"), Wire(coordinator, name="Bo")


def test_each_client_knows_its_seat_and_who_is_who() -> None:
    _, white, black = table()
    assert white.remote.colour is Colour.WHITE and black.remote.colour is Colour.BLACK
    assert (white.remote.white.name, white.remote.black.name) == ("Ana", "Bo")
    assert white.remote.black.connected and black.remote.white.held
    assert white.feedback[0].text == "you are playing White"
    assert black.feedback[-1].text == "Bo plays Black"


def test_a_move_typed_on_ones_turn_is_sent_in_canonical_form_and_the_game_follows_the_coordinator() -> None:
    coordinator, white, black = table()
    feedback = white.session.play_text("h6-h12")
    assert feedback.done and white.sent == [{"type": "move", "move": "H6-H12", "ply": 0, "draw": False}]
    for wire in (white, black):
        assert [node.san for node in wire.session.game.nodes] == ["H6-H12"]
        assert wire.feedback[-1].text == "White played H6-H12"
    assert write_pgn(black.session.game) == write_pgn(coordinator.game)
    assert black.session.record_text() == write_pgn(coordinator.game)  # y copies the same record as locally


def test_a_move_typed_out_of_turn_is_refused_with_the_reason_and_nothing_is_sent() -> None:
    _, _, black = table()
    feedback = black.session.play_text("i23-i19")
    assert not feedback.done and feedback.tone is Tone.ERROR
    assert feedback.text == "i23-i19: it is White's turn: you play Black"
    assert black.sent == []
    assert black.session.selection is None  # no piece can even be picked
    assert black.session.pick(0).tone is Tone.ERROR and black.sent == []


def test_a_watcher_sees_everything_and_can_do_nothing() -> None:
    coordinator, white, _ = table()
    watcher = Wire(coordinator, name="Cy")
    assert watcher.remote.seat is not None and watcher.remote.seat.value == "watch"
    white.session.play_text("H6-H12")
    assert [n.san for n in watcher.session.game.nodes] == ["H6-H12"]
    assert watcher.session.play_text("I23-I19").text == "I23-I19: you are watching: only White and Black play"
    for action in ("takeback", "offer_draw", "resign", "claim_draw", "new_game"):
        assert watcher.session.refusal(action) == "you are watching: only White and Black play"
    assert watcher.session.refusal("copy_pgn") is None and watcher.session.refusal("review_back") is None
    assert watcher.sent == []


def test_with_the_link_down_nothing_is_sent_and_the_player_is_told_why() -> None:
    _, white, _ = table()
    white.remote.link_changed(False, "the connection to the game was lost: reconnecting…")
    feedback = white.session.play_text("H6-H12")
    assert feedback.tone is Tone.ERROR and "reconnecting…" in (feedback.text or "")
    assert white.session.refusal("resign") is not None and white.sent == []


def test_a_second_move_waits_until_the_first_is_answered() -> None:
    coordinator = Coordinator(Game.new(), token=TOKEN)
    white = Wire(coordinator)
    Wire(coordinator)
    white.remote.send = lambda message: True  # the request is on its way: no answer yet
    assert white.session.play_text("H6-H12").done
    assert white.session.play_text("JF6-C15").text == "JF6-C15: H6-H12 is on its way to the game"


def test_a_draw_offered_with_a_move_is_asked_of_the_opponent_who_accepts_it() -> None:
    coordinator, white, black = table()
    white.session.play_text("H6-H12 (=)")
    assert white.sent[-1]["draw"] is True
    (question,) = black.questions()
    assert question.prompt == "White offers a draw. Do you accept?" and (question.yes, question.no) == (
        "Accept",
        "Decline",
    )
    assert white.questions() == []  # the offerer is not asked
    question.answer(True)
    assert coordinator.game.termination == "draw by agreement"
    notice = black.feedback[-1].notice
    assert notice is not None and notice.text == "1-1: draw by agreement"
    assert black.session.game.is_over


def test_a_takeback_asked_is_a_question_for_the_opponent_and_a_declined_one_changes_nothing() -> None:
    _, white, black = table()
    white.session.play_text("H6-H12")
    assert white.session.refusal("takeback") is None
    assert black.session.refusal("takeback") == "you have no move to take back"
    assert white.session.takeback().text == "takeback asked: Black answers"
    (question,) = black.questions()
    assert question.prompt == "White asks to take back H6-H12. Do you agree?"
    assert white.session.refusal("takeback") == "a request is waiting for an answer"
    question.answer(False)
    assert black.feedback[-1].text == "Black declines the takeback"
    assert black.session.game.ply == 1
    white.session.takeback()
    black.questions()[-1].answer(True)
    assert black.session.game.ply == 0 and white.session.game.ply == 0


def test_a_player_resigns_after_confirming_even_on_the_opponents_turn() -> None:
    coordinator, white, black = table()
    asked = black.session.resign()
    assert isinstance(asked.question, Confirm) and "You resign: White wins" in asked.question.prompt
    asked.question.answer(False)
    assert black.sent == [] and not coordinator.game.is_over
    again = black.session.resign().question
    assert isinstance(again, Confirm)
    again.answer(True)
    assert coordinator.game.result == "3-0" and white.session.game.termination == "Black resigns"
    assert white.session.refusal("takeback").startswith("the game is over")  # type: ignore[union-attr]
    assert white.session.refusal("new_game") is None


def test_a_whole_game_from_both_sides_ends_with_the_same_record_everywhere() -> None:
    coordinator, white, black = table()
    for number, move in enumerate(FOOLS_MATE):
        mover = white if number % 2 == 0 else black
        other = black if number % 2 == 0 else white
        assert other.session.play_text(move).tone is Tone.ERROR  # never the other's turn
        assert mover.session.play_text(move).done, mover.feedback[-1].text
    assert white.session.game.termination == black.session.game.termination == "Black mates"
    assert white.session.record_text() == black.session.record_text() == write_pgn(coordinator.game)


def test_a_player_reviewing_an_earlier_move_stays_there_when_the_opponent_moves() -> None:
    _, white, black = table()
    white.session.play_text("H6-H12")
    white.session.review_start()
    black.session.play_text("I23-I19")
    assert white.session.game.ply == 2 and white.session.game.cursor == 0
    assert "reviewing an earlier move" in (white.session.play_text("JF6-C15").text or "")
    white.session.review_live()
    assert white.session.play_text("JF6-C15").done and black.session.game.is_live


def test_the_clock_copy_runs_for_the_side_the_coordinator_times() -> None:
    _, white, black = table(Game.new(time_control=TimeControl.from_tag("300+5")))
    white.session.play_text("H6-H12")
    clock = black.session.game.clock
    assert clock is not None and clock.running is Colour.BLACK
    assert 299 <= clock.remaining(Colour.BLACK) <= 300 and clock.remaining(Colour.WHITE) > 300


def test_a_record_the_client_cannot_read_is_refused_and_the_game_is_kept() -> None:
    _, white, _ = table()
    white.session.play_text("H6-H12")
    before = write_pgn(white.session.game)
    snapshot = white.remote.snapshot
    assert snapshot is not None
    hostile = {**snapshot.to_json(), "seq": snapshot.seq + 1, "pgn": "1. Q99-Q100 *"}
    feedback = white.remote.receive(hostile)
    assert feedback.tone is Tone.ERROR and "cannot read" in (feedback.text or "")
    assert write_pgn(white.session.game) == before
    assert white.remote.receive({"type": "state", "seq": "x"}).tone is Tone.ERROR
    assert white.remote.receive({"type": "from-the-future"}) == Feedback()


def test_an_old_update_is_ignored_but_a_restarted_coordinator_counts_afresh() -> None:
    _, white, _ = table()
    white.session.play_text("H6-H12")
    snapshot = white.remote.snapshot
    assert snapshot is not None
    stale = {**snapshot.to_json(), "seq": 1, "pgn": write_pgn(Game.new())}
    assert white.remote.receive(stale) == Feedback() and white.session.game.ply == 1
    white.remote.receive({"type": "welcome", "protocol": 1, "seat": "white", "name": "Ana"})
    white.remote.receive(stale)
    assert white.session.game.ply == 0


def test_actions_for_a_game_at_one_board_say_why_they_do_not_apply() -> None:
    _, white, _ = table()
    assert white.session.refusal("redo") == "redo is for a game at one board: ask for a takeback (u) instead"
    assert "cannot be paused" in (white.session.refusal("pause_clock") or "")
    assert "cannot be opened" in (white.session.refusal("open") or "")
    assert white.session.refusal("new_game") == "the game is not over: resign (r) or agree a draw first"
    assert white.session.refusal("offer_draw") == (
        "a draw is offered after your own move: make it, then offer it: o (or type the move with (=))"
    )
