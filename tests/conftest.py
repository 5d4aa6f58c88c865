"""Shared fixtures: the reference data files in tests/data, the environment of a real cescacs process."""

from __future__ import annotations

import gc
import itertools
import os
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings
from platformdirs import user_cache_path

from cescacs_tui.server.storage import Storage, open_storage
from tests.helpers.postgres import PostgresMissing, PrivatePostgres
from tests.helpers.reference import DATA
from tests.helpers.server import BACKENDS, sqlite_path
from tests.helpers.terminal import terminal_environment
from tests.helpers.waiting import steady_pilot

if TYPE_CHECKING:
    from tests.helpers.remote import HostProcess

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    # Started in the background of a shell without job control, which ignores Ctrl+C for it: the programs the
    # tests start would inherit that and never hear the Ctrl+C (SIGINT) a test sends, as a terminal's would.
    signal.signal(signal.SIGINT, signal.default_int_handler)

for _size in ("COLUMNS", "LINES"):
    # pytest-xdist's workers set these (80x24); every program a test starts in a pseudo-terminal would take
    # them over the terminal's own size, as Python's shutil.get_terminal_size does.
    os.environ.pop(_size, None)

if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    # Where Python is told to write no bytecode, every run would compile the package again, and rewrite the
    # assertions of every test module again (some 10 s of CPU in each pytest-xdist worker), as would each of the
    # hundreds of Python programs the tests start (cescacs in a terminal, servers, engines).  They all keep it in
    # the user's cache folder instead, never in the source tree, reused by the next run.
    _bytecode = str(user_cache_path("cescacs-tui") / "test-bytecode")
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = _bytecode  # this process, its workers, its children
    sys.dont_write_bytecode = False

gc.set_threshold(10_000, *gc.get_threshold()[1:])
"""The suite starts and drops thousands of Textual apps in its own process: at Python's default (a young-object
collection every 700 allocations) the cyclic collector ran some 3,000 times a module of pilot tests, a fifth of
their CPU; every 10,000 it runs about 100 times, for the same garbage.  Only this process and its pytest-xdist
workers: a program a test starts (``cescacs`` in a terminal, a server) collects as it would for a player."""

settings.register_profile("cescacs", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cescacs")
"""No property test is about time: a slow example on a loaded machine is not a failure (hypothesis' default
deadline, 200 ms an example, and its too-slow health check both measure the machine)."""


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a real ``cescacs`` process under test: its own data directories, a known terminal."""
    return terminal_environment(tmp_path)


@pytest.fixture
def host(environment: dict[str, str]) -> Iterator[HostProcess]:
    """``cescacs host`` on a free port of 127.0.0.1 (its join command parsed), stopped after the test."""
    from tests.helpers.remote import HostProcess

    with HostProcess(environment) as hosted:
        yield hosted


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


@pytest.fixture(scope="session")
def _state_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Iterator[Path]]:
    """Fresh folders for the tests' state, one a call, all in one folder of this session (or pytest-xdist worker).

    Not ``tmp_path_factory.mktemp`` a test: each call lists the whole base folder to number the new one, so
    thousands of tests made that quadratic (about a third of the quick tier's CPU at 3,700 tests).
    """
    root = tmp_path_factory.mktemp("state")

    def fresh() -> Iterator[Path]:
        for number in itertools.count():
            folder = root / str(number)
            folder.mkdir()
            yield folder

    yield fresh()


@pytest.fixture(autouse=True)
def _own_state_directories(monkeypatch: pytest.MonkeyPatch, _state_root: Iterator[Path]) -> None:
    """No test reads or writes the player's real autosave, archive or settings (a test may still set its own);
    no test sees another's."""
    state = next(_state_root)
    monkeypatch.setenv("CESCACS_DATA_DIR", str(state / "data"))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(state / "config"))


@pytest.fixture(autouse=True)
def _a_terminal_at_both_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """``main([])`` in a test starts the full app, as it does in a terminal.

    Without a terminal at both ends the command plays in plain text instead
    (``cescacs --plain``), and pytest's streams are not one.  The plain
    mode's own tests run the real command in pipes and pseudo-terminals.
    """
    from cescacs_tui.cli import launch

    monkeypatch.setattr(launch, "interactive", lambda: True)


@pytest.fixture(autouse=True)
def _pilot_waits_until_the_app_has_settled() -> Iterator[None]:
    """Each key a pilot presses is handled before the test goes on, however loaded the machine (helpers/waiting.py)."""
    with steady_pilot():
        yield


@pytest.fixture(autouse=True)
def _cursors_that_do_not_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text box's cursor stays on: a snapshot shows the same screen whenever the machine gets to take it.

    Textual blinks the cursor of a focused ``Input`` or ``TextArea`` every half
    second, so a snapshot taken later than that on a loaded machine caught it off.
    """
    from textual.widgets import Input, TextArea

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)


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
        "test_fuzz.py",
        "test_questions_under_load.py",
    }
)
"""Modules whose every test runs the command in a pseudo-terminal, a server, a browser or a long property sweep."""


WORKERS_A_CORE_WHEN_TESTS_WAIT = 3
"""The slow tier's tests wait a third of their time (a pilot for the app to settle, a test for a program it
started, a server, a browser): with a worker a core the cores were two thirds busy (336 s idle on 2 cores).  Two
a core still left them idle a tenth of the time: 0.56-0.62 s of the run for each second of CPU the run took, three
a core 0.53 (stop 39, paired runs; four a core no better, and each worker imports and collects the suite).  The
quick tier never waits: there a second worker a core only adds its start (50 s of CPU against 40)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: three workers a core (one for the quick tier, ``-m "not slow"``), or the count in
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` as pytest-xdist reads it; none for tests named one by one (``pytest -n auto
    tests/core/test_game.py::test_x``, as an alias or a habit might give), which then run in this process as
    without the plugin: no workers to start, and ``breakpoint()`` or ``-s`` work as usual."""
    if config.args and all("::" in arg for arg in config.args):
        return 0
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if "not slow" in (config.option.markexpr or ""):
        return cores
    return WORKERS_A_CORE_WHEN_TESTS_WAIT * cores


SHARED_SERVER_MODULES = frozenset({"test_web.py", "test_web_exposure.py", "test_web_browser.py"})
"""Modules whose tests share one server (a module-scoped fixture: the web server, Chromium): under pytest-xdist
(``--dist loadgroup``) each runs in one worker, which starts it once."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test of the app (an event loop: the pilot, servers, engine processes), of a process or
    on PostgreSQL; group the tests of a module that shares a server.  A test of the quick tier that starts a
    program (an engine, ssh-keygen) or sweeps megabytes carries its own ``@pytest.mark.slow``."""
    import inspect

    for item in items:
        if item.path.name in SHARED_SERVER_MODULES:
            item.add_marker(pytest.mark.xdist_group(item.path.name))
        function = getattr(item, "function", None)
        if (
            inspect.iscoroutinefunction(function)
            or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
            or item.path.name in SLOW_MODULES
            or getattr(getattr(item, "callspec", None), "params", {}).get("backend") == "postgresql"  # a server
        ):
            item.add_marker(pytest.mark.slow)


# --- the C'escacs server's storage, on each backend ----------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PrivatePostgres]:
    """This test session's own PostgreSQL server (tests/helpers/postgres.py), stopped at the end; its tests are
    skipped, saying why, only on a machine without PostgreSQL's server binaries."""
    try:
        server = PrivatePostgres().start()
    except PostgresMissing as missing:
        pytest.skip(str(missing))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each storage backend of the server in turn (tests/helpers/server.py)."""
    return str(request.param)


@pytest.fixture
def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """What ``--db`` says for a fresh database of the backend: a file in the test's folder, or a database of
    its own on the session's PostgreSQL server (started by the first test that needs it)."""
    if backend == "postgresql":
        server: PrivatePostgres = request.getfixturevalue("postgres_server")
        return server.new_database()
    return str(sqlite_path(tmp_path))


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    """The fresh database of the backend, opened and migrated, closed after the test."""
    opened = await open_storage(database)
    yield opened
    await opened.close()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish() -> None:
    """At its end pytest collects garbage five times over, to hear any exception a finaliser raises: each a full
    collection of the heap thousands of apps have grown (some 0.45 s of CPU each, 2 s a pytest-xdist worker).  One
    collection here finds that garbage, its finalisers' exceptions still reaching pytest's hook; what survives it is
    frozen, so pytest's own collections go over only what is made after."""
    gc.collect()
    gc.freeze()
