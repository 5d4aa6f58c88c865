"""A client's connection to a coordinator: the hello, the lines both ways, and reconnecting when the link drops.

:func:`check_join` is the one-off handshake the ``cescacs join`` command makes
before it opens the app, so a wrong token or a taken seat is a clear error
with exit status 2 rather than a screen that never fills.  :class:`Link` is
the app's connection: it says hello with the same identity each time, hands
every line it receives to the app, pings to notice a dead link (and answers
the coordinator's pings, by which it notices a dead client), and
reconnects (with a growing pause) until it is told to stop or the
coordinator refuses it for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
from argparse import ArgumentTypeError
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ..arguments import host_name, quoted
from ..core.errors import CescacsError
from ..i18n import N_, _
from ..tasks import stop_tasks
from .protocol import (
    MAX_UPDATE_BYTES,
    PROTOCOL_VERSION,
    LineBuffer,
    LineRefused,
    Seat,
    encode,
    parse_message,
)
from .words import refusal_words

__all__ = ["JoinRequest", "Link", "LinkStatus", "RemoteRefused", "check_join", "new_client_id", "parse_address"]

CONNECT_SECONDS: Final = 10.0
PING_SECONDS: Final = 10.0
SILENCE_SECONDS: Final = 35.0
"""With no line from the coordinator for this long (it answers every ping), the link counts as dropped."""

FINAL: Final = frozenset({"auth", "version", "seat_taken", "replaced", "hello_expected"})
"""Refusals that trying again cannot change: the link stops instead of reconnecting."""


class RemoteRefused(CescacsError):
    """The coordinator would not let this client in: a wrong token, a seat taken, another protocol version."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


def why(error: OSError) -> str:
    """An ``OSError`` of a connection in a few words (asyncio's own wording names the address again)."""
    if isinstance(error, TimeoutError):
        return _("no answer")
    return os.strerror(error.errno) if error.errno else str(error)


def new_client_id() -> str:
    """A fresh identity for a client that has none: it keeps its seat by it while it reconnects."""
    return secrets.token_hex(16)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[IPv6]:PORT`` too) as a host and a port number."""
    match = re.fullmatch(
        r"\[(?P<v6>[0-9A-Fa-f:.]+)\]:(?P<p1>[0-9]{1,5})|(?P<host>[^\s:\[\]]+):(?P<p2>[0-9]{1,5})", text.strip()
    )
    if match is None:
        said = _("{text} is not an address: write HOST:PORT, e.g. 127.0.0.1:7469")
        raise CescacsError(said.format(text=quoted(text)))
    port = int(match["p1"] or match["p2"])
    if not 0 < port < 65536:
        raise CescacsError(_("{port} is not a port number (1 to 65535)").format(port=port))
    try:
        host = host_name(match["v6"] or match["host"])
    except ArgumentTypeError as error:
        raise CescacsError(str(error)) from None
    return host, port


@dataclass(frozen=True)
class JoinRequest:
    """Where to connect and who to say we are."""

    host: str
    port: int
    token: str
    seat: Seat | None
    name: str
    client: str

    @property
    def address(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def hello(self, *, probe: bool = False) -> dict[str, Any]:
        return {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "token": self.token,
            "seat": "any" if self.seat is None else self.seat.value,
            "name": self.name,
            "client": self.client,
            "probe": probe,
        }


def check_join(request: JoinRequest, *, timeout: float = CONNECT_SECONDS) -> Seat:
    """Ask (a probing hello: nothing changes) which seat the request would get; :class:`RemoteRefused` if none."""
    return asyncio.run(_check_join(request, timeout))


async def _check_join(request: JoinRequest, timeout: float) -> Seat:
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(request.host, request.port, limit=MAX_UPDATE_BYTES)
            try:
                writer.write(encode(request.hello(probe=True)))
                line = await reader.readline()
            finally:
                writer.close()
    except TimeoutError:
        said = _("no answer from {address} within {seconds:g} s")
        raise CescacsError(said.format(address=request.address, seconds=timeout)) from None
    except OSError as error:
        said = _("cannot reach {address}: {reason}")
        raise CescacsError(said.format(address=request.address, reason=why(error))) from None
    except ValueError:  # a line beyond the limit: not a coordinator
        raise CescacsError(_("{address} is not a C'escacs coordinator").format(address=request.address)) from None
    try:
        message = parse_message(line.rstrip(b"\n"), MAX_UPDATE_BYTES)
    except LineRefused:
        said = _("{address} is not a C'escacs coordinator (it said {line!r})")
        raise CescacsError(said.format(address=request.address, line=line[:60])) from None
    if message["type"] == "error":
        code = str(message.get("code"))
        reason = refusal_words(code, str(message.get("reason") or "")[:200])
        raise RemoteRefused(code, _("{address} refused: {reason}").format(address=request.address, reason=reason))
    if message["type"] != "welcome" or message.get("seat") not in tuple(Seat):
        raise CescacsError(_("{address} is not a C'escacs coordinator").format(address=request.address))
    return Seat(message["seat"])


class LinkStatus(StrEnum):
    """The state of the link; its value is an English message id (:attr:`words` says it in the language)."""

    CONNECTING = N_("connecting\u2026")
    CONNECTED = N_("connected")
    RECONNECTING = N_("reconnecting\u2026")
    CLOSED = N_("disconnected")

    @property
    def words(self) -> str:
        return _(self.value)


class Link:
    """The app's connection to its coordinator, kept up for as long as :meth:`run` runs.

    ``on_message`` gets every line received, as a checked JSON object (a
    line that is not one becomes an ``error`` message of code
    ``bad_update``); ``on_status`` hears each change of the link, with a
    sentence for people.  A ping goes every ``ping_seconds``; with nothing
    received for ``silence_seconds`` the link counts as dropped.
    """

    def __init__(
        self,
        request: JoinRequest,
        *,
        on_message: Callable[[Mapping[str, Any]], None] = lambda message: None,
        on_status: Callable[[LinkStatus, str], None] = lambda status, detail: None,
        ping_seconds: float = PING_SECONDS,
        silence_seconds: float = SILENCE_SECONDS,
    ) -> None:
        self.request = request
        self.ping_seconds = ping_seconds
        self.silence_seconds = silence_seconds
        self.on_message = on_message
        self.on_status = on_status
        self.status = LinkStatus.CONNECTING
        self._writer: asyncio.StreamWriter | None = None
        self._stopped = False
        self._welcomed = False

    def send(self, message: Mapping[str, Any]) -> bool:
        """Send one request now; ``False`` (nothing sent) while the link is down."""
        writer = self._writer
        if writer is None or writer.is_closing() or self.status is not LinkStatus.CONNECTED:
            return False
        writer.write(encode(message))
        return True

    def stop(self) -> None:
        self._stopped = True
        if self._writer is not None:
            self._writer.close()

    def _say(self, status: LinkStatus, detail: str) -> None:
        self.status = status
        self.on_status(status, detail)

    async def run(self) -> None:
        """Connect, and reconnect whenever the link drops, until :meth:`stop` or a final refusal."""
        pause = 0.25
        address = self.request.address
        while not self._stopped:
            try:
                async with asyncio.timeout(CONNECT_SECONDS):
                    reader, writer = await asyncio.open_connection(
                        self.request.host, self.request.port, limit=MAX_UPDATE_BYTES
                    )
            except (OSError, TimeoutError) as error:
                said = _("cannot reach {address} ({reason}): reconnecting\u2026")
                self._say(LinkStatus.RECONNECTING, said.format(address=address, reason=why(error)))
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            self._writer = writer
            self._welcomed = False
            writer.write(encode(self.request.hello()))
            refusal = await self._serve(reader, writer)
            self._writer = None
            writer.close()
            if self._stopped:
                break
            if refusal is not None and refusal.code in FINAL:
                self._say(LinkStatus.CLOSED, refusal_words(refusal.code, refusal.reason))
                return
            self._say(LinkStatus.RECONNECTING, _("the connection to the game was lost: reconnecting\u2026"))
            if self._welcomed:  # it was up: try again at once, then slower and slower
                pause = 0.25
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)
        self._say(LinkStatus.CLOSED, _("left the game"))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> LineRefused | None:
        """Read lines until the link ends; returns the fatal error the coordinator gave, if it gave one."""
        lines = LineBuffer(MAX_UPDATE_BYTES)
        refusal: LineRefused | None = None
        pinger = asyncio.create_task(self._ping(writer))
        try:
            while True:
                async with asyncio.timeout(self.silence_seconds):
                    data = await reader.read(1 << 16)
                if not data:
                    return refusal
                for line in lines.feed(data):
                    message = self._checked(line)
                    if message.get("type") == "welcome":
                        self._welcomed = True
                        self._say(
                            LinkStatus.CONNECTED, _("connected to {address}").format(address=self.request.address)
                        )
                    elif message.get("type") == "ping":  # the coordinator asks for a sign of life
                        writer.write(encode({"type": "pong"}))
                        continue
                    elif message.get("type") == "error" and message.get("fatal") is True:
                        refusal = LineRefused(str(message.get("code")), str(message.get("reason"))[:200], fatal=True)
                    self.on_message(message)
        except (OSError, TimeoutError):
            return refusal
        finally:
            await stop_tasks(pinger)

    @staticmethod
    def _checked(line: bytes | None) -> Mapping[str, Any]:
        try:
            if line is LineBuffer.TOO_LONG:
                raise LineRefused("too_long", "the coordinator sent a line too long to read")
            return parse_message(line, MAX_UPDATE_BYTES)
        except LineRefused as error:
            return {"type": "error", "code": "bad_update", "reason": error.reason, "fatal": False}

    async def _ping(self, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while not writer.is_closing():
                await asyncio.sleep(self.ping_seconds)
                writer.write(encode({"type": "ping"}))
