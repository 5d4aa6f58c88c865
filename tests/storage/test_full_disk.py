"""A game that ends while the disk is full is never lost (issue 22): resign, free the disk, start a new game.

The finished game could be archived nowhere (the autosave could not take it
either); the next game's first save then wrote over it as if it had been
archived, and ``games/`` stayed empty.  Now the slot keeps it, the session
says so for as long as it is not on disk, and it is archived before anything
replaces it: a new game, a record opened, the end of the session, the game
taken over from another cescacs.  The disk is full by an injected write
failure (every platform) and, where a test may mount one, a real small tmpfs.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.data.archive import archive_dir, list_archive
from cescacs_tui.data.autosave import AutosaveWriteError
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.slots import AutosaveSlot
from cescacs_tui.session import Feedback, GameSession
from tests.helpers.full_disk import FullDisk, fill, small_tmpfs
from tests.helpers.games import play
from tests.helpers.plain import Typist
from tests.helpers.terminal import PATIENCE

MOVES = ("E7-E13", "E21-E15", "H6-H12", "I23-I19")


def resigned_on_a_full_disk(data: Path, disk: FullDisk) -> GameSession:
    """A session whose four moves are saved, then White resigns while the disk is full."""
    session = GameSession(store=AutosaveStore(AutosaveSlot.acquire(data / "autosave.json")))
    session.start_game(Game.new(white="Ann", black="Bob"))
    for move in MOVES:
        assert session.play_text(move).done
    disk.fill()
    question = session.resign().question
    assert question is not None
    question.answer(True)  # type: ignore[arg-type]
    assert session.game.result == "0-3"
    return session


def archived_results(data: Path) -> list[str]:
    return [game.result for game in list_archive(archive_dir(data))]


def test_the_slot_archives_a_game_whose_end_it_could_not_write_before_writing_anything_else(tmp_path, monkeypatch):
    disk = FullDisk(monkeypatch)
    slot = AutosaveSlot.acquire(tmp_path / "autosave.json")
    finished = Game.new()
    play(finished, *MOVES)
    slot.save(finished, {})
    finished.resign(finished.position.turn)
    disk.fill()
    with pytest.raises(AutosaveWriteError):
        slot.finish(finished)
    with pytest.raises(AutosaveWriteError, match="the game that ended could not be archived"):
        slot.save(Game.new(), {})  # still full: nothing written, the finished game still held
    disk.free()
    new = Game.new()
    play(new, "E7-E13")
    slot.save(new, {})
    assert archived_results(tmp_path) == ["0-3"]
    assert [str(notice) for notice in slot.notices] == [
        f"the game that ended is archived now, as {slot.path.parent}"
        f"/games/{list_archive(archive_dir(tmp_path))[0].path.name}"
    ]
    slot.release()


REPLACEMENTS: dict[str, Callable[[GameSession, Path], Feedback | None]] = {
    "new game": lambda session, _: session.start_game(Game.new()),
    "record opened": lambda session, record: session.open_record(record),
    "quit": lambda session, _: session.close(),
}


@pytest.mark.parametrize("replace", REPLACEMENTS.values(), ids=REPLACEMENTS.keys())
def test_resign_on_a_full_disk_then_free_it_and_replace_the_game_loses_nothing(tmp_path, monkeypatch, replace) -> None:
    data = tmp_path / "data"
    disk = FullDisk(monkeypatch)
    session = resigned_on_a_full_disk(data, disk)
    assert session.save_problem == (
        "the game that ended is not archived yet (No space left on device): it will be as soon as the disk allows"
    )
    assert archived_results(data) == []
    disk.free()
    record = tmp_path / "other.ctl-pgn"
    record.write_text('[Variant "C\'escacs"]\n\n1. H6-H12 *\n', encoding="utf-8")
    replace(session, record)
    assert archived_results(data) == ["0-3"]
    (archived,) = list_archive(archive_dir(data))
    (game,) = read_pgn(archived.path.read_text(encoding="utf-8"))
    assert [node.san for node in game.nodes] == list(MOVES) and game.tags["White"] == "Ann"
    assert session.save_problem is None  # the note goes once the game is on disk


def test_a_new_game_while_the_disk_is_still_full_keeps_the_note_and_the_game(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    disk = FullDisk(monkeypatch)
    session = resigned_on_a_full_disk(data, disk)
    session.start_game(Game.new())
    session.play_text("E7-E13")
    assert session.save_problem is not None and "the game that ended could not be archived" in session.save_problem
    disk.free()
    session.play_text("E21-E15")  # the next save archives it first
    assert archived_results(data) == ["0-3"] and session.save_problem is None


def test_the_plain_mode_says_the_game_is_not_archived_until_it_is(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    disk = FullDisk(monkeypatch)
    typist = Typist(store=AutosaveStore(AutosaveSlot.acquire(data / "autosave.json")))
    typist.type(*MOVES)
    disk.fill()
    said = typist.type("resign", "y")
    assert said[-1] == (
        "Warning: the game that ended is not archived yet (No space left on device): "
        "it will be as soon as the disk allows."
    )
    disk.free()
    said = typist.type("new")
    assert any(line.startswith("The game that ended is archived now, as ") for line in said)
    assert "The game is saved again." in said
    assert archived_results(data) == ["0-3"]


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX tmpfs")
def test_the_real_plain_command_on_a_full_tmpfs_archives_the_resigned_game_after_new(environment, tmp_path) -> None:
    """The issue's reproduction: 4 moves, resign on a full disk, free it, new and a move: games/ held nothing."""
    with small_tmpfs(tmp_path / "disk") as disk:
        data = disk / "data"
        player = subprocess.Popen(
            [sys.executable, "-m", "cescacs_tui", "--plain", "--new"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**environment, "CESCACS_DATA_DIR": str(data)},
            text=True,
            bufsize=1,
        )
        assert player.stdin is not None and player.stdout is not None
        output: list[str] = []
        reader = threading.Thread(target=lambda: output.extend(player.stdout or ()), daemon=True)
        reader.start()

        def say(line: str, answer: str) -> None:
            """Type ``line``, then wait until the answer holds ``answer``."""
            assert player.stdin is not None
            start = len(output)
            player.stdin.write(line + "\n")
            player.stdin.flush()
            deadline = time.monotonic() + PATIENCE
            while not any(answer in seen for seen in output[start:]):
                assert time.monotonic() < deadline, f"no {answer!r} after {line!r}: {output[start:]}"
                time.sleep(0.02)

        try:
            for move in MOVES:
                say(move, "to move.")
            filler = fill(disk)
            say("resign", "Sure?")
            say("y", "not archived yet (No space left on device)")
            filler.unlink()
            say("new", "The game that ended is archived now")
            say("e7-e13", "Black to move.")
            player.stdin.close()
            assert player.wait(timeout=PATIENCE) == 0
        finally:
            if player.poll() is None:
                player.kill()
            player.wait(timeout=PATIENCE)
            reader.join(timeout=PATIENCE)
        assert archived_results(data) == ["0-3"]
