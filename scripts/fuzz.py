"""Fuzz the readers and the ``cescacs`` command: seeded hostile input, counted tracebacks and hangs.

    python scripts/fuzz.py                      # 20,000 core inputs and 1,000 runs of the command (minutes)
    python scripts/fuzz.py --core 2000 --cli 50 --seed 7

*Core inputs* go to the readers the way files and players deliver them: PDTLs
(``Position.from_pdtl``), typed and recorded moves (``parse_move``), CTL-PGN
records (``read_pgn``, then ``write_pgn`` and a second read, which must give the
same moves), ``TimeControl`` tags, tag values (written and read back equal),
text to show (``safe_text``, ``printable``), and the bytes of an autosave, a
settings file and a record file on disk (``load_autosave``, ``Settings.load``,
``open_pgn_file``).  Each input is the project's own data (the site's records,
the reference positions, legal moves) mutated at random: characters inserted,
deleted, replaced by controls, Unicode digits, bidi and invisible characters,
huge numbers, long runs, nesting, pieces of other inputs; now and then one of
the shapes that used to explode (``benchmarks/readers.py``).  An input passes
when the reader returns or raises its documented error; anything else is a
*traceback*; an input that takes more than :data:`HANG_SECONDS` is a *hang*.
The inputs run in a child process the parent watches, so a hang is caught
whatever the reader is doing.

*CLI inputs* are runs of the real command (``python -m cescacs_tui``) with
random arguments (subcommands, options, hostile values, bytes that are not
UTF-8) on a fresh data directory that sometimes holds damaged state files.
A run passes when it ends in time with status 0 or 2, with no traceback and
no control character on its output; ``host`` and ``serve-ssh`` runs that start
serving are stopped once they say so.

The test suite runs a small, fixed share of both (tests/processes/test_fuzz.py); the
figures of a full run are in docs/development.md's reliability section.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
HANG_SECONDS = 15.0
"""An input (or a run of the command) that takes longer than this is a hang."""

WEIRD = [
    *"\x00\x07\x08\t\n\r\x0b\x0c\x1b\x7f\x85\x9b\u00a0\u00ad\u061c\u200b\u200d\u200e\u200f\u2028\u2029\u202e\u2066\ufeff",
    *"٣۲߂９①Ⅻ²³𝟗",  # digits that are not ASCII
    *"\"\\'{}[]()$@×‐–…:;,.?!=&+#^∞",  # the notation's own characters, out of place
    "\x1b]52;c;eA==\x07",
    "\x1b[2J",
    "\udcff",
    "🩒",
    "9" * 7,
    "9" * 5000,
    " " * 300,
    "(1. E7-E11 " * 120,
]
"""What mutations slip into an input."""


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


@dataclass
class Corpus:
    """The project's own inputs, to mutate: records, positions, moves, time controls, state files."""

    records: list[str]
    pdtls: list[str]
    moves: list[str]
    controls: list[str] = field(default_factory=lambda: ["900+10", "*180", "300d3", "300b3", "40/9000", "?", "-", "60"])

    @classmethod
    def load(cls) -> Corpus:
        records = [_lines(path) for path in sorted((DATA / "games").glob("*.txt"))]
        positions = [json.loads(line) for line in _lines(DATA / "positions.jsonl")[:60]]
        bad = [line.split("  # ")[0] for line in _lines(DATA / "bad_pdtl.txt")]
        return cls(
            records=["\n".join(lines) + "\n" for lines in records if lines],
            pdtls=[row["pdtl"] for row in positions] + bad,
            moves=sorted({move for row in positions for move in row["moves"]}),
        )


def mutate(rng: random.Random, text: str, others: list[str]) -> str:
    """``text`` with a few random edits (see the module's description)."""
    for _ in range(rng.choice((0, 1, 1, 2, 3, 5, 12))):
        at = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.3:
            text = text[:at] + rng.choice(WEIRD) + text[at:]
        elif roll < 0.5:
            text = text[:at] + text[at + rng.randrange(1, 20) :]
        elif roll < 0.65:
            other = rng.choice(others)
            start = rng.randrange(len(other) + 1)
            text = text[:at] + other[start : start + rng.randrange(1, 200)] + text[at:]
        elif roll < 0.8 and text:
            text = text[:at] + text[at : at + rng.randrange(1, 30)] * rng.randrange(2, 60) + text[at:]
        elif roll < 0.9:
            text = text[:at]
        else:
            text = text[:at] + chr(rng.randrange(0x20, 0x3000)) + text[at:]
    return text


# --- the core ----------------------------------------------------------------------------------------------------


def _pdtl(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    from cescacs_tui.core import PDTLError, Position

    text, strict = mutate(rng, rng.choice(corpus.pdtls), corpus.pdtls), rng.random() < 0.3

    def run() -> object:
        try:
            position = Position.from_pdtl(text, strict=strict)
        except PDTLError as error:
            assert str(error).isprintable()
            return None
        return Position.from_pdtl(position.to_pdtl()) == position or _fail("PDTL written back differs")

    return run


def _move(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    from cescacs_tui.core import MoveError, Position

    pdtl = rng.choice(corpus.pdtls[:60])
    text, strict = mutate(rng, rng.choice(corpus.moves), corpus.moves), rng.random() < 0.3

    def run() -> object:
        position = Position.from_pdtl(pdtl)
        try:
            move = position.parse_move(text, strict=strict)
        except MoveError as error:
            assert str(error).isprintable()
            return None
        return position.is_legal(move) or _fail("parse_move gave an illegal move")

    return run


def _record_text(rng: random.Random, corpus: Corpus) -> str:
    if rng.random() < 0.01:  # one of the shapes that exploded, at a size the fuzz can afford often
        from benchmarks.readers import SHAPES

        return SHAPES[rng.choice(sorted(SHAPES))](rng.choice((4_096, 65_536, 1_048_576)))
    return mutate(rng, rng.choice(corpus.records), corpus.records + corpus.moves)


def _pgn(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    from cescacs_tui.core import PGNError, read_pgn, write_pgn

    text, strict = _record_text(rng, corpus), rng.random() < 0.2

    def run() -> object:
        try:
            games = read_pgn(text, strict=strict)
        except PGNError as error:
            assert str(error).isprintable()
            return None
        for game in games:
            try:
                written = write_pgn(game, fan=rng.random() < 0.2)
            except PGNError:
                continue
            if [node.move for node in read_pgn(written)[0].nodes] != game.moves:
                _fail("a record written back reads as other moves")
        return games

    return run


def _time_control(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    from cescacs_tui.core.clock import ClockError, TimeControl

    text = mutate(rng, rng.choice(corpus.controls), corpus.controls)

    def run() -> object:
        try:
            control = TimeControl.from_tag(text)
        except ClockError:
            return None
        return TimeControl.from_tag(control.to_tag()) == control or _fail("a time control written back differs")

    return run


def _text(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    from cescacs_tui.core.pgn_syntax import escape_tag_value, unescape_tag_value
    from cescacs_tui.core.safe_text import is_safe, printable, safe_text

    text = mutate(rng, rng.choice(corpus.records)[: rng.randrange(1, 80)], WEIRD)

    def run() -> object:
        from cescacs_tui.core.game import Game
        from cescacs_tui.core.pgn_syntax import MAX_TAG_CHARS
        from cescacs_tui.data.autosave import AutosaveWriteError, read_autosave, save_autosave

        if unescape_tag_value(escape_tag_value(text)) != text:
            _fail("a tag value written and read back differs")
        if not is_safe(safe_text(text)) or not printable(text).isprintable():
            _fail("text made safe is not")
        name = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        game = Game.new(white=name, black="?")
        game.play_text("E7-E13")
        with tempfile.TemporaryDirectory() as directory:  # a player's name saved, then resumed
            path = Path(directory) / "autosave.json"
            try:
                save_autosave(game, {}, path)
            except AutosaveWriteError:  # refused with a reason: only a name longer than a record holds
                return len(name) > MAX_TAG_CHARS or _fail("a name a record can hold was not saved")
            saved = read_autosave(path)
        if saved is None or saved.game.tags["White"] != game.tags["White"] or saved.game.moves != game.moves:
            _fail("a game saved with this name is not resumed as it was")
        return text

    return run


def _files(rng: random.Random, corpus: Corpus) -> Callable[[], object]:
    """The bytes of an autosave, a settings file or a record file, read from disk as the app reads them."""
    kind = rng.choice(("autosave", "settings", "record"))
    if kind == "autosave":
        document = {"format": "cescacs-tui autosave", "version": 1, "pgn": _unfinished_game(rng)}
        document["clock"] = {"white": rng.choice([300, 1e308, -1, "x", 10**30, 3.5]), "black": 1, "started": True}
        text = mutate(rng, json.dumps(document), WEIRD)
    elif kind == "settings":
        text = mutate(rng, "theme = 'cescacs-dark'\nwhite = 'Ann'\ntime_control = '900+10'\nlanguage = 'ca'\n", WEIRD)
    else:
        text = _record_text(rng, corpus)
    data = text.encode("utf-8", "surrogateescape" if rng.random() < 0.5 else "replace")

    def run() -> object:
        from cescacs_tui.core import PGNError
        from cescacs_tui.data.autosave import load_autosave
        from cescacs_tui.data.records import open_pgn_file
        from cescacs_tui.data.settings import Settings

        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / {"autosave": "autosave.json", "settings": "settings.toml"}.get(kind, "r.ctl-pgn")
            path.write_bytes(data)
            if kind == "autosave":
                return _resumed(load_autosave(path).saved)  # never raises
            if kind == "settings":
                return Settings.load(path)  # never raises
            try:
                return open_pgn_file(path)
            except PGNError:
                return None

    return run


def _unfinished_game(rng: random.Random) -> str:
    """The record an autosave holds: a game in progress, with a clock, a few random legal moves into it."""
    from cescacs_tui.core import write_pgn
    from cescacs_tui.core.clock import TimeControl
    from cescacs_tui.core.game import Game

    game = Game.new(white=rng.choice(["Ann", "Ann\\Bob", "?"]), time_control=TimeControl.from_tag("300+5"))
    for _ in range(rng.randrange(0, 12)):
        if game.is_over:
            break
        game.play(rng.choice(game.position.legal_moves()))
    return write_pgn(game)


def _resumed(saved: object) -> object:
    """What the app does with a resumed game at once: show its clocks and its situation, write it again."""
    from cescacs_tui.core import write_pgn
    from cescacs_tui.core.clock import format_clock
    from cescacs_tui.core.pieces import BLACK, WHITE
    from cescacs_tui.data.autosave import SavedGame
    from cescacs_tui.session.words import situation

    if isinstance(saved, SavedGame):
        game = saved.game
        for colour in (WHITE, BLACK) if game.clock is not None else ():
            assert game.clock is not None
            format_clock(game.clock.remaining(colour))
        situation(game)
        write_pgn(game)
    return saved


CORE: dict[str, Callable[[random.Random, Corpus], Callable[[], object]]] = {
    "PDTL": _pdtl,
    "move": _move,
    "CTL-PGN": _pgn,
    "TimeControl": _time_control,
    "text": _text,
    "state files": _files,
}
"""Each target of the core, and how often it is drawn (CTL-PGN twice: it reads everything else)."""
WEIGHTS = {"PDTL": 3, "move": 3, "CTL-PGN": 6, "TimeControl": 1, "text": 2, "state files": 3}


class Broken(AssertionError):
    """A reader's result breaks one of its promises (a round trip, a legal move)."""


def _fail(what: str) -> bool:
    raise Broken(what)


def core_target(seed: int, number: int) -> tuple[str, random.Random]:
    """The target of the core fuzz's input ``number``, and the random source that makes the input."""
    names = sorted(CORE)
    rng = random.Random(f"{seed}-{number}")
    return rng.choices(names, [WEIGHTS[name] for name in names])[0], rng


def core_worker(seed: int, start: int, count: int) -> None:
    """Run inputs ``start``... in this process, one line of JSON on stdout for each (what the parent watches)."""
    sys.setrecursionlimit(10_000)
    corpus = Corpus.load()
    for number in range(start, count):
        name, rng = core_target(seed, number)
        print(json.dumps({"number": number, "name": name}), flush=True)
        try:
            CORE[name](rng, corpus)()
            outcome = "ok"
        except Exception as error:  # what the fuzz counts: anything but a reader's documented error
            outcome = f"{type(error).__name__}: {str(error)[:200]}"
        print(json.dumps({"number": number, "name": name, "outcome": outcome}), flush=True)


@dataclass
class Tally:
    """What a fuzz run found."""

    inputs: dict[str, int] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.inputs.values())

    def count(self, name: str) -> None:
        self.inputs[name] = self.inputs.get(name, 0) + 1


def fuzz_core(seed: int, count: int, *, hang_seconds: float = HANG_SECONDS) -> Tally:
    """Run ``count`` core inputs in a child process, restarted after a hang; what they found."""
    tally = Tally()
    started = time.monotonic()
    start = 0
    while start < count:
        child = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(seed), str(start), str(count)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert child.stdout is not None
        current: dict[str, object] | None = None
        while True:
            ready = select.select([child.stdout], [], [], hang_seconds)[0]
            if not ready:  # nothing for too long: the input being read hangs
                child.kill()
                assert current is not None
                tally.count(str(current["name"]))
                tally.hangs.append(f"{current['name']} #{current['number']}")
                start = int(str(current["number"])) + 1
                break
            line = child.stdout.readline()
            if not line:  # the child ended: every input done, or it died on one (counted)
                child.wait()
                done = -1 if current is None else int(str(current["number"])) - ("outcome" not in current)
                if done < count - 1:
                    number = done + 1
                    name = core_target(seed, number)[0]
                    tally.count(name)
                    tally.tracebacks.append(f"{name} #{number}: the process died (status {child.returncode})")
                    start = number + 1
                else:
                    start = count
                break
            current = json.loads(line)
            if "outcome" in current:
                tally.count(str(current["name"]))
                if current["outcome"] != "ok":
                    tally.tracebacks.append(f"{current['name']} #{current['number']}: {current['outcome']}")
        child.stdout.close()
        child.wait()
    tally.seconds = time.monotonic() - started
    return tally


# --- the command ----------------------------------------------------------------------------------------------------

HOSTILE_VALUES = [
    "", "-", "--", "0", "7", "٣", "٣٠٠", "1e308", "inf", "nan", "-1", "99999999999", "a" * 100_000,
    "\x1b]52;c;eA==\x07",
    "\u202etxt", "\u200bx", "::1", "127.0.0.1", "localhost", "bad host!", "a" * 64 + ".x", "[::1]:1", "h:٧٤٦٩",
    "computer:٣", "computer:11", "computer", "human", "900+-10", "*٣", "E7-E13", "/0:K/ w -- - 0 1",
]  # fmt: skip
SUBCOMMANDS = {
    "play": ["--games", "--pdtl", "--white", "--black", "--no-castling", "--lang", "--plain", "--resume", "--new"],
    "moves": ["--pdtl", "--no-castling"],
    "perft": ["--pdtl", "--divide"],
    "host": ["--bind", "--port", "--token", "--play", "--name", "--time", "--data-dir", "--plain"],
    "join": ["--token", "--as", "--name", "--plain"],
    "serve-ssh": ["--bind", "--port", "--host-key", "--max-rooms", "--max-visitors", "--room-minutes", "--time"],
}
SERVING = (b"hosting a game on", b"serving C'escacs over SSH")
"""What a server run prints once it serves: it is then stopped, a pass."""


def cli_arguments(rng: random.Random) -> list[str | bytes]:
    """One random command line (after ``cescacs``)."""
    sub = rng.choice(sorted(SUBCOMMANDS))
    arguments: list[str | bytes] = [] if sub == "play" else [sub]
    if sub == "perft":
        arguments.append(rng.choice(["1", "0", "11", "٣", "x", "99999999"]))
    if sub == "join":
        arguments.append(rng.choice(["127.0.0.1:1", "x", "[::1]:70000", *HOSTILE_VALUES]))
    for _ in range(rng.randrange(0, 4)):
        option = rng.choice(SUBCOMMANDS[sub])
        arguments.append(option)
        if option not in ("--games", "--no-castling", "--plain", "--resume", "--new", "--divide"):
            value = rng.choice([*HOSTILE_VALUES, mutate(rng, rng.choice(HOSTILE_VALUES[:30]), WEIRD)])
            arguments.append(value.encode("utf-8", "surrogateescape") if "\udcff" in value else value)
    if rng.random() < 0.05:
        arguments.append(b"\xff\xfe")
    if sub == "play" and rng.random() < 0.3:
        arguments.append(rng.choice(["1", "x.ctl-pgn", "../../etc/passwd", "\x1b[2J"]))
    return arguments


def _state_files(rng: random.Random, data: Path, config: Path) -> None:
    """Now and then, a damaged autosave or odd settings in the fresh directories of a run."""
    data.mkdir()
    config.mkdir()
    if rng.random() < 0.2:
        damaged = [b"{", b"null", b'{"format": "cescacs-tui autosave"}', b"\xff"]
        (data / "autosave.json").write_bytes(rng.choice(damaged))
    if rng.random() < 0.2:
        settings = ["white = 'Ann\\Bob'\n", "time_control = 1e308\n", "theme = [1]\n", "language = 'xx'\n"]
        (config / "settings.toml").write_text(rng.choice(settings), encoding="utf-8")


def cli_run(arguments: list[str | bytes], rng: random.Random) -> str | None:
    """Run the command once; ``None`` if it passed, else what went wrong."""
    from cescacs_tui.core.safe_text import is_safe

    with tempfile.TemporaryDirectory() as directory:
        data, config = Path(directory) / "data", Path(directory) / "config"
        _state_files(rng, data, config)
        environment = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("TEXTUAL", "CESCACS"))},
            "CESCACS_DATA_DIR": str(data),
            "CESCACS_CONFIG_DIR": str(config),
            "PYTHONPATH": str(ROOT),
        }
        command: list[str | bytes] = [sys.executable, "-m", "cescacs_tui", *arguments]
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=environment,
            cwd=directory,
        )
        assert child.stdout is not None
        output = b""
        deadline = time.monotonic() + HANG_SECONDS
        served = False
        while child.poll() is None and time.monotonic() < deadline and not served:
            if select.select([child.stdout], [], [], 0.1)[0]:
                output += os.read(child.stdout.fileno(), 1 << 16)
                served = any(words in output for words in SERVING)
        if child.poll() is None:
            child.kill()
        output += child.stdout.read()
        child.stdout.close()
        status = child.wait()
        text = output.decode("utf-8", "replace")
        if served:
            return None
        if time.monotonic() >= deadline and status < 0:
            return "hang"
        if "Traceback" in text or status not in (0, 2):
            return f"status {status}: {text[-300:]!r}"
        if not is_safe(text.replace("\n", "")):
            return f"a control character on the output: {text[-300:]!r}"
    return None


def fuzz_cli(seed: int, count: int) -> Tally:
    """``count`` runs of the command; what they found."""
    tally = Tally()
    started = time.monotonic()
    for number in range(count):
        rng = random.Random(f"cli-{seed}-{number}")
        arguments = cli_arguments(rng)
        name = str(arguments[0]) if arguments and str(arguments[0]) in SUBCOMMANDS else "play"
        tally.count(name)
        problem = cli_run(arguments, rng)
        if problem == "hang":
            tally.hangs.append(f"{name} #{number}: {arguments!r:.200}")
        elif problem is not None:
            tally.tracebacks.append(f"{name} #{number}: {arguments!r:.200} → {problem}")
    tally.seconds = time.monotonic() - started
    return tally


def report(title: str, tally: Tally) -> None:
    print(f"{title}: {tally.total:,} inputs in {tally.seconds:.0f} s, {len(tally.tracebacks)} tracebacks, "
          f"{len(tally.hangs)} hangs over {HANG_SECONDS:.0f} s")  # fmt: skip
    print("  " + ", ".join(f"{name} {count:,}" for name, count in sorted(tally.inputs.items())))
    for problem in (tally.tracebacks + tally.hangs)[:20]:
        print(f"  ! {problem}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", type=int, default=20_000, help="core inputs (default: 20,000)")
    parser.add_argument("--cli", type=int, default=1_000, help="runs of the command (default: 1,000)")
    parser.add_argument("--seed", type=int, default=22, help="the seed (default: 22)")
    parser.add_argument("--worker", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        core_worker(*args.worker)
        return 0
    core = fuzz_core(args.seed, args.core)
    report("core", core)
    cli = fuzz_cli(args.seed, args.cli)
    report("command", cli)
    return 1 if core.tracebacks or core.hangs or cli.tracebacks or cli.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
