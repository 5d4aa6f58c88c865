"""What ``cescacs`` does at start with the saved games it finds: offer, keep, or share them with another process.

``App.run`` is replaced, so no terminal is needed: each test gets the app the
command would have run, with the session and the autosave it owns.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.data.autosave import read_autosave, save_autosave
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.slots import AutosaveSlot, slot_path
from cescacs_tui.session import Confirm, GameSession
from cescacs_tui.tui.app import CescacsApp


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "data"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Callable[..., CescacsApp]:
    apps: list[CescacsApp] = []
    monkeypatch.setattr(CescacsApp, "run", lambda app: apps.append(app))

    def start(*args: str) -> CescacsApp:
        assert main(list(args)) == 0
        gc.unfreeze()
        return apps[-1]

    return start


def unfinished(path: Path, *moves: str) -> Game:
    game = Game.new(white="Ann", black="Bob")
    for move in moves:
        game.play_text(move)
    save_autosave(game, path=path)
    return game


def test_the_unfinished_game_is_offered_and_its_autosave_owned(data: Path, started: Callable[..., CescacsApp]) -> None:
    unfinished(data / "autosave.json", "E7-E13")
    app = started()
    start = app.make_game_screen().start
    assert start is not None and isinstance(start.question, Confirm) and start.question.default is True
    store = app.session.store
    assert isinstance(store, AutosaveStore) and isinstance(store.slot, AutosaveSlot)
    assert store.slot.path == data / "autosave.json"
    app.session.close()


def test_a_record_opened_over_an_unfinished_game_keeps_that_game_in_the_archive(
    data: Path, started: Callable[..., CescacsApp], tmp_path: Path
) -> None:
    kept = unfinished(data / "autosave.json", "E7-E13", "E21-E15")
    record = tmp_path / "other.ctl-pgn"
    other = Game.new(white="Cesc", black="Xus")
    other.play_text("H6-H12")
    record.write_text(write_pgn(other), encoding="utf-8")
    app = started(str(record))
    (archived,) = (data / "games").iterdir()
    assert archived.read_text(encoding="utf-8") == write_pgn(kept)
    assert any(str(archived) in str(notice) for notice in app.start_notices)
    assert app.make_game_screen().start is None  # nothing to resume: it is kept, and the record is on the table
    app.session.play_text("I23-I19")
    saved = read_autosave(data / "autosave.json")
    assert saved is not None and [n.san for n in saved.game.nodes] == ["H6-H12", "I23-I19"]
    app.session.close()


def test_a_second_instance_asks_and_a_separate_game_is_saved_under_its_own_name(
    data: Path, started: Callable[..., CescacsApp]
) -> None:
    first = unfinished(data / "autosave.json", "E7-E13")
    with AutosaveSlot.acquire(data / "autosave.json"):  # another cescacs has the game open
        app = started()
        store = app.session.store
        assert isinstance(store, AutosaveStore) and store.slot is None  # nothing is saved until the players choose
        question = app.make_game_screen().start
        assert question is not None and isinstance(question.question, Confirm)
        assert "open in another cescacs" in question.question.prompt
        separate = question.question.answer(True)
        assert "autosave-2.json" in (separate.text or "")
        app.session.play_text("H6-H12")
        own = read_autosave(slot_path(2, data))
        assert own is not None and [n.san for n in own.game.nodes] == ["H6-H12"]
        other = read_autosave(data / "autosave.json")
        assert other is not None and write_pgn(other.game) == write_pgn(first)  # the other instance's game, untouched
        app.session.close()


def test_a_second_instance_can_wait_and_take_the_game_over_once_the_first_has_exited(data: Path) -> None:
    unfinished(data / "autosave.json", "E7-E13", "E21-E15")
    first = AutosaveSlot.acquire(data / "autosave.json")
    from cescacs_tui.data.lock import AutosaveBusy

    with pytest.raises(AutosaveBusy) as busy:
        AutosaveSlot.acquire(data / "autosave.json")
    store = AutosaveStore(busy=busy.value)
    session = GameSession(store=store)
    ask = session.offer_separate_game()
    assert ask is not None and ask.question is not None
    waiting = ask.question.answer(False)  # type: ignore[arg-type]
    assert "waiting for" in (waiting.text or "") and store.slot is None
    assert session.try_take_over() is None  # still open in the first
    first.release()
    offer = session.try_take_over()
    assert offer is not None and isinstance(offer.question, Confirm)
    resumed = offer.question.answer(True)
    assert resumed.done and [n.san for n in session.game.nodes] == ["E7-E13", "E21-E15"]
    session.play_text("F8-F12")
    saved = read_autosave(data / "autosave.json")
    assert saved is not None and saved.game.ply == 3
    session.close()
