"""The ``cescacs-web`` command: its options, checked before anything listens, and one-line errors.

Every mistake (a port out of range or in use, a wildcard address with no
public URL, a public URL with a path) is one line on stderr and exit status
2, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..data.storage import data_dir
from .site import Site, SiteError, is_loopback

EXIT_USAGE = 2
DEFAULT_MAX_SESSIONS = 8


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1 to 65535)")
    return port


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def app_command(extra: Sequence[str] = ()) -> str:
    """The shell command textual-serve starts for each browser session.

    ``exec``: the shell becomes the app, so the process the server stops (or
    kills, if it does not quit) is the app itself, never a shell that leaves it
    behind.
    """
    return "exec " + " ".join(shlex.quote(part) for part in (sys.executable, "-m", "cescacs_tui", *extra))


def parser() -> argparse.ArgumentParser:
    from .server import PASSWORD_VARIABLE

    command = _Parser(
        prog="cescacs-web",
        description="Serve C'escacs to web browsers: one game per browser, on this machine only unless told otherwise.",
    )
    command.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine)")
    command.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    command.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use (scheme, host and port), needed with --host 0.0.0.0 or behind a proxy",
    )
    command.add_argument(
        "--password",
        help=f"ask visitors for this password (better: set ${PASSWORD_VARIABLE}, which other users cannot see); "
        "a link may carry it as ?token=PASSWORD",
    )
    command.add_argument(
        "--max-sessions",
        type=_positive,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"at most N games at once, one process each (default: {DEFAULT_MAX_SESSIONS})",
    )
    command.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help="where each browser's games and settings are kept (default: a 'web' folder in the data directory)",
    )
    return command


def main(argv: Sequence[str] | None = None) -> int:
    command = parser()
    args = command.parse_args(argv)
    try:
        site = Site.served(args.host, args.port, args.public_url)
    except SiteError as error:
        return _fail(str(error))
    try:
        from .server import PASSWORD_VARIABLE, CescacsServer
    except ImportError:
        return _fail("textual-serve is missing; pip install 'cescacs-tui[web]'")
    password = args.password or os.environ.get(PASSWORD_VARIABLE) or None
    if password is None and not is_loopback(args.host):
        print(
            f"cescacs-web: warning: anyone who can reach {site.public_url} can play here and start up to "
            f"{args.max_sessions} processes; --password (or ${PASSWORD_VARIABLE}) keeps strangers out",
            file=sys.stderr,
        )
    server = CescacsServer(
        app_command(),
        site=site,
        host=args.host,
        port=args.port,
        state_dir=args.state_dir or data_dir() / "web",
        max_sessions=args.max_sessions,
        password=password,
    )
    try:
        server.serve()
    except OSError as error:
        return _fail(f"cannot listen on {args.host}:{args.port}: {_reason(error)}")
    except KeyboardInterrupt:
        return 130
    return 0


def _reason(error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return "the port is already in use (another cescacs-web? choose another with --port)"
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges; choose another with --port)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address"
    return error.strerror or str(error)


def _fail(message: str) -> int:
    print(f"cescacs-web: error: {message}", file=sys.stderr)
    return EXIT_USAGE
