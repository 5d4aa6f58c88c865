"""Which autosave a process writes: its own; a second instance a separate one; nothing played is ever lost."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.data.autosave import AutosaveWriteError, load_autosave, save_autosave
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.lock import AutosaveBusy
from cescacs_tui.data.slots import AutosaveSlot, fresh_slot, open_autosave, slot_path, slot_paths
from cescacs_tui.session import Confirm, GameSession
from tests.helpers.autosave_player import Player
from tests.helpers.games import FOOLS_MATE, play

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the tests use POSIX processes")


def saved_moves(path: Path) -> list[str]:
    saved = load_autosave(path).saved
    assert saved is not None, path
    return [n.san for n in saved.game.nodes]


def unfinished(path: Path, *moves: str, white: str = "?") -> Game:
    game = Game.new(white=white)
    play(game, *moves)
    save_autosave(game, path=path)
    return game


def test_an_empty_data_directory_gives_the_main_slot_and_nothing_to_resume(tmp_path: Path) -> None:
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.slot.path == tmp_path / "autosave.json" and start.slot.number == 1
    assert (start.saved, start.busy, start.notices) == (None, None, [])
    start.slot.release()


def test_the_unfinished_game_is_offered_and_its_slot_owned(tmp_path: Path) -> None:
    unfinished(tmp_path / "autosave.json", "E7-E13")
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.saved is not None
    assert [n.san for n in start.saved.game.nodes] == ["E7-E13"]
    with pytest.raises(OSError):  # owned: a second open cannot take it
        AutosaveSlot.acquire(start.slot.path)
    start.slot.release()


def test_the_newest_unfinished_game_of_any_free_slot_is_offered(tmp_path: Path) -> None:
    import os

    unfinished(slot_path(1, tmp_path), "E7-E13", white="Main")
    unfinished(slot_path(2, tmp_path), "E7-E11", white="Second")
    unfinished(slot_path(3, tmp_path), "E7-E9", white="Third")
    for number, moment in ((1, 100), (2, 300), (3, 200)):
        os.utime(slot_path(number, tmp_path), (moment, moment))
    assert slot_paths(tmp_path) == [slot_path(n, tmp_path) for n in (2, 3, 1)]
    with AutosaveSlot.acquire(slot_path(2, tmp_path)):  # the newest is open elsewhere: skipped
        start = open_autosave(tmp_path)
        assert start.slot is not None and start.slot.number == 3 and start.busy is None
        assert start.saved is not None and start.saved.game.tags["White"] == "Third"
        start.slot.release()


def test_a_finished_game_left_in_a_slot_is_archived_at_start(tmp_path: Path) -> None:
    from cescacs_tui.data import autosave

    game = Game.new(white="Ann", black="Bob")
    play(game, *FOOLS_MATE)
    autosave._write(game, None, slot_path(2, tmp_path))  # as left when archiving failed at the end
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.slot.number == 1 and start.saved is None
    (notice,) = map(str, start.notices)
    assert "was archived as" in notice and not slot_path(2, tmp_path).exists()
    (archived,) = (tmp_path / "games").iterdir()
    assert read_pgn(archived.read_text(encoding="utf-8"))[0].result == "0-3"
    start.slot.release()


def test_a_damaged_main_autosave_is_kept_aside_and_the_slot_used(tmp_path: Path) -> None:
    (tmp_path / "autosave.json").write_text("[]", encoding="utf-8")
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.slot.number == 1 and start.saved is None
    (notice,) = map(str, start.notices)
    assert "damaged" in notice
    (kept,) = tmp_path.glob("autosave.json.damaged-*")
    assert kept.read_text(encoding="utf-8") == "[]"
    start.slot.save(Game.new())
    assert kept.read_text(encoding="utf-8") == "[]"
    start.slot.release()


def test_saving_another_game_first_archives_the_game_the_slot_held(tmp_path: Path) -> None:
    """``cescacs FILE``, or a declined resume: the unfinished game is not overwritten, it goes to the archive."""
    path = slot_path(1, tmp_path)
    unfinished(path, "E7-E13", "E21-E15", white="Old")
    with AutosaveSlot.acquire(path) as slot:
        other = Game.new(white="New")
        slot.save(other)
        (notice,) = map(str, slot.notices)
        assert "kept in the archive" in notice
        (archived,) = (tmp_path / "games").iterdir()
        old = read_pgn(archived.read_text(encoding="utf-8"))[0]
        assert old.tags["White"] == "Old" and [n.san for n in old.nodes] == ["E7-E13", "E21-E15"]
        play(other, "E7-E11")
        slot.save(other)  # later saves are the slot's own: nothing more to archive
        assert len(list((tmp_path / "games").iterdir())) == 1 and len(slot.notices) == 1
    assert saved_moves(path) == ["E7-E11"]


def test_continuing_the_loaded_game_archives_nothing(tmp_path: Path) -> None:
    path = slot_path(1, tmp_path)
    unfinished(path, "E7-E13")
    with AutosaveSlot.acquire(path) as slot:
        saved = slot.load().saved
        assert saved is not None
        play(saved.game, "E21-E15")
        slot.save(saved.game)
        assert slot.notices == [] and not (tmp_path / "games").exists()
    assert saved_moves(path) == ["E7-E13", "E21-E15"]


def test_a_damaged_file_found_at_the_first_save_is_kept_aside_first(tmp_path: Path) -> None:
    path = slot_path(1, tmp_path)
    path.write_bytes(b"\xff not an autosave")
    with AutosaveSlot.acquire(path) as slot:
        slot.save(Game.new())
        assert "damaged" in str(slot.notices[0])
    (kept,) = tmp_path.glob("autosave.json.damaged-*")
    assert kept.read_bytes() == b"\xff not an autosave"


def test_a_damaged_file_that_cannot_be_kept_aside_is_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    path = slot_path(1, tmp_path)
    path.write_text("null", encoding="utf-8")

    def refuse(source: object, target: object) -> None:
        raise OSError(30, "Read-only file system")

    with AutosaveSlot.acquire(path) as slot:
        monkeypatch.setattr(os, "rename", refuse)
        with pytest.raises(AutosaveWriteError, match="could not be kept aside"):
            slot.save(Game.new())
    assert path.read_text(encoding="utf-8") == "null"


def test_a_declined_resume_is_kept_in_the_archive_once(tmp_path: Path) -> None:
    path = slot_path(1, tmp_path)
    unfinished(path, "E7-E13", white="Declined")
    with AutosaveSlot.acquire(path) as slot:
        saved = slot.load().saved
        assert saved is not None
        archived = slot.keep(saved.game)  # what the session does when the player starts afresh
        assert read_pgn(archived.read_text(encoding="utf-8"))[0].tags["White"] == "Declined"
        slot.save(Game.new(white="Fresh"))
        assert slot.notices == [] and list((tmp_path / "games").iterdir()) == [archived]
    assert read_pgn(saved_game_text(path))[0].tags["White"] == "Fresh"


def test_a_finished_game_is_archived_and_the_slot_kept(tmp_path: Path) -> None:
    with AutosaveSlot.acquire(slot_path(1, tmp_path)) as slot:
        game = Game.new()
        slot.save(game)
        play(game, *FOOLS_MATE)
        archived = slot.finish(game)
        assert archived.is_file() and not slot.path.exists()
        assert slot.finish(game) == archived  # the session saving once more after the end: no copy
        assert slot.lock is not None and slot.lock.held
        slot.save(Game.new())  # the next game: the finished one is safe, nothing to archive
        assert slot.notices == [] and list((tmp_path / "games").iterdir()) == [archived]


def test_a_slot_is_a_session_store(tmp_path: Path) -> None:
    with AutosaveSlot.acquire(slot_path(1, tmp_path)) as slot:
        session = GameSession(Game.new(white="Ann", black="Bob"), store=AutosaveStore(slot))
        for move in FOOLS_MATE[:-1]:
            session.play_text(move)
        assert saved_moves(slot.path) == FOOLS_MATE[:-1]
        end = session.play_text(FOOLS_MATE[-1])
        (archived,) = (tmp_path / "games").iterdir()
        assert f"saved in {archived}" in (end.text or "") and not slot.path.exists()


def test_a_fresh_slot_skips_slots_in_use_or_holding_a_game(tmp_path: Path) -> None:
    unfinished(slot_path(2, tmp_path), "E7-E13")
    with AutosaveSlot.acquire(slot_path(3, tmp_path)):
        slot = fresh_slot(tmp_path)
        assert slot.number == 4
        slot.release()


def test_a_file_system_without_locks_still_saves_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from cescacs_tui.data import lock

    def no_locks(fd: int) -> bool:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(lock, "try_lock", no_locks)
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.slot.lock is None
    assert "could overwrite" in str(start.notices[0])
    start.slot.save(Game.new())
    assert start.slot.path.is_file()


# --- two real processes on one data directory -----------------------------------------------------


@pytest.mark.slow
def test_two_instances_play_separate_games_and_both_are_on_disk(tmp_path: Path) -> None:
    first, second = Player(tmp_path), Player(tmp_path)
    try:
        assert first.ask("open") == {"slot": "autosave.json", "busy": None, "moves": []}
        assert first.ask("play E7-E13")["moves"] == ["E7-E13"]
        opened = second.ask("open")
        assert opened == {"slot": None, "busy": first.pid, "moves": []}  # the app asks: separate game, or wait?
        assert second.ask("fresh") == {"slot": "autosave-2.json"}
        for move in ("E7-E11", "E21-E17", "F8-F10"):
            second.ask(f"play {move}")
        first.ask("play E21-E15")
        shown_first = first.ask("play F8-F12")["moves"]
        shown_second = second.ask("play F20-F18")["moves"]
    finally:
        assert first.quit() == 0 and second.quit() == 0
    assert saved_moves(tmp_path / "autosave.json") == shown_first == ["E7-E13", "E21-E15", "F8-F12"]
    assert saved_moves(tmp_path / "autosave-2.json") == shown_second == ["E7-E11", "E21-E17", "F8-F10", "F20-F18"]
    assert not list(tmp_path.glob("*.lock"))
    third = Player(tmp_path)  # the next start offers one of them; the other waits its turn
    try:
        offered = third.ask("open")
        assert offered["moves"] in (shown_first, shown_second) and offered["busy"] is None
        fourth = Player(tmp_path)
        try:
            other = fourth.ask("open")
            assert {json.dumps(offered["moves"]), json.dumps(other["moves"])} == {
                json.dumps(shown_first),
                json.dumps(shown_second),
            }
        finally:
            fourth.quit()
    finally:
        third.quit()


@pytest.mark.slow
def test_the_second_instance_takes_over_once_the_first_has_quit(tmp_path: Path) -> None:
    first, second = Player(tmp_path), Player(tmp_path)
    try:
        first.ask("open")
        first.ask("play E7-E13")
        assert second.ask("open")["busy"] == first.pid
        assert second.ask("take") == {"busy": first.pid}
        first.ask("play E21-E15")
        assert first.quit() == 0
        assert second.ask("take") == {"slot": "autosave.json", "moves": ["E7-E13", "E21-E15"]}
        shown = second.ask("play F8-F12")["moves"]
    finally:
        second.quit()
    assert saved_moves(tmp_path / "autosave.json") == shown == ["E7-E13", "E21-E15", "F8-F12"]


@pytest.mark.slow
def test_a_killed_instance_loses_no_move_and_its_game_is_offered(tmp_path: Path) -> None:
    first = Player(tmp_path)
    first.ask("open")
    first.ask("play E7-E13")
    shown = first.ask("play E21-E15")["moves"]
    assert first.kill() == -9
    second = Player(tmp_path)
    try:
        assert second.ask("open") == {"slot": "autosave.json", "busy": None, "moves": shown}
    finally:
        second.quit()


def test_a_game_in_progress_replaced_by_another_is_archived_first(tmp_path: Path) -> None:
    """Opening a record, or a new game, over a game in progress: the game in progress goes to the archive."""
    with AutosaveSlot.acquire(slot_path(1, tmp_path)) as slot:
        first = Game.new(white="First")
        slot.save(first)
        play(first, "E7-E13")
        slot.save(first)
        assert slot.notices == []
        second = Game.new(white="Second")  # the opened record, or the new game
        slot.save(second)
        (notice,) = map(str, slot.notices)
        (archived,) = (tmp_path / "games").iterdir()
        assert str(archived) in notice and read_pgn(archived.read_text(encoding="utf-8"))[0].tags["White"] == "First"
        slot.save(Game.new(white="Third"))  # the second had no move: nothing to keep
        assert len(slot.notices) == 1 and len(list((tmp_path / "games").iterdir())) == 1
    assert read_pgn(saved_game_text(slot_path(1, tmp_path)))[0].tags["White"] == "Third"


def saved_game_text(path: Path) -> str:
    return str(json.loads(path.read_text(encoding="utf-8"))["pgn"])


def test_a_directory_where_nothing_can_be_locked_still_offers_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cescacs_tui.data import lock

    unfinished(slot_path(1, tmp_path), "E7-E13")

    def read_only(path: Path) -> int:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(lock, "_open", read_only)
    start = open_autosave(tmp_path)
    assert start.slot is not None and start.slot.lock is None and start.saved is not None
    assert "cannot be locked (Read-only file system)" in str(start.notices[0])


def test_a_session_in_a_slot_archives_the_game_it_replaces_and_the_games_that_end(tmp_path: Path) -> None:
    store = AutosaveStore(AutosaveSlot.acquire(tmp_path / "autosave.json"))
    session = GameSession(Game.new(white="Ann", black="Bob"), store=store)
    session.play_text("E7-E13")
    fresh = session.start_game(Game.new())
    (kept,) = (tmp_path / "games").iterdir()
    assert f"kept in {kept}" in (fresh.text or "")
    for move in FOOLS_MATE:
        end = session.play_text(move)
    assert "saved in" in (end.text or "") and len(list((tmp_path / "games").iterdir())) == 2


def _waiting_session(tmp_path: Path) -> tuple[AutosaveSlot, GameSession]:
    """A first cescacs owns the main autosave; a second one chose to wait and take it over."""
    unfinished(tmp_path / "autosave.json", "E7-E13")
    first = AutosaveSlot.acquire(tmp_path / "autosave.json")
    start = open_autosave(tmp_path)
    assert start.slot is None and isinstance(start.busy, AutosaveBusy)
    store = AutosaveStore.at_start(start)
    second = GameSession(store=store)
    offer = second.offer_separate_game()
    assert offer is not None and isinstance(offer.question, Confirm)
    offer.question.answer(False)  # "Wait and take over"
    assert store.waiting_for == tmp_path / "autosave.json"
    return first, second


def test_moves_played_while_waiting_to_take_over_are_kept_when_that_instance_quits_first(tmp_path: Path) -> None:
    first, second = _waiting_session(tmp_path)
    for move in ("E7-E11", "E21-E17"):
        assert second.play_text(move).done
    second.close()
    first.release()
    assert saved_moves(tmp_path / "autosave.json") == ["E7-E13"]
    assert saved_moves(tmp_path / "autosave-2.json") == ["E7-E11", "E21-E17"]  # offered at the next start


def test_a_game_that_ends_while_waiting_to_take_over_is_archived_and_the_take_over_still_happens(
    tmp_path: Path,
) -> None:
    first, second = _waiting_session(tmp_path)
    for move in FOOLS_MATE:
        end = second.play_text(move)
    assert "saved in" in (end.text or "")
    (archived,) = (tmp_path / "games").iterdir()
    (game,) = read_pgn(archived.read_text(encoding="utf-8"))
    assert [n.san for n in game.nodes] == list(FOOLS_MATE)
    first.release()
    offer = second.try_take_over()
    assert offer is not None and offer.question is not None  # the first instance's game, to resume
    assert not (tmp_path / "autosave-2.json").exists()  # the separate slot held the game only until it ended
    second.close()
