"""Starting the app loads only what the first screen needs; the rest is imported on first use.

Each module left out of the start is time a player does not wait for (see
benchmarks/ui.py, section 3b).  The lazy parts must still work when asked for.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import cescacs_tui.core
from cescacs_tui.core import pgn
from cescacs_tui.data.settings import SETTINGS_NAME, Settings

ON_DEMAND = (
    "cescacs_tui.core.pgn",  # reading and writing records: opening, saving, copying, the first autosave
    "cescacs_tui.core.pgn_syntax",
    "json",  # the autosave
    "tomli_w",  # saving a changed setting
    "cescacs_tui.tui.clipboard",
    "cescacs_tui.tui.dialogs.files",
    "cescacs_tui.tui.dialogs.new_game",
    "cescacs_tui.engine.client",  # the computer: its client, search and evaluation tables
    "cescacs_tui.engine.search",
)


@pytest.mark.slow
def test_starting_the_app_imports_none_of_the_on_demand_modules(tmp_path):
    code = (
        "import sys, asyncio\n"
        "from cescacs_tui.tui.app import CescacsApp\n"
        "async def start():\n"
        "    app = CescacsApp()\n"
        "    async with app.run_test() as pilot:\n"
        "        await pilot.pause()\n"
        "asyncio.run(start())\n"
        f"print(','.join(m for m in {ON_DEMAND!r} if m in sys.modules))\n"
    )
    env = {"CESCACS_DATA_DIR": str(tmp_path / "data"), "CESCACS_CONFIG_DIR": str(tmp_path / "config")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120, env={**os.environ, **env}
    )
    assert result.stdout.strip() == ""


NOT_BEFORE_THE_FIRST_FRAME = (
    *ON_DEMAND,  # json included: the autosave, and the --json and --export outputs of review and puzzles
    "importlib.metadata",  # cescacs --version
    "cescacs_tui.data.archive",  # cescacs --games, cescacs NUMBER, a finished game
    "cescacs_tui.data.records",  # cescacs GAME.ctl-pgn
    "cescacs_tui.engine",  # the computer
    "cescacs_tui.remote",  # host, join, serve-ssh
    "cescacs_tui.server",
    "cescacs_tui.web",
    "cescacs_tui.plain",  # --plain
    "cescacs_tui.learn.review",  # review, puzzles, lessons
    "cescacs_tui.learn.puzzles",
    "cescacs_tui.tui.screens.review",
    "cescacs_tui.tui.dialogs.archive",
    "cescacs_tui.tui.dialogs.help",  # the help (it reads the move list's keys)
    "cescacs_tui.tui.widgets.side_panel",  # what the game screen mounts after its first frame (widgets/lazy_line.py)
    "cescacs_tui.tui.widgets.clock_panel",
    "cescacs_tui.tui.widgets.panels",
    "cescacs_tui.tui.widgets.move_list",
    "cescacs_tui.tui.widgets.engine_panels",
    "cescacs_tui.tui.widgets.annotations",
    "cescacs_tui.tui.widgets.move_entry",
    "cescacs_tui.tui.widgets.late_footer",
)
"""What the ``cescacs`` command does not load before it paints its first frame: each is start-up time a player
would wait for (benchmarks/ui.py, section 3c), and the lazy paths to them are run by their own tests (the CLI's
subcommands and options, the dialogs)."""

FIRST_FRAME_OF_THE_COMMAND = """
import asyncio, sys
from textual.app import App

async def first_frame(app):
    painted = asyncio.Event()
    display = app._display

    def probe(screen, renderable):
        display(screen, renderable)
        if renderable is not None and not painted.is_set():
            painted.set()
            print(",".join(m for m in sys.argv[1].split(",") if m in sys.modules))

    app._display = probe
    async with app.run_test(size=(120, 40)):
        await painted.wait()

App.run = lambda app: asyncio.run(first_frame(app))  # the command's own start, its app headless
from cescacs_tui import cli
from cescacs_tui.cli import launch

launch.interactive = lambda: True  # as in a terminal (without one, cescacs plays in plain lines)
cli.main([])
"""


@pytest.mark.slow
def test_the_command_paints_its_first_frame_before_loading_what_it_does_not_show(tmp_path):
    """The ``cescacs`` console script's own path (its argument parsing, settings, autosave, app), as a returning
    player with a settings file, up to its first frame."""
    config = tmp_path / "config"
    Settings().save(config / SETTINGS_NAME)
    env = {"CESCACS_DATA_DIR": str(tmp_path / "data"), "CESCACS_CONFIG_DIR": str(config)}
    result = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_OF_THE_COMMAND, ",".join(NOT_BEFORE_THE_FIRST_FRAME)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert result.stdout.strip() == ""


@pytest.mark.slow
def test_the_command_line_reads_the_package_version_only_for_version():
    """importlib.metadata costs some 20 ms of every start; only ``cescacs --version`` needs it."""
    code = (
        "import sys\n"
        "from cescacs_tui.cli import _play_parser\n"
        "_play_parser().parse_args([])\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("name", ["read_pgn", "write_pgn"])
def test_the_core_package_still_offers_the_pgn_functions(name):
    assert getattr(cescacs_tui.core, name) is getattr(pgn, name)
    assert name in cescacs_tui.core.__all__


def test_an_unknown_name_of_the_core_package_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_thing"):
        _ = cescacs_tui.core.no_such_thing
