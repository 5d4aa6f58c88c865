"""Issue 17, item 3: no autosave can stop the app, hang it, or be lost; no odd character can stop a save.

Each trigger below made the app fail to start at every start, or hang, or
crash on the first save; a damaged autosave was then overwritten by the first
move.  Now loading never raises, a damaged file is kept aside (renamed with a
time stamp) before anything is written, and the player is told where.
"""

from __future__ import annotations

import gc
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core.game import Game, Node
from cescacs_tui.data import autosave
from cescacs_tui.data.autosave import AutosaveWriteError, load_autosave, read_autosave, save_autosave
from cescacs_tui.tui.app import CescacsApp
from tests.helpers.app import message, panels_ready
from tests.helpers.games import play

HEADER = '[Variant "C\'escacs"]\n\n'


def document(**fields: object) -> bytes:
    return json.dumps({"format": "cescacs-tui autosave", "version": 1, **fields}).encode("utf-8")


def deep_variations(depth: int) -> str:
    return HEADER + "1. E7-E13 " + "(1. E7-E11 " * depth + ")" * depth + " *\n"


TRIGGERS = {
    "json-null": b"null",
    "json-list": b"[]",
    "json-number": b"42",
    "json-string": b'"autosave"',
    "pgn-number": document(pgn=42),
    "pgn-list": document(pgn=["1. E7-E13"]),
    "pgn-missing": document(),
    "not-json": b"{not json",
    "nested-json": b"[" * 200_000 + b"]" * 200_000,
    "nested-object": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "deep-variations": document(pgn=deep_variations(2000)),
    "invalid-utf8": b'{"format": "cescacs-tui autosave", "pgn": "\xff\xfe"}',
    "nul-bytes": b"\0" * 1000,
    "empty": b"",
    "wrong-format": json.dumps({"format": "something else", "pgn": HEADER + "*"}).encode(),
    "newer-version": document(version=99, pgn=HEADER + "*"),
    "bad-version": document(version="1", pgn=HEADER + "*"),
    "two-games": document(pgn=HEADER + "*\n\n" + HEADER + "*\n"),
    "clock-text": document(pgn='[Variant "C\'escacs"]\n[TimeControl "300"]\n\n*', clock={"white": "x", "black": 1}),
    "clock-nan": b'{"format": "cescacs-tui autosave", "pgn": "[Variant \\"C\'escacs\\"]\\n[TimeControl \\"300\\"]\\n*",'
    b' "clock": {"white": NaN, "black": 1}}',
    "clock-list": document(pgn='[Variant "C\'escacs"]\n[TimeControl "300"]\n\n*', clock=[1, 2]),
    # finite and positive, yet no clock counts with them (issue 22: OverflowError on every resume)
    "clock-1e308": document(pgn='[Variant "C\'escacs"]\n[TimeControl "300"]\n\n*', clock={"white": 1e308, "black": 1}),
    "clock-huge-int": document(
        pgn='[Variant "C\'escacs"]\n[TimeControl "300"]\n\n*', clock={"white": 1, "black": 10**30}
    ),
}


def _kept(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


@pytest.mark.parametrize("content", TRIGGERS.values(), ids=TRIGGERS.keys())
def test_a_damaged_autosave_is_kept_aside_reported_and_never_overwritten(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "autosave.json"
    path.write_bytes(content)
    loaded = load_autosave(path)  # never raises
    if content == document(pgn=deep_variations(2000)) and loaded.saved is not None:
        return  # a reader that handles 2,000 nested variations loads the game: nothing was damaged
    assert loaded.saved is None
    [kept] = _kept(path)
    assert kept.read_bytes() == content and loaded.kept == kept
    (problem,) = map(str, loaded.problems)
    assert "damaged" in problem and str(kept) in problem
    game = Game.new()
    play(game, "E7-E13")
    save_autosave(game, path=path)  # the first move after the report
    assert kept.read_bytes() == content  # still there, byte for byte
    assert load_autosave(path).saved is not None


def test_a_huge_autosave_is_refused_without_reading_it_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autosave, "MAX_AUTOSAVE_BYTES", 1000)
    path = tmp_path / "autosave.json"
    path.write_bytes(document(pgn=HEADER + "{" + "x" * 5000 + "} *"))
    loaded = load_autosave(path)
    assert loaded.saved is None and "larger than 1,000 bytes" in str(loaded.problems[0])
    assert len(_kept(path)) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_a_fifo_in_place_of_the_autosave_neither_hangs_nor_stays(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    os.mkfifo(path)
    loaded = load_autosave(path)  # an open() without O_NONBLOCK would wait for a writer for ever
    assert loaded.saved is None and "not a regular file" in str(loaded.problems[0])
    [kept] = _kept(path)
    assert stat.S_ISFIFO(kept.lstat().st_mode)
    game = Game.new()
    save_autosave(game, path=path)
    assert path.is_file()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_link_to_dev_zero_in_place_of_the_autosave_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.symlink_to("/dev/zero")
    loaded = load_autosave(path)
    assert loaded.saved is None and "not a regular file" in str(loaded.problems[0])
    [kept] = _kept(path)
    assert kept.is_symlink()


def test_a_directory_in_place_of_the_autosave_is_moved_so_saving_works(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    path.mkdir()
    (path / "inside").write_text("kept", encoding="utf-8")
    loaded = load_autosave(path)
    assert "a directory" in str(loaded.problems[0])
    [kept] = _kept(path)
    assert (kept / "inside").read_text(encoding="utf-8") == "kept"
    save_autosave(Game.new(), path=path)
    assert path.is_file()


def test_a_lone_surrogate_in_a_player_name_never_stops_a_save(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    game = Game.new(white="Jos\udce9", black="\udcff")
    play(game, "E7-E13")
    save_autosave(game, path=path)
    saved = load_autosave(path).saved
    assert saved is not None
    assert (saved.game.tags["White"], saved.game.tags["Black"]) == ("Jos\ufffd", "\ufffd")
    assert [n.san for n in saved.game.nodes] == ["E7-E13"]


def test_an_archive_name_from_a_lone_surrogate_is_written_too(tmp_path: Path) -> None:
    from tests.helpers.games import FOOLS_MATE

    game = Game.new(white="Jos\udce9")
    play(game, *FOOLS_MATE)
    archived = save_autosave(game, path=tmp_path / "autosave.json")
    assert archived is not None and archived.is_file()
    assert "Jos" in archived.name and archived.read_text(encoding="utf-8").count("\ufffd") == 1


def test_a_game_the_writer_cannot_handle_is_a_clear_save_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cescacs_tui.core import pgn

    def too_deep(game: Game, *, fan: bool = False) -> str:
        raise RecursionError("maximum recursion depth exceeded")

    path = tmp_path / "autosave.json"
    save_autosave(Game.new(), path=path)
    before = path.read_bytes()
    monkeypatch.setattr(pgn, "write_pgn", too_deep)
    with pytest.raises(AutosaveWriteError, match="could not be written"):
        save_autosave(Game.new(), path=path)
    assert path.read_bytes() == before


def test_deeply_nested_variations_in_a_game_never_crash_a_save(tmp_path: Path) -> None:
    """The real writer on a game with 2,000 nested variations: saved, or a clear AutosaveWriteError."""
    game = Game.new()
    play(game, "E7-E13")
    start = game.start
    node = game.nodes[0]
    for _ in range(2000):
        alternative = Node.before(start, next(m for m in start.legal_moves() if str(m) == "E7-E11"), 1)
        node.variations.append([alternative])
        node = alternative
    try:
        save_autosave(game, path=tmp_path / "autosave.json")
    except AutosaveWriteError as error:
        assert str(error)


@pytest.mark.parametrize(
    ("failing", "error"),
    [
        ("replace", OSError(28, "No space left on device")),
        ("mkstemp", OSError(30, "Read-only file system")),
        ("mkstemp", PermissionError(13, "Permission denied")),
    ],
)
def test_a_failed_write_is_a_clear_error_and_the_old_save_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str, error: OSError
) -> None:
    import tempfile

    path = tmp_path / "autosave.json"
    game = Game.new()
    play(game, "E7-E13")
    save_autosave(game, path=path)
    before = path.read_bytes()

    def fail(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(os if failing == "replace" else tempfile, failing, fail)
    play(game, "E21-E15")
    with pytest.raises(AutosaveWriteError) as raised:
        save_autosave(game, path=path)
    assert isinstance(raised.value, OSError) and raised.value.path == path
    assert str(raised.value) == f"the game could not be saved to {path}: {error.strerror}"
    assert path.read_bytes() == before


# --- through the command: what the player sees, and what is on disk afterwards ---------------------------------


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[], CescacsApp]:
    """``cescacs`` on the data and config directories under ``tmp_path``; returns the app it would run."""
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    apps: list[CescacsApp] = []
    monkeypatch.setattr(CescacsApp, "run", lambda app: apps.append(app))

    def start() -> CescacsApp:
        assert main([]) == 0
        gc.unfreeze()
        return apps[-1]

    return start


async def test_the_app_reports_a_damaged_autosave_and_its_first_move_keeps_the_copy(
    started: Callable[[], CescacsApp], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "autosave.json").write_bytes(b"[]")
    app = started()
    (problem,) = [p for p in map(str, app.start_notices) if "damaged" in p]
    [kept] = _kept(data / "autosave.json")
    assert str(kept) in problem
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        await pilot.pause()
    assert kept.read_bytes() == b"[]"
    saved = read_autosave(data / "autosave.json")
    assert saved is not None and [n.san for n in saved.game.nodes] == ["E7-E13"]


async def test_the_app_starts_with_damaged_settings_kept_aside(
    started: Callable[[], CescacsApp], tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_bytes(b"theme = " + b"[" * 3000 + b"]" * 3000)
    app = started()
    (problem,) = map(str, app.settings.problems)
    [kept] = _kept(config / "settings.toml")
    assert "nested too deeply" in problem and str(kept) in problem
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("T")  # a changed setting writes a fresh file
        await pilot.pause()
    assert (config / "settings.toml").is_file() and kept.read_bytes().startswith(b"theme = [[[")


async def test_a_failing_autosave_stays_in_the_status_panel_until_a_save_succeeds(
    started: Callable[[], CescacsApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The message line is replaced by the next move's; the warning must not be, or the player believes it saved."""
    from cescacs_tui.tui.widgets.panels import StatusPanel

    real_replace = os.replace

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    app = started()
    async with app.run_test(size=(120, 40)) as pilot:

        def status() -> str:
            return str(app.screen.query_one(StatusPanel).render())

        await panels_ready(pilot)  # mounted after the first paint: on a loaded machine, after a key or two
        monkeypatch.setattr(os, "replace", full_disk)
        await pilot.press("slash", *"h6-h12", "enter")
        await pilot.pause()
        assert "not being saved" in status() and "No space left on device" in status()
        await pilot.press(*"i23-i19", "enter")
        await pilot.pause()
        assert "Black played I23-I19" in message(app)  # the message line has moved on...
        assert "not being saved" in status()  # ...the warning has not
        monkeypatch.setattr(os, "replace", real_replace)
        await pilot.press(*"jf6-c15", "enter")
        await pilot.pause()
        assert "not being saved" not in status()
    saved = read_autosave(tmp_path / "data" / "autosave.json")
    assert saved is not None and [n.san for n in saved.game.nodes] == ["H6-H12", "I23-I19", "JF6-C15"]
