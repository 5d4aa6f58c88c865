"""The README's promises: its two commands work as written, and its table of keys is the app's."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from scripts.key_table import BEGIN, END, key_table, with_table

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
CI = (Path(__file__).parents[2] / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_opens_with_the_play_and_test_commands_and_ci_runs_the_test_one() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    play, test = blocks[0], blocks[1]
    assert README.index(play) < README.index("## ")  # before any section
    assert play.endswith(".venv/bin/cescacs")
    assert "'.[test]'" in test and "pytest" in test
    assert test in CI


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250  # the rest is in docs/


def test_the_readmes_table_of_keys_is_made_from_the_action_table() -> None:
    assert f"{BEGIN}\n{key_table()}\n{END}" in README  # else: python scripts/key_table.py --write
    assert with_table(README) == README


def test_the_table_of_keys_lists_every_action_and_each_of_its_keys() -> None:
    from cescacs_tui.session import ACTIONS
    from cescacs_tui.session.actions import key_name

    rows = key_table().splitlines()[2:]
    assert len(rows) == len(ACTIONS)
    for row, action in zip(rows, ACTIONS.values(), strict=True):
        keys, title, what = (cell.strip() for cell in row.strip("|").split(" | "))
        assert (title, what) == (action.title, action.help)
        expected = [key_name(key) for key in action.keys.split(",")] if action.keys else ["Ctrl+P"]
        assert re.findall(r"`([^`]+)`", keys) == expected


def test_the_readmes_test_command_runs_the_suite_in_parallel() -> None:
    """Adopted after three full runs in a row passed beside two CPU hogs (benchmarks/README.md, the test suite)."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    options = pyproject["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert options[options.index("-n") + 1] == "auto"
    assert options[options.index("--dist") + 1] == "loadgroup"


@pytest.mark.parametrize(
    ("arguments", "markers", "workers_a_core"),
    [((), "", 3), (("tests/tui",), "", 3), ((), "not slow", 1), (("tests/core/test_game.py::test_x",), "", 0)],
)
def test_the_suite_runs_three_workers_a_core_where_tests_wait(
    arguments: tuple[str, ...], markers: str, workers_a_core: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slow tier waits on apps, programs and servers a third of its time; the quick tier never waits."""
    from types import SimpleNamespace

    from tests.conftest import pytest_xdist_auto_num_workers

    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    config = SimpleNamespace(args=list(arguments), option=SimpleNamespace(markexpr=markers))
    assert pytest_xdist_auto_num_workers(config) == 3 * workers_a_core  # type: ignore[arg-type]
