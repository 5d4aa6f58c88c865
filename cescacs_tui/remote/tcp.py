"""The coordinator on a TCP port: framing, caps and pacing for every connection, on asyncio.

Each connection gets a reader loop and a writer task of its own, joined by a
bounded queue: the coordinator only ever *queues* lines, so a client that
reads slowly, or not at all, can never hold up the game or the other
clients; once its queue is full it is dropped (it reconnects and gets the
whole game again).  Lines are capped in length
(:data:`~cescacs_tui.remote.protocol.MAX_REQUEST_BYTES`) and in rate (a
token bucket); a connection that does not say hello in time, or floods, is
closed.  Connections that have not said hello are counted apart from the
admitted ones, a few per address (:class:`Doorway`), so idle strangers never
take a player's place.  A client quiet for a while is pinged, and one silent
for :attr:`Limits.silence_seconds` is dropped: a link that died without a
word (a network gone, a process stopped) does not hold its seat for ever.
Whatever a line holds, it reaches the game only as a checked request.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .coordinator import Coordinator, Member
from .log_pace import LogPace
from .protocol import MAX_REQUEST_BYTES, Hello, LineBuffer, LineRefused, RateLimiter, encode, parse_request
from .serving import until_stopped

__all__ = [
    "LIMITS",
    "CoordinatorServer",
    "Doorway",
    "HostThread",
    "Limits",
    "StreamPeer",
    "Waiting",
    "handle_connection",
    "run_host",
    "serve_tcp",
]


@dataclass(frozen=True)
class Limits:
    """What one connection may cost the coordinator, and how long it may stay silent."""

    outbox: int = 64
    """Lines queued for one client before it counts as not reading (each line is a full snapshot)."""
    hello_seconds: float = 10.0
    """How long a new connection has to say hello (the authentication deadline)."""
    rate: float = 20.0
    burst: float = 40.0
    """A client may send 20 lines a second on average, 40 at once (a person sends a few a minute)."""
    flood_strikes: int = 200
    """Lines refused for pace, in a row, before the connection is closed with ``flood``."""
    max_waiting: int = 64
    """Connections that have not said hello yet, from anywhere: a newer one pushes the oldest out."""
    max_waiting_per_address: int = 8
    """Connections that have not said hello yet from one address: a newer one pushes that address's oldest out."""
    silence_seconds: float = 30.0
    """A client heard nothing from for this long is dropped (it is pinged after a third of it)."""
    answer_seconds: float = 2.0
    """How long a seat's silent link has to answer a ping before a newcomer asking for the seat takes it over."""
    send_buffer: int = 128 * 1024
    """The socket's send buffer: with the queue, what a client that stops reading can hold back before it is dropped."""

    @property
    def heartbeat_seconds(self) -> float:
        """A client quiet for this long is sent a ``ping`` (clients also ping every 10 s themselves)."""
        return self.silence_seconds / 3


LIMITS: Final = Limits()


class StreamPeer:
    """A client connection's writing side: a bounded queue drained by its own task."""

    _CLOSE: Final = b""

    def __init__(self, writer: asyncio.StreamWriter, *, outbox: int = LIMITS.outbox) -> None:
        self.writer = writer
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()  # bounded by send(), so close() can always add its word
        self.outbox = outbox
        self.closed = False
        self.dropped = False
        """Whether the connection was cut for not reading."""

    def send(self, line: bytes) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.outbox:
            self.dropped = True
            self.closed = True
            self.writer.transport.abort()  # it does not read: cut it now, the queue is not waited for
            self.queue.put_nowait(self._CLOSE)
            return
        self.queue.put_nowait(line)

    def close(self, error: LineRefused | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        if error is not None:
            self.queue.put_nowait(encode(error.message()))
        self.queue.put_nowait(self._CLOSE)

    async def pump(self) -> None:
        """Write the queued lines until :meth:`close` (or the connection breaks)."""
        try:
            while (line := await self.queue.get()) != self._CLOSE:
                self.writer.write(line)
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.writer.close()


@dataclass(eq=False)
class Waiting:
    """A connection in a :class:`Doorway`: where it comes from, and how to push it out."""

    address: str
    push_out: Callable[[], None]


class Doorway:
    """The connections that have not said hello yet, counted apart from the admitted ones.

    At most ``per_address`` from one address and ``total`` in all; one more
    pushes the oldest out (of its address, else of all), so a crowd of idle
    connections, however large, never keeps a player from saying hello: the
    player's connection is the newest, and its hello arrives at once.
    """

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self._waiting: dict[Waiting, None] = {}  # oldest first

    def __len__(self) -> int:
        return len(self._waiting)

    def enter(self, address: str, push_out: Callable[[], None]) -> Waiting:
        same = [waiting for waiting in self._waiting if waiting.address == address]
        if len(same) >= self.per_address:
            self._push_out(same[0])
        elif len(self._waiting) >= self.total:
            self._push_out(next(iter(self._waiting)))
        waiting = Waiting(address, push_out)
        self._waiting[waiting] = None
        return waiting

    def leave(self, waiting: Waiting) -> None:
        self._waiting.pop(waiting, None)

    def _push_out(self, waiting: Waiting) -> None:
        self.leave(waiting)
        waiting.push_out()


BUG_LOG: Final = LogPace(lambda text: print(text, file=sys.stderr, flush=True))
"""Where a line the coordinator could not handle is reported (a bug: its traceback), at a pace a flood cannot fill."""

TOO_MANY_WAITING: Final = "too many connections are waiting to say hello: try again"


async def handle_connection(
    coordinator: Coordinator,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    limits: Limits = LIMITS,
    *,
    doorway: Doorway | None = None,
) -> None:
    """Serve one client: its hello, then its requests, until it leaves, is closed or falls silent."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)
    peer = StreamPeer(writer, outbox=limits.outbox)
    pump = asyncio.create_task(peer.pump())
    if doorway is None:
        doorway = Doorway(limits.max_waiting_per_address, limits.max_waiting)
    address = str((writer.get_extra_info("peername") or ("?",))[0])
    waiting = doorway.enter(address, lambda: peer.close(LineRefused("full", TOO_MANY_WAITING, fatal=True)))
    connection = _Connection(coordinator, peer, limits)
    try:
        await connection.serve(reader, admitted=lambda: doorway.leave(waiting))
    except (ConnectionError, OSError):
        pass
    finally:
        doorway.leave(waiting)
        if connection.member is not None:
            coordinator.leave(connection.member)
        peer.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5.0):
                await pump


class _Connection:
    """One client's lines, read with deadlines: the hello's, then the heartbeat's."""

    def __init__(self, coordinator: Coordinator, peer: StreamPeer, limits: Limits) -> None:
        self.coordinator = coordinator
        self.peer = peer
        self.limits = limits
        self.member: Member | None = None
        self._pace = RateLimiter(limits.rate, limits.burst)
        self._strikes = 0

    def _deadline(self, hello_by: float) -> float:
        member = self.member
        if member is None:
            return hello_by
        if member.pinged_at is None:
            return member.last_heard + self.limits.heartbeat_seconds
        return member.last_heard + self.limits.silence_seconds

    async def serve(self, reader: asyncio.StreamReader, *, admitted: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        lines = LineBuffer(MAX_REQUEST_BYTES)
        hello_by = loop.time() + self.limits.hello_seconds
        peer = self.peer
        while not peer.closed:
            try:
                async with asyncio.timeout_at(self._deadline(hello_by)):
                    data = await reader.read(1 << 16)
            except TimeoutError:
                self._quiet(loop.time())
                continue
            if not data:
                return
            if self.member is not None:
                self.member.heard(loop.time())
            for line in lines.feed(data):
                if peer.closed:
                    return
                if not self._paced():
                    continue
                was = self.member
                await self._one_line(line)
                if self.member is not None and was is None:
                    admitted()
                    self.member.heard(loop.time())
                await asyncio.sleep(0)  # let the writer send the answer: only a client that does not read fills up

    def _quiet(self, now: float) -> None:
        """A deadline passed with nothing received: no hello in time, a ping due, or silent too long."""
        member = self.member
        if member is None:
            seconds = self.limits.hello_seconds
            self.peer.close(LineRefused("hello_expected", f"no hello within {seconds:g} s", fatal=True))
        elif member.pinged_at is None:
            member.ping(now)
        else:
            seconds = self.limits.silence_seconds
            self.peer.close(LineRefused("silent", f"nothing heard from you for {seconds:g} s", fatal=True))

    def _paced(self) -> bool:
        """Whether the line may be handled; a flood is told once, then closed after too many lines in a row."""
        if self._pace.allow():
            self._strikes = 0
            return True
        self._strikes += 1
        if self._strikes >= self.limits.flood_strikes:
            self.peer.close(LineRefused("flood", "too many lines, too fast", fatal=True))
        elif self._strikes == 1:  # once a run: answering each would fill the queue of a client that floods
            refused = LineRefused("rate_limited", "too many lines: they are ignored until you slow down")
            self.peer.send(encode(refused.message()))
        return False

    async def _one_line(self, line: bytes | None) -> None:
        """Act on one line; refusals go back to the client."""
        peer = self.peer
        try:
            if line is LineBuffer.TOO_LONG:
                raise LineRefused("too_long", f"a line may hold at most {MAX_REQUEST_BYTES} bytes: it was ignored")
            if not line.strip():
                return
            request = parse_request(line)
            if self.member is None:
                if not isinstance(request, Hello):
                    raise LineRefused("hello_expected", "the first line must be a hello", fatal=True)
                self.member = await self.coordinator.admit(peer, request, answer_seconds=self.limits.answer_seconds)
                return
            self.coordinator.handle(self.member, request)
        except LineRefused as error:
            if error.fatal:
                peer.close(error)
            else:
                peer.send(encode(error.message()))
        except Exception:  # a bug must cost one line, never the game or the other clients
            BUG_LOG(traceback.format_exc().rstrip())
            peer.send(encode(LineRefused("internal", "the coordinator could not handle that line").message()))


class CoordinatorServer:
    """A coordinator listening on a TCP port, and the connections it serves."""

    def __init__(self, coordinator: Coordinator, limits: Limits) -> None:
        self.coordinator = coordinator
        self.limits = limits
        self.server: asyncio.Server | None = None
        self.doorway = Doorway(limits.max_waiting_per_address, limits.max_waiting)
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            await handle_connection(self.coordinator, reader, writer, limits=self.limits, doorway=self.doorway)
        finally:
            self._handlers.discard(task)

    async def close(self) -> None:
        """Stop listening, save the game, say goodbye to every client (a few seconds at most)."""
        if self.server is not None:
            self.server.close()
        self.coordinator.close()
        if self._handlers:
            await asyncio.wait(set(self._handlers), timeout=3.0)
        for task in set(self._handlers):
            task.cancel()


async def serve_tcp(coordinator: Coordinator, host: str, port: int, *, limits: Limits = LIMITS) -> CoordinatorServer:
    """Listen on ``host:port`` (``port`` 0: any free port) for clients of ``coordinator``."""
    served = CoordinatorServer(coordinator, limits)
    served.server = await asyncio.start_server(served.connected, host, port, limit=MAX_REQUEST_BYTES)
    return served


async def run_host(
    coordinator: Coordinator,
    host: str,
    port: int,
    *,
    ready: Callable[[int], None],
    stop: asyncio.Event | None = None,
    limits: Limits = LIMITS,
) -> None:
    """Serve until ``stop`` is set (or SIGINT, SIGTERM, SIGHUP when ``stop`` is not given), then save and close."""
    served = await serve_tcp(coordinator, host, port, limits=limits)
    try:
        await until_stopped(lambda: ready(served.port), stop)
    finally:
        await served.close()


class HostThread:
    """A coordinator served from a thread of its own, beside a terminal app playing in this process."""

    def __init__(self, coordinator: Coordinator, host: str, port: int, *, limits: Limits = LIMITS) -> None:
        self.coordinator = coordinator
        self.limits = limits
        self.host = host
        self.port = port
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="cescacs-coordinator", daemon=True)

    def start(self) -> int:
        """Start serving; returns the port once it is listening (raises ``OSError`` if it cannot)."""
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            await run_host(
                self.coordinator, self.host, self.port, ready=self._listening, stop=self._stop, limits=self.limits
            )

        try:
            asyncio.run(main())
        except BaseException as error:  # reported by start(), or lost with the daemon thread at exit
            self._error = error
            self._ready.set()

    def _listening(self, port: int) -> None:
        self.port = port
        self._ready.set()

    def stop(self) -> None:
        """Save the game and stop serving (waits a few seconds at most)."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=10)
