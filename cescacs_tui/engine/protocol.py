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
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from ..core.build_info import build
from ..core.errors import CescacsError
from ..core.move import Move
from ..core.position import MoveTuple, Position
from ..core.safe_text import printable
from .board import SearchBoard
from .levels import LEVELS, Level, choose_move, level, level_for_elo
from .search import DEFAULT_OVERHEAD, MATE_BOUND, Info, Limits, Result, Searcher

ENGINE_NAME: Final = "cescacs-tui engine"
ENGINE_AUTHOR: Final = "the cescacs-tui developers"
MAX_LINE: Final = 1 << 20
"""Longest command accepted, in characters (a game of thousands of moves fits)."""
INTERNAL_ERROR: Final = "internal error, please report it"
"""Said for an exception the engine did not expect (a bug), instead of a traceback."""
SHOWN: Final = 80
"""Characters of an offending token an error message quotes at most."""
ENTRY_BYTES: Final = 200
"""Rough memory of one transposition-table entry in CPython: turns the Hash option's MiB into entries."""


class ProtocolError(Exception):
    """A command the engine cannot follow; its message is sent back as ``info string error: ...``."""


MAX_DIGITS: Final = 18
"""Digits a number may have (a million years in milliseconds has 14): longer ones are refused, not converted."""
MAX_MOVES: Final = 10_000
"""Moves a ``position`` command may list (a real game has a few hundred; reading 10,000 takes under a second)."""
MAX_MOVE_TEXT: Final = 40
"""Characters a move may have (the longest CTL-AN move with its marks has about 20)."""


def whole_number(text: str) -> int | None:
    """``text`` as an integer if it is one written in ASCII digits (an optional sign, no spaces or ``_``)."""
    digits = text[1:] if text[:1] in ("-", "+") else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > MAX_DIGITS:
        return None
    return int(text)


class Line(NamedTuple):
    """A command line as it was read, and when its last byte arrived (a :func:`time.perf_counter` reading)."""

    text: str
    arrived: float


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
        value = whole_number(text)
        if value is None:
            raise ProtocolError(f"setoption {self.name}: '{printable(text, SHOWN)}' is not a whole number")
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
    SpinOption("Move Overhead", round(DEFAULT_OVERHEAD * 1000), 0, 5000),
    CheckOption("UCI_LimitStrength", False),
    SpinOption("UCI_Elo", LEVELS[-1].elo, LEVELS[0].elo, LEVELS[-1].elo),
)
"""The options ``uci`` declares.  ``Castling false`` plays the beginners' rule (RULES.md 11.1); ``Seed 0`` means
a new random seed each game; ``Move Overhead`` is the milliseconds kept back, on every move to come, for an
answer to travel.  ``Castling`` applies from the next ``position`` command.  ``UCI_LimitStrength true`` plays
at ``UCI_Elo`` on the levels' ladder (:func:`level_for_elo`; its range is the ladder's) instead of ``Level``."""


def option_key(name: str) -> str:
    """How option names are matched: without case or spaces (``Move Overhead``, ``moveoverhead``, ``MoveOverhead``)."""
    return "".join(name.split()).lower()


_OPTION_BY_NAME: Final = {option_key(option.name): option for option in OPTIONS}

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
            value = whole_number(tokens[i + 1])
            if value is None:
                raise ProtocolError(f"go: {word} needs a whole number, not '{printable(tokens[i + 1], SHOWN)}'")
            values[word] = value
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
        self._setup: tuple[str, ...] | None = ("startpos",)
        """The ``position`` words before ``moves`` that gave ``_start`` (``None`` after ``ucinewgame``)."""
        self._texts: list[str] = []
        """The move words that gave ``_moves``: a ``position`` that extends them reads only the new ones."""
        self._current = self._start.copy()
        """``_start`` after ``_moves``."""
        self._board: SearchBoard | None = None
        self._board_played: list[MoveTuple] = []
        """The search's board is ``_start`` after these moves: the next ``go`` extends it when it can."""
        self._received = 0.0
        """When the command being followed arrived (its ``go`` counts its time from then)."""
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

    def run(self, lines: Iterable[str | Line]) -> None:
        """Follow commands until ``quit`` or the end of input.

        At the end of input nobody can send ``stop`` any more: an infinite
        search is stopped (and answers), a bounded one finishes first.
        """
        for line in lines:
            going = self.handle(line.text, line.arrived) if isinstance(line, Line) else self.handle(line)
            if not going:
                return
        self.wait(stop=self._infinite)

    def handle(self, line: str, arrived: float | None = None) -> bool:
        """Follow one command line; ``False`` after ``quit``.

        ``arrived`` is when the line was received (a :func:`time.perf_counter`
        reading; now if not given): a ``go`` counts its time from then.

        Whatever the line, the engine answers it and goes on: a line it
        cannot follow gets one error line.  An unexpected exception (a bug)
        is said as an error line too, never a traceback that ends the
        conversation (the protocol's fuzz test requires none).
        """
        self._received = time.perf_counter() if arrived is None else arrived
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
        except Exception as problem:  # a bug: said, and the engine keeps answering
            self.error(f"{printable(command, SHOWN)}: {INTERNAL_ERROR} ({printable(repr(problem), 200)})")
        return True

    def _uci(self, arguments: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME} ({build()})")  # which build: compiled or pure Python (build_info.py)
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
        self._set_position(None, Position.initial(castling=bool(self.options["Castling"])), [], [], None)
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
        option = _OPTION_BY_NAME.get(option_key(name))
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
        if "moves" in arguments:
            at = arguments.index("moves")
            setup, texts = tuple(arguments[:at]), arguments[at + 1 :]
        else:
            setup, texts = tuple(arguments), []
        if not setup:
            raise ProtocolError("position: expected 'startpos' or 'pdtl PDTL', then optionally 'moves ...'")
        if len(texts) > MAX_MOVES:
            raise ProtocolError(f"position: {len(texts)} moves are more than {MAX_MOVES}")
        castling = bool(self.options["Castling"])
        setup_key = (*setup, str(castling))
        known = len(self._texts)
        if setup_key == self._setup and texts[:known] == self._texts:
            # The same game, moves added (the usual case): only the new moves are read.
            start, played, current, first = self._start, list(self._moves), self._current.copy(), known
        else:
            start = self._setup_position(setup, castling)
            played, current, first = [], start.copy(), 0
        for number, text in enumerate(texts[first:], first + 1):
            if len(text) > MAX_MOVE_TEXT:
                raise ProtocolError(f"position: move {number} '{printable(text, SHOWN)}' is too long to be a move")
            try:
                move = current.parse_move(text)
            except CescacsError as problem:
                reason = getattr(problem, "reason", str(problem))
                raise ProtocolError(
                    f"position: move {number} '{printable(text, SHOWN)}' cannot be played: {printable(reason, 200)}"
                ) from None
            current.push(move)
            played.append(move)
        self._set_position(setup_key, start, played, texts, current)

    @staticmethod
    def _setup_position(setup: tuple[str, ...], castling: bool) -> Position:
        """The position the words of ``position`` before ``moves`` name."""
        kind = setup[0]
        if kind == "startpos":
            if len(setup) > 1:
                raise ProtocolError(f"position startpos: unexpected '{printable(setup[1], SHOWN)}'")
            return Position.initial(castling=castling)
        if kind == "pdtl":
            if len(setup) == 1:
                raise ProtocolError("position pdtl: the PDTL is missing")
            try:
                return Position.from_pdtl(" ".join(setup[1:]), castling=castling)
            except CescacsError as problem:
                raise ProtocolError(f"position pdtl: {printable(str(problem), 200)}") from None
        if kind == "fen":
            raise ProtocolError("position fen: C'escacs positions are given as 'position pdtl PDTL'")
        raise ProtocolError(f"position: expected startpos or pdtl, not '{printable(kind, SHOWN)}'")

    def _set_position(
        self,
        setup: tuple[str, ...] | None,
        start: Position,
        moves: list[MoveTuple],
        texts: list[str],
        current: Position | None,
    ) -> None:
        if start is not self._start:
            self._board = None  # another game: the next go builds its board afresh
        self._setup = setup
        self._start = start
        self._moves = moves
        self._texts = list(texts)
        if current is None:
            current = start.copy()
            for move in moves:
                current.push(move)
        self._current = current

    def _search_board(self) -> SearchBoard:
        """The board of the current position for a search: the last one, extended by the moves since, if it can be."""
        board, done = self._board, len(self._board_played)
        if board is None or self._moves[:done] != self._board_played:
            board, done = SearchBoard(self._start), 0
        for move in self._moves[done:]:
            board.make(move)
        board.stack.clear()  # the game's moves are never taken back on this board
        self._board, self._board_played = board, list(self._moves)
        return board

    def _go(self, arguments: list[str]) -> None:
        if self._busy:
            raise ProtocolError("go: already searching (send stop first)")
        self._require_idle("go")
        limits = parse_go(arguments, int(self._current.turn))
        board = self._search_board()
        self._stop = threading.Event()
        self._infinite = limits.infinite
        self._reported = None
        chosen = self._playing_level()
        overhead = int(self.options["Move Overhead"]) / 1000
        rng = self._rng
        started = self._received

        def work() -> None:
            try:
                result = choose_move(
                    self.searcher,
                    board,
                    limits,
                    chosen,
                    rng,
                    self._report,
                    overhead=overhead,
                    stop=self._stop,
                    started=started,
                )
            except Exception as problem:  # a bug: said, and a legal move still answers the go
                self.error(f"go: {INTERNAL_ERROR} ({printable(repr(problem), 200)})")
                self._board = None
                result = first_legal(self._current)
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

    def _playing_level(self) -> Level:
        """``Level``, or the way to play at ``UCI_Elo`` when ``UCI_LimitStrength`` is on."""
        if self.options["UCI_LimitStrength"]:
            return level_for_elo(int(self.options["UCI_Elo"]))
        return level(int(self.options["Level"]))

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
        return self._current.copy()


def first_legal(position: Position) -> Result:
    """A result playing the first legal move (or none): the answer to a ``go`` whose search failed."""
    moves = position.legal_moves()
    move = moves[0] if moves else None
    return Result(move, 0, None, 0, 0, 0.0, (move,) if move else ())


__all__ = ["OPTIONS", "SHOWN", "EngineProtocol", "Line", "ProtocolError", "format_info", "parse_go"]
