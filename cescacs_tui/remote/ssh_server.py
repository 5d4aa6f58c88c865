"""``cescacs serve-ssh``: an SSH server with rooms, where ``ssh -t -p P host ROOM`` sits you at a board.

Built on asyncssh (the optional ``[ssh]`` extra).  Visitors log in with a
public key (only the listed ones with ``--authorized-keys``); the key is their
identity.  Each room is a :class:`~cescacs_tui.remote.coordinator.Coordinator`
with keyed seats on a loopback port of its own, behind a random token only
this server knows: the first two keys to arrive play, later ones watch, and
a player who comes back with the same key gets the same seat.  Each SSH
session runs the normal ``cescacs join`` app in a process of its own, on a
pseudo-terminal this server relays to the visitor (window-size changes
included), so a visitor reaches nothing but the game: no shell, no files,
no forwarding.  A room closes a few minutes after its last visitor leaves;
its game stays saved in the room's directory and resumes when someone returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import re
import secrets
import signal
import struct
import sys
import tempfile
import termios
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

import asyncssh

from ..core.game import Game
from ..core.message import Message, Nn_
from ..data.engine_slots import EngineSlots
from ..i18n import LOCALE_VARIABLES, N_, language, language_from_locale, locale_environment, translation
from ..server.lobby import LobbyOptions
from ..session.policy import LaunchKind, Policy
from .coordinator import Coordinator
from .protocol import clean_name
from .serving import until_stopped
from .store import open_store
from .tcp import CoordinatorServer, Doorway, Waiting, serve_tcp

if TYPE_CHECKING:
    from .ssh_lobby import LobbyDoor

__all__ = ["DEFAULT_ROOM", "ROOM_NAME", "Hub", "ServerOptions", "serve_ssh", "visitor_language"]

ROOM_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
DEFAULT_ROOM: Final = "main"
"""The room of a visitor who names none (``ssh -t -p P host``)."""

FULL_OF_VISITORS: Final = Nn_(
    "the server has {count} visitor already: try again later",
    "the server has {count} visitors already: try again later",
)
FULL_OF_CONNECTIONS: Final = Nn_(
    "the server has {count} connection already: try again later",
    "the server has {count} connections already: try again later",
)
FULL_OF_ROOMS: Final = Nn_(
    "the server has {count} room open already: join it, or wait",
    "the server has {count} rooms open already: join one of them, or wait",
)

LOBBY_SESSIONS: Final = 4
"""Sessions one connection may have open at once with the server's lobby (``ssh`` multiplexing commands)."""
TOO_MANY_SESSIONS: Final = Nn_(
    "one connection has at most {count} session at once: wait for one to end",
    "one connection has at most {count} sessions at once: wait for one to end",
)

INPUT_BACKLOG: Final = 64 * 1024
"""Keys waiting for an app that is not reading them: beyond this, the visitor's input waits."""


@dataclass
class ServerOptions:
    """What ``serve-ssh`` was told: where to listen, who may come in, and the caps."""

    host_key: Path
    bind: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: Path | None = None
    data_dir: Path = Path(".")
    max_rooms: int = 16
    max_visitors: int = 32
    """SSH sessions running an app at once (each is a process)."""
    max_connections: int = 64
    """SSH connections logged in at once (each may hold a session; those still logging in are counted apart)."""
    max_waiting: int = 64
    """Connections still logging in, from anywhere: a newer one pushes the oldest out."""
    max_waiting_per_address: int = 8
    """Connections still logging in from one address: a newer one pushes that address's oldest out."""
    login_seconds: float = 10.0
    """How long a connection has to log in (the authentication deadline)."""
    keepalive_seconds: float = 10.0
    """A visitor's link is asked for a sign of life this often; three unanswered and it is closed (30 s)."""
    engines: int = 2
    """Engines (hints, analysis) running at once for all visitors together (``0``: none)."""
    watchers_use_engines: bool = False
    """Whether a room's watchers may start an engine too."""
    room_seconds: float = 300.0
    """How long a room stays open after its last visitor has left."""
    new_game: Callable[[], Game] = Game.new
    app_command: Callable[[int], Sequence[str]] = field(default=lambda port: _join_command(port))
    """The command a visitor's session runs, given the room's loopback port."""
    db: str | None = None
    """The C'escacs server's database (a SQLite file's path or a ``postgresql://`` address): with it, a
    visitor's key is their account and they come to the lobby (:mod:`.ssh_lobby`); without it, to a room."""
    lobby: LobbyOptions = field(default_factory=LobbyOptions)
    """The lobby's rules (registration open or by invitation), with ``db``."""
    notify: Sequence[str] = ()
    """With ``db``: the operator's notification hook, a program and its first arguments (none: no hook)."""
    lobby_command: Callable[[], Sequence[str]] = field(default=lambda: _lobby_command())
    """With ``db``: the command a visitor's lobby app runs (on a terminal, with no command)."""


def _lobby_command() -> list[str]:
    return [sys.executable, "-m", "cescacs_tui", "lobby"]


def _join_command(port: int) -> list[str]:
    return [sys.executable, "-m", "cescacs_tui", "join", f"127.0.0.1:{port}", "--as", "any"]


@dataclass(eq=False)
class Room:
    """One game and its loopback port; ``visitors`` counts the SSH sessions in it."""

    name: str
    server: CoordinatorServer
    token: str
    visitors: int = 0
    closing: asyncio.TimerHandle | None = None
    closed: asyncio.Future[None] | None = None


class Full(Exception):
    """No room or no seat at the server for one more: :attr:`why` says which (:meth:`words`, in a language)."""

    def __init__(self, why: Message) -> None:
        super().__init__(str(why))
        self.why = why

    def words(self, code: str) -> str:
        return self.why.say(translation(code))


class Hub:
    """The rooms, and the caps on them."""

    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.rooms: dict[str, Room] = {}
        self._closing: dict[str, asyncio.Future[None]] = {}
        """Rooms closed and still closing (saving their game, letting their autosave go), by name: a visitor who
        comes meanwhile waits for it, then opens the room again on its game."""
        self.visitors = 0
        self.connections = 0
        """Connections logged in now."""
        self.doorway = Doorway(options.max_waiting_per_address, options.max_waiting)
        """Connections still logging in: counted apart, a few per address, so they never keep visitors out."""
        self.authorized = (
            None if options.authorized_keys is None else asyncssh.read_authorized_keys(str(options.authorized_keys))
        )
        self.policy = Policy(LaunchKind.SSH, watchers_use_engines=options.watchers_use_engines)
        """What each visitor may do with this machine (:meth:`share_engines` gives it the server's engine places)."""

    def share_engines(self, folder: Path) -> None:
        """Make the server's engine places in ``folder``, shared by every visitor's app."""
        if self.options.engines:
            places = EngineSlots(folder, self.options.engines)
            places.prepare()
            self.policy = Policy(LaunchKind.SSH, places, self.options.watchers_use_engines)

    def full(self) -> Message | None:
        """Why no one more can log in now, or ``None``."""
        if self.visitors >= self.options.max_visitors:
            return Message(FULL_OF_VISITORS, count=self.options.max_visitors)
        if self.connections >= self.options.max_connections:
            return Message(FULL_OF_CONNECTIONS, count=self.options.max_connections)
        return None

    async def enter(self, name: str) -> Room:
        """The room ``name`` with one more visitor (opened, and its game resumed, if it was closed)."""
        if (full := self.full()) is not None:
            raise Full(full)
        room = self.rooms.get(name)
        if room is None and (closing := self._closing.get(name)) is not None:
            await asyncio.shield(closing)  # its game saved and its autosave let go first: else RoomBusy
            room = self.rooms.get(name)  # opened again meanwhile, by another visitor
        if room is None:
            if len(self.rooms) >= self.options.max_rooms:
                raise Full(Message(FULL_OF_ROOMS, count=self.options.max_rooms))
            room = await self._open(name)
        if room.closing is not None:
            room.closing.cancel()
            room.closing = None
        room.visitors += 1
        self.visitors += 1
        return room

    async def _open(self, name: str) -> Room:
        token = secrets.token_urlsafe(24)
        store = open_store(self.options.data_dir / "rooms" / name)
        coordinator = Coordinator.open(store, token=token, keyed=True, new_game=self.options.new_game)
        room = Room(name, await serve_tcp(coordinator, "127.0.0.1", 0), token)
        self.rooms[name] = room
        return room

    def leave(self, room: Room) -> None:
        room.visitors -= 1
        self.visitors -= 1
        if room.visitors == 0:
            room.closing = asyncio.get_running_loop().call_later(self.options.room_seconds, self._close, room)

    def _close(self, room: Room) -> None:
        if room.visitors == 0 and self.rooms.get(room.name) is room:
            del self.rooms[room.name]
            closed = room.closed = asyncio.ensure_future(room.server.close())
            self._closing[room.name] = closed
            closed.add_done_callback(
                lambda _: self._closing.pop(room.name, None) if self._closing.get(room.name) is closed else None
            )

    async def close(self) -> None:
        """Close every room (their games are saved)."""
        rooms = list(self.rooms.values())
        for room in rooms:
            room.visitors = 0
            self._close(room)
        await asyncio.gather(*(room.closed for room in rooms if room.closed is not None))

    def visitor_directory(self, identity: str) -> Path:
        """A visitor's own settings (theme, pieces) on this server, by key."""
        return self.options.data_dir / "visitors" / hashlib.sha256(identity.encode()).hexdigest()[:24]


class _Visitor(asyncssh.SSHServer):
    """One SSH connection: public keys only, and the key that logged in is the visitor's identity.

    Until it has logged in it waits in the hub's doorway (a few per address,
    pushed out oldest first); a full server says so, after the banner, in an
    SSH disconnect message that OpenSSH prints ("Received disconnect from
    ...: the server has 32 visitors already: try again later").
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.identity = ""
        self.key: asyncssh.SSHKey | None = None
        """The key that logged in."""
        self.peer = ("", "")
        self.sessions = 0
        self.logged_in = False
        self._offered: asyncssh.SSHKey | None = None
        self._connection: asyncssh.SSHServerConnection | None = None
        self._waiting: Waiting | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        peer = conn.get_extra_info("peername") or ("", 0)
        self.peer = (str(peer[0]), str(peer[0]))
        self._waiting = self.hub.doorway.enter(self.peer[0], self._push_out)

    def _push_out(self) -> None:
        """Too many connections are logging in from this address (or at all): this, the oldest, goes."""
        self._waiting = None
        if self._connection is not None:
            said = translation(language()).gettext(N_("too many connections are logging in from your address"))
            self._connection.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, said)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._waiting is not None:
            self.hub.doorway.leave(self._waiting)
            self._waiting = None
        if self.logged_in:
            self.hub.connections -= 1
            self.logged_in = False

    def begin_auth(self, username: str) -> bool:
        if (full := self.hub.full()) is not None:  # after the banner: OpenSSH prints this sentence
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, full.say(translation(language())))
        return True  # every visitor authenticates

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh handles one auth request at a time and a new one cancels the last, so the key
        # accepted here last is the key whose signature completes the login (see auth_completed).
        allowed = self.hub.authorized is None or self.hub.authorized.validate(key, *self.peer) is not None
        self._offered = key if allowed else None
        return allowed

    def auth_completed(self) -> None:
        assert self._offered is not None and self._connection is not None
        self.key = self._offered
        self.identity = "key:" + self._offered.get_fingerprint("sha256")
        if self._waiting is not None:
            self.hub.doorway.leave(self._waiting)
            self._waiting = None
        if (full := self.hub.full()) is not None:  # others logged in meanwhile
            self._connection.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, full.say(translation(language())))
            return
        self.logged_in = True
        self.hub.connections += 1


async def _visit(hub: Hub, process: asyncssh.SSHServerProcess[bytes]) -> None:
    """One SSH session: check the room and the terminal, run the app for it, relay until either side ends."""
    visitor = process.get_extra_info("connection").get_owner()
    assert isinstance(visitor, _Visitor)
    room_name = (process.command or DEFAULT_ROOM).strip()
    code = visitor_language(process.env)
    words = translation(code or language())

    def refuse(text: str) -> None:
        process.stdout.write((words.gettext("cescacs: {said}").format(said=text) + "\r\n").encode())
        process.exit(1)

    if not ROOM_NAME.fullmatch(room_name):
        return refuse(words.gettext("a room is named by 1 to 32 letters, digits, '-' or '_': ssh -t -p PORT HOST ROOM"))
    if process.get_terminal_type() is None:
        return refuse(words.gettext("C'escacs needs a terminal: ssh -t -p PORT HOST {room}").format(room=room_name))
    visitor.sessions += 1
    if visitor.sessions > 1:
        return refuse(words.gettext("one game a connection: open another ssh session for another room"))
    try:
        room = await hub.enter(room_name)
    except Full as full:
        return refuse(full.words(code or language()))
    except Exception as error:  # a room whose saved game cannot be read: say so, keep the server up
        said = words.gettext("room {room} cannot be opened: {reason}")
        return refuse(said.format(room=room_name, reason=error))
    try:
        status = await _run_app(hub, room, visitor, process, code)
    finally:
        hub.leave(room)
    process.exit(status)


def visitor_language(environment: Mapping[str, str]) -> str | None:
    """The interface language an SSH visitor's locale asks for (OpenSSH sends ``LANG`` and ``LC_*`` by default
    with ``SendEnv``), or ``None``: only a language the interface has is taken from what the visitor sent."""
    sent = {name: environment[name] for name in LOCALE_VARIABLES if isinstance(environment.get(name), str)}
    return language_from_locale({name: value[:64] for name, value in sent.items()})


async def _run_app(
    hub: Hub, room: Room, visitor: _Visitor, process: asyncssh.SSHServerProcess[bytes], code: str | None
) -> int:
    """The visitor's app, on a pseudo-terminal of its own, relayed to the SSH channel until it ends; in the
    visitor's language (``code``) unless the visitor's settings say otherwise, else in the server's."""
    environment = {
        "CESCACS_TOKEN": room.token,
        "CESCACS_CLIENT": visitor.identity,
        "CESCACS_NAME": clean_name(str(process.get_extra_info("username") or ""), default=""),
    }
    return await run_visitor_app(hub, visitor, process, code, hub.options.app_command(room.server.port), environment)


async def run_visitor_app(
    hub: Hub,
    visitor: _Visitor,
    process: asyncssh.SSHServerProcess[bytes],
    code: str | None,
    command: Sequence[str],
    variables: Mapping[str, str],
    pass_fds: Sequence[int] = (),
) -> int:
    """Run ``command`` for the visitor on a pseudo-terminal of its own, with the visitor's folders, the
    policy's description and ``variables`` in its environment (and the descriptors ``pass_fds``), relayed to
    the SSH channel until either side ends; its exit status."""
    width, height, pixwidth, pixheight = process.get_terminal_size()
    controller, terminal = os.openpty()
    _set_size(controller, width or 80, height or 24, pixwidth, pixheight)
    folder = hub.visitor_directory(visitor.identity)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "CESCACS_"))} | {
        "TERM": _terminal_type(process.get_terminal_type()),
        "CESCACS_DATA_DIR": str(folder / "data"),
        "CESCACS_CONFIG_DIR": str(folder / "config"),
        **variables,
        **hub.policy.environment(),  # an SSH visitor's app: no file, clipboard or program of the server
    }
    if code is not None:
        environment = locale_environment(environment, code)
    try:
        child = await asyncio.create_subprocess_exec(
            *command,
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            env=environment,
            start_new_session=True,
            pass_fds=tuple(pass_fds),
        )
    finally:
        os.close(terminal)
    visitor_left = True
    try:
        visitor_left = await relay(process, controller, child)
    finally:
        if not visitor_left:  # the app is on its way out (it closes its screen a moment before it exits)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5.0):
                    await child.wait()
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signal.SIGHUP)  # the visitor left: the app ends (the room or the server has the game)
        try:
            async with asyncio.timeout(5.0):
                await child.wait()
        except TimeoutError:
            child.kill()
            await child.wait()
        os.close(controller)
    return child.returncode or 0


async def relay(process: asyncssh.SSHServerProcess[bytes], controller: int, child: asyncio.subprocess.Process) -> bool:
    """Copy bytes between the SSH channel and the pseudo-terminal's controller until the app or the visitor ends;
    whether it was the visitor who left (else the app ended, or closed its screen on its way out).

    A window-size change from the visitor resizes the pseudo-terminal and
    tells the app (``SIGWINCH``): the app has no controlling terminal to be
    told by the kernel.
    """
    loop = asyncio.get_running_loop()
    screen = asyncio.StreamReader()
    reading, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(screen), os.fdopen(controller, "rb", buffering=0, closefd=False)
    )
    writing, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(os.dup(controller), "wb", buffering=0))

    async def to_visitor() -> None:
        with contextlib.suppress(OSError):  # EIO: the app has ended and closed its terminal
            while data := await screen.read(1 << 16):
                process.stdout.write(data)
                await process.stdout.drain()

    async def from_visitor() -> None:
        while True:
            try:
                data = await process.stdin.read(1 << 16)
            except asyncssh.TerminalSizeChanged as size:
                _set_size(controller, size.width, size.height, size.pixwidth, size.pixheight)
                with contextlib.suppress(ProcessLookupError):
                    child.send_signal(signal.SIGWINCH)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError):
                return
            if not data:
                return
            writing.write(data)
            while writing.get_write_buffer_size() > INPUT_BACKLOG and not writing.is_closing():
                await asyncio.sleep(0.05)

    tasks = [asyncio.ensure_future(job) for job in (to_visitor(), from_visitor(), child.wait())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return tasks[1].done() and not tasks[0].done() and not tasks[2].done()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        reading.close()
        writing.close()


def _set_size(controller: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    size = struct.pack("HHHH", max(1, min(height, 1000)), max(1, min(width, 1000)), pixwidth, pixheight)
    with contextlib.suppress(OSError):
        fcntl.ioctl(controller, termios.TIOCSWINSZ, size)


def _terminal_type(value: str | None) -> str:
    """The visitor's ``TERM``, if it is a plausible terminal name (it goes into the app's environment)."""
    return value if value and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}", value) else "xterm-256color"


async def serve_ssh(options: ServerOptions, *, ready: Callable[[int], None], stop: asyncio.Event | None = None) -> None:
    """Serve until ``stop`` is set (or SIGINT, SIGTERM, SIGHUP when it is not given); rooms are saved on the way out."""
    if options.db is not None:
        from .ssh_lobby import open_door

        async with open_door(options.db, options.lobby, options.notify) as door:

            async def enter_lobby(process: asyncssh.SSHServerProcess[bytes]) -> None:
                visitor = process.get_extra_info("connection").get_owner()
                assert isinstance(visitor, _Visitor) and visitor.key is not None
                code = visitor_language(process.env) or language()
                if visitor.sessions >= LOBBY_SESSIONS:
                    said = Message(TOO_MANY_SESSIONS, count=LOBBY_SESSIONS).say(translation(code))
                    process.stdout.write((said + "\r\n").encode())
                    process.exit(2)
                    return
                visitor.sessions += 1
                try:
                    if door.wants_app(process, visitor.key):
                        process.exit(await _lobby_app(hub, door, visitor, process, code))
                    else:
                        process.exit(await door.visit(process, visitor.key, code))
                finally:
                    visitor.sessions -= 1

            hub = Hub(options)
            await _serve(hub, enter_lobby, ready, stop)
        return
    with tempfile.TemporaryDirectory(prefix="cescacs-engines-") as places:  # this server's own, gone with it
        hub = Hub(options)
        hub.share_engines(Path(places))

        async def enter_room(process: asyncssh.SSHServerProcess[bytes]) -> None:
            await _visit(hub, process)

        await _serve(hub, enter_room, ready, stop)


async def _lobby_app(
    hub: Hub, door: LobbyDoor, visitor: _Visitor, process: asyncssh.SSHServerProcess[bytes], code: str
) -> int:
    """The lobby app (:mod:`cescacs_tui.tui.lobby_app`) for a visitor on a terminal, linked to the lobby as their
    key (:mod:`.lobby_link`); it counts as a visitor, as a room's app does."""
    from .lobby_link import LINK_VARIABLE

    assert visitor.key is not None
    if (full := hub.full()) is not None:
        process.stdout.write((full.say(translation(code)) + "\r\n").encode())
        return 1
    hub.visitors += 1
    try:
        async with door.app_link(visitor.key, code) as app_end:
            variables = {LINK_VARIABLE: str(app_end.fileno()), "CESCACS_CLIENT": visitor.identity}
            command = hub.options.lobby_command()
            return await run_visitor_app(hub, visitor, process, code, command, variables, [app_end.fileno()])
    finally:
        hub.visitors -= 1


async def _serve(
    hub: Hub,
    visit: Callable[[asyncssh.SSHServerProcess[bytes]], Awaitable[None]],
    ready: Callable[[int], None],
    stop: asyncio.Event | None,
) -> None:
    options = hub.options
    server = await asyncssh.create_server(
        lambda: _Visitor(hub),
        options.bind,
        options.port,
        server_host_keys=[str(options.host_key)],
        process_factory=visit,
        encoding=None,
        line_editor=False,
        password_auth=False,
        kbdint_auth=False,
        host_based_auth=False,
        gss_host=None,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        login_timeout=options.login_seconds,
        keepalive_interval=options.keepalive_seconds,
        keepalive_count_max=3,
    )
    try:
        await until_stopped(lambda: ready(server.sockets[0].getsockname()[1]), stop)
    finally:
        server.close()
        await hub.close()
