"""``cescacs --games`` lists the archive; ``cescacs GAME`` opens a file, or an archived game by number or name."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core.game import Game
from cescacs_tui.data.archive import archive_game
from cescacs_tui.tui.app import CescacsApp
from tests.helpers.games import FOOLS_MATE, play

ROOT = Path(__file__).parents[2]


@pytest.fixture
def data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("CESCACS_DATA_DIR", str(folder))
    return folder


def archived(data: Path, white: str, black: str, *moves: str, moment: int) -> Path:
    game = Game.new(white=white, black=black)
    play(game, *moves)
    path = archive_game(game, data / "games")
    os.utime(path, (moment, moment))
    return path


def cescacs(data: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The real command, in a process of its own, its output as the terminal gets it."""
    env = {**os.environ, "CESCACS_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cescacs_tui.cli", *args], capture_output=True, env=env, timeout=60)


def test_an_empty_archive_says_so(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games"]) == 0
    out, err = capsys.readouterr()
    assert out == f"No archived games yet: every finished game is kept in {data / 'games'}\n" and err == ""


def test_the_archive_is_listed_newest_first_numbered_one_line_each(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = archived(data, "Ann", "Bob", *FOOLS_MATE, moment=1_000_000_000)
    newer = archived(data, "Cid", "Dee", "E7-E13", moment=1_000_000_500)
    assert main(["--games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"2 archived games in {data / 'games'}, newest first:"
    assert lines[1].startswith("1  ") and "Cid - Dee" in lines[1] and "(1 half-move)" in lines[1]
    assert lines[1].endswith(newer.name) and " *  " in lines[1]
    assert lines[2].startswith("2  ") and "0-3" in lines[2] and "(12 half-moves)" in lines[2]
    assert lines[2].endswith(older.name)
    assert lines[3] == f"Open one with: cescacs NUMBER (1 is {newer.name})"


@pytest.mark.slow
def test_tags_and_file_names_reach_the_terminal_escaped(data: Path) -> None:
    archived(data, "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUveCB8IHNo\x07", "\x1b[2J\u202e", "E7-E13", moment=1_000_000_000)
    evil = data / "games" / "\x1b]0;title\x07\x9b31m.ctl-pgn"
    evil.write_text('[Variant "C\'escacs"]\n[White "\x1b[5m"]\n\n*\n', encoding="utf-8")
    done = cescacs(data, "--games")
    assert done.returncode == 0 and done.stderr == b""
    assert b"\x1b" not in done.stdout and b"\x07" not in done.stdout and "\u202e".encode() not in done.stdout
    assert "\x9b".encode() not in done.stdout
    text = done.stdout.decode("utf-8")
    assert "␛]0;title␇\ufffd31m.ctl-pgn" in text and "␛[5m" in text  # shown, never obeyed


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch, data: Path) -> Iterator[list[CescacsApp]]:
    """Apps that ``cescacs ...`` would have run (App.run replaced, so no terminal is needed)."""
    apps: list[CescacsApp] = []
    monkeypatch.setattr(CescacsApp, "run", lambda app: apps.append(app))
    yield apps
    gc.unfreeze()


def test_a_number_from_the_list_opens_that_game(data: Path, opened: list[CescacsApp]) -> None:
    archived(data, "Ann", "Bob", *FOOLS_MATE, moment=1_000_000_000)
    archived(data, "Cid", "Dee", "E7-E13", moment=1_000_000_500)
    assert main(["2"]) == 0
    assert opened[-1].game.tags["White"] == "Ann" and opened[-1].game.result == "0-3"
    assert main(["1"]) == 0
    assert opened[-1].game.tags["White"] == "Cid" and opened[-1].game.ply == 1


def test_a_name_from_the_list_opens_that_game(data: Path, opened: list[CescacsApp]) -> None:
    path = archived(data, "Ann", "Bob", "E7-E13", "E21-E15", moment=1_000_000_000)
    assert main([path.name]) == 0
    assert opened[-1].game.ply == 2
    assert main([path.name.removesuffix(".ctl-pgn")]) == 0
    assert opened[-1].game.ply == 2


def test_an_existing_path_wins_over_a_number(
    data: Path, opened: list[CescacsApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archived(data, "Ann", "Bob", "E7-E13", moment=1_000_000_000)
    (tmp_path / "1").write_text('[Variant "C\'escacs"]\n\n1. E7-E11 E21-E17 *\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["1"]) == 0
    assert [n.san for n in opened[-1].game.nodes] == ["E7-E11", "E21-E17"]


def test_a_number_beyond_the_list_is_a_clear_error(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archived(data, "Ann", "Bob", "E7-E13", moment=1_000_000_000)
    assert main(["7"]) == 2
    err = capsys.readouterr().err
    assert err == "cescacs: error: there is no archived game 7: the archive holds 1 (cescacs --games lists them)\n"


@pytest.mark.slow
def test_an_unknown_name_is_the_usual_missing_file_error_escaped(data: Path) -> None:
    done = cescacs(data, "no-such\x1b[31m.ctl-pgn")
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"\x1b" not in done.stderr and "no-such␛[31m.ctl-pgn".encode() in done.stderr


def test_games_opens_nothing_else(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "--pdtl", "/27:k/1:K/ w -- - 0 1"]) == 2
    assert "opens no game" in capsys.readouterr().err
