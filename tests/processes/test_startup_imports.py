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
