"""A real PostgreSQL server of the test run's own: ``initdb`` into a temporary folder, a private port on 127.0.0.1.

The suite never mocks the database: :class:`PrivatePostgres` runs the
server binaries the machine has (Debian's ``postgresql`` package puts them
in /usr/lib/postgresql/VERSION/bin; ``CESCACS_POSTGRES_BIN`` names another
folder), as a child of the test run that dies with it (``setpriv
--pdeathsig``), its Unix socket in its own folder, reachable over TCP from
this machine only, with trust authentication (nobody else can reach it) for
the user ``cescacs``.  :meth:`PrivatePostgres.new_database` gives each test a
fresh database of its own.  tests/conftest.py starts one per test session
(per pytest-xdist worker) and stops it at the end; the tests that need it
are skipped, saying why, only when no binaries are found.

PostgreSQL refuses to run as root (``initdb`` says so), so when the tests
run as root the server runs as the unprivileged ``postgres`` user the Debian
package makes (or ``nobody``), its folder given to that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PostgresMissing", "PrivatePostgres", "postgres_binaries"]

USER = "cescacs"
"""The database user the tests connect as (the cluster's superuser)."""
UNPRIVILEGED = ("postgres", "nobody")
"""Whom the server runs as when the tests run as root, the first that exists."""
START_SECONDS = 60.0
TEST_DATABASE = "tests"


class PostgresMissing(Exception):
    """No PostgreSQL server binaries on this machine: why, for the skip."""


def postgres_binaries() -> Path:
    """The folder of ``initdb`` and ``postgres``, or :class:`PostgresMissing` saying where it looked."""
    named = os.environ.get("CESCACS_POSTGRES_BIN")
    candidates = [Path(named)] if named else []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    candidates += versions
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    raise PostgresMissing(
        "no PostgreSQL server binaries (initdb, postgres) in CESCACS_POSTGRES_BIN, on PATH or in "
        "/usr/lib/postgresql/*/bin: install Debian's postgresql package (.ci/run does) to run these tests"
    )


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class PrivatePostgres:
    """A PostgreSQL server in a temporary folder, started by :meth:`start` and gone after :meth:`stop`."""

    durable: bool = False
    """Flush to disk as a real server does (benchmarks); the tests' server skips the flushes (a test kills
    processes, never the machine), which a busy disk would make the slowest part of the suite's writes."""
    folder: Path = field(init=False)
    port: int = field(init=False, default=0)
    process: subprocess.Popen[bytes] | None = field(init=False, default=None)
    _databases: int = field(init=False, default=0)

    def start(self) -> PrivatePostgres:
        binaries = postgres_binaries()
        try:
            import psycopg  # noqa: F401  (the tests' client)
        except ImportError as missing:
            raise PostgresMissing(f"psycopg is not installed ({missing}): pip install -e '.[test]'") from None
        self.folder = Path(tempfile.mkdtemp(prefix="cescacs-postgres-"))
        try:
            self._own_folder()
            data = self.folder / "data"
            initdb = [str(binaries / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"]
            initdb += ["--locale=C.UTF-8", *([] if self.durable else ["--no-sync"])]
            done = subprocess.run(self._as_server(initdb), capture_output=True, text=True, timeout=START_SECONDS)
            if done.returncode != 0:
                raise RuntimeError(f"initdb failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
            self._launch(binaries, data)
        except BaseException:
            self.stop()
            raise
        return self

    def _own_folder(self) -> None:
        user = self._unprivileged()
        if user is not None:
            os.chown(self.folder, user.pw_uid, user.pw_gid)

    @staticmethod
    def _unprivileged() -> pwd.struct_passwd | None:
        """Whom the server runs as, when not as whoever runs the tests (root)."""
        if os.geteuid() != 0:
            return None
        for name in UNPRIVILEGED:
            with contextlib.suppress(KeyError):
                return pwd.getpwnam(name)
        raise PostgresMissing("the tests run as root and there is no postgres or nobody user to run PostgreSQL as")

    def _as_server(self, command: list[str]) -> list[str]:
        """``command`` as the server's user, killed if the test run dies (Linux's setpriv, where there is one)."""
        setpriv = shutil.which("setpriv")
        user = self._unprivileged()
        if setpriv is None:
            if user is not None:
                raise PostgresMissing("the tests run as root and there is no setpriv to run PostgreSQL as another user")
            return command
        switch = [] if user is None else [f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups"]
        return [setpriv, "--pdeathsig=KILL", *switch, *command]

    def _launch(self, binaries: Path, data: Path) -> None:
        for _ in range(5):  # the port chosen free may be taken before the server binds it
            self.port = _free_port()
            command = [str(binaries / "postgres"), "-D", str(data), "-p", str(self.port)]
            for setting in (
                "listen_addresses=127.0.0.1",
                f"unix_socket_directories={self.folder}",
                "max_connections=200",
                *([] if self.durable else ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]),
            ):
                command += ["-c", setting]
            log = (self.folder / "server.log").open("ab")
            with log:
                self.process = subprocess.Popen(
                    self._as_server(command), stdin=subprocess.DEVNULL, stdout=log, stderr=log
                )
            if self._ready():
                return
            self._endprocess()
        raise RuntimeError(f"PostgreSQL did not start: {self.log()[-2000:]}")

    def _ready(self) -> bool:
        """Wait until the server takes connections (``True``) or has ended (``False``)."""
        import psycopg

        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
            except psycopg.OperationalError:
                time.sleep(0.05)  # a poll between looks at the condition
                continue
            return True
        return False

    def url(self, database: str, schema: str | None = None) -> str:
        """The address of ``database`` (its tables in ``schema``, when given, rather than in ``public``)."""
        options = "" if schema is None else f"?options=-c%20search_path%3D{schema}"
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}{options}"

    def new_database(self) -> str:
        """The address of a fresh, empty database for one test.

        It is a schema of its own in the server's one test database, named by the address (libpq's
        ``options``, ``search_path``): to the storage, fresh and empty as a new database, and made in a
        millisecond where ``CREATE DATABASE`` takes half a second.  (A test that needs ``LISTEN``'s channel
        to itself has it: the tests of one session run one after another.)
        """
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            if not self._databases:
                connection.execute(f"CREATE DATABASE {TEST_DATABASE}")
        self._databases += 1
        schema = f"lobby_{self._databases}"
        with psycopg.connect(self.url(TEST_DATABASE), autocommit=True) as connection:
            connection.execute(f"CREATE SCHEMA {schema}")
        return self.url(TEST_DATABASE, schema)

    def log(self) -> str:
        try:
            return (self.folder / "server.log").read_text(errors="replace")
        except OSError:
            return ""

    def _endprocess(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown: clients disconnected, then a checkpoint
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        self._endprocess()
        if hasattr(self, "folder"):
            shutil.rmtree(self.folder, ignore_errors=True)
