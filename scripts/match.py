"""Matches between engines speaking the protocol (docs/engine-protocol.md), in game pairs, with the SPRT.

    python -m scripts.match --first "cescacs engine" --second "../base/.venv/bin/cescacs engine" \\
        --nodes 20000 --sprt --elo0 0 --elo1 5
    python -m scripts.match --first "cescacs engine" --first-option Level=5 \\
        --second "cescacs engine" --second-option Level=4 --nodes 20000 --pairs 100
    python -m scripts.match ... --clock 2+0 --pairs 25      # a clock: losses on time are counted

Run it from the repository's root (``python -m``).  Each engine is a
command line (the other's code can be a worktree of another commit, run with
its own ``cescacs engine``).  Every opening of the book (scripts/data/
openings.txt, made by ``scripts/make_book.py``) is played twice, the first
engine White then Black, and the pair's points (0 to 2) go to the
pentanomial statistics of :mod:`scripts.sprt`: Elo with its 95% interval and,
with ``--sprt``, the test that stops the match as soon as it decides.

Every move is refereed by the rules core's :class:`~cescacs_tui.core.game.Game`
(an illegal move, an answer that never comes or a crash loses the game), and
games end by the rules (mate, stalemate, fivefold repetition, the
seventy-five-move rule, insufficient material) or by adjudication:

* **resignation**: for ``RESIGN_PLIES`` plies in a row, the engine to move
  says it is ``RESIGN_SCORE`` centipawns (or a mate) behind and the other,
  on its own turn, that it is as far ahead: both engines agree;
* **draw**: from ply ``DRAW_FROM``, both engines' scores within
  ``DRAW_SCORE`` centipawns of 0 for ``DRAW_PLIES`` plies in a row;
* **the ply cap** ``MAX_PLIES``: a draw.

Games run one or two at a time (``--concurrency``), each pair of games on
one pair of engine processes; use node or depth limits so the result does not
depend on the machine's load, and run it niced.  One line per game pair is
printed, and with ``--record`` every game is written as a JSON line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

from cescacs_tui.core.errors import CescacsError
from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import WHITE
from scripts.sprt import SPRT, estimate, pair_points

BOOK: Final = Path(__file__).resolve().parent / "data" / "openings.txt"
"""The default opening book: one line of moves from the start position per opening."""
RESIGN_SCORE: Final = 1000
RESIGN_PLIES: Final = 8
DRAW_FROM: Final = 160
DRAW_SCORE: Final = 15
DRAW_PLIES: Final = 12
MAX_PLIES: Final = 400
MATE_SCORE: Final = 100_000
"""A mate in a report counts as this many centipawns for adjudication."""
START_TIMEOUT: Final = 30.0
"""Seconds an engine has to answer ``uci`` and ``isready``."""


class EngineFailure(Exception):
    """An engine crashed, stopped answering or said something that cannot be followed."""


@dataclass(frozen=True)
class EngineSpec:
    """An engine to start: its name in the results, its command line and the options to set."""

    name: str
    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Answer:
    """An engine's answer to ``go``: its move, its last score for the side to move, and the time it took."""

    move: str
    score: int | None
    """Centipawns for the side to move (a mate as ±``MATE_SCORE``), from the last ``info`` line."""
    elapsed: float
    """Seconds from ``go`` written to ``bestmove`` read, as the referee's clock measures them."""
    depth: int | None
    nodes: int | None


class Engine:
    """One engine process, driven line by line with timeouts (a hung engine is an engine that lost)."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the engine)
        try:
            self._process = subprocess.Popen(
                spec.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr
            )
        except OSError as problem:
            raise EngineFailure(f"{spec.name} cannot start: {problem}") from None
        self._buffer = b""
        self.declared: set[str] = set()
        self.failed = False
        """Set once it has failed: it is replaced before the next game."""

    def send(self, line: str) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\n")
            stdin.flush()
        except (BrokenPipeError, ValueError):
            raise self._failure(f"{self.spec.name} has exited{self._last_words()}") from None

    def _failure(self, reason: str) -> EngineFailure:
        self.failed = True
        return EngineFailure(reason)

    def read_until(self, done: Callable[[str], bool], timeout: float) -> list[str]:
        """Lines up to the first for which ``done`` is true; :class:`EngineFailure` after ``timeout`` seconds."""
        stdout = self._process.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            while b"\n" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\n", 1)
                line = raw.decode("utf-8", errors="replace").strip()
                lines.append(line)
                if done(line):
                    return lines
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failure(f"{self.spec.name} did not answer within {timeout:g} s")
            ready, _, _ = select.select([stdout], [], [], left)
            if ready:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise self._failure(f"{self.spec.name} has exited{self._last_words()}")
                self._buffer += chunk

    def start(self) -> None:
        """``uci``, the options, ``isready``."""
        self.send("uci")
        for line in self.read_until(lambda line: line == "uciok", START_TIMEOUT):
            words = line.split()
            if words[:2] == ["option", "name"] and "type" in words:
                self.declared.add(" ".join(words[2 : words.index("type")]))
        for name, value in self.spec.options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def ready(self) -> None:
        self.send("isready")
        lines = self.read_until(lambda line: line == "readyok", START_TIMEOUT)
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise self._failure(f"{self.spec.name} refused a command: {errors[0]}")

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def go(self, moves: Sequence[str], arguments: str, timeout: float) -> Answer:
        """The engine's move after ``moves`` from the start, for ``go ARGUMENTS``."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        started = time.perf_counter()
        self.send(f"go {arguments}")
        lines = self.read_until(lambda line: line.startswith("bestmove"), timeout)
        elapsed = time.perf_counter() - started
        score = depth = nodes = None
        for line in lines:
            words = line.split()
            if words[:1] != ["info"] or "score" not in words:
                continue
            at = words.index("score")
            with contextlib.suppress(IndexError, ValueError):
                value = int(words[at + 2])
                score = value if words[at + 1] == "cp" else (MATE_SCORE if value > 0 else -MATE_SCORE)
            with contextlib.suppress(IndexError, ValueError):
                depth = int(words[words.index("depth") + 1])
            with contextlib.suppress(IndexError, ValueError):
                nodes = int(words[words.index("nodes") + 1])
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise self._failure(f"{self.spec.name}: {errors[0]}")
        words = lines[-1].split()
        if len(words) < 2:
            raise self._failure(f"{self.spec.name} answered '{lines[-1]}' without a move")
        return Answer(words[1], score, elapsed, depth, nodes)

    def close(self) -> None:
        with contextlib.suppress(EngineFailure):
            self.send("quit")
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout, self._stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # unsent input to an engine that has gone
                    stream.close()

    def _last_words(self) -> str:
        self._stderr.seek(0)
        said = self._stderr.read()[-400:].decode("utf-8", errors="replace").strip()
        return f" (it said: {said})" if said else ""


@dataclass(frozen=True)
class Control:
    """What each move may spend: node and depth budgets, a fixed time, or a clock (base + increment, seconds)."""

    nodes: int | None = None
    depth: int | None = None
    movetime: int | None = None
    """Milliseconds a move."""
    base: float | None = None
    increment: float = 0.0
    move_timeout: float = 120.0
    """Seconds a move may take at most without a clock before its engine is said to hang."""

    def arguments(self, clocks: Sequence[float]) -> str:
        """The words after ``go`` with both clocks as they stand (milliseconds)."""
        words = []
        if self.base is not None:
            increment = round(self.increment * 1000)
            words += [f"wtime {round(clocks[0] * 1000)} btime {round(clocks[1] * 1000)}"]
            words += [f"winc {increment} binc {increment}"]
        if self.movetime is not None:
            words.append(f"movetime {self.movetime}")
        if self.nodes is not None:
            words.append(f"nodes {self.nodes}")
        if self.depth is not None:
            words.append(f"depth {self.depth}")
        return " ".join(words) or "depth 1"

    def timeout(self, clocks: Sequence[float], side: int) -> float:
        if self.base is not None:
            return max(0.0, clocks[side]) + 10.0  # a flag fall is decided by the clock, not by this
        if self.movetime is not None:
            return self.movetime / 1000 * 4 + 10.0
        return self.move_timeout


@dataclass
class GameRecord:
    """One refereed game."""

    white: str
    black: str
    opening: tuple[str, ...]
    moves: list[str] = field(default_factory=list)
    white_score: float = 0.5
    """1 a White win (a stalemate included: a win by the minimum), ½ a draw, 0 a Black win."""
    reason: str = ""
    flagged: bool = False
    lowest_clock: float | None = None
    """The least time either side had left after a move (a clock game)."""
    move_times: list[tuple[float, float]] = field(default_factory=list)
    """Per engine move: seconds it took, and seconds its side had before it (a clock game)."""

    def json(self) -> str:
        return json.dumps(
            {
                "white": self.white,
                "black": self.black,
                "opening": list(self.opening),
                "moves": self.moves,
                "white_score": self.white_score,
                "reason": self.reason,
            }
        )


def play_game(white: Engine, black: Engine, opening: Sequence[str], control: Control) -> GameRecord:
    """One game from ``opening``; the referee is the rules core, the clock is the time between go and bestmove."""
    record = GameRecord(white.spec.name, black.spec.name, tuple(opening))
    game = Game()
    for text in opening:
        game.play(game.position.parse_move(text))
    for side, engine in enumerate((white, black)):
        try:
            engine.new_game()
        except EngineFailure as failure:
            return _finish(record, 1 - side, f"{engine.spec.name} failed: {failure}")
    texts = list(opening)
    clocks = [control.base or 0.0, control.base or 0.0]
    agreement = draws = 0
    last_score: list[int | None] = [None, None]
    while game.outcome is None:
        side = 0 if game.position.turn == WHITE else 1
        engine = white if side == 0 else black
        try:
            answer = engine.go(texts, control.arguments(clocks), control.timeout(clocks, side))
        except EngineFailure as failure:
            return _finish(record, 1 - side, f"{engine.spec.name} failed: {failure}")
        if control.base is not None:
            record.move_times.append((answer.elapsed, clocks[side]))
            clocks[side] -= answer.elapsed
            if clocks[side] < 0:
                record.flagged = True
                return _finish(record, 1 - side, f"{engine.spec.name} lost on time ({clocks[side] * 1000:.0f} ms)")
            clocks[side] += control.increment
            lowest = min(clocks)
            record.lowest_clock = lowest if record.lowest_clock is None else min(record.lowest_clock, lowest)
        try:
            move = game.position.parse_move(answer.move)
            game.play(move)
        except CescacsError as problem:
            return _finish(record, 1 - side, f"{engine.spec.name} played '{answer.move}': {problem}")
        texts.append(str(move))
        record.moves.append(str(move))
        last_score[side] = answer.score
        ours, theirs = answer.score, last_score[1 - side]
        if ours is None or theirs is None:
            agreement = draws = 0
            continue
        decided = min(abs(ours), abs(theirs)) >= RESIGN_SCORE and (ours > 0) != (theirs > 0)
        agreement = agreement + 1 if decided else 0
        if agreement >= RESIGN_PLIES and game.outcome is None:
            return _finish(record, side if ours > 0 else 1 - side, f"adjudicated: both engines agree on {ours:+d} cp")
        close = max(abs(ours), abs(theirs)) <= DRAW_SCORE
        draws = draws + 1 if close and game.ply >= DRAW_FROM else 0
        if draws >= DRAW_PLIES and game.outcome is None:
            return _finish(record, None, f"adjudicated a draw: both scores within {DRAW_SCORE} cp")
        if game.ply >= MAX_PLIES and game.outcome is None:
            return _finish(record, None, f"adjudicated a draw at the ply cap ({MAX_PLIES})")
    outcome = game.outcome
    winner = None if outcome.winner is None else (0 if outcome.winner == WHITE else 1)
    return _finish(record, winner, outcome.reason)


def _finish(record: GameRecord, winner: int | None, reason: str) -> GameRecord:
    record.white_score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    record.reason = reason
    return record


def load_book(path: Path) -> list[tuple[str, ...]]:
    """The openings of a book file: one line of moves from the start each (``#`` starts a comment)."""
    openings = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            openings.append(tuple(words))
    return openings


@dataclass
class PairResult:
    """The two games of one opening, and what they were worth to the first engine."""

    index: int
    games: tuple[GameRecord, GameRecord]
    first_points: tuple[float, float]


@dataclass
class MatchState:
    """The running totals of a match (shared by its workers)."""

    first: str
    second: str
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    flagged: dict[str, int] = field(default_factory=dict)
    verdict: str | None = None
    interrupted: bool = False
    """Whether Ctrl+C (or a TERM) ended the match before its pairs or a verdict."""

    def add(self, pair: PairResult) -> None:
        self.penta[pair_points(*pair.first_points)] += 1
        for points, record in zip(pair.first_points, pair.games, strict=True):
            self.wins += points == 1.0
            self.draws += points == 0.5
            self.losses += points == 0.0
            if record.flagged:
                loser = record.white if record.white_score == 0.0 else record.black
                self.flagged[loser] = self.flagged.get(loser, 0) + 1

    def summary(self, sprt: SPRT | None) -> str:
        games = self.wins + self.draws + self.losses
        text = (
            f"{self.first} vs {self.second}: {games} games +{self.wins} ={self.draws} -{self.losses},"
            f" pairs {self.penta}, {estimate(self.penta).describe()}"
        )
        if sprt is not None:
            text += f", {sprt.describe(self.penta)}"
        return text


def run_match(
    first: EngineSpec,
    second: EngineSpec,
    control: Control,
    openings: Sequence[tuple[str, ...]],
    *,
    pairs: int,
    first_pair: int = 0,
    concurrency: int = 1,
    sprt: SPRT | None = None,
    on_pair: Callable[[PairResult, MatchState], None] | None = None,
) -> MatchState:
    """Play up to ``pairs`` game pairs (the book in order from opening ``first_pair``, and round again).

    The match stops at the SPRT's verdict, or on Ctrl+C (or a TERM made one)
    once the pairs under way are finished: the pairs played are always the
    ``first_pair`` onwards without a gap, so a match can be continued.
    """
    state = MatchState(first.name, second.name)
    lock = threading.Lock()
    stop = threading.Event()
    queue: Iterator[int] = iter(range(first_pair, first_pair + pairs))
    failures: list[BaseException] = []

    def worker() -> None:
        engines: list[Engine | None] = [None, None]

        def ready(slot: int) -> Engine:
            engine = engines[slot]
            if engine is None or engine.failed:
                if engine is not None:
                    engine.close()
                engine = engines[slot] = Engine((first, second)[slot])
                engine.start()
            return engine

        try:
            while not stop.is_set():
                with lock:
                    index = next(queue, None)
                if index is None:
                    return
                opening = openings[index % len(openings)]
                one = play_game(ready(0), ready(1), opening, control)
                two = play_game(ready(1), ready(0), opening, control)
                result = PairResult(index, (one, two), (one.white_score, 1.0 - two.white_score))
                with lock:
                    state.add(result)
                    if sprt is not None and state.verdict is None:
                        state.verdict = sprt.verdict(state.penta)
                        if state.verdict is not None:
                            stop.set()
                    if on_pair is not None:
                        on_pair(result, state)
        except BaseException as problem:
            failures.append(problem)
            stop.set()
        finally:
            for engine in engines:
                if engine is not None:
                    engine.close()

    threads = [threading.Thread(target=worker, name=f"match-{i}") for i in range(max(1, concurrency))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:  # the games under way are finished, then the engines closed
        state.interrupted = True
        stop.set()
        for thread in threads:
            thread.join()
    if failures:
        raise failures[0]
    return state


def engine_spec(name: str, command: str, options: Sequence[str]) -> EngineSpec:
    pairs = []
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise SystemExit(f"an option is NAME=VALUE, not '{option}'")
        pairs.append((key, value))
    return EngineSpec(name, tuple(shlex.split(command)), tuple(pairs))


def parse_clock(text: str) -> tuple[float, float]:
    base, _, increment = text.partition("+")
    try:
        return float(base), float(increment or 0)
    except ValueError:
        raise SystemExit(f"a clock is BASE+INCREMENT in seconds (2+0, 60+0.5), not '{text}'") from None


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = f"{shlex.quote(sys.executable)} -m cescacs_tui engine"
    parser.add_argument("--first", default=default, help="the engine under test (a command line)")
    parser.add_argument("--second", default=default, help="the engine it is measured against")
    parser.add_argument("--first-name", default="first")
    parser.add_argument("--second-name", default="second")
    parser.add_argument("--first-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--second-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--nodes", type=int, help="nodes a move")
    parser.add_argument("--depth", type=int, help="plies a move")
    parser.add_argument("--movetime", type=int, help="milliseconds a move")
    parser.add_argument("--clock", help="a clock, BASE+INCREMENT in seconds")
    parser.add_argument("--pairs", type=int, default=100, help="game pairs at most")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once (1 or 2 on a shared machine)")
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--sprt", action="store_true", help="stop when the SPRT decides")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=5.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--record", type=Path, help="write every game here as a JSON line")
    args = parser.parse_args(argv)
    base, increment = parse_clock(args.clock) if args.clock else (None, 0.0)
    control = Control(args.nodes, args.depth, args.movetime, base, increment)
    if control.arguments([]) == "depth 1" and base is None:
        parser.error("give a limit: --nodes, --depth, --movetime or --clock")
    first = engine_spec(args.first_name, args.first, args.first_option)
    second = engine_spec(args.second_name, args.second, args.second_option)
    sprt = SPRT(args.elo0, args.elo1, args.alpha, args.beta) if args.sprt else None
    openings = load_book(args.book)
    record = args.record.open("a", encoding="utf-8") if args.record else None
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a TERM stops the match like Ctrl+C: engines closed
    started = time.monotonic()
    print(f"# {first.name}: {' '.join(first.command)} {dict(first.options)}")
    print(f"# {second.name}: {' '.join(second.command)} {dict(second.options)}")
    print(f"# go {control.arguments([base or 0.0] * 2)}; {len(openings)} openings; load {os.getloadavg()[0]:.2f}")

    def report(pair: PairResult, state: MatchState) -> None:
        if record is not None:
            for game in pair.games:
                record.write(game.json() + "\n")
            record.flush()
        points = " ".join(f"{p:g}" for p in pair.first_points)
        reasons = "; ".join(g.reason for g in pair.games)
        print(f"pair {pair.index + 1}: {points} ({reasons})", flush=True)
        print(f"  {state.summary(sprt)}  [{time.monotonic() - started:.0f} s]", flush=True)

    try:
        state = run_match(
            first, second, control, openings, pairs=args.pairs, concurrency=args.concurrency, sprt=sprt, on_pair=report
        )
    finally:
        if record is not None:
            record.close()
    print(f"\nresult: {state.summary(sprt)}")
    if state.flagged:
        print("lost on time: " + ", ".join(f"{name} {n}" for name, n in state.flagged.items()))
    if sprt is not None:
        words = {"H1": f"H1 accepted: at least {sprt.elo1:g} Elo", "H0": f"H0 accepted: at most {sprt.elo0:g} Elo"}
        print("SPRT: " + words.get(state.verdict or "", "no verdict yet (more pairs needed)"))
    print(f"load {os.getloadavg()[0]:.2f}; {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
