"""The ``host``, ``join`` and ``serve-ssh`` subcommands of ``cescacs``: one game played from two places.

Only ``argparse`` is imported with this module: the ``cescacs`` command
builds its parser from :func:`add_remote_subcommands` on every start, and
must not pay for asyncio servers, Textual or asyncssh unless one of these
subcommands runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ..arguments import decimal, host_name, quoted, whole_number
from ..i18n import _
from . import launch

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..core.game import Game

__all__ = ["DEFAULT_PORT", "DEFAULT_SSH_PORT", "REMOTE_SUBCOMMANDS", "add_remote_subcommands"]

REMOTE_SUBCOMMANDS: Final = ("host", "join", "serve-ssh", "lobby")
DEFAULT_PORT: Final = 7469
DEFAULT_SSH_PORT: Final = 2222
LOOPBACK: Final = ("127.0.0.1", "::1", "localhost")
DEFAULT_ENGINES: Final = 2
"""Engines a server runs at once for all its visitors: a 2-core machine's worth."""
DEFAULT_SILENCE: Final = 30.0
MIN_SILENCE: Final = 0.5
MAX_SILENCE: Final = 3600.0
"""How long a host waits for a sign of life from a client (it pings after a third of it) before dropping it."""
MIN_TOKEN: Final = 12
"""A token chosen by hand must be at least this long (a generated one has 22 characters)."""
MAX_KEY_FILE_BYTES: Final = 1024 * 1024
"""A host key or a list of authorized keys holds at most this (a key is a few hundred bytes): looked at before
asyncssh reads it, so a huge file is refused at once."""


def add_remote_subcommands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``host``, ``join`` and ``serve-ssh`` to the ``cescacs`` subcommand parser."""
    host = sub.add_parser(
        "host",
        help=_("hold a game that two terminals play over TCP"),
        description=_("Hold a game for two terminals: prints the command the other player runs to join."),
    )
    _add_bind(host)
    host.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=_("port (default: {port}; 0: any free)").format(port=DEFAULT_PORT),
    )
    host.add_argument("--token", help=_("the secret joiners give (default: a new random one)"))
    host.add_argument("--play", choices=("white", "black"), help=_("also play here, with this colour"))
    host.add_argument("--name", help=_("your name, with --play"))
    host.add_argument(
        "--plain",
        action="store_true",
        help=_("with --play: play in plain lines of text, for a screen reader (automatic without a terminal)"),
    )
    _add_game_options(host)
    host.add_argument("--data-dir", type=Path, metavar="DIR", help=_("where the game is kept (default: DATA/hosted)"))
    host.add_argument(
        "--silence",
        type=_seconds,
        default=DEFAULT_SILENCE,
        metavar="SECONDS",
        help=_(
            "drop a client heard nothing from for this long, and give its seat to a player who asks for it "
            "(default: {seconds:g})"
        ).format(seconds=DEFAULT_SILENCE),
    )
    host.set_defaults(run=_host)

    join = sub.add_parser(
        "join",
        help=_("play (or watch) a game someone hosts"),
        description=_("Open the game a 'cescacs host' holds. The token may also come from $CESCACS_TOKEN."),
    )
    join.add_argument("address", metavar="ADDR:PORT", help=_("the host's address and port"))
    join.add_argument("--token", help=_("the host's token (default: $CESCACS_TOKEN)"))
    join.add_argument(
        "--as", dest="seat", choices=("white", "black", "watch", "any"), default="any",
        help=_("the seat to take (default: the first free one, White first, else watch)"),
    )  # fmt: skip
    join.add_argument("--name", help=_("your name (default: $CESCACS_NAME, else your user name)"))
    join.add_argument(
        "--plain",
        action="store_true",
        help=_("play in plain lines of text, for a screen reader or a script (automatic without a terminal)"),
    )
    join.set_defaults(run=_join)

    ssh = sub.add_parser(
        "serve-ssh",
        help=_("an SSH server with rooms: ssh -t -p PORT HOST ROOM (needs the [ssh] extra)"),
        description=_("Serve C'escacs over SSH: the first two keys in a room play, the others watch."),
    )
    _add_bind(ssh)
    ssh.add_argument(
        "--port", type=_port, default=DEFAULT_SSH_PORT, help=_("port (default: {port})").format(port=DEFAULT_SSH_PORT)
    )
    ssh.add_argument("--host-key", type=Path, required=True, metavar="FILE", help=_("the server's private host key"))
    ssh.add_argument(
        "--authorized-keys", type=Path, metavar="FILE", help=_("only these public keys get in (default: any key)")
    )
    ssh.add_argument(
        "--max-rooms", type=whole_number(1, 10_000), default=16, help=_("rooms open at once (default: 16)")
    )
    ssh.add_argument(
        "--max-visitors",
        type=whole_number(1, 10_000),
        default=32,
        help=_("visitors at once, each an app process (default: 32)"),
    )
    ssh.add_argument(
        "--room-minutes",
        type=decimal(0, 7 * 24 * 60),
        default=5.0,
        help=_("a room closes this long after it empties (default: 5)"),
    )
    ssh.add_argument(
        "--engines",
        type=_engines,
        default=DEFAULT_ENGINES,
        metavar="N",
        help=_(
            "at most N engines (hints, analysis) running at once for all visitors together; 0: none (default: {count})"
        ).format(count=DEFAULT_ENGINES),
    )
    ssh.add_argument(
        "--watchers-engines",
        action="store_true",
        help=_("let the watchers of a room start an engine too (default: players only)"),
    )
    _add_game_options(ssh)
    ssh.add_argument("--data-dir", type=Path, metavar="DIR", help=_("where the rooms' games are kept (default: DATA)"))
    ssh.add_argument(
        "--db",
        metavar="PATH|URL",
        help=_("run the C'escacs server on this database (a SQLite file, or postgresql://...): keys are accounts, "
               "visitors come to the lobby instead of a room"),
    )  # fmt: skip
    ssh.add_argument(
        "--registration",
        choices=("open", "invitation"),
        default="open",
        help=_("with --db: may any key register a name, or only with an invitation code (default: open)"),
    )
    ssh.add_argument(
        "--notify",
        metavar="COMMAND",
        help=_("with --db: run COMMAND NAME GAME when it becomes the move of a player who wants to know "
               "(mail, ntfy, Matrix...); without a shell"),
    )  # fmt: skip
    ssh.add_argument(
        "--invite",
        type=whole_number(1, 1000),
        metavar="USES",
        help=_("with --db: print a new invitation code good for USES registrations, and exit"),
    )
    ssh.set_defaults(run=_serve_ssh)

    lobby = sub.add_parser(
        "lobby",
        help=_("the C'escacs server's lobby app, which serve-ssh --db starts for each visitor on a terminal"),
        description=_(
            "The lobby of a C'escacs server, on the link serve-ssh --db gives the process it starts for a "
            "visitor (ssh -t -p PORT HOST). Players reach it with ssh, not with this command."
        ),
    )
    lobby.set_defaults(run=_lobby)


def _add_bind(parser: argparse.ArgumentParser) -> None:
    """The address a server listens on: this machine alone unless the operator names another."""
    parser.add_argument(
        "--bind",
        type=host_name,
        default="127.0.0.1",
        metavar="ADDR",
        help=_("address to listen on (default: 127.0.0.1)"),
    )


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 0 <= int(text) < 65536:
        raise argparse.ArgumentTypeError(
            _("{text} is not a port number (0 to 65535; 0: any free port)").format(text=quoted(text))
        )
    return int(text)


def _engines(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 1000:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of engines from 0 to 1000").format(text=text))
    return int(text)


def _seconds(text: str) -> float:
    try:
        seconds = float(text) if text.isascii() else -1.0  # float() also takes '٣': ASCII digits only
    except ValueError:
        seconds = -1.0
    if not MIN_SILENCE <= seconds <= MAX_SILENCE:  # NaN fails too
        said = _("{text!r} is not a number of seconds from {least:g} to {most:g}")
        raise argparse.ArgumentTypeError(said.format(text=text, least=MIN_SILENCE, most=MAX_SILENCE))
    return seconds


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time", metavar="TC", help=_("time control as a TimeControl tag: 600+5, 900, *60 (default: none)")
    )
    parser.add_argument(
        "--no-castling", action="store_true", help=_("the beginners' rule: no castling, the King's leap cannot capture")
    )


def _game_factory(args: argparse.Namespace, mode: str) -> Callable[[], Game]:
    """The new-game function for these options (checked now: a bad time control is an error before serving), its
    games tagged as played in ``mode`` (``TC`` from two places, ``ICS`` on a server) by two people."""
    from ..core.clock import NO_CLOCK, TimeControl
    from ..core.game import Game
    from ..session.players import TWO_PEOPLE, play_tags

    control = NO_CLOCK if args.time is None else TimeControl.from_tag(args.time)
    castling = not args.no_castling

    def new_game() -> Game:
        game = Game.new(castling=castling, time_control=control)
        game.tags.update(play_tags(mode, TWO_PEOPLE))
        return game

    return new_game


def new_token() -> str:
    """A random token of 128 bits in hex digits.

    Hex, not URL-safe base64: a token that starts with ``-`` would make the
    printed ``cescacs join … --token -x…`` an option, not a value, when pasted.
    """
    import secrets

    return secrets.token_hex(16)


def _token(args: argparse.Namespace) -> str:
    from ..core.errors import CescacsError

    if args.token is None:
        return new_token()
    token_ok = args.token.isprintable() and " " not in args.token and not args.token.startswith("-")
    if len(args.token) < MIN_TOKEN or not token_ok:
        said = _(
            "a token needs at least {count} characters, no spaces, and no '-' first (leave it out for a random one)"
        )
        raise CescacsError(said.format(count=MIN_TOKEN))
    token: str = args.token
    return token


def _plain(args: argparse.Namespace) -> bool:
    """Whether to play in plain lines: asked, or no terminal to draw the app on (as ``cescacs`` itself decides).

    Textual would start on a pipe (``ssh host cescacs join`` without ``-t``)
    and crash with a traceback; the plain mode works there.
    """
    return bool(args.plain) or not launch.interactive()


def _host(args: argparse.Namespace) -> int:
    import asyncio
    import shlex
    import socket

    from ..data.storage import data_dir
    from ..remote.client import JoinRequest, new_client_id
    from ..remote.coordinator import Coordinator
    from ..remote.log_pace import LogPace
    from ..remote.protocol import Seat
    from ..remote.store import open_store
    from ..remote.tcp import HostThread, Limits, run_host
    from ..session.players import PEER_TO_PEER
    from ..session.policy import LaunchKind, Policy
    from ..session.words import half_moves, situation

    token = _token(args)
    new_game = _game_factory(args, PEER_TO_PEER)
    directory = args.data_dir or data_dir() / "hosted"
    coordinator = Coordinator.open(open_store(directory), token=token, new_game=new_game)
    limits = Limits(silence_seconds=args.silence, answer_seconds=min(2.0, args.silence / 3))
    wildcard = args.bind in ("0.0.0.0", "::", "")
    shown = socket.gethostname() if wildcard else args.bind

    def join_command(port: int) -> str:
        address = f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"
        return f"cescacs join {shlex.quote(address)} --token {shlex.quote(token)}"

    def ready(port: int) -> None:
        game = coordinator.game
        if coordinator.resumed:
            state = _("resumed: {moves}, {situation}").format(moves=half_moves(game.ply), situation=situation(game))
        else:
            state = _("new game")
        said = _("cescacs: hosting a game on {address} ({state}); its files are in {path}")
        _say(said.format(address=f"{args.bind}:{port}", state=state, path=directory))
        for notice in coordinator.notices():
            _say(_("cescacs: {said}").format(said=notice))
        if args.bind not in LOOPBACK:
            _say(_("cescacs: anyone who can reach this address and has the token can join"))
        _say(_("Join with: {command}").format(command=join_command(port)))

    # What happens in the game, at a pace: joins and leaves are a stranger's to cause, and no flood fills the log.
    coordinator.on_said = LogPace(lambda said: _say(_("cescacs: {said}").format(said=said)))
    if args.play is None:
        asyncio.run(run_host(coordinator, args.bind, args.port, ready=ready, limits=limits))
        return 0
    thread = HostThread(coordinator, args.bind, args.port, limits=limits)
    port = thread.start()
    ready(port)
    local = "::1" if args.bind == "::" else "127.0.0.1" if wildcard else args.bind
    name = args.name or _user_name()
    request = JoinRequest(local, port, token, Seat(args.play), name, new_client_id())
    try:
        if _plain(args):
            from ..plain.remote_client import run_plain_join

            coordinator.on_said = lambda said: None  # the plain player hears it all, in words, on the same output
            return run_plain_join(request)
        from ..tui.joined import run_join

        return _crash_noted(run_join(request, banner=join_command(port), policy=Policy(LaunchKind.JOINED)))
    finally:
        thread.stop()


def _join(args: argparse.Namespace) -> int:
    from ..core.errors import CescacsError
    from ..remote.client import JoinRequest, check_join, new_client_id, parse_address
    from ..remote.protocol import Seat, clean_name
    from ..session.policy import LaunchKind

    host, port = parse_address(args.address)
    token = args.token or os.environ.get("CESCACS_TOKEN")
    if not token:
        raise CescacsError(_("a token is needed: --token T (the host printed it), or $CESCACS_TOKEN"))
    seat = None if args.seat == "any" else Seat(args.seat)
    name = clean_name(args.name or os.environ.get("CESCACS_NAME") or _user_name())
    request = JoinRequest(host, port, token, seat, name, os.environ.get("CESCACS_CLIENT") or new_client_id())
    policy = launch.launch_policy(LaunchKind.JOINED)  # serve-ssh starts this command for its visitors
    if policy.visitor and _plain(args):
        raise CescacsError(_("a visitor's game needs a terminal: the plain mode is for the owner of this machine"))
    check_join(request)  # a wrong token or a taken seat: a clear error and status 2, before the screen opens
    if _plain(args):
        from ..plain.remote_client import run_plain_join

        return run_plain_join(request)
    from ..tui.joined import run_join

    return _crash_noted(run_join(request, policy=policy))


def _lobby(args: argparse.Namespace) -> int:
    from ..core.errors import CescacsError
    from ..remote.lobby_link import LobbyLink
    from ..session.policy import LaunchKind

    link = LobbyLink.from_environment()
    if link is None:
        said = _("cescacs lobby runs only for a visitor of serve-ssh --db: players reach it with ssh -t -p PORT HOST")
        raise CescacsError(said)
    policy = launch.launch_policy(LaunchKind.JOINED)  # serve-ssh starts this command for its visitors
    from ..tui.lobby_app import run_lobby

    return _crash_noted(run_lobby(link, policy=policy))


def _serve_ssh(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from ..core.errors import CescacsError
    from ..data.storage import data_dir
    from ..remote.log_pace import PacedLogFilter

    try:
        from ..remote.ssh_server import ServerOptions, serve_ssh
    except ImportError:
        raise CescacsError(_("serve-ssh needs asyncssh: pip install 'cescacs-tui[ssh]'")) from None
    if not args.host_key.is_file():
        said = _("{path} is not a host key file (ssh-keygen -t ed25519 -f {path} makes one)")
        raise CescacsError(said.format(path=args.host_key))
    if args.authorized_keys is not None and not args.authorized_keys.is_file():
        raise CescacsError(_("{path} is not a file of public keys").format(path=args.authorized_keys))
    for key_file in (args.host_key, args.authorized_keys):
        if key_file is not None and (size := key_file.stat().st_size) > MAX_KEY_FILE_BYTES:
            said = _("{path} holds {size} bytes: a key file has at most {most}")
            raise CescacsError(said.format(path=key_file, size=size, most=MAX_KEY_FILE_BYTES))
    from ..session.players import CHESS_SERVER

    new_game = _game_factory(args, CHESS_SERVER)
    options = ServerOptions(
        host_key=args.host_key,
        bind=args.bind,
        port=args.port,
        authorized_keys=args.authorized_keys,
        data_dir=args.data_dir or data_dir(),
        max_rooms=max(1, args.max_rooms),
        max_visitors=max(1, args.max_visitors),
        max_connections=2 * max(1, args.max_visitors),
        room_seconds=max(0.0, args.room_minutes * 60),
        new_game=new_game,
        engines=args.engines,
        watchers_use_engines=args.watchers_engines,
    )
    if args.db is not None:
        from ..remote.ssh_lobby import lobby_options, new_invitation

        options.db, options.lobby = args.db, lobby_options(args.registration)
        if args.notify is not None:
            options.notify = _hook(args.notify)
        if args.invite is not None:
            print(asyncio.run(new_invitation(args.db, args.invite)))
            return 0
    elif args.invite is not None or args.notify is not None:
        raise CescacsError(_("--invite and --notify are the server's, on its database: give --db too"))

    def ready(port: int) -> None:
        keys = args.authorized_keys
        who = _("the keys in {path}").format(path=keys) if keys else _("any SSH key")
        said = _("cescacs: serving C'escacs over SSH on {address} to {who}")
        _say(said.format(address=f"{args.bind}:{port}", who=who))
        if args.db is not None:
            _say(_("Visitors run: ssh -t -p {port} HOST (the lobby), or ssh -p {port} HOST help").format(port=port))
        else:
            _say(_("Visitors run: ssh -t -p {port} HOST ROOM").format(port=port))

    # What asyncssh has to say of its connections (warnings and errors), at a pace no stranger can flood.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(PacedLogFilter())
    try:
        asyncio.run(serve_ssh(options, ready=ready))
    except ValueError as error:  # asyncssh: a key file it cannot read
        raise CescacsError(str(error)) from None
    return 0


def _hook(text: str) -> list[str]:
    """The notification hook's program and first arguments, split as a shell would split them (never run by one)."""
    import shlex

    from ..core.errors import CescacsError

    try:
        words = shlex.split(text)
    except ValueError:
        words = []
    if not words:
        raise CescacsError(_("--notify names a program, and its first arguments if any: close each quote"))
    return words


def _crash_noted(status: int) -> int:
    """The joined app's exit status, said as ``cescacs`` says it when the app died (Textual has restored the
    terminal and printed the traceback)."""
    if status:
        print(_(launch.CRASH_NOTE), file=sys.stderr)
    return status


def _say(line: str) -> None:
    """Print one line of the server's log: paths and names in it are anyone's, so made printable."""
    from ..core.safe_text import printable

    print(printable(line), flush=True)


def _user_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "?"
