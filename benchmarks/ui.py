"""Responsiveness of the terminal UI: board painting, key-to-repaint, first paint and per-move costs.

python benchmarks/ui.py            # the full run (about 75 s)
python benchmarks/ui.py --quick    # a quarter of the repetitions (about 20 s)
python benchmarks/ui.py --profile  # also a cProfile of refresh_game() after a move
python benchmarks/ui.py --first-paint  # only the first-paint sections (3, 3b, 3c)

It checks the project's goals: the board renders well under 5 ms; every input
costs at most one 60 Hz frame of CPU until the frame that shows it (median: a
typed move or a click 16 ms, a cursor key 4 ms); the ``cescacs`` command in a
terminal paints its first frame (the board) within 1.3x the time a bare
Textual app takes to paint its own (medians of 7 alternate runs).  The rest
of the screen, which the app mounts after that first paint, is a figure
printed beside it, with no goal.  Every figure is
wall-clock time (``time.perf_counter``) in milliseconds, as median, p90
(nearest rank) and worst of ``n`` repetitions, unless it says CPU
(``time.process_time``); the goals are printed last, with the machine's load.

1. Board render.  A mounted ``HexBoard`` (in ``CescacsApp``, a middlegame
   position after 40 half-moves of a recorded game) at 80x24 (compact layout)
   and 120x40 (full layout); the time to call ``render_line(y)`` for every row
   of the widget:

   * cold: after ``notify_style_update()`` (the CSS/theme invalidation path), which
     drops the palette, the cell-segment cache and every cached row strip;
   * rows dropped: after ``_refresh_hexes(every hex)`` (the path a ``show()`` or a
     cursor move takes), which drops the row strips but keeps the cell cache;
   * warm: every row strip cached.

   Then the pure view building done once per move: ``Picker(position)`` (its
   legal moves) and ``board_view(...)`` (plain, with a piece selected, and with
   both overlays on), on the same middlegame position.

2. Key-to-repaint, in ``App.run_test()`` (headless).  ``Pilot.press`` itself is
   not timed: it sleeps in ``wait_for_idle`` for at least 2 x 20 ms per key.
   Instead the input event is posted exactly as the pilot and a terminal driver
   post it (``driver.send_message``), and the clock stops when the compositor
   hands a frame to ``App._display`` and that frame has re-rendered the board
   rows concerned (seen through a counting wrapper of the board's
   ``render_line``) with the new state.  A headless app does not encode frames,
   so the probe encodes each one (``CompositorUpdate.render_segments``) as a real
   terminal app would, and that cost is inside the figure.  Before each input the
   app is left idle until no frame has come for 40 ms (more than two 60 Hz
   frame periods, so Textual's frame timer is not mid-period), as when a person
   presses keys at human speed.  Rows:

   * cursor key: an arrow key on the board (a seeded random walk that always
     moves) until the rows of the new cursor hex are repainted;
   * typed move: with the move box focused and the move typed, Enter until the
     board shows the new position (the rows of every hex the move changed);
   * select click / move click: a mouse button release (the driver's MouseUp,
     from which Textual makes the Click) on a piece, until it shows as selected,
     and on its target, until the board shows the new position.

   Under each: "CPU" is the process CPU time spent in that span (the rest is
   waiting, mostly for Textual's 60 Hz frame timer); "frame" is from the frame
   timer's tick to the encoded frame (layout, compositing, rendering, encoding);
   "settled" is input to the last frame of the burst (panels, move list and
   footer included).

3. First paint inside a running process, a diagnostic: from constructing the
   app to the first frame it produces (encoded, as above), under
   ``run_test(size=(120, 40))``, for ``CescacsApp()``, for a bare ``App`` with one
   ``Static`` and for an ``App`` with the app's costliest widgets and no logic
   (``HexBoard``, ``MoveList``, ``Input``, ``Footer``), which splits the gap into
   Textual's widget costs and the app's own start-up work.  The apps alternate,
   after one unmeasured warm-up of each (shown apart: it pays for lazy imports);
   "settled" is to the last frame before 100 ms without frames.  With
   everything imported and warm, the bare app's first frame is one compositor
   pass over one line of text, so any board at all is a multiple of it.

3b. First paint of a new process, headless: what a player waits for after
   typing ``cescacs``, without the terminal.  A fresh Python process for each run, from the
   interpreter's first statement through the imports to the first frame, for
   the bare app and for the ``cescacs`` command itself, alternated.  The project
   is byte-compiled first and the children may read their bytecode, as after
   any ``pip install``.

3c. The goal's figure, with nothing swapped: the ``cescacs`` console script
   and a bare app run in a pseudo-terminal of 120x40 with Textual's real
   terminal driver, 7 runs of each in turn after one unmeasured run of each,
   timed from starting the process to the first frame it writes (Textual
   writes a whole frame at once, beginning with the cursor at home: the board)
   and, for ``cescacs``, to the side panel it mounts after that frame (its move
   box's label written).  POSIX only.

4. Per-move costs inside the app (120x40): ``CescacsApp.refresh_game()`` after a
   move (the app's game switched between the positions before and after one
   move, so the picker, board diff and move list are rebuilt as after a real
   move) at ply 40 and ply 80, and its parts; ``Game.play``; the autosave write;
   and a full ``gc.collect()`` with a new app running and again after 100 more
   moves, each painted (the objects a session keeps per move, and what that
   does to the pauses of Python's full garbage collections).

Last, the pauses of Python's automatic full (generation 2) garbage collections
seen during the run: they, and the machine's other load, make most of the worst
figures.  Each app is started after an explicit, untimed ``gc.collect()``, so the
garbage of the previous apps is not collected inside a later measurement; the
explicit full collection timed in section 4 shows what one costs with one app
running.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import cProfile
import gc
import io
import math
import os
import pstats
import random
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from rich.console import RenderableType
from textual import events
from textual._compositor import CompositorUpdate
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.keys import _character_to_key
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Footer, Input, Static

from cescacs_tui.core import HEXES, Move
from cescacs_tui.core.game import Game
from cescacs_tui.core.move import CASTLING, IN_PLACE_PROMOTION
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.data.autosave import save_autosave
from cescacs_tui.data.settings import SETTINGS_NAME, Settings
from cescacs_tui.session.highlights import Overlays, move_hexes
from cescacs_tui.session.selection import Picker
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.board_layout import CursorMove, move_cursor
from cescacs_tui.tui.themes import BoardHostApp
from cescacs_tui.tui.view import board_view
from cescacs_tui.tui.widgets.board import HexBoard
from cescacs_tui.tui.widgets.panels import (
    MaterialPanel,
    MoveList,
    StatusPanel,
    material_rows,
    material_table,
    status_text,
)
from cescacs_tui.tui.widgets.side_panel import SidePanel

T = TypeVar("T")

RECORD = Path(__file__).resolve().parent.parent / "tests" / "data" / "games" / "site-file_2022-08-14.1.txt"
"""A 100-ply recorded game: the source of the middlegame positions and of the moves played."""
MIDDLEGAME = 40
LATE = 80
SIZES = ((80, 24), (120, 40))
QUIET = 0.040
"""Idle time before each input: longer than two frame periods of Textual's 60 Hz update timer."""
TIMEOUT = 5.0
"""How long a first paint may take (sections 3 to 3c)."""
PATIENCE = 60.0
"""How long an input may wait for the frame that shows it: a loaded machine (load average 8 and more beside the
engine ladder and other jobs) once took over 5 s, and a benchmark must not fail because the machine is busy."""
ARROWS: tuple[CursorMove, ...] = ("up", "down", "left", "right")


# --- Figures and the table ----------------------------------------------------------


@dataclass
class Row:
    """One line of the table: a label and its samples in seconds (or a section heading if ``samples`` is None)."""

    label: str
    samples: list[float] | None = None
    note: str = ""

    def stat(self, which: str) -> float:
        assert self.samples
        ordered = sorted(self.samples)
        if which == "median":
            return statistics.median(ordered)
        if which == "p90":
            return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
        return ordered[-1]


def print_rows(rows: Iterable[Row]) -> None:
    for row in rows:
        if row.samples is None:
            print(f"\n{row.label:<66} {'n':>5} {'median':>9} {'p90':>9} {'worst':>9}")
            continue
        figures = " ".join(f"{row.stat(which) * 1000:9.3f}" for which in ("median", "p90", "worst"))
        print(f"  {row.label:<64} {len(row.samples):>5} {figures}  {row.note}".rstrip())
    sys.stdout.flush()


COLLECTING = False
"""True during :func:`collect_garbage`, whose collections are not the app's."""


def collect_garbage() -> None:
    """Free the apps of earlier measurements now, untimed, so their collection does not fall into later ones.

    Textual's ``StylesCache.get_inner_outer`` is an ``lru_cache`` (1024 entries) on a method, which keeps
    the render caches of dead widgets alive: cleared too, so each app starts on a heap like a new process's.
    """
    global COLLECTING
    COLLECTING = True
    try:
        StylesCache.get_inner_outer.cache_clear()
        gc.collect()
    finally:
        COLLECTING = False


def timed(action: Callable[[], object], reps: int) -> list[float]:
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


# --- Games --------------------------------------------------------------------------


def record_game() -> Game:
    (game,) = read_pgn(RECORD.read_text(encoding="utf-8").partition("\n")[2])
    return game


def game_at(record: Game, ply: int) -> Game:
    """A fresh game with the record's first ``ply`` half-moves played."""
    game = Game(record.start)
    for node in record.nodes[:ply]:
        game.play(node.move)
    return game


def typed_text(game: Game, move: Move) -> str:
    """The move as a person types it: lower case, ``x`` for a capture, no check mark."""
    return game.position.ctl_an(move).replace("×", "x").rstrip("+#").lower()


# --- Watching the frames ---------------------------------------------------------------


class Sample(NamedTuple):
    start: float
    total: float
    cpu: float
    frame: float


class PaintProbe:
    """Timestamps every frame the app's compositor produces, and the board rows each one re-rendered.

    ``App._display`` is shadowed on the instance: after the original (which
    writes nothing when headless) the frame is encoded to terminal sequences,
    then timestamped.  ``attach`` also counts the board's ``render_line`` calls
    and timestamps the ticks of the screen's update timer.
    """

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.frames: list[float] = []
        self.rows: set[int] = set()
        self.tick = 0.0
        self.first = asyncio.Event()
        self._waiting: tuple[Callable[[], bool], asyncio.Future[tuple[float, float, float]]] | None = None
        self._display = app._display
        app._display = self._on_display  # type: ignore[method-assign]

    def attach(self, board: HexBoard) -> None:
        render_line = board.render_line
        rows = self.rows

        def counting_render_line(y: int) -> Strip:
            rows.add(y)
            return render_line(y)

        board.render_line = counting_render_line  # type: ignore[method-assign]
        timer = board.screen._update_timer
        update = timer._callback
        assert update is not None

        def ticking_update() -> object:
            self.tick = time.perf_counter()
            return update()

        timer._callback = ticking_update

    def _on_display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        self._display(screen, renderable)
        if renderable is None or self.app._batch_count:
            return
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(self.app.console)
        now = time.perf_counter()
        self.frames.append(now)
        self.first.set()
        if self._waiting is not None:
            painted, future = self._waiting
            if not future.done() and painted():
                self._waiting = None
                future.set_result((now, time.process_time(), self.tick))

    async def measure(self, event: events.Event, painted: Callable[[], bool]) -> Sample:
        """Post an input ``event`` and wait for the first frame after which ``painted()`` holds."""
        self.rows.clear()
        future: asyncio.Future[tuple[float, float, float]] = asyncio.get_running_loop().create_future()
        self._waiting = (painted, future)
        start, cpu = time.perf_counter(), time.process_time()
        post(self.app, event)
        try:
            end, cpu_end, tick = await asyncio.wait_for(future, PATIENCE)
        except TimeoutError:
            raise RuntimeError(
                f"no frame showed the expected change within {PATIENCE} s ({event!r}, {len(self.frames)} frames)"
            ) from None
        return Sample(start, end - start, cpu_end - cpu, end - max(tick, start))

    async def quiet(self, gap: float = QUIET, limit: float = 3.0) -> float:
        """Wait until no frame has come for ``gap`` seconds; the time of the last frame."""
        deadline = time.perf_counter() + limit
        while True:
            last = self.frames[-1] if self.frames else 0.0
            wait = last + gap - time.perf_counter()
            if wait <= 0 or time.perf_counter() > deadline:
                return last
            await asyncio.sleep(wait)

    def rows_of(self, board: HexBoard, hexes: Iterable[int]) -> set[int]:
        return {y for h in hexes for region in [board.hex_region(h)] for y in range(region.y, region.bottom)}


async def started(pilot: Any) -> None:
    """Wait until the app is fully up: the side panel, the move box and the footer are mounted after the first
    paint, and on a loaded machine one pause is not always enough (an input measured meanwhile would time the
    mounting too, or find no move box)."""
    app = pilot.app
    deadline = time.perf_counter() + PATIENCE
    while not (app.screen.query(SidePanel) and app.screen.query("#move-input") and app.screen.query(Footer)):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"the side panel, the move box and the footer were not mounted in {PATIENCE} s")
        await pilot.pause()
    await pilot.pause()


def post(app: App[Any], event: events.Event) -> None:
    """Hand an input event to the app as a terminal driver does (and as ``Pilot.press`` does)."""
    driver = app._driver
    assert driver is not None
    event.set_sender(app)
    driver.send_message(event)


def key_event(char: str) -> events.Key:
    key = char if len(char) > 1 or char.isalnum() else _character_to_key(char)
    return events.Key(key, char if len(char) == 1 else ("\r" if key == "enter" else None))


def mouse(cls: type[events.MouseEvent], board: HexBoard, h: int) -> events.MouseEvent:
    """A left-button mouse event in the middle of hex ``h``'s piece row, in screen coordinates."""
    region = board.hex_region(h)
    origin = board.content_region
    x, y = origin.x + region.x + region.width // 2, origin.y + region.y
    return cls(None, x, y, 0, 0, 1, False, False, False, x, y)


@dataclass
class Timings:
    """Samples of one kind of input, split into the figures shown."""

    total: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    frame: list[float] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)

    def add(self, sample: Sample, last_frame: float | None = None) -> None:
        self.total.append(sample.total)
        self.cpu.append(sample.cpu)
        self.frame.append(sample.frame)
        if last_frame is not None:
            self.settled.append(last_frame - sample.start)

    def rows(self, label: str) -> list[Row]:
        rows = [Row(label, self.total), Row("  CPU used in that span", self.cpu)]
        rows.append(Row("  frame: timer tick to encoded frame", self.frame))
        if self.settled:
            rows.append(Row("  settled: input to the burst's last frame", self.settled))
        return rows


# --- 1. Board render ---------------------------------------------------------------------


async def board_render(size: tuple[int, int], reps: int) -> list[Row]:
    """Every row of the mounted board rendered cold, with the rows dropped, and warm."""
    collect_garbage()
    app = CescacsApp(game_at(record_game(), MIDDLEGAME))
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        board = app.board
        height = board.size.height

        def render_all() -> None:
            for y in range(height):
                board.render_line(y)

        cold: list[float] = []
        dropped: list[float] = []
        warm: list[float] = []
        for _ in range(reps):
            board.notify_style_update()
            cold += timed(render_all, 1)
            board._refresh_hexes(HEXES)
            dropped += timed(render_all, 1)
            warm += timed(render_all, 1)
        where = f"{board.mode} at {size[0]}x{size[1]}, {board.size.width}x{height} rows"
        await pilot.pause()
    return [Row(f"{where}, cold", cold), Row(f"{where}, rows dropped", dropped), Row(f"{where}, warm", warm)]


def view_building(reps: int) -> list[Row]:
    """The per-move work of computing what the board shows (no Textual)."""
    game = game_at(record_game(), MIDDLEGAME)
    position = game.position
    picker = Picker(position)
    last = move_hexes(game.position_at(MIDDLEGAME - 1), game.nodes[-1].move)
    selected = Picker(position)
    piece = max({m.origin for m in selected.legal_moves}, key=lambda h: len(selected.moves_from(h)))
    selected.pick(piece)
    both = Overlays(attacked=True, threatened=True)
    label = f"ply {MIDDLEGAME}, {len(picker.legal_moves)} legal moves"
    return [
        Row(f"Picker(position): legal moves ({label})", timed(lambda: Picker(position), reps)),
        Row(
            "board_view(position, picker, last_move)",
            timed(lambda: board_view(position, picker=picker, last_move=last), reps),
        ),
        Row(
            "board_view(...) with a piece selected (its targets)",
            timed(lambda: board_view(position, picker=selected, last_move=last), reps),
        ),
        Row(
            "board_view(...) with both overlays (attacked, threatened)",
            timed(lambda: board_view(position, picker=picker, last_move=last, overlays=both), reps),
        ),
    ]


# --- 2. Key-to-repaint ---------------------------------------------------------------------


def cursor_painted(probe: PaintProbe, board: HexBoard, goal: int) -> Callable[[], bool]:
    """The frame has the cursor on ``goal`` and has re-rendered that hex's rows."""
    rows = probe.rows_of(board, [goal])
    return lambda: board.cursor == goal and rows <= probe.rows


def selection_painted(probe: PaintProbe, board: HexBoard, h: int) -> Callable[[], bool]:
    """The frame shows the piece on ``h`` selected (its rows re-rendered)."""
    rows = probe.rows_of(board, [h])
    return lambda: board.view.selected == h and rows <= probe.rows


def move_painted(probe: PaintProbe, board: HexBoard, game: Game, move: Move) -> Callable[[], bool]:
    """The frame shows the position after ``move`` (the rows of every hex it changes re-rendered)."""
    after = game.position.copy()
    after.push(move)
    codes = after.board_codes
    rows = probe.rows_of(board, move_hexes(game.position, move))
    return lambda: board.view.codes == codes and rows <= probe.rows


def step(board: HexBoard, key: CursorMove) -> int:
    """Where ``key`` takes the board's cursor, in the layout drawn (left and right differ between them)."""
    return move_cursor(board.cursor, key, flipped=board.flipped, mode=board.mode)


async def cursor_keys(size: tuple[int, int], reps: int) -> Timings:
    """Arrow keys on the board, each until the new cursor hex is repainted."""
    collect_garbage()
    app = CescacsApp(game_at(record_game(), MIDDLEGAME))
    timings = Timings()
    rng = random.Random(14)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        board = app.board
        probe = PaintProbe(app)
        probe.attach(board)
        for _ in range(reps):
            key = rng.choice([k for k in ARROWS if step(board, k) != board.cursor])
            painted = cursor_painted(probe, board, step(board, key))
            await probe.quiet()
            timings.add(await probe.measure(key_event(key), painted))
    return timings


async def typed_moves(size: tuple[int, int], reps: int) -> Timings:
    """The record's first moves typed in the move box; Enter until the board shows the move."""
    collect_garbage()
    record = record_game()
    app = CescacsApp(Game(record.start))
    timings = Timings()
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        board = app.board
        probe = PaintProbe(app)
        probe.attach(board)
        box = app.query_one("#move-input", Input)
        await pilot.press("slash")
        for node in record.nodes[:reps]:
            text = typed_text(app.game, node.move)
            for char in text:
                post(app, key_event(char))
            await pilot.pause()
            if box.value != text:
                raise RuntimeError(f"typed {text!r} but the move box holds {box.value!r}")
            painted = move_painted(probe, board, app.game, node.move)
            await probe.quiet()
            timings.add(await probe.measure(key_event("enter"), painted), await probe.quiet())
    return timings


async def clicked_moves(size: tuple[int, int], reps: int) -> tuple[Timings, Timings]:
    """The record's first moves played by two clicks: the piece (select), then its target (move)."""
    collect_garbage()
    record = record_game()
    app = CescacsApp(Game(record.start))
    select, play = Timings(), Timings()
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        board = app.board
        probe = PaintProbe(app)
        probe.attach(board)
        for node in record.nodes[:reps]:
            move = node.move
            position = app.game.position
            same = [m for m in position.legal_moves() if (m.origin, m.target) == (move.origin, move.target)]
            if len(same) > 1 or move.kind in (CASTLING, IN_PLACE_PROMOTION):
                app.game_screen.apply(app.session.play(move))  # a choice dialog would follow the click: not timed
                await pilot.pause()
                continue
            clicks = (
                (move.origin, select, selection_painted(probe, board, move.origin)),
                (move.target, play, move_painted(probe, board, app.game, move)),
            )
            for h, timings, painted in clicks:
                post(app, mouse(events.MouseDown, board, h))
                await probe.quiet()
                timings.add(await probe.measure(mouse(events.MouseUp, board, h), painted), await probe.quiet())
        if app.game.moves != [node.move for node in record.nodes[:reps]]:
            raise RuntimeError("the clicks did not play the record's moves")
    return select, play


# --- 3. First paint ----------------------------------------------------------------------------


class BareApp(App[None]):
    """The baseline of the goal: a Textual app with a single Static."""

    def compose(self) -> ComposeResult:
        yield Static("C'escacs")


class WidgetsApp(BoardHostApp[None]):
    """A second baseline: the app's costliest widgets (board, move list, input, footer), without its logic.

    ``BoardHostApp`` (the app's own base) supplies the theme variables of the board's colours.
    """

    def compose(self) -> ComposeResult:
        yield HexBoard()
        yield MoveList()
        yield Input()
        yield Footer()


async def first_paint(factory: Callable[[], App[Any]]) -> tuple[float, float]:
    """Seconds from constructing the app to its first frame, and to the last frame of the start-up burst."""
    collect_garbage()
    start = time.perf_counter()
    app = factory()
    probe = PaintProbe(app)
    async with app.run_test(size=(120, 40)):
        await asyncio.wait_for(probe.first.wait(), TIMEOUT)
        last = await probe.quiet(0.1)
    return probe.frames[0] - start, last - start


BARE, WIDGETS, CESCACS = "bare App + Static", "App + HexBoard, MoveList, Input, Footer", "CescacsApp()"


async def first_paints(runs: int) -> tuple[list[Row], dict[str, float]]:
    """The rows, and the medians of the first frames by app."""
    apps: dict[str, Callable[[], App[Any]]] = {BARE: BareApp, WIDGETS: WidgetsApp, CESCACS: CescacsApp}
    warmup = {name: await first_paint(factory) for name, factory in apps.items()}
    first: dict[str, list[float]] = {name: [] for name in apps}
    settled: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(runs):
        for name, factory in apps.items():
            a, b = await first_paint(factory)
            first[name].append(a)
            settled[name].append(b)
    rows = [Row("3. First paint, 120x40 headless (construction -> first frame)")]
    for name in apps:
        note = f"warm-up run {warmup[name][0] * 1000:.1f} / {warmup[name][1] * 1000:.1f} ms"
        rows += [
            Row(f"{name}: first frame", first[name], note),
            Row("  settled: last frame of the start-up", settled[name]),
        ]
    return rows, {name: statistics.median(samples) for name, samples in first.items()}


class GcWatch:
    """Times the full (generation 2) garbage collections, which cause most of the worst figures."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def close(self) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2 or COLLECTING:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._start)


# --- 4. Per-move costs inside the app ------------------------------------------------------------


async def per_move(reps: int, profile: bool) -> list[Row]:
    """What one move costs in the app outside the frame: refresh_game() and its parts, Game.play, the autosave."""
    collect_garbage()
    record = record_game()
    games = {ply: game_at(record, ply) for ply in (MIDDLEGAME, MIDDLEGAME + 1, LATE, LATE + 1)}
    app = CescacsApp(games[MIDDLEGAME])
    rows: list[Row] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        board = app.board
        status, material, moves = app.query_one(StatusPanel), app.query_one(MaterialPanel), app.query_one(MoveList)
        growth = await session_growth(app, pilot, games, max(10, reps))

        async def repeat(step: Callable[[int], object], before: Callable[[int], object]) -> list[float]:
            """Time ``step(i)`` for i in range(reps), after an untimed ``before(i)``; drain the app now and then."""
            samples = []
            for i in range(reps):
                before(i)
                start = time.perf_counter()
                step(i)
                samples.append(time.perf_counter() - start)
                if i % 10 == 9:
                    await pilot.pause()
            return samples

        async def alternate(ply: int, step: Callable[[Game], object]) -> list[float]:
            """Time ``step`` on the game before and after one move, alternately (a real move's change)."""

            def switch(i: int) -> None:
                app.session.game = games[ply + i % 2]

            samples = await repeat(lambda i: step(games[ply + i % 2]), switch)
            app.session.game = games[ply]
            app.game_screen.refresh_game()
            await pilot.pause()
            return samples

        for ply in (MIDDLEGAME, LATE):
            rows.append(
                Row(
                    f"refresh_game() after a move, ply {ply}",
                    await alternate(ply, lambda _: app.game_screen.refresh_game()),
                )
            )
        ply = MIDDLEGAME
        views = {p: board_view(games[p].position, picker=Picker(games[p].position)) for p in (ply, ply + 1)}
        rows += [
            Row("  Picker(position) (legal moves)", await alternate(ply, lambda g: Picker(g.position))),
            Row(
                "  HexBoard.show(view) (diff, refresh requests)",
                await alternate(ply, lambda g: board.show(views[g.ply])),
            ),
            Row("  StatusPanel.show_game", await alternate(ply, status.show_game)),
            Row("    status_text(game) alone", await alternate(ply, status_text)),
            Row("  MaterialPanel.show_game", await alternate(ply, material.show_game)),
            Row("    material_table(rows) alone", await alternate(ply, lambda g: material_table(material_rows(g)))),
            Row(f"  MoveList.show_game (rebuilt, ply {ply})", await alternate(ply, moves.show_game)),
            Row(f"  MoveList.show_game (rebuilt, ply {LATE})", await alternate(LATE, moves.show_game)),
            Row("  App.refresh_bindings()", await alternate(ply, lambda _: app.refresh_bindings())),
        ]
        previews = ((), move_hexes(games[ply].position, record.nodes[ply].move))

        def preview(i: int) -> None:
            app.session.preview = previews[i % 2]  # what typing a move shows on the board
            app.game_screen.refresh_game(board_only=True)

        toggled = await repeat(preview, lambda i: None)
        rows.append(Row("refresh_game(board_only=True), preview toggled", toggled))
        app.session.preview = ()
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            await alternate(LATE, lambda _: app.game_screen.refresh_game())
            profiler.disable()
            report = io.StringIO()
            stats = pstats.Stats(profiler, stream=report)
            stats.sort_stats("tottime").print_stats(18)
            lines = report.getvalue().splitlines()
            header = next(i for i, line in enumerate(lines) if "ncalls" in line)
            print(f"\ncProfile of {reps} x refresh_game() after a move at ply {LATE}, with the app's work between")
            print("(its frames, every 10 moves), by own time:")
            print("\n".join(lines[header:]))
    game = games[MIDDLEGAME]
    move = record.nodes[MIDDLEGAME].move
    plays = []
    for _ in range(reps):
        start = time.perf_counter()
        game.play(move)
        plays.append(time.perf_counter() - start)
        game.takeback()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "autosave.json"
        saves = timed(lambda: save_autosave(game, {"flipped": False}, path), reps)
    return [
        Row("4. Per-move costs in the app, 120x40"),
        *rows,
        Row(f"Game.play(move) at ply {MIDDLEGAME}", plays),
        Row(f"save_autosave (autosave after every move), ply {MIDDLEGAME}", saves),
        *growth,
    ]


async def session_growth(app: CescacsApp, pilot: Any, games: dict[int, Game], moves: int) -> list[Row]:
    """A full garbage collection with the app running, before and after ``moves`` more moves, each painted."""
    collect_garbage()
    before, tracked = timed(collect_garbage, 3), len(gc.get_objects())
    for i in range(moves):
        app.session.game = games[LATE + i % 2]
        app.game_screen.refresh_game()
        await pilot.pause()
    after, grown = timed(collect_garbage, 3), len(gc.get_objects())
    note = f"{grown:,} objects tracked, {(grown - tracked) / moves:+.0f} per move"
    return [
        Row("gc.collect() with a new app running (full collection)", before, f"{tracked:,} objects tracked"),
        Row(f"gc.collect() after {moves} more moves, each painted", after, note),
    ]


ROOT = Path(__file__).resolve().parent.parent


# --- First paint from a fresh process -------------------------------------------------

FRESH_PROCESS = """
import time, sys
start = time.perf_counter()
import asyncio
from textual.app import App

first = []

async def first_frame(app):
    display = app._display
    def probe(screen, renderable):
        if not first:
            first.append(time.perf_counter())
        return display(screen, renderable)
    app._display = probe
    async with app.run_test(size=(120, 40)):
        while not first:
            await asyncio.sleep(0.001)

if sys.argv[1] == "bare":
    from textual.widgets import Static

    class Bare(App):
        def compose(self):
            yield Static("hello")

    asyncio.run(first_frame(Bare()))
else:  # the cescacs command itself, its App.run() made headless
    App.run = lambda app: asyncio.run(first_frame(app))
    from cescacs_tui import cli
    from cescacs_tui.cli import launch

    launch.interactive = lambda: True  # as in a terminal (without one, cescacs plays in plain lines)
    cli.main([])
print(first[0] - start)
"""
"""Interpreter start -> imports -> first frame, in a new Python process (what a player waits for).

The cescacs child runs the ``cescacs`` command's own entry point (argument
parsing, settings, the autosave check, the app) with only ``App.run`` swapped
for a headless run, as a returning player: a settings file to read, no game
to resume.
"""


@contextlib.contextmanager
def returning_player() -> Iterator[dict[str, str]]:
    """The environment of a new process: a returning player (a settings file, no game to resume).

    An app that quits saves its game (even a new one, with no move), which the
    next process would then read: a section whose app quits empties the data
    directory before each run.

    The project is byte-compiled first and the children may use their
    bytecode, as after any ``pip install`` (a ``PYTHONDONTWRITEBYTECODE``
    environment would otherwise recompile every project module each time).
    """
    compileall.compile_dir(str(ROOT / "cescacs_tui"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="cescacs-bench-") as home:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"CESCACS_DATA_DIR": f"{home}/data", "CESCACS_CONFIG_DIR": f"{home}/config"}
        Settings().save(Path(home) / "config" / SETTINGS_NAME)
        yield env


def alternate(runs: int, once: Callable[[str], T]) -> dict[str, list[T]]:
    """``once("bare")`` and ``once("cescacs")`` in turn, after one unmeasured run of each (file cache)."""
    found: dict[str, list[T]] = {"bare": [], "cescacs": []}
    once("bare"), once("cescacs")
    for _ in range(runs):
        for kind, samples in found.items():
            samples.append(once(kind))
    return found


def fresh_process_paints(runs: int) -> tuple[list[Row], float]:
    """Section 3b: first paint of a new process, bare Textual app against ``cescacs``, headless."""
    with returning_player() as env:

        def once(kind: str) -> float:
            shutil.rmtree(env["CESCACS_DATA_DIR"], ignore_errors=True)  # the last run's app saved its empty game
            done = subprocess.run(
                [sys.executable, "-c", FRESH_PROCESS, kind], capture_output=True, text=True, env=env, check=True
            )
            return float(done.stdout.split()[-1])

        times = alternate(runs, once)
    ratio = statistics.median(times["cescacs"]) / statistics.median(times["bare"])
    rows = [
        Row("3b. First paint of a new process, 120x40 (interpreter start -> first frame)"),
        Row("bare App + Static", times["bare"]),
        Row("cescacs (the command, with a settings file)", times["cescacs"]),
    ]
    return rows, ratio


BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("hello")

Bare().run()
"""

FRAME_START = b"\x1b[1;1H"
"""Textual writes each full frame at once, starting with the cursor at home; nothing before the first frame does."""
SIDE_PANEL = b"Move:"
"""The move box's label, in the side panel that the app mounts after its first frame (the board)."""


def terminal_paint(argv: list[str], env: dict[str, str], size: tuple[int, int] = (120, 40)) -> tuple[float, float]:
    """Seconds from starting ``argv`` in a pseudo-terminal of ``size`` to its first frame, and to the side panel.

    The second figure is the moment :data:`SIDE_PANEL` has been written (the
    first frame's for a program that never writes it, the bare app).  Then the
    program is killed.
    """
    import fcntl  # POSIX only, like the section
    import pty
    import termios

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    wants_panel = argv[-1] != BARE_APP
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=terminal, stdout=terminal, stderr=terminal, env=env, start_new_session=True)
    os.close(terminal)
    seen = b""
    first: float | None = None
    try:
        while True:
            now = time.perf_counter()
            if first is None and FRAME_START in seen:
                first = now
            if first is not None and (not wants_panel or SIDE_PANEL in ESCAPES.sub(b"", seen)):
                return first - start, now - start
            if now - start > TIMEOUT:
                raise TimeoutError(f"{argv[0]} wrote no {'frame' if first is None else 'side panel'} in {TIMEOUT} s")
            if select.select([controller], [], [], 0.002)[0]:
                seen += os.read(controller, 1 << 16)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        os.close(controller)


ESCAPES = re.compile(rb"\x1b\[[0-9;?<>$]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
"""Terminal escape sequences (colours, cursor moves), taken out before looking for a text."""


def terminal_paints(runs: int) -> tuple[list[Row], float, float] | None:
    """Section 3c, the goal's figure: the unchanged commands in a pseudo-terminal, with Textual's real driver."""
    command = Path(sys.executable).with_name("cescacs")
    if sys.platform == "win32" or not command.exists():
        print("\n3c. skipped: it needs a POSIX pseudo-terminal and the installed cescacs command")
        return None
    with returning_player() as env:
        env |= {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
        argvs = {"bare": [sys.executable, "-c", BARE_APP], "cescacs": [str(command)]}
        paints = alternate(runs, lambda kind: terminal_paint(argvs[kind], env))
    bare = [first for first, _ in paints["bare"]]
    board = [first for first, _ in paints["cescacs"]]
    panel = [shown for _, shown in paints["cescacs"]]
    rows = [
        Row(f"3c. First paint in a pseudo-terminal, 120x40 (command start -> frame written), {runs} alternate runs"),
        Row("bare App + Static (python -c): its first frame", bare),
        Row("cescacs (the console script): its first frame, the board", board),
        Row("cescacs: the side panel (its move box) written", panel),
    ]
    median = statistics.median(bare)
    return rows, statistics.median(board) / median, statistics.median(panel) / median


# --- Main ------------------------------------------------------------------------------


PAINT_RUNS = 7
"""Runs of each app in the first-paint sections: the goal's method is the median of 7 alternate runs."""

Goal = tuple[str, float, float | None, str]
"""A figure the goals table prints: its name, its value, its target (``None``: a figure printed with no goal), its
unit."""

PAINT_GOAL = 1.3
"""The goal for the first paint of ``cescacs`` in a terminal (its first frame, the board), as a multiple of a bare
app's (issue 23: "profile imports and the first frame; import lazily what the first frame does not need")."""
CPU_GOALS = {"cursor key": 4.0, "typed move": 16.0, "select click": 16.0, "move click": 16.0}
"""The goal for the CPU an input costs until the frame that shows it (ms, median): within one 60 Hz frame."""


async def first_paint_sections(runs: int) -> list[Goal]:
    """Sections 3, 3b and 3c; the goals' figures (3c's ratios, in a pseudo-terminal)."""
    first, medians = await first_paints(runs)
    print_rows(first)
    print(
        f"  CescacsApp / bare app: {medians[CESCACS] / medians[BARE]:.2f}x; CescacsApp / same widgets without "
        f"logic: {medians[CESCACS] / medians[WIDGETS]:.2f}x; same widgets / bare app: "
        f"{medians[WIDGETS] / medians[BARE]:.2f}x"
    )
    fresh, fresh_ratio = fresh_process_paints(runs)
    print_rows(fresh)
    print(f"  cescacs / bare app: {fresh_ratio:.2f}x")
    in_terminal = terminal_paints(runs)
    if in_terminal is None:
        return []
    rows, board_ratio, panel_ratio = in_terminal
    print_rows(rows)
    print(f"  cescacs / bare app (medians): board {board_ratio:.2f}x, side panel {panel_ratio:.2f}x")
    return [
        ("first paint in a pseudo-terminal, board / bare app (medians)", board_ratio, PAINT_GOAL, "x"),
        ("the rest of the screen after it: side panel / bare app (medians)", panel_ratio, None, "x"),
    ]


def print_goals(goals: list[Goal]) -> None:
    print(f"\n{'Goals':<66} {'value':>9} {'target':>9}")
    for goal, value, target, unit in goals:
        if target is None:
            print(f"  {goal:<64} {value:>7.2f}{unit:<2} {'-':>9}  (no goal)")
            continue
        verdict = "met" if value <= target else "MISSED"
        print(f"  {goal:<64} {value:>7.2f}{unit:<2} {'<= ' + format(target, 'g') + unit:>9}  {verdict}")
    print(f"  (load average at the end: {' '.join(Path('/proc/loadavg').read_text().split()[:3])})")


async def run(args: argparse.Namespace) -> None:
    scale = 0.25 if args.quick else 1.0

    def count(n: int) -> int:
        return max(5, int(n * scale))

    began = time.perf_counter()
    if args.first_paint:
        print_goals(await first_paint_sections(PAINT_RUNS))
        print(f"\nTotal {time.perf_counter() - began:.1f} s")
        return
    gc_watch = GcWatch()
    rows: list[Row] = [Row("1. Board render: render_line(y) for every row of the HexBoard")]
    render: dict[tuple[int, int], list[Row]] = {}
    for size in SIZES:
        render[size] = await board_render(size, count(300))
        rows += render[size]
    rows.append(Row("   View building, once per move (pure, no Textual)"))
    rows += view_building(count(300))
    print_rows(rows)

    rows = [Row("2. Key-to-repaint, headless (input posted -> frame showing it)")]
    keys: dict[str, list[Timings]] = {"cursor key": [], "typed move": [], "select click": [], "move click": []}
    for size in SIZES:
        keys["cursor key"].append(await cursor_keys(size, count(200)))
        rows += keys["cursor key"][-1].rows(f"cursor key, {size[0]}x{size[1]}")
    for size in SIZES:
        keys["typed move"].append(await typed_moves(size, count(30)))
        rows += keys["typed move"][-1].rows(f"typed move (Enter), {size[0]}x{size[1]}")
    for size in SIZES:
        select, play = await clicked_moves(size, count(30))
        keys["select click"].append(select)
        keys["move click"].append(play)
        rows += select.rows(f"select click (piece), {size[0]}x{size[1]}")
        rows += play.rows(f"move click (target), {size[0]}x{size[1]}")
    print_rows(rows)

    paint_goals = await first_paint_sections(PAINT_RUNS)
    print_rows(await per_move(count(100), args.profile))
    gc_watch.close()
    if gc_watch.pauses:
        print_rows([Row("Python's automatic full garbage collections"), Row("gen-2 pause", gc_watch.pauses)])

    cold_p90 = max(row.stat("p90") for size in SIZES for row in render[size] if row.label.endswith("cold"))
    goals: list[Goal] = [("board render, cold cache, p90 (worse layout)", cold_p90 * 1000, 5.0, "ms")]
    for label, timings in keys.items():
        cpu = max(statistics.median(timing.cpu) for timing in timings)
        goals.append((f"CPU from input to its frame, median, {label} (worse size)", cpu * 1000, CPU_GOALS[label], "ms"))
    print_goals(goals + paint_goals)
    print(f"\nTotal {time.perf_counter() - began:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the repetitions")
    parser.add_argument("--first-paint", action="store_true", help="only sections 3, 3b and 3c, with more runs")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of refresh_game() after a move")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
