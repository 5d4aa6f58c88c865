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

from ..arguments import decimal, host_name, whole_number
from ..data.settings import read_language
from ..data.storage import data_dir
from ..i18n import LANGUAGES, _, choose_language, set_language
from .site import Site, SiteError, is_loopback

EXIT_USAGE = 2
DEFAULT_MAX_SESSIONS = 8
DEFAULT_ENGINES = 2
DEFAULT_IDLE_MINUTES = 30.0
DEFAULT_FORGET_DAYS = 30.0


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_USAGE, _("{prog}: error: {reason} (see {prog} --help)").format(prog=self.prog, reason=message) + "\n"
        )


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
        description=_(
            "Serve C'escacs to web browsers: one game per browser, on this machine only unless told otherwise."
        ),
    )
    command.add_argument(
        "--host", type=host_name, default="127.0.0.1", help=_("address to listen on (default: 127.0.0.1, this machine)")
    )
    command.add_argument("--port", type=whole_number(1, 65535), default=8000, help=_("port (default: 8000)"))
    command.add_argument(
        "--public-url",
        metavar="URL",
        help=_("the address browsers use (scheme, host and port), needed with --host 0.0.0.0 or behind a proxy"),
    )
    command.add_argument(
        "--password",
        help=_(
            "ask visitors for this password (better: set ${variable}, which other users cannot see); "
            "a link may carry it as ?token=PASSWORD"
        ).format(variable=PASSWORD_VARIABLE),
    )
    command.add_argument(
        "--max-sessions",
        type=whole_number(1, 100_000),
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=_("at most N games at once, one process each (default: {count})").format(count=DEFAULT_MAX_SESSIONS),
    )
    command.add_argument(
        "--engines",
        type=whole_number(0, 1000),
        default=DEFAULT_ENGINES,
        metavar="N",
        help=_(
            "at most N engines (the computer's moves, hints, analysis) running at once for all visitors together; "
            "0: none (default: {count})"
        ).format(count=DEFAULT_ENGINES),
    )
    command.add_argument(
        "--idle-minutes",
        type=decimal(0, 1_000_000),
        default=DEFAULT_IDLE_MINUTES,
        metavar="M",
        help=_(
            "end a game left M minutes without a key, saved: the page resumes it (0: never; default: {minutes:g})"
        ).format(minutes=DEFAULT_IDLE_MINUTES),
    )
    command.add_argument(
        "--forget-days",
        type=decimal(0, 1_000_000),
        default=DEFAULT_FORGET_DAYS,
        metavar="D",
        help=_("remove the games and settings of browsers not seen for D days (0: never; default: {days:g})").format(
            days=DEFAULT_FORGET_DAYS
        ),
    )
    command.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help=_("where each browser's games and settings are kept (default: a 'web' folder in the data directory)"),
    )
    command.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        help=_("every page and game in this language (default: each browser's, else the locale's)"),
    )
    return command


def main(argv: Sequence[str] | None = None) -> int:
    flag = _lang_flag(sys.argv[1:] if argv is None else argv)
    set_language(choose_language(flag, read_language(), os.environ))  # the server's own lines (and --help)
    command = parser()
    args = command.parse_args(argv)
    try:
        site = Site.served(args.host, args.port, args.public_url)
    except SiteError as error:
        return _fail(str(error))
    try:
        from .server import PASSWORD_VARIABLE, CescacsServer
    except ImportError:
        return _fail(_("textual-serve is missing; pip install 'cescacs-tui[web]'"))
    password = args.password or os.environ.get(PASSWORD_VARIABLE) or None
    if password is None and not is_loopback(args.host):
        warning = _(
            "cescacs-web: warning: anyone who can reach {url} can play here and start up to {count} processes; "
            "--password (or ${variable}) keeps strangers out"
        )
        print(warning.format(url=site.public_url, count=args.max_sessions, variable=PASSWORD_VARIABLE), file=sys.stderr)
    server = CescacsServer(
        app_command(("--lang", args.lang) if args.lang else ()),
        site=site,
        host=args.host,
        port=args.port,
        state_dir=args.state_dir or data_dir() / "web",
        max_sessions=args.max_sessions,
        password=password,
        language=args.lang,
        engines=args.engines,
        idle_seconds=args.idle_minutes * 60,
        forget_days=args.forget_days,
    )
    try:
        server.serve()
    except OSError as error:
        return _fail(
            _("cannot listen on {host}:{port}: {reason}").format(host=args.host, port=args.port, reason=_reason(error))
        )
    except KeyboardInterrupt:
        return 130
    return 0


def _reason(error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return _("the port is already in use (another cescacs-web? choose another with --port)")
    if error.errno == errno.EACCES:
        return _("permission denied (ports below 1024 need privileges; choose another with --port)")
    if error.errno == errno.EADDRNOTAVAIL:
        return _("this machine has no such address")
    return error.strerror or str(error)


def _lang_flag(arguments: Sequence[str]) -> str | None:
    """``--lang`` as given, read before the parser so that ``--help`` and its errors speak it (a wrong one: ``None``,
    and the parser refuses it)."""
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False, exit_on_error=False)
    early.add_argument("--lang", choices=tuple(LANGUAGES))
    try:
        return early.parse_known_args(arguments)[0].lang  # type: ignore[no-any-return]
    except argparse.ArgumentError:  # said once, by the real parser
        return None


def _fail(message: str) -> int:
    print(_("cescacs-web: error: {reason}").format(reason=message), file=sys.stderr)
    return EXIT_USAGE
