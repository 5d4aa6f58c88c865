"""The link between ``serve-ssh --db`` and a visitor's lobby app: the server's commands, and its changes, over a
socket pair.

A visitor who opens the lobby on a terminal gets the Textual app, in a
process of its own as every SSH visitor does (the app's memory and crashes
are its own).  The app reaches the lobby through this link and nothing else:
the server makes a socket pair for the session, keeps one end and gives the
other to the app's process (its descriptor is named in
:data:`LINK_VARIABLE`).  The app opens no database and listens nowhere, so:

- it can act only as the key that logged in: the server's end answers every
  request as that :class:`~cescacs_tui.server.lobby.Caller`, whatever the app
  sends (a broken or hostile app can do no more than its visitor could by
  typing ``ssh host COMMAND``);
- it hears every change the server hears (:meth:`Lobby.changes
  <cescacs_tui.server.lobby.Lobby.changes>`: this process's on SQLite, every
  process's on PostgreSQL), the moment the server does;
- SQLite keeps its one writer, the server process.

The lines are JSON objects, one a line, each at most :data:`MAX_LINE` bytes:

- app → server: ``{"id": 7, "argv": ["play", "12", "H6-H12"]}``: a command
  of :mod:`cescacs_tui.server.commands`, in the visitor's language;
- server → app: ``{"id": 7, "status": 0, "text": "..."}``, the command's
  reply (``--json`` commands' text is their JSON), and
  ``{"change": "game 12 31"}`` for every change (:func:`~cescacs_tui.server.fanout.encode`),
  which says only what to read again.

A line the server cannot read ends the link (the app has a bug or is not
ours).  The server also says the visitor is online while the link lasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..server.commands import MAX_WORD, MAX_WORDS, run_command
from ..server.fanout import decode, encode
from ..server.lobby import Caller, Lobby
from ..server.model import Account, Change, ChangeKind
from ..tasks import stop_tasks

__all__ = [
    "LINK_VARIABLE",
    "MAX_LINE",
    "Change",
    "LinkClosed",
    "LobbyLink",
    "Reply",
    "concerns_game",
    "link_pair",
    "serve_link",
]

log = logging.getLogger(__name__)

LINK_VARIABLE: Final = "CESCACS_LOBBY_FD"
"""The environment variable naming the app's end of the link (a file descriptor number)."""
MAX_LINE: Final = 1 << 20
"""The longest line either side reads: a request is a few hundred bytes; a reply may be a long game's record or
a list of a hundred games as JSON."""


class LinkClosed(Exception):
    """The link to the server is gone (the server stopped, or the session ended)."""


@dataclass(frozen=True)
class Reply:
    """A command's answer: its text (its JSON, for ``--json``), and its status (0, or 2 with a reason)."""

    text: str
    status: int = 0

    @property
    def ok(self) -> bool:
        return self.status == 0

    def json(self) -> Any:
        """The text read as JSON (for a command given ``--json``)."""
        return json.loads(self.text)


def concerns_game(change: Change, number: int) -> bool:
    """Whether ``change`` may have changed game ``number`` (a move, an offer, an ending; or everything)."""
    return change.kind is ChangeKind.RESYNC or (change.kind is ChangeKind.GAME and change.id == number)


def _line(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode() + b"\n"


# --- the server's end -------------------------------------------------------------------------------------------


async def serve_link(
    lobby: Lobby, caller: Caller, language: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """Answer the app's requests as ``caller``, and tell it every change, until either side closes."""
    async with lobby.changes() as changes:
        present: list[Account] = []

        async def arrive() -> None:
            if not present and (account := await lobby.whoami(caller)) is not None:
                present.append(account)
                await lobby.arrive(account)

        async def tell() -> None:
            async for change in changes:
                writer.write(_line({"change": encode(change)}))
                await writer.drain()

        async def answer() -> None:
            while True:
                try:
                    raw = await reader.readuntil(b"\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                argv = _request(raw)
                if argv is None:
                    log.warning("a lobby app sent a line that is not a request: the link is closed")
                    return
                number, words = argv
                reply = await run_command(lobby, caller, words, language)
                writer.write(_line({"id": number, "status": reply.status, "text": reply.text}))
                await writer.drain()
                await arrive()  # a visitor who has just registered is online from now on

        await arrive()
        jobs = [asyncio.ensure_future(job) for job in (tell(), answer())]
        try:
            await asyncio.wait(jobs, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            if present:
                await lobby.leave(present[0])


def _request(raw: bytes) -> tuple[int, list[str]] | None:
    """A request's number and argv, or ``None`` if the line is not one."""
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or set(value) != {"id", "argv"}:
        return None
    number, argv = value["id"], value["argv"]
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 1 << 53:
        return None
    if not isinstance(argv, list) or len(argv) > MAX_WORDS:
        return None
    if not all(isinstance(word, str) and len(word) <= MAX_WORD for word in argv):
        return None
    return number, argv


def link_pair() -> tuple[socket.socket, socket.socket]:
    """The two ends of a new link: the server's, and the app's (inheritable, for the app's process)."""
    server_end, app_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    app_end.set_inheritable(True)
    return server_end, app_end


# --- the app's end ----------------------------------------------------------------------------------------------


class LobbyLink:
    """The app's end: :meth:`ask` a command and await its reply; :attr:`on_change` is told every change.

    Open it on the descriptor the server gave (:meth:`from_environment`), or
    on any connected stream (tests use a socket pair with :func:`serve_link`
    on the other end, in the same event loop).
    """

    def __init__(self, sock: socket.socket) -> None:
        self._socket = sock
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Reply]] = {}
        self._reading: asyncio.Task[None] | None = None
        self.opened = False
        self.closed = False
        self._listeners: list[Callable[[Change | None], None]] = []

    def listen(self, listener: Callable[[Change | None], None]) -> Callable[[], None]:
        """Tell ``listener`` each change the server hears (what to read again), in the app's event loop, and
        ``None`` once when the link is gone; what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(self, change: Change | None) -> None:
        for listener in list(self._listeners):
            listener(change)

    @classmethod
    def from_environment(cls, environment: dict[str, str] | None = None) -> LobbyLink | None:
        """The link the server gave this process, or ``None`` when it was started otherwise."""
        value = (os.environ if environment is None else environment).get(LINK_VARIABLE, "")
        if not value.isdigit() or len(value) > 9:
            return None
        try:
            return cls(socket.socket(fileno=int(value)))
        except OSError:  # not an open socket
            return None

    async def open(self) -> None:
        """Start reading the server's lines (in the running event loop); once."""
        if self.opened:
            return
        self.opened = True
        self._reader, self._writer = await asyncio.open_unix_connection(sock=self._socket, limit=MAX_LINE)
        self._reading = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self._reader is not None
        try:
            while True:
                raw = await self._reader.readuntil(b"\n")
                message = json.loads(raw)
                if not isinstance(message, dict):
                    continue
                if "change" in message:
                    change = decode(str(message["change"]))
                    if change is not None:
                        self._tell(change)
                elif (waiting := self._waiting.pop(message.get("id", -1), None)) is not None and not waiting.done():
                    waiting.set_result(Reply(str(message.get("text", "")), int(message.get("status", 2))))
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
            pass
        finally:
            self._gone()

    def _gone(self) -> None:
        if self.closed:
            return
        self.closed = True
        for waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(LinkClosed())
        self._waiting.clear()
        self._tell(None)

    async def ask(self, *argv: str) -> Reply:
        """The reply to the command ``argv``; :class:`LinkClosed` if the link is gone."""
        if self.closed or self._writer is None:
            raise LinkClosed()
        number = next(self._numbers)
        waiting: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[number] = waiting
        try:
            self._writer.write(_line({"id": number, "argv": list(argv)}))
            await self._writer.drain()
        except ConnectionError:
            self._gone()
            raise LinkClosed() from None
        try:
            return await waiting
        finally:
            self._waiting.pop(number, None)  # answered, or given up (the asker was cancelled)

    async def ask_all(self, commands: Sequence[Sequence[str]]) -> list[Reply]:
        """The replies to several commands, sent at once."""
        return list(await asyncio.gather(*(self.ask(*argv) for argv in commands)))

    async def close(self) -> None:
        try:
            if self._reading is not None:
                await stop_tasks(self._reading)
        finally:  # closed even when this close is cancelled
            if self._writer is not None:
                self._writer.close()
                with contextlib.suppress(Exception):
                    await self._writer.wait_closed()
            else:
                self._socket.close()
            self._gone()
