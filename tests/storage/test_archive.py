"""The archive: every finished game kept in games/ before the autosave is cleared, under a safe, unique name."""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from cescacs_tui.core.clock import ClockKind, TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.outcome import Ending
from cescacs_tui.core.pgn import read_pgn, write_pgn
from cescacs_tui.data import archive
from cescacs_tui.data.archive import (
    ArchiveError,
    archive_dir,
    archive_game,
    archive_stem,
    find_archived,
    list_archive,
)
from cescacs_tui.data.autosave import AutosaveWriteError, finish_game, load_autosave, save_autosave
from tests.helpers.clock import FakeTime
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE, play

SAFE_NAME = re.compile(r"[\w.-]+\.ctl-pgn")


def mate() -> Game:
    game = Game.new(white="Ann", black="Bob")
    play(game, *FOOLS_MATE)
    return game


def stalemate() -> Game:
    game = Game.new(pdtl="/25:k3/24:2K2/14:1D5/ w -- - 0 30", white="Ann", black="Bob")
    play(game, "DB14-B20")
    return game


def claimed_draw() -> Game:
    game = Game.new(white="Ann", black="Bob")
    play(game, *KNIGHT_SHUFFLE, *KNIGHT_SHUFFLE)
    game.claim_draw()
    return game


def fivefold() -> Game:
    game = Game.new(white="Ann", black="Bob")
    play(game, *KNIGHT_SHUFFLE * 4)
    return game


def resignation() -> Game:
    game = Game.new(white="Ann", black="Bob")
    play(game, "E7-E13")
    game.resign(game.position.turn)
    return game


def agreement() -> Game:
    game = Game.new(white="Ann", black="Bob")
    play(game, "E7-E13")
    game.offer_draw()
    game.accept_draw()
    return game


def time_forfeit() -> Game:
    now = FakeTime()
    game = Game.new(white="Ann", black="Bob", time_control=TimeControl(ClockKind.SUDDEN_DEATH, 60), time_source=now)
    play(game, "E7-E13", "E21-E15")
    now.advance(61)
    assert game.check_time() is not None
    return game


ENDINGS: dict[str, tuple[Callable[[], Game], Ending, str]] = {
    "mate": (mate, Ending.CHECKMATE, "0-3"),
    "stalemate": (stalemate, Ending.STALEMATE, "2-1"),
    "claimed draw": (claimed_draw, Ending.THREEFOLD_REPETITION, "1-1"),
    "automatic draw": (fivefold, Ending.FIVEFOLD_REPETITION, "1-1"),
    "resignation": (resignation, Ending.RESIGNATION, "3-0"),
    "agreement": (agreement, Ending.AGREEMENT, "1-1"),
    "time": (time_forfeit, Ending.TIME_FORFEIT, "0-3"),
}


@pytest.mark.parametrize("name", ENDINGS)
def test_every_ending_is_archived_before_the_autosave_is_cleared(tmp_path: Path, name: str) -> None:
    make, ending, result = ENDINGS[name]
    game = make()
    assert game.outcome is not None and game.outcome.ending is ending and game.result == result
    path = tmp_path / "autosave.json"
    save_autosave(Game.new(), path=path)  # the game in progress, before its last move
    archived = save_autosave(game, path=path)
    assert archived is not None and archived.parent == tmp_path / "games"
    assert archived.name == f"{datetime.date.today().isoformat()}-Ann-Bob.ctl-pgn"
    assert not path.exists()
    (back,) = read_pgn(archived.read_text(encoding="utf-8"))
    assert [n.san for n in back.nodes] == [n.san for n in game.nodes] and back.result == result


def test_the_autosave_is_cleared_only_once_the_archive_holds_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "autosave.json"
    game = mate()

    def full_disk(*args: object, **kwargs: object) -> Path:
        raise ArchiveError("the game could not be archived: No space left on device")

    monkeypatch.setattr(archive, "archive_game", full_disk)
    with pytest.raises(AutosaveWriteError, match=r"could not be archived.*stays in the autosave"):
        finish_game(game, path)
    monkeypatch.undo()
    # the ending is on disk, in the autosave; the next start archives it
    loaded = load_autosave(path)
    assert loaded.saved is None and loaded.archived is not None and not path.exists()
    assert "was archived as" in str(loaded.problems[0])
    (back,) = read_pgn(loaded.archived.read_text(encoding="utf-8"))
    assert back.result == "0-3" and len(back.nodes) == len(FOOLS_MATE)


def test_archiving_the_same_game_again_writes_no_copy(tmp_path: Path) -> None:
    game = mate()
    first = archive_game(game, tmp_path)
    assert archive_game(game, tmp_path) == first
    game.takeback()
    game.redo()  # the same ending again
    assert archive_game(game, tmp_path) == first
    assert list(tmp_path.iterdir()) == [first]


def test_different_games_of_the_same_players_and_day_get_numbered_names(tmp_path: Path) -> None:
    first, second, third = mate(), resignation(), agreement()
    paths = [archive_game(g, tmp_path) for g in (first, second, third)]
    today = datetime.date.today().isoformat()
    assert [p.name for p in paths] == [f"{today}-Ann-Bob{n}.ctl-pgn" for n in ("", "-2", "-3")]
    assert [read_pgn(p.read_text(encoding="utf-8"))[0].result for p in paths] == ["0-3", "3-0", "1-1"]


def test_an_existing_file_is_never_replaced(tmp_path: Path) -> None:
    name = f"{datetime.date.today().isoformat()}-Ann-Bob.ctl-pgn"
    (tmp_path / name).write_text("someone else's file", encoding="utf-8")
    path = archive_game(mate(), tmp_path)
    assert path.name.endswith("-2.ctl-pgn")
    assert (tmp_path / name).read_text(encoding="utf-8") == "someone else's file"


def test_an_unfinished_game_can_be_archived_too(tmp_path: Path) -> None:
    game = Game.new(white="Ann", black="Bob")
    play(game, "E7-E13")
    (back,) = read_pgn(archive_game(game, tmp_path).read_text(encoding="utf-8"))
    assert back.result == "*" and [n.san for n in back.nodes] == ["E7-E13"]


HOSTILE_NAMES = [
    "../../etc/passwd",
    "..\\..\\Windows\\System32",
    "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07",
    "\x1b[2J\x1b]0;pwned\x07",
    "a\nb\rc\td\0e",
    "\u202eevil\u202c",
    ".hidden",
    "-rf",
    "x" * 500,
    "Ωμέγα " * 60,
    "CON",
    'Bob "the Rook" O\'Hara: <x>|*?',
    "",
    "?",
    "   ",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_file_names_are_safe_whatever_the_tags_say(tmp_path: Path, name: str) -> None:
    game = Game.new(white=name, black=name)
    game.tags["Date"] = "../" + name
    path = archive_game(game, tmp_path)
    assert path.parent == tmp_path and SAFE_NAME.fullmatch(path.name), path.name
    assert not any(ch.isspace() or not ch.isprintable() for ch in path.name)
    assert not path.name.startswith(("-", "."))
    assert len(path.name.encode("utf-8")) <= 200
    assert path.name.startswith(datetime.date.today().isoformat() + "-")


def test_names_keep_letters_digits_and_turn_spaces_into_underscores() -> None:
    tags = {"Date": "2026-12-01", "White": "Prat, J. A.", "Black": "José Raúl Capablanca 2"}
    assert archive_stem(tags) == "2026-12-01-Prat_J._A-José_Raúl_Capablanca_2"
    assert (
        archive_stem({"Date": "2025-??-??", "White": "?"}, today=datetime.date(2026, 1, 2)) == "2026-01-02-White-Black"
    )


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from cescacs_tui.core.game import Game
    from cescacs_tui.data.archive import archive_game

    folder, who = Path(sys.argv[1]), sys.argv[2]
    for number in range(15):
        game = Game.new(white="Ann", black="Bob")
        game.tags["Round"] = f"{who}.{number}"  # different records, the same file name
        print(archive_game(game, folder).name, flush=True)
    """
)


@pytest.mark.slow
def test_two_processes_archiving_at_once_never_share_a_file(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), who], stdout=subprocess.PIPE, text=True, env=env)
        for who in ("1", "2")
    ]
    names = [name for w in writers for name in w.communicate(timeout=120)[0].split()]
    assert all(w.returncode == 0 for w in writers)
    assert len(names) == len(set(names)) == 30
    rounds = {read_pgn(p.read_text(encoding="utf-8"))[0].tags["Round"] for p in tmp_path.iterdir()}
    assert rounds == {f"{who}.{n}" for who in ("1", "2") for n in range(15)}


# --- the list -----------------------------------------------------------------------------------------


def _touch(path: Path, seconds: int) -> None:
    os.utime(path, (seconds, seconds))


def test_the_list_is_newest_first_with_date_players_result_and_half_moves(tmp_path: Path) -> None:
    older = archive_game(mate(), tmp_path)
    newer = archive_game(stalemate(), tmp_path)
    _touch(older, 1_000_000_000)
    _touch(newer, 1_000_000_100)
    games = list_archive(tmp_path)
    assert [g.path for g in games] == [newer, older]
    assert [(g.white, g.black, g.result, g.plies, g.problem) for g in games] == [
        ("Ann", "Bob", "2-1", 1, None),
        ("Ann", "Bob", "0-3", len(FOOLS_MATE), None),
    ]
    assert games[0].date == datetime.date.today().isoformat()
    assert games[1].archived == datetime.datetime.fromtimestamp(1_000_000_000)


def test_a_missing_or_empty_archive_is_an_empty_list(tmp_path: Path) -> None:
    assert list_archive(tmp_path / "none") == []
    assert list_archive(tmp_path) == []


def test_files_that_are_not_games_are_listed_with_their_problem_or_ignored(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    (tmp_path / ".2026-01-01-A-B.ctl-pgn.x.tmp").write_text("a temporary file", encoding="utf-8")
    (tmp_path / "binary.ctl-pgn").write_bytes(b"\xff\xfe")
    (tmp_path / "empty.ctl-pgn").write_bytes(b"")
    (tmp_path / "garbage.ctl-pgn").write_text('[Variant "C\'escacs"]\n[White "Zed"]\n\n1. ((( *\n', encoding="utf-8")
    deep = '[Variant "C\'escacs"]\n[White "Deep"]\n\n1. E7-E13 ' + "(1. E7-E11 " * 3000 + ")" * 3000 + " *\n"
    (tmp_path / "deep.ctl-pgn").write_text(deep, encoding="utf-8")
    listed = {g.path.name: g for g in list_archive(tmp_path)}
    assert set(listed) == {"binary.ctl-pgn", "empty.ctl-pgn", "garbage.ctl-pgn", "deep.ctl-pgn"}
    assert listed["binary.ctl-pgn"].problem == "it is not UTF-8 text"
    assert listed["empty.ctl-pgn"].problem is not None and "empty" in listed["empty.ctl-pgn"].problem
    assert listed["garbage.ctl-pgn"].white == "Zed" and listed["garbage.ctl-pgn"].problem
    assert listed["deep.ctl-pgn"].white == "Deep"  # a list line, whatever its moves do to a reader


def test_a_file_of_many_games_lists_its_first(tmp_path: Path) -> None:
    one, two = mate(), stalemate()
    (tmp_path / "two.ctl-pgn").write_text(write_pgn(one) + "\n" + write_pgn(two), encoding="utf-8")
    (entry,) = list_archive(tmp_path)
    assert (entry.result, entry.plies) == ("0-3", len(FOOLS_MATE))


def test_find_archived_by_number_or_name(tmp_path: Path) -> None:
    older = archive_game(mate(), tmp_path)
    newer = archive_game(resignation(), tmp_path)
    _touch(older, 1_000_000_000)
    _touch(newer, 1_000_000_100)
    assert find_archived("1", tmp_path) == newer
    assert find_archived("2", tmp_path) == older
    assert find_archived("3", tmp_path) is None and find_archived("0", tmp_path) is None
    assert find_archived(older.name, tmp_path) == older
    assert find_archived(older.name.removesuffix(".ctl-pgn"), tmp_path) == older
    assert find_archived("../" + older.name, tmp_path) is None
    assert find_archived(str(older), tmp_path) is None  # paths are the command line's business
    assert find_archived("nothing", tmp_path) is None
    assert find_archived("١", tmp_path) is None  # only ASCII digits are numbers


def test_the_archive_lives_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path))
    assert archive_dir() == tmp_path / "games"
    path = archive_game(mate())
    assert path.parent == tmp_path / "games"
    assert [g.path for g in list_archive()] == [path]
    assert find_archived("1") == path


def test_the_writer_failing_is_an_archive_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cescacs_tui.core import pgn

    def too_deep(game: Game, *, fan: bool = False) -> str:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(pgn, "write_pgn", too_deep)
    with pytest.raises(ArchiveError, match="cannot be written"):
        archive_game(mate(), tmp_path)
    assert list(tmp_path.iterdir()) == []
