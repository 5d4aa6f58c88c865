"""The ``cescacs`` command line: the game it starts, and ``moves`` and ``perft`` for power users and scripts."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from importlib.metadata import version

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core import INITIAL_PDTL, Position
from cescacs_tui.core.build_info import build
from cescacs_tui.data.autosave_store import AutosaveStore
from cescacs_tui.data.slots import AutosaveSlot
from cescacs_tui.tui.app import CescacsApp

FIRST_MOVES = 68  # RULES.md 14.1
PERFT_2 = 4612


def test_moves_lists_the_68_first_moves(capsys):
    assert main(["moves"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == FIRST_MOVES
    rows = {line.split()[0]: line.split()[1] for line in lines}
    assert rows["E7-E13"] == "E7-E13"
    assert rows["E3-A11"] == "NE3-A11"  # canonical form, then CTL-AN
    assert rows["D4-C7"] == "ED4-C7"
    assert "68 legal moves" in err


def test_moves_from_a_pdtl_position(capsys):
    # RULES.md 7.5 after JB18×NC21 GD26×JC21: the in-place promotion is the only move
    pdtl = (
        "/28:v/27:dk/26:1jg/25:2nr/24:r1jep/23:3epp/22:p2jp2/21:P1g1p3/20:3p3/19:3e4/17:2p5/16:1Re4/15:3p4"
        "/14:1pP4/8:3P3/7:3PP3/6:2P1P2/5:2EEPP/4:PEJEP/3:1NNR/2:GJG/1:DK/0:V/ w KRkr - 0 14"
    )
    assert main(["moves", "--pdtl", pdtl]) == 0
    out, err = capsys.readouterr()
    assert out.split() == ["P21=J", "P21=J"]
    assert "1 legal move" in err and "1 legal moves" not in err


def test_moves_reports_the_result_of_a_finished_position(capsys):
    # the Black King on F28 is mated by the Queen on F26, protected by the Knight on G21 (RULES.md 10.1: 3-0)
    mate = "/28:k/26:1D1/21:4N3/7:K7/ b -- - 0 1"
    assert main(["moves", "--pdtl", mate]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "3-0" in err


def test_perft_2(capsys):
    assert main(["perft", "2"]) == 0
    out, err = capsys.readouterr()
    assert out.split() == [str(PERFT_2)]
    assert "depth 2" in err


def test_perft_divide(capsys):
    assert main(["perft", "2", "--divide"]) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == FIRST_MOVES + 1
    counts = {line.split()[0]: int(line.split()[1]) for line in lines[:-1]}
    assert sum(counts.values()) == PERFT_2
    assert lines[-1].strip() == str(PERFT_2)
    assert "E7-E13" in counts and "KRK-HIO" not in counts


def test_perft_1_from_a_pdtl(capsys):
    # RULES.md 8.7 first example: 15 castlings, 9 other King moves, plus the Queen's and Rooks' moves
    assert main(["perft", "1", "--pdtl", "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1", "--divide"]) == 0
    out, _ = capsys.readouterr()
    moves = [line.split()[0] for line in out.splitlines()[:-1]]
    assert len([m for m in moves if m.startswith("KR")]) == 15
    assert len([m for m in moves if m.startswith("G1-")]) == 9


def test_no_castling_option(capsys):
    assert main(["moves", "--no-castling", "--pdtl", "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"]) == 0
    out, _ = capsys.readouterr()
    assert not [line for line in out.splitlines() if line.startswith("KR")]


def test_bad_pdtl_exits_2_with_a_message_and_no_traceback(capsys):
    status = main(["moves", "--pdtl", "/28:v/ x RKRrkr - 0 1"])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert "error" in err and "PDTL" in err
    assert "Traceback" not in err


def test_bad_pdtl_for_perft_exits_2(capsys):
    assert main(["perft", "2", "--pdtl", "not a position"]) == 2
    _, err = capsys.readouterr()
    assert "error" in err and "Traceback" not in err


def test_tolerated_pdtl_prints_a_warning(capsys):
    legacy = "/27:dk/25:r2r/3:R2R/1:DK/ w - - 0 1"  # a single '-' for both sides (legacy form)
    assert main(["moves", "--pdtl", legacy]) == 0
    _, err = capsys.readouterr()
    assert "warning" in err


@pytest.mark.parametrize("depth", ["1000", "-5", "11", "\u0663", "2.5", "two"])
def test_perft_depth_out_of_range_is_a_usage_error(depth, capsys):
    # 1000 used to end in a RecursionError, -5 printed 1
    with pytest.raises(SystemExit) as caught:
        main(["perft", depth])
    out, err = capsys.readouterr()
    assert caught.value.code == 2
    assert out == ""
    assert "depth must be a whole number from 0 to 10" in err and "Traceback" not in err


def test_perft_0_counts_the_empty_sequence_and_divide_needs_a_move(capsys):
    assert main(["perft", "0"]) == 0
    assert capsys.readouterr().out.split() == ["1"]
    assert main(["perft", "0", "--divide"]) == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.slow
def test_perft_1000_in_a_subprocess_exits_2_without_a_traceback():
    bad = subprocess.run(
        [sys.executable, "-m", "cescacs_tui.cli", "perft", "1000"], capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert "depth" in bad.stderr and "Traceback" not in bad.stderr


def test_errors_echoing_the_input_are_printable(capsys):
    assert main(["moves", "--pdtl", "/27:1k/1:1K/ \x1b]52;c;eA==\x07 -- - 0 1"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "\\x1b]52;c;eA==\\x07" in err  # quoted as Python would: shown, never obeyed


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")
def test_a_fifo_as_the_record_is_refused_at_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    fifo = tmp_path / "game.ctl-pgn"
    os.mkfifo(fifo)
    assert main([str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_version_names_the_installed_package(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"cescacs {version('cescacs-tui')} ({build()})"


@pytest.mark.slow
def test_module_entry_point_in_a_subprocess():
    ok = subprocess.run(
        [sys.executable, "-m", "cescacs_tui.cli", "perft", "1"], capture_output=True, text=True, timeout=120
    )
    assert ok.returncode == 0
    assert ok.stdout.split() == [str(FIRST_MOVES)]
    bad = subprocess.run(
        [sys.executable, "-m", "cescacs_tui.cli", "moves", "--pdtl", "/28:v/ w RKRrkr - 0 1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip()
    assert "Traceback" not in bad.stderr
    assert bad.stdout == ""


# --- cescacs alone: the game (App.run replaced, so no terminal is needed) ---------------


@pytest.fixture
def started(monkeypatch, tmp_path):
    """Run ``cescacs ARGS`` with empty data and config directories; return the app it would have run."""
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    apps: list[tuple[CescacsApp, int]] = []
    monkeypatch.setattr(CescacsApp, "run", lambda app: apps.append((app, gc.get_freeze_count())))

    def start(*args: str) -> tuple[CescacsApp, int]:
        assert main(list(args)) == 0
        gc.unfreeze()
        return apps[-1]

    return start


def test_cescacs_alone_starts_a_new_game_with_the_autosave_and_settings_in_place(started, tmp_path):
    app, frozen = started()
    assert app.game.position.to_pdtl() == INITIAL_PDTL
    store = app.session.store
    assert isinstance(store, AutosaveStore) and isinstance(store.slot, AutosaveSlot)
    assert store.slot.path == tmp_path / "data" / "autosave.json"
    assert app.settings_path is not None and app.settings_path.parent == tmp_path / "config"
    assert frozen > 0  # the start-up objects are kept out of garbage collection before the app runs


def test_cescacs_starts_the_app_with_the_garbage_collector_off_and_turns_it_on_after(monkeypatch, tmp_path):
    """The start makes long-lived objects, not garbage: no collection scans them meanwhile (the app turns the
    collector on after its first frame); whatever happens, the command leaves it on."""
    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path / "config"))
    collecting: list[bool] = []
    monkeypatch.setattr(CescacsApp, "run", lambda app: collecting.append(gc.isenabled()))
    try:
        assert main([]) == 0
        assert collecting == [False] and gc.isenabled()

        def crash(app: CescacsApp) -> None:
            raise RuntimeError("the app died")

        monkeypatch.setattr(CescacsApp, "run", crash)
        with pytest.raises(RuntimeError):
            main([])
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_command_loads_its_modules_with_the_collector_off_and_then_keeps_them_out_of_collections():
    """The console script's entry (``cescacs_tui.__main__.main``), in a fresh interpreter: no collection while
    the command line and the rules load; afterwards the collector is on and what loaded is frozen."""
    probe = """
import gc, sys
while_loading = []
gc.callbacks.append(
    lambda phase, info: phase == "start"
    and while_loading.append("cescacs_tui.cli" in sys.modules and not hasattr(sys.modules["cescacs_tui.cli"], "main"))
)
sys.argv = ["cescacs", "--version"]
from cescacs_tui.__main__ import main
try:
    main()
except SystemExit:
    pass
print(sum(while_loading), gc.isenabled(), gc.get_freeze_count() > 10_000)
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split()[-3:] == ["0", "True", "True"]


def test_cescacs_with_a_record_opens_it_at_its_last_move(started, tmp_path):
    record = tmp_path / "game.ctl-pgn"
    record.write_text('[Variant "C\'escacs"]\n\n1. H6-H12 I23-I19 2. JF6-C15 *\n', encoding="utf-8")
    app, _ = started(str(record))
    assert app.game.ply == 3 and app.game.is_live


def test_cescacs_with_a_pdtl_starts_from_it(started):
    pdtl = "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"
    app, _ = started("--pdtl", pdtl)
    assert app.game.position.to_pdtl() == Position.from_pdtl(pdtl).to_pdtl()
