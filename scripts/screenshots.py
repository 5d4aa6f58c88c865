"""Render the SVG screenshots in ``screenshots/`` with the app itself.

    python scripts/screenshots.py          # rewrite every screenshot
    python scripts/screenshots.py start    # only the scenes named

Each scene is a reproducible state of the app (a fixed game, a clock on a
frozen time source, a theme and a terminal size).  The snapshot tests in
``tests/tui/test_snapshots.py`` use the same scenes, so what the README shows is
what the tests guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import textual.constants
from textual.pilot import Pilot

from cescacs_tui.core import parse_hex
from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pgn import read_pgn
from cescacs_tui.data.settings import Settings
from cescacs_tui.learn.review import Evaluation, PlyReview, Review, judge
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.questions import DeliberateDialog
from cescacs_tui.tui.screens.review import ReviewJob, ReviewScreen
from scripts.lobby_stage import StagedLobbyApp, lobby_shown

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "screenshots"
FIRST_GAME = ROOT / "tests" / "data" / "games" / "site-file_2020-07-20.txt"
ANNOTATED_GAME = ROOT / "tests" / "data" / "games" / "site-en_fools-mate_Cescacs-X01-V-en.txt"
RECORDED_REVIEW = ROOT / "scripts" / "data" / "review-middlegame.json"
"""What the engine said of each half-move of :func:`middlegame` (``cescacs engine``, 0.3 s a position): the review
scenes replay it, so their pictures never depend on the engine's timing."""


class FrozenTime:
    """A time source that never moves: clocks show the same times on every run."""

    def __call__(self) -> float:
        return 5000.0


def middlegame() -> Game:
    """Cescacs-A0001-24 after 16. …, DB10-D10+∞: White is in check from afar, on a 15+10 clock."""
    record = read_pgn(FIRST_GAME.read_text(encoding="utf-8").partition("\n")[2])[0]
    clock = TimeControl.from_tag("900+10")
    game = Game.new(white="Sasal, Cesc", black="Ros, Xus", time_control=clock, time_source=FrozenTime())
    for node in record.nodes[:32]:
        game.play(node.move)
    assert game.clock is not None
    game.clock.set_remaining(612.0, 548.0)
    return game


def annotated() -> Game:
    """The site's annotated fool's mate (comments and variations), opened at its end."""
    game = read_pgn(ANNOTATED_GAME.read_text(encoding="utf-8").partition("\n")[2])[0]
    game.go_to(game.ply)
    return game


def recorded_review(game: Game) -> list[PlyReview]:
    """The recorded review of :func:`middlegame`'s half-moves, judged again by the review's own rules."""
    plies = []
    for row in json.loads(RECORDED_REVIEW.read_text(encoding="utf-8")):
        ply = row["ply"]
        position = game.position_at(ply - 1).copy()
        line = []
        for text in row["best_line"]:
            line.append(position.parse_move(text))
            position.push(line[-1])
        before, after = (Evaluation(row[k]["cp"], row[k]["mate"]) for k in ("before", "after"))
        plies.append(judge(game, ply, before, line, after))
    return plies


async def recorded_job(
    game: Game, on_progress: Callable[[int, int], None], on_ply: Callable[[PlyReview], None]
) -> Review:
    """A review's analysis that replays :data:`RECORDED_REVIEW` at once (a :data:`ReviewJob`)."""
    plies = recorded_review(game)
    for done, ply in enumerate(plies, 2):
        on_ply(ply)
        on_progress(done, len(plies) + 1)
    return Review(tuple(plies), 0.3)


def replayed() -> ReviewJob:
    return recorded_job


async def open_review(pilot: Pilot[None]) -> None:
    """``Ctrl+R`` on the middlegame: the recorded review, 5. …, JF20-D22 (an inaccuracy, ply 10) chosen on the graph."""
    await pilot.pause()
    await pilot.press("ctrl+r")
    for _ in range(200):
        screen = pilot.app.screen
        if isinstance(screen, ReviewScreen) and screen.review is not None:
            break
        await pilot.pause(0.02)
    await pilot.press("home", *["right"] * 8)
    await pilot.pause()


SCENE_PUZZLE = "P12376af6d"
"""A mate in 2 of the bundled set whose first move forks (DP15×EE21+^, KE23-D26, GI21-G25#)."""


async def open_puzzle(pilot: Pilot[None]) -> None:
    """The puzzle screen over the game, on a fixed puzzle, a new player's rating, and its first hint asked."""
    from cescacs_tui.learn.puzzles import bundled_puzzles
    from cescacs_tui.learn.trainer import Trainer
    from cescacs_tui.tui.screens.puzzles import PuzzleScreen

    await pilot.pause()
    puzzle = next(p for p in bundled_puzzles() if p.id == SCENE_PUZZLE)
    await pilot.app.push_screen(PuzzleScreen(Trainer({"bundled": [puzzle]})))
    await pilot.pause()
    await pilot.press("h")
    await pilot.pause()


async def review_move_9(pilot: Pilot[None]) -> None:
    """Step back to 5. I5-I9: its comment and the two variations the record gives instead."""
    await pilot.pause()
    await pilot.press(*"[[[")
    await pilot.pause()


async def select_queen(pilot: Pilot[None]) -> None:
    """Pick the White Queen on E1 with the mouse: its answers to the check light up."""
    await pilot.pause()  # the board is laid out (and the side panel mounted) before aiming at a hex
    app = pilot.app
    assert isinstance(app, CescacsApp)
    region = app.board.hex_region(parse_hex("E1"))
    await pilot.click("#board", offset=(region.x + region.width // 2, region.y))
    await pilot.pause()


async def castling_chooser(pilot: Pilot[None]) -> None:
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, CescacsApp)
    for name in ("G1", "H6"):
        region = app.board.hex_region(parse_hex(name))
        await pilot.click("#board", offset=(region.x + region.width // 2, region.y))
    await pilot.pause()
    for _ in range(100):  # the chooser takes keys once it has been seen (tui/dialogs.py)
        if not isinstance(app.screen, DeliberateDialog) or app.screen.listening:
            break
        await pilot.pause(0.05)
    await pilot.press("down")
    await pilot.pause()


async def show_help(pilot: Pilot[None]) -> None:
    await pilot.pause()  # the panels mount just after the first paint; a modal screen would hold them back
    await pilot.press("question_mark")
    await pilot.pause()


async def nothing(pilot: Pilot[None]) -> None:
    await pilot.pause()


TRUE_COLOUR: Mapping[str, str | None] = {"COLORTERM": "truecolor", "NO_COLOR": None}
"""The terminal of most scenes, whatever terminal runs this script: true colour, colours on."""
SIXTEEN_COLOURS: Mapping[str, str | None] = {"COLORTERM": None, "TERM": "xterm", "NO_COLOR": None}
"""A basic xterm: Textual detects 16 colours."""
NO_COLOUR: Mapping[str, str | None] = {"COLORTERM": "truecolor", "NO_COLOR": "1"}
"""A player who set NO_COLOR."""


@contextlib.contextmanager
def terminal_environment(variables: Mapping[str, str | None]) -> Iterator[None]:
    """Set (or, for ``None``, unset) environment variables while an app is created: it reads its colours then."""
    saved = {name: os.environ.get(name) for name in variables}
    system = textual.constants.COLOR_SYSTEM
    try:
        for name, value in variables.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        textual.constants.COLOR_SYSTEM = "auto"  # type: ignore[misc]  # $TEXTUAL_COLOR_SYSTEM, as read when Textual was imported
        yield
    finally:
        textual.constants.COLOR_SYSTEM = system  # type: ignore[misc]
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@dataclass(frozen=True)
class Scene:
    """A state of the app worth a picture, in a terminal with the given environment."""

    size: tuple[int, int]
    game: Callable[[], Game]
    then: Callable[[Pilot[None]], Awaitable[None]] = nothing
    theme: str = "cescacs-dark"
    caption: str = ""
    environment: Mapping[str, str | None] = field(default_factory=lambda: TRUE_COLOUR)
    lobby: str | None = None
    """The language of the server lobby's app, seen by ana on a staged server (scripts/lobby_stage.py), instead
    of a game."""

    def app(self) -> CescacsApp:
        with terminal_environment(self.environment):
            if self.lobby is not None:
                return StagedLobbyApp("ana", language=self.lobby, theme=self.theme)
            return CescacsApp(self.game(), settings=Settings(theme=self.theme), reviewer=replayed)


SCENES: dict[str, Scene] = {
    "start-80x24": Scene((80, 24), Game.new, caption="The start position in an 80x24 terminal (compact board)"),
    "start-120x40": Scene((120, 40), Game.new, caption="The start position at 120x40 (full hex board)"),
    "middlegame-80x24": Scene((80, 24), middlegame, select_queen, caption="Check from afar; the Queen's answers"),
    "middlegame-120x40": Scene((120, 40), middlegame, select_queen, caption="The same at 120x40, with clocks"),
    "middlegame-160x50": Scene(
        (160, 50), middlegame, select_queen, caption="A roomy terminal: 160x50, large hexes with their names"
    ),
    "theme-light": Scene((120, 40), middlegame, select_queen, "cescacs-light", "The light theme"),
    "theme-ansi": Scene((120, 40), middlegame, select_queen, "cescacs-ansi", "16 ANSI colours, for basic terminals"),
    "colours-16": Scene(
        (120, 40),
        middlegame,
        select_queen,
        caption="A 16-colour terminal (TERM=xterm): the default theme with the 16-colour board",
        environment=SIXTEEN_COLOURS,
    ),
    "no-color": Scene(
        (120, 40),
        middlegame,
        select_queen,
        caption="NO_COLOR: the tiles marked by their fill, the sides by case and weight",
        environment=NO_COLOUR,
    ),
    "castling-chooser": Scene(
        (120, 40),
        lambda: Game.new(pdtl="/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"),
        castling_chooser,
        caption="Leap or castling? The chooser names each way and previews it",
    ),
    "help": Scene((120, 40), Game.new, show_help, caption="Help: every key and the CTL-AN syntax"),
    "review-80x24": Scene((80, 24), middlegame, open_review, caption="Review: the eval graph, the inaccuracies marked"),
    "review-120x40": Scene(
        (120, 40),
        middlegame,
        open_review,
        caption="The engine's review: each move judged, each side's accuracy",
    ),
    "puzzle-80x24": Scene((80, 24), Game.new, open_puzzle, caption="A puzzle: mate in 2, the first hint shown"),
    "puzzle-120x40": Scene((120, 40), Game.new, open_puzzle, caption="Puzzles near your rating, by theme, with hints"),
    "annotated-record": Scene(
        (120, 40), annotated, review_move_9, caption="Reviewing an annotated record: its comments and variations"
    ),
    "lobby-120x40": Scene(
        (120, 40), Game.new, lobby_shown, lobby="en", caption="The server's lobby (ssh -t host): games, offers, ratings"
    ),
    "lobby-80x24": Scene((80, 24), Game.new, lobby_shown, lobby="en", caption="The server's lobby at 80x24"),
}


async def render(scene: Scene) -> str:
    app = scene.app()
    async with app.run_test(size=scene.size) as pilot:
        await scene.then(pilot)
        return app.export_screenshot()


def main(names: list[str]) -> None:
    OUTPUT.mkdir(exist_ok=True)
    for name in names or list(SCENES):
        svg = asyncio.run(render(SCENES[name]))
        (OUTPUT / f"{name}.svg").write_text(svg, encoding="utf-8")
        print(f"screenshots/{name}.svg  {SCENES[name].caption}")


if __name__ == "__main__":
    main(sys.argv[1:])
