"""The coordinator's decisions: seats, turns, requests and answers, saving, archiving, resuming (no sockets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.core.pieces import Colour
from cescacs_tui.data.autosave import read_autosave
from cescacs_tui.remote.coordinator import Coordinator
from cescacs_tui.remote.protocol import Hello, LineRefused
from cescacs_tui.remote.store import RoomBusy, open_store
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE
from tests.helpers.remote import TOKEN, RecordingPeer, hello, move, request, seat
from tests.helpers.waiting import until


def coordinator(tmp_path: Path | None = None, **options: object) -> Coordinator:
    store = None if tmp_path is None else open_store(tmp_path / "room")
    return Coordinator(Game.new(), token=TOKEN, store=store, **options)  # type: ignore[arg-type]


# --- seats ---------------------------------------------------------------------------------------


def test_the_first_two_get_white_then_black_and_the_rest_watch() -> None:
    game = coordinator()
    white, white_peer = seat(game, name="Ana")
    black, _ = seat(game, name="Bo")
    watcher, watcher_peer = seat(game, name="Cy")
    assert [m.seat.value for m in (white, black, watcher)] == ["white", "black", "watch"]
    assert white_peer.lines[0] == {"type": "welcome", "protocol": 1, "seat": "white", "name": "Ana"}
    state = watcher_peer.last
    assert state["seats"] == {
        "white": {"name": "Ana", "held": True, "connected": True},
        "black": {"name": "Bo", "held": True, "connected": True},
    }
    assert state["watchers"] == 1
    assert white_peer.said()[-2:] == ["Bo plays Black", "Cy is watching"]
    assert (game.game.tags["White"], game.game.tags["Black"]) == ("Ana", "Bo")  # the record names the players


def test_a_seat_asked_for_is_given_and_a_taken_one_is_refused_for_good() -> None:
    game = coordinator()
    black, _ = seat(game, "black", name="Bo")
    white, _ = seat(game, name="Ana")
    assert (black.seat.value, white.seat.value) == ("black", "white")
    with pytest.raises(Exception) as caught:
        seat(game, "white", name="Eve")
    assert getattr(caught.value, "code", None) == "seat_taken" and caught.value.fatal  # type: ignore[attr-defined]
    assert "White is taken by Ana" in str(caught.value)


@pytest.mark.parametrize(("token", "code"), [("wrong-token-000000000", "auth"), ("", "auth")])
def test_a_wrong_token_is_refused_and_joins_nothing(token: str, code: str) -> None:
    game = coordinator()
    with pytest.raises(Exception) as caught:
        game.join(RecordingPeer(), hello(token=token))
    assert caught.value.code == code and caught.value.fatal  # type: ignore[attr-defined]
    assert "wrong token" in str(caught.value)
    assert game.members == [] and game.seats.view(game.game.position.turn).held is False


def test_another_protocol_version_is_refused() -> None:
    game = coordinator()
    with pytest.raises(Exception) as caught:
        game.join(RecordingPeer(), hello().__class__(2, TOKEN, None, "x", "c"))
    assert caught.value.code == "version"  # type: ignore[attr-defined]


def test_a_probing_hello_is_told_its_seat_or_why_not_and_changes_nothing() -> None:
    game = coordinator()
    peer = RecordingPeer()
    asked = hello("black", client="bo", name="Bo")
    assert game.join(peer, Hello(**{**asked.__dict__, "probe": True})) is None
    assert peer.lines == [{"type": "welcome", "protocol": 1, "seat": "black", "name": "Bo"}] and peer.is_closed
    assert game.members == [] and not game.seats.view(Colour.BLACK).held and game.seq == 0
    seat(game, "black", client="ana")
    with pytest.raises(LineRefused, match="Black is taken"):
        game.join(RecordingPeer(), Hello(**{**asked.__dict__, "probe": True}))
    with pytest.raises(LineRefused, match="wrong token"):
        game.join(RecordingPeer(), Hello(1, "wrong-token-000000000", None, "x", "y", probe=True))


def test_a_player_who_comes_back_with_the_same_identity_gets_the_same_seat() -> None:
    game = coordinator()
    white, _ = seat(game, client="ana", name="Ana")
    seat(game, client="bo", name="Bo")
    game.leave(white)
    assert game.seats.view(white.seat.colour).connected is False  # type: ignore[arg-type]
    again, peer = seat(game, client="ana")
    assert again.seat.value == "white" and peer.lines[0]["name"] == "Ana"


def test_over_tcp_a_seat_whose_player_is_away_can_be_taken_by_a_token_holder() -> None:
    game = coordinator()
    white, _ = seat(game, client="old-terminal", name="Ana")
    seat(game, client="bo", name="Bo")
    game.leave(white)
    back, _ = seat(game, "white", client="new-terminal", name="Ana")
    assert back.seat.value == "white"


def test_with_keyed_seats_a_seat_stays_its_keys_while_its_player_is_away() -> None:
    game = coordinator(keyed=True)
    white, _ = seat(game, client="key:ana", name="ana")
    seat(game, client="key:bo", name="bo")
    game.leave(white)
    intruder, _ = seat(game, client="key:eve", name="eve")
    assert intruder.seat.value == "watch"  # the first free seat: none, while Ana's is kept
    with pytest.raises(Exception) as caught:
        seat(game, "white", client="key:eve2")
    assert "away: the seat is kept for them" in str(caught.value)
    back, _ = seat(game, client="key:ana")
    assert back.seat.value == "white"


def test_a_second_connection_of_the_same_player_replaces_the_first() -> None:
    game = coordinator()
    first, first_peer = seat(game, client="ana", name="Ana")
    second, _ = seat(game, client="ana", name="Ana")
    assert first_peer.is_closed and first_peer.closed is not None and first_peer.closed.code == "replaced"
    assert game.members == [second]
    game.leave(first)  # the old connection's handler ends later: nothing changes
    assert game.members == [second] and game.seats.is_connected(second.seat.colour)  # type: ignore[arg-type]


# --- moves ----------------------------------------------------------------------------------------


def test_a_move_out_of_turn_a_watchers_move_a_stale_or_illegal_move_are_refused_and_change_nothing() -> None:
    game = coordinator()
    white, _ = seat(game, name="Ana")
    black, black_peer = seat(game, name="Bo")
    watcher, _ = seat(game, name="Cy")
    before = (write_pgn(game.game), len(black_peer.states))
    refusals = [
        move(game, black, "I23-I19"),
        move(game, watcher, "H6-H12"),
        request(game, white, {"type": "move", "move": "H6-H12", "ply": 5}),
        move(game, white, "H6-H13"),
        request(game, white, {"type": "move", "move": "EH4-H8", "ply": 0}),  # CTL-AN is for people, not the protocol
        request(game, watcher, {"type": "resign"}),
        request(game, black, {"type": "claim_draw"}),
        request(game, black, {"type": "offer_draw"}),
        request(game, white, {"type": "takeback"}),
        request(game, black, {"type": "answer", "to": "draw", "accept": True}),
        request(game, black, {"type": "new_game"}),
    ]
    assert [r.code if r else None for r in refusals] == [
        "not_your_turn", "not_a_player", "stale", "illegal_move", "illegal_move", "not_a_player",
        "not_your_turn", "not_your_offer", "nothing", "no_request", "game_on",
    ]  # fmt: skip
    assert "it is White's turn" in refusals[0].reason  # type: ignore[union-attr]
    assert all(not r.fatal for r in refusals if r)
    assert (write_pgn(game.game), len(black_peer.states)) == before


def test_a_whole_game_is_played_from_both_seats_announced_to_all_and_archived(tmp_path: Path) -> None:
    game = coordinator(tmp_path)
    white, white_peer = seat(game, name="Ana")
    black, black_peer = seat(game, name="Bo")
    _, watcher_peer = seat(game, name="Cy")
    for number, text in enumerate(FOOLS_MATE):
        assert move(game, white if number % 2 == 0 else black, text) is None
    assert (game.game.result, game.game.termination) == ("0-3", "Black mates")
    for peer in (white_peer, black_peer, watcher_peer):
        assert peer.said()[-1] == "Black played GL5-H6#. 0-3: Black mates"
        assert [node.san for node in read_pgn(peer.last["pgn"])[0].nodes][-1] == "GL5-H6#"
    store = game.store
    assert store.archived and not (tmp_path / "room" / "autosave.json").exists()  # a finished game leaves no autosave
    (archive,) = game.store.archived
    assert archive.parent == tmp_path / "room" / "games"
    kept = read_pgn(archive.read_text(encoding="utf-8"))[0]
    assert [n.san for n in kept.nodes] == [n.san for n in game.game.nodes] and kept.tags["White"] == "Ana"
    assert str(tmp_path) not in "".join(black_peer.said())  # where it is archived is the host's business
    assert move(game, white, "E7-E13").code == "game_over"  # type: ignore[union-attr]


def test_every_change_is_autosaved_with_the_seats(tmp_path: Path) -> None:
    game = coordinator(tmp_path)
    white, _ = seat(game, client="ana", name="Ana")
    seat(game, client="bo", name="Bo")
    move(game, white, "H6-H12")
    saved = read_autosave(tmp_path / "room" / "autosave.json")
    assert saved is not None and [n.san for n in saved.game.nodes] == ["H6-H12"]
    seats = {"white": {"client": "ana", "name": "Ana"}, "black": {"client": "bo", "name": "Bo"}}
    assert saved.options["seats"] == seats


def test_watchers_coming_and_going_write_nothing(tmp_path: Path) -> None:
    """A join or a leave that changes neither the game nor the seats costs no write (and no fsync): a stranger
    with the token connecting again and again cannot keep the host's disk busy."""
    game = coordinator(tmp_path)
    white, _ = seat(game, client="ana", name="Ana")
    move(game, white, "H6-H12")
    autosave = tmp_path / "room" / "autosave.json"
    written = autosave.stat().st_mtime_ns, autosave.read_bytes()
    for _ in range(20):
        watcher, _ = seat(game, "watch")
        game.leave(watcher)
    assert (autosave.stat().st_mtime_ns, autosave.read_bytes()) == written
    seat(game, client="bo", name="Bo")  # a player's seat taken: saved with the game
    saved = read_autosave(autosave)
    assert saved is not None and saved.options["seats"]["black"] == {"client": "bo", "name": "Bo"}


# --- takeback, draws, resignation, new games -------------------------------------------------------


def test_a_takeback_is_asked_and_the_opponent_accepts_it() -> None:
    game = coordinator()
    white, white_peer = seat(game, name="Ana")
    black, black_peer = seat(game, name="Bo")
    move(game, white, "H6-H12")
    assert request(game, white, {"type": "takeback"}) is None
    assert black_peer.last["request"] == {"kind": "takeback", "by": "white", "plies": 1}
    assert black_peer.said()[-1] == "White asks to take back H6-H12"
    assert request(game, white, {"type": "answer", "to": "takeback", "accept": True}).code == "no_request"  # type: ignore[union-attr]
    assert request(game, black, {"type": "answer", "to": "takeback", "accept": True}) is None
    assert game.game.ply == 0 and white_peer.last["request"] is None


def test_a_takeback_asked_on_ones_own_turn_takes_back_both_last_moves() -> None:
    game = coordinator()
    white, _ = seat(game)
    black, _ = seat(game)
    move(game, white, "H6-H12")
    move(game, black, "I23-I19")
    request(game, white, {"type": "takeback"})
    assert game.request is not None and game.request.plies == 2
    request(game, black, {"type": "answer", "to": "takeback", "accept": True})
    assert game.game.ply == 0 and game.game.position.turn.title == "White"


def test_a_declined_takeback_and_one_answered_by_a_move_leave_the_game_as_it_was() -> None:
    game = coordinator()
    white, _ = seat(game)
    black, black_peer = seat(game)
    move(game, white, "H6-H12")
    request(game, white, {"type": "takeback"})
    request(game, black, {"type": "answer", "to": "takeback", "accept": False})
    assert game.game.ply == 1 and black_peer.said()[-1] == "Black declines the takeback"
    assert request(game, white, {"type": "takeback"}) is None
    assert request(game, white, {"type": "takeback"}).code == "pending"  # type: ignore[union-attr]
    move(game, black, "I23-I19")
    assert game.request is None and game.game.ply == 2


def test_a_draw_offered_with_a_move_is_accepted_by_the_opponent(tmp_path: Path) -> None:
    game = coordinator(tmp_path)
    white, _ = seat(game)
    black, black_peer = seat(game)
    move(game, white, "H6-H12", draw=True)
    assert black_peer.last["draw_offer"] == "white"
    assert black_peer.said()[-1] == "White played H6-H12 and offers a draw"
    assert request(game, black, {"type": "answer", "to": "draw", "accept": True}) is None
    assert game.game.termination == "draw by agreement"
    assert black_peer.said()[-1] == "Black accepts the draw. 1-1: draw by agreement"
    assert len(game.store.archived) == 1


def test_a_declined_draw_leaves_no_offer_in_the_record_and_a_move_instead_of_an_answer_declines_it() -> None:
    game = coordinator()
    white, _ = seat(game)
    black, _ = seat(game)
    move(game, white, "H6-H12")
    assert request(game, white, {"type": "offer_draw"}) is None
    assert request(game, white, {"type": "offer_draw"}).code == "refused"  # type: ignore[union-attr]
    request(game, black, {"type": "answer", "to": "draw", "accept": False})
    assert "(=)" not in write_pgn(game.game) and game.game.draw_offered_by is None
    move(game, black, "I23-I19", draw=True)
    move(game, white, "JF6-C15")
    assert "(=)" not in write_pgn(game.game) and not game.game.is_over


def test_a_player_resigns_on_either_turn() -> None:
    game = coordinator()
    seat(game)
    black, black_peer = seat(game)
    assert request(game, black, {"type": "resign"}) is None  # White to move: Black resigns all the same
    assert game.game.result == "3-0" and black_peer.said()[-1] == "Black resigns"


def test_a_draw_is_claimed_by_the_player_to_move_on_a_threefold_repetition() -> None:
    game = coordinator()
    white, _ = seat(game)
    black, _ = seat(game)
    for number, text in enumerate(KNIGHT_SHUFFLE * 2):
        move(game, white if number % 2 == 0 else black, text)
    assert request(game, black, {"type": "claim_draw"}).code == "not_your_turn"  # type: ignore[union-attr]
    assert request(game, white, {"type": "claim_draw"}) is None
    assert game.game.termination.startswith("draw by threefold repetition")


def test_after_a_game_a_new_one_begins_when_both_agree_with_the_same_seats() -> None:
    game = coordinator()
    white, _ = seat(game, name="Ana")
    black, black_peer = seat(game, name="Bo")
    request(game, white, {"type": "resign"})
    assert request(game, white, {"type": "new_game"}) is None
    assert black_peer.last["request"] == {"kind": "new_game", "by": "white", "plies": 0}
    assert request(game, black, {"type": "answer", "to": "new_game", "accept": True}) is None
    assert game.game.ply == 0 and not game.game.is_over and game.game.tags["White"] == "Ana"
    assert move(game, white, "H6-H12") is None


# --- restarting, clocks ------------------------------------------------------------------------------


def test_a_restarted_coordinator_resumes_the_game_and_its_seats_from_its_autosave(tmp_path: Path) -> None:
    store = open_store(tmp_path / "room")
    with pytest.raises(RoomBusy, match="open in another"):
        open_store(tmp_path / "room")  # one coordinator a directory
    first = Coordinator(Game.new(time_control=TimeControl.from_tag("300")), token=TOKEN, store=store)
    white, _ = seat(first, client="ana", name="Ana")
    black, _ = seat(first, client="bo", name="Bo")
    move(first, white, "H6-H12")
    move(first, black, "I23-I19")
    assert store.slot is not None
    store.slot.release()  # killed: no close(), only what was saved after each change (the kernel drops the lock)

    again = Coordinator.open(open_store(tmp_path / "room"), token=TOKEN)
    assert again.resumed and [n.san for n in again.game.nodes] == ["H6-H12", "I23-I19"]
    clock = again.game.clock
    assert clock is not None and clock.paused  # waits for both players
    ana, _ = seat(again, client="ana")
    assert ana.seat.value == "white" and clock.paused
    bo, _ = seat(again, client="bo")
    assert bo.seat.value == "black" and not clock.paused and clock.running is not None
    assert move(again, ana, "JF6-C15") is None


async def test_the_coordinator_ends_the_game_when_a_flag_falls_and_tells_everyone(tmp_path: Path) -> None:
    time = FakeTime()
    game = Coordinator(Game.new(time_control=TimeControl.from_tag("60"), time_source=time), token=TOKEN)
    white, white_peer = seat(game)
    seat(game)
    move(game, white, "H6-H12")  # Black's clock runs: 60 s of fake time, a real timer watches it
    time.advance(61)
    game._schedule()  # the timer set after the move is due in 60 real seconds: look again now
    await until(lambda: game.game.is_over, "the coordinator's timer to see the flag fall")
    assert game.game.termination == "White wins on time"
    assert white_peer.said()[-1] == "Flag fall. 3-0: White wins on time"
