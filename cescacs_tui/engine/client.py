"""An asyncio client for engines that speak the protocol of docs/engine-protocol.md.

A front end starts an engine process with :meth:`EngineClient.start` (by
default this package's ``cescacs engine``, but any command speaking the
protocol will do), then asks for moves, hints and analysis::

    client = await EngineClient.start(options={"Level": 3})
    search = await client.go(game.start, game.moves, Limits(movetime=1.0), on_info=show)
    best = await search.result()          # or: await search.stop() for an answer now
    await client.close()

Everything is asynchronous: the engine's output is read by a task, so the
event loop never waits on the process.  ``on_info`` is called for each
``info`` line with the line parsed (score, depth, the principal variation as
legal moves).  The engine is another program and may misbehave: its lines
are parsed defensively, its moves checked, and if it exits or stops
answering every pending call raises :class:`EngineError` with what it said
last on stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from ..core.move import Move
from ..core.pieces import WHITE, Colour
from ..core.position import INITIAL_PDTL, Position
from ..core.safe_text import printable
from .protocol import SHOWN
from .pv import pv_moves
from .search import Limits

DEFAULT_COMMAND: Final = (sys.executable, "-m", "cescacs_tui", "engine")
"""This package's engine, run with the current interpreter."""
LINE_LIMIT: Final = 1 << 20
"""The longest engine line read (longer ones are skipped)."""
_STDERR_LINES: Final = 20
T = TypeVar("T")


class EngineError(Exception):
    """The engine failed: it could not start, exited, refused a command or stopped answering."""


@dataclass(frozen=True)
class EngineInfo:
    """One ``info`` line, parsed.  Scores are for the side to move in the searched position."""

    depth: int | None = None
    seldepth: int | None = None
    score: int | None = None
    """Centipawns, when the engine gave ``score cp``."""
    mate: int | None = None
    """Moves to mate (negative: the side to move is mated), when the engine gave ``score mate``."""
    bound: str | None = None
    """``lowerbound`` or ``upperbound`` when the score is only a bound."""
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None
    """Seconds."""
    pv: tuple[str, ...] = ()
    """The line as the engine wrote it."""
    moves: tuple[Move, ...] = ()
    """The legal prefix of ``pv`` as moves from the searched position."""
    string: str | None = None
    """The text of an ``info string`` line."""
    turn: Colour = WHITE
    """The side to move in the searched position (so the score can be shown from White's side)."""

    @property
    def white_score(self) -> int | None:
        """The centipawn score from White's side."""
        if self.score is None:
            return None
        return self.score if self.turn == WHITE else -self.score

    @property
    def white_mate(self) -> int | None:
        """Moves to mate from White's side (positive: White mates)."""
        if self.mate is None:
            return None
        return self.mate if self.turn == WHITE else -self.mate


@dataclass(frozen=True)
class BestMove:
    """A search's answer: the move (``None`` when the position has none) and the last report before it."""

    move: Move | None
    text: str
    info: EngineInfo | None


_INT_FIELDS: Final = ("depth", "seldepth", "nodes", "nps", "time", "hashfull", "multipv", "currmovenumber", "tbhits")


def parse_info(line: str, position: Position) -> EngineInfo | None:
    """The ``info`` line ``line`` about a search of ``position``, or ``None`` if it is malformed."""
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        return None
    values: dict[str, int] = {}
    score = mate = None
    bound = None
    pv: tuple[str, ...] = ()
    i = 1
    try:
        while i < len(tokens):
            word = tokens[i]
            if word == "string":
                return EngineInfo(string=" ".join(tokens[i + 1 :]), turn=position.turn)
            if word == "pv":
                pv = tuple(tokens[i + 1 :])
                break
            if word == "score":
                kind, amount = tokens[i + 1], int(tokens[i + 2])
                if kind == "cp":
                    score = amount
                elif kind == "mate":
                    mate = amount
                else:
                    return None
                i += 3
                if i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                    bound = tokens[i]
                    i += 1
            elif word in _INT_FIELDS:
                values[word] = int(tokens[i + 1])
                i += 2
            elif word in ("currmove", "refutation", "currline"):
                i += 2  # not used here; skip the move that follows
            else:
                i += 1  # something this client does not know: other engines may say more
    except (IndexError, ValueError):
        return None
    return EngineInfo(
        depth=values.get("depth"),
        seldepth=values.get("seldepth"),
        score=score,
        mate=mate,
        bound=bound,
        nodes=values.get("nodes"),
        nps=values.get("nps"),
        time=values["time"] / 1000 if "time" in values else None,
        pv=pv,
        moves=pv_moves(position, pv) if pv else (),
        turn=position.turn,
    )


def go_command(limits: Limits) -> str:
    """The ``go`` line for ``limits`` (times in milliseconds)."""
    if limits.infinite:
        return "go infinite"
    words = ["go"]

    def ms(seconds: float) -> str:
        return str(max(0, round(seconds * 1000)))

    if limits.white_time is not None:
        words += ["wtime", ms(limits.white_time), "winc", ms(limits.white_increment)]
    if limits.black_time is not None:
        words += ["btime", ms(limits.black_time), "binc", ms(limits.black_increment)]
    if limits.moves_to_go is not None:
        words += ["movestogo", str(limits.moves_to_go)]
    if limits.movetime is not None:
        words += ["movetime", ms(limits.movetime)]
    if limits.depth is not None:
        words += ["depth", str(limits.depth)]
    if limits.nodes is not None:
        words += ["nodes", str(limits.nodes)]
    return " ".join(words) if len(words) > 1 else "go infinite"


def position_command(start: Position, moves: Sequence[Move]) -> str:
    """The ``position`` line for the game ``start`` + ``moves``."""
    pdtl = start.to_pdtl()
    setup = "position startpos" if pdtl == INITIAL_PDTL else f"position pdtl {pdtl}"
    return setup + (" moves " + " ".join(str(m) for m in moves) if moves else "")


@dataclass
class Search:
    """A running search: its reports arrive through ``on_info``; :meth:`result` waits for the answer."""

    client: EngineClient
    position: Position
    on_info: Callable[[EngineInfo], None] | None
    answer: asyncio.Future[BestMove]
    last_info: EngineInfo | None = None
    infos: list[EngineInfo] = field(default_factory=list)

    async def result(self, timeout: float | None = None) -> BestMove:
        """The engine's ``bestmove``; :class:`EngineError` if the engine fails first or ``timeout`` (seconds) passes."""
        if timeout is None:
            return await asyncio.shield(self.answer)
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.shield(self.answer)
        except TimeoutError:
            raise EngineError(f"the engine did not answer within {timeout:g} s") from None

    async def stop(self) -> BestMove:
        """Ask the engine to answer now, and return its answer."""
        if not self.answer.done():
            await self.client._send("stop")
        return await self.client._wait(self.result(), "stop")

    @property
    def done(self) -> bool:
        return self.answer.done()


class EngineClient:
    """One engine process and the conversation with it."""

    def __init__(self, process: asyncio.subprocess.Process, *, timeout: float) -> None:
        self._process = process
        self.timeout = timeout
        """Seconds to wait for an answer that should come at once (``uciok``, ``readyok``, a stopped ``bestmove``)."""
        self.name = ""
        self.author = ""
        self.declared_options: dict[str, str] = {}
        """Option name to its whole ``option`` line, as the engine declared them."""
        self.errors: list[str] = []
        """The ``info string error:`` messages the engine sent, in order."""
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._search: Search | None = None
        self._failure: EngineError | None = None
        self._castling: bool | None = None
        self._reader = asyncio.ensure_future(self._read_stdout())
        self._stderr_reader = asyncio.ensure_future(self._read_stderr())

    # --- life cycle -----------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        command: Sequence[str] | None = None,
        *,
        options: Mapping[str, str | int | bool] | None = None,
        timeout: float = 10.0,
    ) -> EngineClient:
        """Start the engine ``command`` (default :data:`DEFAULT_COMMAND`), greet it and set ``options``."""
        argv = list(command or DEFAULT_COMMAND)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT,
            )
        except OSError as problem:
            raise EngineError(
                f"cannot start the engine {printable(' '.join(argv), SHOWN)}: {problem.strerror or problem}"
            ) from None
        client = cls(process, timeout=timeout)
        try:
            await client._handshake()
            for name, value in (options or {}).items():
                await client.set_option(name, value)
            await client.is_ready()
        except BaseException:
            await client.close()
            raise
        return client

    async def _handshake(self) -> None:
        await self._request("uci", "uciok")

    async def close(self) -> None:
        """Stop any search, say ``quit``, close its input and make sure the process ends (killed if it lingers)."""
        process = self._process
        if process.returncode is None:
            with contextlib.suppress(EngineError, ConnectionError):
                if self._search is not None and not self._search.done:
                    await self._send("stop")
                await self._send("quit")
            stdin = process.stdin
            if stdin is not None:
                stdin.close()  # the end of input ends an engine that ignores quit
            try:
                async with asyncio.timeout(self.timeout):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()
        for task in (self._reader, self._stderr_reader):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._fail(EngineError("the engine was closed"))

    async def __aenter__(self) -> EngineClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def alive(self) -> bool:
        return self._failure is None and self._process.returncode is None

    # --- commands ---------------------------------------------------------------------------

    async def is_ready(self) -> None:
        """Wait until the engine has dealt with everything sent so far (``isready``/``readyok``)."""
        await self._request("isready", "readyok")

    async def set_option(self, name: str, value: str | int | bool) -> None:
        """``setoption name NAME value VALUE``; :class:`EngineError` if the engine refuses it."""
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        await self._checked(f"setoption name {name} value {text}")
        if name.lower() == "castling":
            self._castling = text.lower() == "true"

    async def new_game(self) -> None:
        """``ucinewgame``: the engine forgets the previous game (its tables and statistics)."""
        await self._stop_search()
        await self._checked("ucinewgame")

    async def go(
        self,
        start: Position,
        moves: Sequence[Move],
        limits: Limits,
        *,
        on_info: Callable[[EngineInfo], None] | None = None,
    ) -> Search:
        """Search the position after ``moves`` from ``start``; a running search is stopped first.

        The position is sent and confirmed (an engine that rejects it raises
        :class:`EngineError` here) before ``go``; the returned :class:`Search`
        streams ``info`` reports to ``on_info`` and answers with
        :meth:`Search.result` or :meth:`Search.stop`.
        """
        await self._stop_search()
        if self._castling != start.castling_enabled:
            await self.set_option("Castling", start.castling_enabled)
        await self._checked(position_command(start, moves))
        position = start.copy()
        for move in moves:
            position.push(move)
        search = Search(self, position, on_info, asyncio.get_running_loop().create_future())
        self._search = search
        command = go_command(limits)
        before = len(self.errors)
        await self._send(command)
        await self.is_ready()  # answered at once even while searching: a refused go shows up before it
        if len(self.errors) > before:
            self._search = None
            raise EngineError(f"the engine refused {printable(command, SHOWN)}: {self.errors[before]}")
        return search

    async def best_move(self, start: Position, moves: Sequence[Move], limits: Limits) -> BestMove:
        """The engine's move in the position after ``moves`` (a bounded search: ``limits`` must not be infinite)."""
        search = await self.go(start, moves, limits)
        return await search.result()

    async def stop(self) -> None:
        """Stop the running search, if any, and wait for its answer (which is dropped): the engine is then idle."""
        await self._stop_search()

    async def _stop_search(self) -> None:
        search = self._search
        if search is not None and not search.done:
            await search.stop()

    # --- plumbing ---------------------------------------------------------------------------

    async def _send(self, line: str) -> None:
        self._raise_if_failed()
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode("utf-8") + b"\n")
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            await self._exited()
            self._raise_if_failed()

    async def _checked(self, line: str) -> None:
        """Send ``line`` and make sure the engine took it without an error."""
        before = len(self.errors)
        await self._send(line)
        await self.is_ready()
        if len(self.errors) > before:
            raise EngineError(f"the engine refused {printable(line.split()[0], SHOWN)}: {self.errors[before]}")

    async def _request(self, line: str, answer: str) -> None:
        """Send ``line`` and wait for the line ``answer``.

        The future is in place before the line goes out: the reader may see
        the answer while this task still waits for the pipe to drain.
        """
        self._raise_if_failed()
        future = self._waiting.get(answer)
        if future is None or future.done():
            future = asyncio.get_running_loop().create_future()
            self._waiting[answer] = future
        await self._send(line)
        await self._wait(asyncio.shield(future), answer)

    async def _wait(self, awaitable: Awaitable[T], what: str) -> T:
        try:
            async with asyncio.timeout(self.timeout):
                return await awaitable
        except TimeoutError:
            self._fail(EngineError(f"the engine did not answer {what} within {self.timeout:g} s"))
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            self._raise_if_failed()
            raise  # not reached: _fail always records a failure

    async def _read_stdout(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            try:
                raw = await stdout.readline()
            except ValueError:  # a line over the limit: skipped
                continue
            if not raw:
                break
            self._dispatch(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        await self._exited()

    async def _read_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        while True:
            try:
                raw = await stderr.readline()
            except ValueError:
                continue
            if not raw:
                return
            self._stderr.append(printable(raw.decode("utf-8", errors="replace").rstrip(), 200))

    def _dispatch(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "id":
            key, _, value = rest.partition(" ")
            if key == "name":
                self.name = printable(value, 200)
            elif key == "author":
                self.author = printable(value, 200)
        elif word == "option":
            tokens = rest.split()
            if len(tokens) >= 2 and tokens[0] == "name":
                end = tokens.index("type") if "type" in tokens else len(tokens)
                self.declared_options[" ".join(tokens[1:end])] = printable(line, 400)
        elif word in ("uciok", "readyok"):
            future = self._waiting.pop(word, None)
            if future is not None and not future.done():
                future.set_result(None)
        elif word == "info":
            self._on_info(line)
        elif word == "bestmove":
            self._on_bestmove(rest)

    def _on_info(self, line: str) -> None:
        search = self._search
        if line.startswith("info string error:"):
            self.errors.append(printable(line[len("info string error:") :].strip(), 400))
            return
        if search is None or search.done:
            return
        info = parse_info(line, search.position)
        if info is None or info.string is not None:
            return
        search.last_info = info
        search.infos.append(info)
        if search.on_info is not None:
            try:
                search.on_info(info)
            except Exception as problem:  # the caller's bug must not stop the reading of the engine
                asyncio.get_running_loop().call_exception_handler(
                    {"message": "engine info callback failed", "exception": problem}
                )

    def _on_bestmove(self, rest: str) -> None:
        search = self._search
        if search is None or search.done:
            return
        text = rest.split()[0] if rest.split() else ""
        moves = pv_moves(search.position, [text]) if text and text not in ("(none)", "0000") else ()
        if text and text not in ("(none)", "0000") and not moves:
            search.answer.set_exception(EngineError(f"the engine answered an illegal move: {printable(text, SHOWN)}"))
            return
        search.answer.set_result(BestMove(moves[0] if moves else None, text, search.last_info))

    async def _exited(self) -> None:
        """The engine's output ended: record why, for every call waiting and to come."""
        process = self._process
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await process.wait()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await asyncio.wait([self._stderr_reader])  # its last words explain the exit
        if self._failure is None:
            said = "; ".join(self._stderr)
            detail = f": {said}" if said else ""
            self._fail(EngineError(f"the engine exited (status {process.returncode}){detail}"))

    def _fail(self, error: EngineError) -> None:
        if self._failure is None:
            self._failure = error
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(self._failure)
                future.exception()  # retrieved: no "never retrieved" warning when nobody waits
        self._waiting.clear()
        search = self._search
        if search is not None and not search.done:
            search.answer.set_exception(self._failure)
            search.answer.exception()

    def _raise_if_failed(self) -> None:
        if self._failure is not None:
            raise self._failure


__all__ = [
    "DEFAULT_COMMAND",
    "BestMove",
    "EngineClient",
    "EngineError",
    "EngineInfo",
    "Search",
    "go_command",
    "parse_info",
    "position_command",
]
