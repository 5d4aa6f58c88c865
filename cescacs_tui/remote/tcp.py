"""The coordinator on a TCP port: framing, caps and pacing for every connection, on asyncio.

Each connection gets a reader loop and a writer task of its own, joined by a
bounded queue: the coordinator only ever *queues* lines, so a client that
reads slowly, or not at all, can never hold up the game or the other
clients; once its queue is full it is dropped (it reconnects and gets the
whole game again).  Lines are capped in length
(:data:`~cescacs_tui.remote.protocol.MAX_REQUEST_BYTES`) and in rate (a
token bucket); a connection that does not say hello in time, or floods, is
closed.  Whatever a line holds, it reaches the game only as a checked request.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .coordinator import Coordinator, Member
from .protocol import MAX_REQUEST_BYTES, Hello, LineBuffer, ProtocolError, RateLimiter, encode, parse_request

__all__ = [
    "LIMITS",
    "CoordinatorServer",
    "HostThread",
    "Limits",
    "StreamPeer",
    "handle_connection",
    "run_host",
    "serve_tcp",
]


@dataclass(frozen=True)
class Limits:
    """What one connection may cost the coordinator."""

    outbox: int = 64
    """Lines queued for one client before it counts as not reading (each line is a full snapshot)."""
    hello_seconds: float = 10.0
    """How long a new connection has to say hello."""
    rate: float = 20.0
    burst: float = 40.0
    """A client may send 20 lines a second on average, 40 at once (a person sends a few a minute)."""
    flood_strikes: int = 200
    """Lines refused for pace, in a row, before the connection is closed."""
    max_connections: int = 64
    """Open connections, hello said or not: beyond, a new one is refused at once."""
    send_buffer: int = 128 * 1024
    """The socket's send buffer: with the queue, what a client that stops reading can hold back before it is dropped."""


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

    def close(self, error: ProtocolError | None = None) -> None:
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


async def handle_connection(
    coordinator: Coordinator,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    limits: Limits = LIMITS,
) -> None:
    """Serve one client: its hello, then its requests, until it leaves or is closed."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)
    peer = StreamPeer(writer, outbox=limits.outbox)
    pump = asyncio.create_task(peer.pump())
    lines = LineBuffer(MAX_REQUEST_BYTES)
    pace = RateLimiter(limits.rate, limits.burst)
    member: Member | None = None
    strikes = 0
    try:
        async with asyncio.timeout(limits.hello_seconds) as hello_deadline:
            while not peer.closed:
                data = await reader.read(1 << 16)
                if not data:
                    break
                for line in lines.feed(data):
                    if peer.closed:
                        break
                    if not pace.allow():
                        strikes += 1
                        if strikes >= limits.flood_strikes:
                            peer.close(ProtocolError("flood", "too many lines, too fast", fatal=True))
                        else:
                            peer.send(
                                encode(ProtocolError("rate_limited", "too many lines: this one was ignored").message())
                            )
                        continue
                    strikes = 0
                    member = _one_line(coordinator, peer, member, line)
                    if member is not None:
                        hello_deadline.reschedule(None)
                    await asyncio.sleep(0)  # let the writer send the answer: only a client that does not read fills up
    except TimeoutError:
        peer.close(ProtocolError("hello_expected", f"no hello within {limits.hello_seconds:g} s", fatal=True))
    except (ConnectionError, OSError):
        pass
    finally:
        if member is not None:
            coordinator.leave(member)
        peer.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(pump, 5.0)


def _one_line(coordinator: Coordinator, peer: StreamPeer, member: Member | None, line: bytes | None) -> Member | None:
    """Act on one line; refusals go back to the client.  Returns the member once the hello is accepted."""
    try:
        if line is LineBuffer.TOO_LONG:
            raise ProtocolError("too_long", f"a line may hold at most {MAX_REQUEST_BYTES} bytes: it was ignored")
        if not line.strip():
            return member
        request = parse_request(line)
        if member is None:
            if not isinstance(request, Hello):
                raise ProtocolError("hello_expected", "the first line must be a hello", fatal=True)
            return coordinator.join(peer, request)
        coordinator.handle(member, request)
    except ProtocolError as error:
        if error.fatal:
            peer.close(error)
        else:
            peer.send(encode(error.message()))
    except Exception:  # a bug must cost one line, never the game or the other clients
        traceback.print_exc(file=sys.stderr)
        peer.send(encode(ProtocolError("internal", "the coordinator could not handle that line").message()))
    return member


class CoordinatorServer:
    """A coordinator listening on a TCP port, and the connections it serves."""

    def __init__(self, coordinator: Coordinator, limits: Limits) -> None:
        self.coordinator = coordinator
        self.limits = limits
        self.server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._handlers) >= self.limits.max_connections:
            writer.write(encode(ProtocolError("full", "too many connections", fatal=True).message()))
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            await handle_connection(self.coordinator, reader, writer, limits=self.limits)
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
    loop = asyncio.get_running_loop()
    if stop is None:
        stop = asyncio.Event()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signum, stop.set)
    ready(served.port)
    try:
        await stop.wait()
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
