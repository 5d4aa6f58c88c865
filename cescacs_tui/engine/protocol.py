"""The engine's text protocol (UCI-style, see docs/engine-protocol.md): one command per line in, lines out.

:class:`EngineProtocol` reads commands and writes answers through a
``write`` callable, so tests drive it in process and ``cescacs engine``
connects it to stdin/stdout.  A ``go`` runs the search in a thread: the
reading loop stays free to answer ``isready`` and ``stop`` at once.

Nothing a front end sends can stop the engine: a bad line gets one
``info string error: ...`` answer (control characters shown as the core's
placeholders, so a terminal showing the conversation is never driven by
them) and the engine
waits for the next command.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from ..core.errors import CescacsError
from ..core.move import Move
from ..core.position import MoveTuple, Position
from ..core.safe_text import printable
from .board import SearchBoard
from .levels import LEVELS, choose_move, level
from .search import MATE_BOUND, Info, Limits, Result, Searcher

ENGINE_NAME: Final = "cescacs-tui engine"
ENGINE_AUTHOR: Final = "the cescacs-tui developers"
MAX_LINE: Final = 1 << 20
"""Longest command accepted, in characters (a game of thousands of moves fits)."""
SHOWN: Final = 80
"""Characters of an offending token an error message quotes at most."""
ENTRY_BYTES: Final = 200
"""Rough memory of one transposition-table entry in CPython: turns the Hash option's MiB into entries."""


class ProtocolError(Exception):
    """A command the engine cannot follow; its message is sent back as ``info string error: ...``."""


@dataclass(frozen=True)
class SpinOption:
    """An integer option: ``option name N type spin default D min A max B``."""

    name: str
    default: int
    minimum: int
    maximum: int

    def declaration(self) -> str:
        return f"option name {self.name} type spin default {self.default} min {self.minimum} max {self.maximum}"

    def parse(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ProtocolError(f"setoption {self.name}: '{printable(text, SHOWN)}' is not a whole number") from None
        if not self.minimum <= value <= self.maximum:
            raise ProtocolError(f"setoption {self.name}: {value} is not between {self.minimum} and {self.maximum}")
        return value


@dataclass(frozen=True)
class CheckOption:
    """A boolean option: ``option name N type check default true|false``."""

    name: str
    default: bool

    def declaration(self) -> str:
        return f"option name {self.name} type check default {'true' if self.default else 'false'}"

    def parse(self, text: str) -> bool:
        lowered = text.lower()
        if lowered not in ("true", "false"):
            raise ProtocolError(f"setoption {self.name}: '{printable(text, SHOWN)}' is not true or false")
        return lowered == "true"


OPTIONS: Final[tuple[SpinOption | CheckOption, ...]] = (
    SpinOption("Level", len(LEVELS), 1, len(LEVELS)),
    SpinOption("Hash", 64, 1, 4096),
    CheckOption("Castling", True),
    SpinOption("Seed", 0, 0, 2**31 - 1),
    SpinOption("MoveOverhead", 30, 0, 5000),
)
"""The options ``uci`` declares.  ``Castling false`` plays the beginners' rule (RULES.md 11.1); ``Seed 0`` means
a new random seed each game; ``MoveOverhead`` is the milliseconds kept back for the answer to travel.
``Castling`` applies from the next ``position`` command."""
_OPTION_BY_NAME: Final = {option.name.lower(): option for option in OPTIONS}

_GO_INTEGERS: Final = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime")


def parse_go(tokens: list[str], turn: int) -> Limits:
    """The limits of a ``go`` command (its tokens after ``go``); plain ``go`` is ``go infinite``."""
    values: dict[str, int] = {}
    infinite = False
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word == "infinite":
            infinite = True
            i += 1
        elif word in _GO_INTEGERS:
            if i + 1 >= len(tokens):
                raise ProtocolError(f"go: {word} needs a number")
            try:
                values[word] = int(tokens[i + 1])
            except ValueError:
                raise ProtocolError(
                    f"go: {word} needs a whole number, not '{printable(tokens[i + 1], SHOWN)}'"
                ) from None
            i += 2
        else:
            raise ProtocolError(f"go: unknown or unsupported parameter '{printable(word, SHOWN)}'")
    for word in ("depth", "nodes", "movestogo"):
        if word in values and values[word] < 1:
            raise ProtocolError(f"go: {word} must be at least 1")
    if not values or infinite:
        return Limits(infinite=True)
    own, other = ("wtime", "btime") if turn == 0 else ("btime", "wtime")
    if other in values and own not in values and not {"depth", "nodes", "movetime"} & values.keys():
        raise ProtocolError(f"go: no {own} for the side to move")

    def seconds(word: str) -> float | None:
        return max(0, values[word]) / 1000 if word in values else None

    return Limits(
        depth=values.get("depth"),
        nodes=values.get("nodes"),
        movetime=seconds("movetime"),
        white_time=seconds("wtime"),
        black_time=seconds("btime"),
        white_increment=seconds("winc") or 0.0,
        black_increment=seconds("binc") or 0.0,
        moves_to_go=values.get("movestogo"),
    )


def format_info(info: Info, hashfull: int | None = None) -> str:
    """An ``info depth ... pv ...`` line."""
    score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
    fields = [
        f"info depth {info.depth}",
        f"seldepth {max(info.seldepth, info.depth)}",
        f"score {score}",
        f"nodes {info.nodes}",
        f"nps {info.nps}",
        f"time {int(info.time * 1000)}",
    ]
    if hashfull is not None:
        fields.append(f"hashfull {hashfull}")
    if info.pv:
        fields.append("pv " + " ".join(str(m) for m in info.pv))
    return " ".join(fields)


class EngineProtocol:
    """One engine conversation: options, the position, and at most one running search."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_raw = write
        self._lock = threading.Lock()
        self.options: dict[str, int | bool] = {option.name: option.default for option in OPTIONS}
        self.searcher = Searcher(hash_entries=self._hash_entries())
        self._start = Position.initial()
        self._moves: list[MoveTuple] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._infinite = False
        self._busy = False
        """A search runs and has not answered yet."""
        self._reported: tuple[int, int, tuple[Move, ...]] | None = None
        """Depth, score and line of the last info line sent."""
        self._rng = self._new_rng()

    # --- output ---------------------------------------------------------------------

    def write(self, line: str) -> None:
        """Send one line (thread-safe: the search thread reports while the reader answers)."""
        with self._lock:
            self._write_raw(line)

    def error(self, message: str) -> None:
        self.write(f"info string error: {message}")

    # --- input ------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Follow commands until ``quit`` or the end of input.

        At the end of input nobody can send ``stop`` any more: an infinite
        search is stopped (and answers), a bounded one finishes first.
        """
        for line in lines:
            if not self.handle(line):
                return
        self.wait(stop=self._infinite)

    def handle(self, line: str) -> bool:
        """Follow one command line; ``False`` after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command, arguments = tokens[0], tokens[1:]
        if command == "quit":
            self.wait(stop=True)
            return False
        handler = self._COMMANDS.get(command)
        try:
            if handler is None:
                raise ProtocolError(f"unknown command '{printable(command, SHOWN)}'")
            handler(self, arguments)
        except ProtocolError as problem:
            self.error(str(problem))
        return True

    def _uci(self, arguments: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        for option in OPTIONS:
            self.write(option.declaration())
        self.write("uciok")

    def _isready(self, arguments: list[str]) -> None:
        self.write("readyok")

    def _debug(self, arguments: list[str]) -> None:
        if arguments not in (["on"], ["off"]):
            raise ProtocolError("debug: expected on or off")

    def _ucinewgame(self, arguments: list[str]) -> None:
        self._require_idle("ucinewgame")
        self.searcher.new_game()
        self._start = Position.initial(castling=bool(self.options["Castling"]))
        self._moves = []
        self._rng = self._new_rng()

    def _setoption(self, arguments: list[str]) -> None:
        if not arguments or arguments[0] != "name":
            raise ProtocolError("setoption: expected 'setoption name NAME [value VALUE]'")
        words = arguments[1:]
        if "value" in words:
            at = words.index("value")
            name, value = " ".join(words[:at]), " ".join(words[at + 1 :])
        else:
            name, value = " ".join(words), ""
        option = _OPTION_BY_NAME.get(name.lower())
        if option is None:
            raise ProtocolError(f"setoption: unknown option '{printable(name, SHOWN)}'")
        if not value:
            raise ProtocolError(f"setoption {option.name}: a value is needed")
        self._require_idle("setoption")
        self.options[option.name] = option.parse(value)
        if option.name == "Hash":
            self.searcher.hash_entries = self._hash_entries()
            self.searcher.table.clear()
        elif option.name == "Seed":
            self._rng = self._new_rng()

    def _position(self, arguments: list[str]) -> None:
        if not arguments:
            raise ProtocolError("position: expected 'startpos' or 'pdtl PDTL', then optionally 'moves ...'")
        if "moves" in arguments:
            at = arguments.index("moves")
            setup, moves = arguments[:at], arguments[at + 1 :]
        else:
            setup, moves = arguments, []
        castling = bool(self.options["Castling"])
        kind = setup[0]
        if kind == "startpos":
            if len(setup) > 1:
                raise ProtocolError(f"position startpos: unexpected '{printable(setup[1], SHOWN)}'")
            start = Position.initial(castling=castling)
        elif kind == "pdtl":
            if len(setup) == 1:
                raise ProtocolError("position pdtl: the PDTL is missing")
            try:
                start = Position.from_pdtl(" ".join(setup[1:]), castling=castling)
            except CescacsError as problem:
                raise ProtocolError(f"position pdtl: {printable(str(problem), 200)}") from None
        elif kind == "fen":
            raise ProtocolError("position fen: C'escacs positions are given as 'position pdtl PDTL'")
        else:
            raise ProtocolError(f"position: expected startpos or pdtl, not '{printable(kind, SHOWN)}'")
        played: list[MoveTuple] = []
        current = start.copy()
        for number, text in enumerate(moves, 1):
            try:
                move = current.parse_move(text)
            except CescacsError as problem:
                reason = getattr(problem, "reason", str(problem))
                raise ProtocolError(
                    f"position: move {number} '{printable(text, SHOWN)}' cannot be played: {printable(reason, 200)}"
                ) from None
            current.push(move)
            played.append(move)
        self._start = start
        self._moves = played

    def _go(self, arguments: list[str]) -> None:
        if self._busy:
            raise ProtocolError("go: already searching (send stop first)")
        self._require_idle("go")
        board = SearchBoard(self._start, moves=self._moves)
        limits = parse_go(arguments, board.turn)
        self._stop = threading.Event()
        self._infinite = limits.infinite
        self._reported = None
        chosen = level(int(self.options["Level"]))
        overhead = int(self.options["MoveOverhead"]) / 1000
        rng = self._rng

        def work() -> None:
            result = choose_move(
                self.searcher, board, limits, chosen, rng, self._report, overhead=overhead, stop=self._stop
            )
            if limits.infinite:
                self._stop.wait()  # infinite analysis answers only when stopped
            self._finish(result)

        self._busy = True
        self._thread = threading.Thread(target=work, name="cescacs-search", daemon=True)
        self._thread.start()

    def _stop_command(self, arguments: list[str]) -> None:
        self.wait(stop=True)

    def _ponderhit(self, arguments: list[str]) -> None:
        raise ProtocolError("ponderhit: pondering is not supported")

    _COMMANDS: Final[dict[str, Callable[[EngineProtocol, list[str]], None]]] = {
        "uci": _uci,
        "isready": _isready,
        "debug": _debug,
        "ucinewgame": _ucinewgame,
        "setoption": _setoption,
        "position": _position,
        "go": _go,
        "stop": _stop_command,
        "ponderhit": _ponderhit,
    }

    # --- the search thread ------------------------------------------------------------

    def _report(self, info: Info) -> None:
        self._reported = (info.depth, info.score, info.pv)
        self.write(format_info(info, self._hashfull()))

    def _finish(self, result: Result) -> None:
        if result.move is None:
            self.write("info depth 0 score " + ("mate 0" if abs(result.score) >= MATE_BOUND else f"cp {result.score}"))
        elif self._reported != (result.depth, result.score, result.pv):  # what the unfinished iteration found
            seldepth = self.searcher.seldepth
            info = Info(result.depth, seldepth, result.score, result.mate, result.nodes, result.time, result.pv)
            self.write(format_info(info, self._hashfull()))
        # Idle from here: a front end may send its next command as soon as it reads bestmove.
        self._busy = False
        self.write(f"bestmove {result.move or '(none)'}")

    # --- helpers ----------------------------------------------------------------------

    def wait(self, *, stop: bool = False) -> None:
        """Wait until no search runs; ``stop`` ends the running one at once (it still answers ``bestmove``)."""
        if stop:
            self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _require_idle(self, command: str) -> None:
        if self._busy:
            raise ProtocolError(f"{command}: not while searching (send stop first)")
        if self._thread is not None:
            self._thread.join()  # it has answered and is ending: let it go before touching the searcher

    def _hash_entries(self) -> int:
        return max(1024, int(self.options["Hash"]) * (1 << 20) // ENTRY_BYTES)

    def _hashfull(self) -> int:
        return min(1000, len(self.searcher.table) * 1000 // max(1, self.searcher.hash_entries))

    def _new_rng(self) -> random.Random:
        seed = int(self.options["Seed"])
        return random.Random(seed) if seed else random.Random()

    @property
    def position(self) -> Position:
        """The position the next ``go`` searches."""
        current = self._start.copy()
        for move in self._moves:
            current.push(move)
        return current


__all__ = ["OPTIONS", "SHOWN", "EngineProtocol", "ProtocolError", "format_info", "parse_go"]
