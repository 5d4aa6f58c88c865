"""Shared fixtures: the reference data files in tests/data, the environment of a real cescacs process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.reference import DATA
from tests.helpers.terminal import terminal_environment


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a real ``cescacs`` process under test: its own data directories, a known terminal."""
    return terminal_environment(tmp_path)


@pytest.fixture(autouse=True)
def true_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app under test sees a true-colour terminal with colours on, whatever terminal runs the tests.

    Textual's console decides its colours from ``COLORTERM`` and ``TERM`` when an app is created (and
    ``NO_COLOR`` turns the colours off), so a test run from a 16-colour terminal would draw another
    board.  The tests of the 16-colour and NO_COLOR boards set these on purpose.
    """
    import textual.constants

    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "auto")


@pytest.fixture(autouse=True)
def _own_state_directories(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads or writes the player's real autosave, archive or settings (a test may still set its own)."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("CESCACS_DATA_DIR", str(state / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(state / "config"))


@pytest.fixture(autouse=True)
def _a_terminal_at_both_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """``main([])`` in a test starts the full app, as it does in a terminal.

    Without a terminal at both ends the command plays in plain text instead
    (``cescacs --plain``), and pytest's streams are not one.  The plain
    mode's own tests run the real command in pipes and pseudo-terminals.
    """
    from cescacs_tui import cli

    monkeypatch.setattr(cli, "_interactive", lambda: True)


# --- tiers: `pytest -m "not slow"` is the quick loop; plain `pytest` runs everything ---------------------

SLOW_FIXTURES = frozenset({"snap_compare", "environment"})
"""Fixtures that start something real: an app drawn to an SVG, a real ``cescacs`` process."""
SLOW_MODULES = frozenset(
    {
        "test_terminal.py",
        "test_terminal_input.py",
        "test_terminal_safety.py",
        "test_terminal_computer.py",
        "test_plain_cli.py",
        "test_remote_terminal.py",
        "test_remote_ssh.py",
        "test_signals.py",
        "test_properties.py",
        "test_totality.py",
        "test_random_input.py",
        "test_web_browser.py",
    }
)
"""Modules whose every test runs the command in a pseudo-terminal, a server, a browser or a long property sweep."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test of the app (an event loop: the pilot, servers, engine processes) or of a process."""
    import inspect

    for item in items:
        function = getattr(item, "function", None)
        if (
            inspect.iscoroutinefunction(function)
            or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
            or item.path.name in SLOW_MODULES
        ):
            item.add_marker(pytest.mark.slow)
