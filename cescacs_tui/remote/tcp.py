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
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Final

from .coordinator import Coordinator, Member
from .protocol import MAX_REQUEST_BYTES, Hello, LineBuffer, ProtocolError, RateLimiter, encode, parse_request

__all__ = ["HostThread", "StreamPeer", "handle_connection", "run_host", "serve_tcp"]

OUTBOX_LINES: Final = 64
"""Lines queued for one client before it counts as not reading (each line is a full snapshot)."""

HELLO_SECONDS: Final = 10.0
"""How long a new connection has to say hello."""

RATE: Final = 20.0
BURST: Final = 40.0
"""A client may send 20 lines a second on average, 40 at once (a person sends a few a minute)."""

FLOOD_STRIKES: Final = 200
"""Lines refused for pace, in a row, before the connection is closed."""

MAX_CONNECTIONS: Final = 64
"""Open connections, hello said or not: beyond, a new one is closed at once."""


class StreamPeer:
    """A client connection's writing side: a bounded queue drained by its own task."""

    _CLOSE: Final = b""

    def __init__(self, writer: asyncio.StreamWriter, *, outbox: int = OUTBOX_LINES) -> None:
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
    *,
    hello_seconds: float = HELLO_SECONDS,
    outbox: int = OUTBOX_LINES,
) -> None:
    """Serve one client: its hello, then its requests, until it leaves or is closed."""
    peer = StreamPeer(writer, outbox=outbox)
    pump = asyncio.create_task(peer.pump())
    lines = LineBuffer(MAX_REQUEST_BYTES)
    pace = RateLimiter(RATE, BURST)
    member: Member | None = None
    strikes = 0
    try:
        async with asyncio.timeout(hello_seconds) as hello_deadline:
            while not peer.closed:
                data = await reader.read(1 << 16)
                if not data:
                    break
                for line in lines.feed(data):
                    if peer.closed:
                        break
                    if not pace.allow():
                        strikes += 1
                        if strikes >= FLOOD_STRIKES:
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
    except TimeoutError:
        peer.close(ProtocolError("hello_expected", f"no hello within {hello_seconds:g} s", fatal=True))
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


async def serve_tcp(coordinator: Coordinator, host: str, port: int) -> asyncio.Server:
    """Listen on ``host:port`` (``port`` 0: any free port) for clients of ``coordinator``."""
    open_connections = 0

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal open_connections
        if open_connections >= MAX_CONNECTIONS:
            writer.write(encode(ProtocolError("full", "too many connections", fatal=True).message()))
            writer.close()
            return
        open_connections += 1
        try:
            await handle_connection(coordinator, reader, writer)
        finally:
            open_connections -= 1

    return await asyncio.start_server(connected, host, port, limit=MAX_REQUEST_BYTES)


def bound_port(server: asyncio.Server) -> int:
    port: int = server.sockets[0].getsockname()[1]
    return port


async def run_host(
    coordinator: Coordinator,
    host: str,
    port: int,
    *,
    ready: Callable[[int], None],
    stop: asyncio.Event | None = None,
) -> None:
    """Serve until ``stop`` is set (or SIGINT, SIGTERM, SIGHUP when ``stop`` is not given), then save and close."""
    server = await serve_tcp(coordinator, host, port)
    loop = asyncio.get_running_loop()
    if stop is None:
        stop = asyncio.Event()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signum, stop.set)
    ready(bound_port(server))
    try:
        await stop.wait()
    finally:
        server.close()
        coordinator.close()
        await asyncio.sleep(0.1)  # let the writer tasks say goodbye


class HostThread:
    """A coordinator served from a thread of its own, beside a terminal app playing in this process."""

    def __init__(self, coordinator: Coordinator, host: str, port: int) -> None:
        self.coordinator = coordinator
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
            await run_host(self.coordinator, self.host, self.port, ready=self._listening, stop=self._stop)

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
