"""``cescacs serve-ssh --db``: the C'escacs server over SSH, where a visitor's key is their account.

``ssh -p P host COMMAND`` answers one of the server's commands for scripts
(:mod:`cescacs_tui.server.commands`: ``register``, ``games``, ``play`` ...) as
plain text, or JSON with ``--json``, with the exit status 0, or 2 and the
reason.  ``ssh -p P host`` with no command opens the lobby in words: the
visitor types the same commands, one a line, and is told as they happen of
the moves, offers and endings of their games, whichever server process
sharing the database they were made through (the lobby's fan-out).  Nothing
here decides anything: the lobby does, and says why not.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import shlex
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Final

import asyncssh

from ..core.errors import CescacsError
from ..core.message import Message
from ..core.safe_text import printable
from ..i18n import N_, _, translation
from ..server.commands import MAX_WORD, MAX_WORDS, describe_game, run_command
from ..server.keys import KeyRefused, PublicKey
from ..server.lobby import BEAT, Caller, Lobby, LobbyOptions, Refusal, Registration
from ..server.model import Account, Change, ChangeKind, StorageError
from ..server.notify import Notifier
from ..server.storage import Storage, open_storage
from ..tasks import stop_tasks
from .lobby_link import link_pair, serve_link

__all__ = ["PLAIN_WORDS", "LobbyDoor", "caller_of", "lobby_options", "new_invitation", "open_door"]

log = logging.getLogger(__name__)

MAX_LINE: Final = MAX_WORDS * (MAX_WORD + 1)
"""The longest command line read: the most words of the longest length a command takes."""
UNREADABLE: Final = N_("the command cannot be read: close each quote, and keep it under {count} characters")
LEAVE_WORDS: Final = frozenset({"quit", "exit", "logout"})
PLAIN_WORDS: Final = frozenset({"plain"})
"""``ssh host plain``: the lobby in words even on a terminal (a screen reader, a braille display, a script)."""
_DELETE: Final = frozenset({"\x08", "\x7f"})
_INTERRUPT: Final = frozenset({"\x03", "\x04"})
"""Ctrl-C and Ctrl-D at the lobby's prompt: the visitor leaves."""


def caller_of(key: asyncssh.SSHKey) -> Caller:
    """Who a key that logged in is, as the lobby knows them (:class:`KeyRefused` for a kind it does not take)."""
    return Caller(PublicKey.from_blob(key.get_algorithm(), key.public_data))


def split_command(text: str) -> list[str]:
    """An SSH command's words, split as a shell would (quotes kept together); :class:`ValueError` if it cannot."""
    if len(text) > MAX_LINE:
        raise ValueError(text)
    return shlex.split(text)


@dataclass
class _Channel:
    """One SSH session's output: lines ended as its terminal wants them, written as UTF-8."""

    process: asyncssh.SSHServerProcess[bytes]
    terminal: bool

    def write(self, text: str) -> None:
        ending = "\r\n" if self.terminal else "\n"
        self.process.stdout.write(text.replace("\n", ending).encode("utf-8", "replace"))

    def line(self, text: str) -> None:
        self.write(text + "\n")


class LobbyDoor:
    """The SSH sessions of the server's visitors: a command each, or the lobby in words."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def beat(self) -> None:
        """Every :data:`BEAT` until cancelled: :meth:`tick`."""
        while True:
            await self.tick()
            await asyncio.sleep(BEAT.total_seconds())

    async def tick(self) -> None:
        """Say this process is alive (so other processes keep its players), and end on time the games whose
        deadline has passed though nobody acted in them since (their players hear of it as of any ending)."""
        try:
            await self.lobby.beat()
            await self.lobby.sweep()
        except StorageError:
            log.warning("the lobby's heartbeat could not be written: tried again in %s", BEAT, exc_info=True)

    @staticmethod
    def wants_app(process: asyncssh.SSHServerProcess[bytes], key: asyncssh.SSHKey) -> bool:
        """Whether this session gets the lobby app: no command, and a terminal (``ssh -t host``); a command, the
        word ``plain`` or no terminal get words (:meth:`visit`), and so does a key the lobby refuses (the words
        say why)."""
        if process.command or process.get_terminal_type() is None:
            return False
        try:
            caller_of(key)
        except KeyRefused:
            return False
        return True

    @contextlib.asynccontextmanager
    async def app_link(self, key: asyncssh.SSHKey, language: str) -> AsyncIterator[socket.socket]:
        """The app's end of a new link to the lobby as ``key``'s owner (:mod:`.lobby_link`), served until the
        block ends; pass it to the app's process (this process's copy is closed when the block ends)."""
        caller = caller_of(key)
        server_end, app_end = link_pair()
        reader, writer = await asyncio.open_unix_connection(sock=server_end)
        serving = asyncio.ensure_future(serve_link(self.lobby, caller, language, reader, writer))
        try:
            yield app_end
        finally:
            app_end.close()
            await stop_tasks(serving)

    async def visit(self, process: asyncssh.SSHServerProcess[bytes], key: asyncssh.SSHKey, language: str) -> int:
        """Answer one SSH session of the visitor who logged in with ``key``; its exit status."""
        words = translation(language)
        channel = _Channel(process, process.get_terminal_type() is not None)
        try:
            caller = caller_of(key)
        except KeyRefused as refused:
            channel.line(refused.reason.say(words))
            return 2
        if process.command and process.command.strip() not in PLAIN_WORDS:
            try:
                argv = split_command(process.command)
            except ValueError:
                channel.line(Message(UNREADABLE, count=MAX_LINE).say(words))
                return 2
            reply = await run_command(self.lobby, caller, argv, language)
            if reply.text:
                channel.line(reply.text)
            return reply.status
        return await _LobbyInWords(self.lobby, caller, channel, language).run()


def lobby_options(registration: str) -> LobbyOptions:
    """The lobby's rules as ``serve-ssh`` was told them (``open`` or ``invitation``)."""
    return LobbyOptions(registration=Registration(registration))


async def _open(db: str) -> Storage:
    """The server's database, opened and migrated; a :class:`CescacsError` saying why it cannot be."""
    try:
        return await open_storage(db)
    except (StorageError, OSError) as error:
        said = _("the server's database cannot be opened: {reason}")
        raise CescacsError(said.format(reason=printable(str(error), 400))) from None


async def new_invitation(db: str, uses: int) -> str:
    """A new invitation code on the database ``db``, good for ``uses`` registrations."""
    storage = await _open(db)
    try:
        return await Lobby(storage).invite(uses)
    finally:
        await storage.close()


@contextlib.asynccontextmanager
async def open_door(db: str, options: LobbyOptions, notify: Sequence[str] = ()) -> AsyncIterator[LobbyDoor]:
    """The lobby on the database ``db`` (opened and migrated), with this process's heartbeat, until closed;
    ``notify`` is the operator's hook (a program and its first arguments: :mod:`cescacs_tui.server.notify`)."""
    storage = await _open(db)
    notifier = Notifier(notify) if notify else None
    try:
        lobby = Lobby(storage, options) if notifier is None else Lobby(storage, options, on_turn=notifier)
        door = LobbyDoor(lobby)
        beating = asyncio.ensure_future(door.beat())
        try:
            yield door
        finally:
            await stop_tasks(beating)
    finally:
        if notifier is not None:
            await notifier.close()
        await storage.close()


class _LobbyInWords:
    """The lobby as lines of words: the visitor's commands answered, their games' news told as it comes."""

    def __init__(self, lobby: Lobby, caller: Caller, channel: _Channel, language: str) -> None:
        self.lobby = lobby
        self.caller = caller
        self.channel = channel
        self.language = language
        self.words = translation(language)
        self.account: Account | None = None

    def say(self, template: str, **values: object) -> None:
        self.channel.line(Message(template, None, **values).say(self.words))

    async def run(self) -> int:
        async with self.lobby.changes() as changes:
            self.account = await self.lobby.whoami(self.caller)
            if self.account is None:
                self.say(N_("Welcome to the C'escacs server. Your key has no account yet: register NAME"))
            else:
                await self.lobby.arrive(self.account)
                self.say(N_("Welcome, {name}. Your games:"), name=self.account.name)
                await self.answer(["games"])
                await self.answer(["who"])
            self.say(N_("Type a command (help lists them; quit leaves)."))
            news = asyncio.ensure_future(self.tell(changes))
            try:
                await self.read()
            finally:
                try:
                    await stop_tasks(news)
                finally:  # offline even when the session is cancelled meanwhile
                    if self.account is not None:
                        await self.lobby.leave(self.account)
        return 0

    async def read(self) -> None:
        """The visitor's lines, each a command, until they leave."""
        async for line in _lines(self.channel):
            try:
                argv = split_command(line)
            except ValueError:
                self.say(UNREADABLE, count=MAX_LINE)
                continue
            if not argv:
                continue
            if argv[0] in LEAVE_WORDS:
                return
            await self.answer(argv)

    async def answer(self, argv: list[str]) -> None:
        reply = await run_command(self.lobby, self.caller, argv, self.language)
        if reply.text:
            self.channel.line(reply.text)
        if self.account is None and reply.status == 0 and argv[0] in ("register", "keys"):
            self.account = await self.lobby.whoami(self.caller)
            if self.account is not None:
                await self.lobby.arrive(self.account)

    async def tell(self, changes: AsyncIterator[Change]) -> None:
        """Say each change of one of the visitor's games (a move, an offer, an acceptance, an ending)."""
        async for change in changes:
            if self.account is None or change.kind is not ChangeKind.GAME:
                continue
            try:
                line = await describe_game(self.lobby, self.caller, self.account, change.id, self.language)
            except Refusal:
                continue  # a game gone since (a withdrawn seek)
            except StorageError:
                log.warning("game %d could not be read for a visitor's lobby", change.id, exc_info=True)
                continue  # the next change, or the visitor's next command, reads it again
            if line is not None:
                self.channel.line(line)


async def _lines(channel: _Channel) -> AsyncIterator[str]:
    """The visitor's lines: as they come from a pipe, or typed on a terminal, echoed and edited here (the
    visitor's terminal is raw under ``ssh -t``: nothing else echoes)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    pending: list[str] = []
    while True:
        try:
            data = await channel.process.stdin.read(4096)
        except (asyncssh.TerminalSizeChanged, asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (asyncssh.Error, OSError):
            return
        if not data:
            if pending and not channel.terminal:
                yield "".join(pending)
            return
        for char in decoder.decode(data):
            if char in "\r\n":
                if char == "\n" and channel.terminal:
                    continue  # a terminal sends Enter as \r
                if channel.terminal:
                    channel.write("\n")
                yield "".join(pending)
                pending.clear()
            elif channel.terminal and char in _INTERRUPT:
                channel.write("\n")
                return
            elif channel.terminal and char in _DELETE:
                if pending:
                    pending.pop()
                    channel.write("\b \b")
            elif char.isprintable() and len(pending) < MAX_LINE:
                pending.append(char)
                if channel.terminal:
                    channel.write(char)
