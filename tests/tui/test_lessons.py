"""The lessons' screen through the pilot: a lesson done by clicking, a castling chosen, the next lesson; snapshots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from cescacs_tui import i18n
from cescacs_tui.core import HEX_NAMES, parse_hex
from cescacs_tui.data.progress import MemoryProgress, ProgressFile, lesson_done, progress_path
from cescacs_tui.learn.lessons import LESSONS, find_lesson
from cescacs_tui.tui.dialogs.questions import ChoiceDialog
from cescacs_tui.tui.learn_app import LearnApp
from tests.helpers.app import answer
from tests.helpers.waiting import until


def said(app: LearnApp) -> str:
    return str(app.lesson_screen.query_one("#lesson-said", Static).render())


async def click(pilot: Pilot[None], app: LearnApp, name: str) -> None:
    board = app.lesson_screen.board
    region = board.hex_region(parse_hex(name))
    await pilot.click(board, offset=(region.x + region.width // 2, region.y))
    await pilot.pause()


def app_at(key: str, tmp_path: Path) -> LearnApp:
    return LearnApp(ProgressFile(progress_path(tmp_path)), find_lesson(key))


async def test_a_lesson_shows_the_pieces_moves_and_is_done_by_clicking(tmp_path: Path) -> None:
    app = app_at("king", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.lesson_screen
        lesson = find_lesson("king")
        assert lesson is not None
        view = screen.board.view
        assert view.selected == parse_hex("G1")
        assert set(view.targets) == {move.target for move in lesson.shown_moves()}
        assert view.targets[parse_hex("F6")] == "capture"
        await click(pilot, app, "F6")
        assert "Well done" in said(app)
    assert ProgressFile(progress_path(tmp_path)).progress.lessons == {"king"}


async def test_a_task_of_two_moves_and_another_piece_refused(tmp_path: Path) -> None:
    app = app_at("rook", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await click(pilot, app, "B4")  # the King: not the task's piece
        assert "only the piece on F14 moves" in said(app)
        await click(pilot, app, "F14")
        await click(pilot, app, "F20")
        assert "1 move left" in said(app)
        await click(pilot, app, "D18")
        assert "Well done" in said(app)


async def test_castling_is_chosen_among_the_moves_to_one_hex(tmp_path: Path) -> None:
    app = app_at("castling", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await click(pilot, app, "H6")
        await until(lambda: isinstance(app.screen, ChoiceDialog), "the castling chooser")
        labels = [str(option.prompt) for option in app.screen.query_one("#choices").options]  # type: ignore[attr-defined]
        number = next(i for i, label in enumerate(labels, 1) if "KRR-HIH" in label)
        await answer(pilot, str(number))
        await until(lambda: "Well done" in said(app), "the castling judged")


async def test_the_keys_go_to_the_next_lesson_and_start_again(tmp_path: Path) -> None:
    app = app_at("queen", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        assert app.lesson_screen.run.lesson.key == "wyvern"
        await pilot.press("p", "p")
        assert app.lesson_screen.run.lesson.key == "king"
        await pilot.press("h")
        assert "From the start of the task" in said(app)
        assert app.lesson_screen.board.view.selected == parse_hex("G1")
        await pilot.press("l")
        await until(lambda: isinstance(app.screen, ChoiceDialog), "the list of lessons")
        await answer(pilot, "a")
        await until(lambda: app.lesson_screen.run.lesson is LESSONS[0], "the first lesson")


async def test_the_app_starts_with_the_first_lesson_not_done(tmp_path: Path) -> None:
    store = ProgressFile(progress_path(tmp_path))
    lesson_done(store, "hexes")
    app = LearnApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.lesson_screen.run.lesson.key == "king"


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("language", ["en", "ca", "es"])
def test_a_lesson_looks_as_before(speak: object, language: str, size: tuple[int, int], snap_compare: Any) -> None:
    from scripts.screenshots import TRUE_COLOUR
    from scripts.screenshots import terminal_environment as colours

    i18n.set_language(language)
    with colours(TRUE_COLOUR):
        app = LearnApp(MemoryProgress(), find_lesson("pegasus"))
    assert snap_compare(app, terminal_size=size)


async def test_the_games_palette_opens_the_lessons_and_esc_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cescacs_tui.tui.app import CescacsApp
    from cescacs_tui.tui.screens.game import GameScreen
    from cescacs_tui.tui.screens.lessons import LessonScreen

    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path))
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Lessons"].callback()
        await until(lambda: isinstance(app.screen, LessonScreen), "the lessons")
        lesson = app.screen
        assert isinstance(lesson, LessonScreen)
        region = lesson.board.hex_region(parse_hex("F14"))  # hexes: the Rook's target is E13; F14 is empty
        await pilot.click(lesson.board, offset=(region.x + region.width // 2, region.y))
        await pilot.press("escape")  # nothing picked: leave
        await until(lambda: isinstance(app.screen, GameScreen), "the game again")
    assert not progress_path(tmp_path).exists()  # nothing done, nothing written


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("kind", ["name", "pick"])
async def test_a_drill_round_scores_and_keeps_the_best(tmp_path: Path, kind: str) -> None:
    import random

    from cescacs_tui.learn.drill import Drill, DrillKind
    from cescacs_tui.tui.screens.drill import DrillScreen

    clock = Clock()
    store = ProgressFile(progress_path(tmp_path))
    app = app_at("hexes", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = DrillScreen(store, Drill(DrillKind(kind), clock=clock, rng=random.Random(3)))
        await app.push_screen(screen)
        await pilot.pause()
        for _ in range(3):
            asked = screen.drill.question.answer
            if kind == "name":
                assert screen.board.view.preview == (asked,)
                await pilot.press(*HEX_NAMES[asked].lower(), "enter")
            else:
                assert HEX_NAMES[asked] in str(screen.query_one("#drill-question", Static).render())
                await click_on(pilot, screen.board, HEX_NAMES[asked])
            await pilot.pause()
            clock.now += 5
        assert screen.drill.score == 3
        clock.now += 60
        screen.tick()
        said = str(screen.query_one("#drill-said", Static).render())
        assert said.startswith("Time! 3 right, 0 missed. A new best.")
        await pilot.press("escape")
        await until(lambda: app.screen is app.lesson_screen, "the lessons again")
    assert ProgressFile(progress_path(tmp_path)).progress.best == {kind: 3}


async def click_on(pilot: Pilot[None], board: Any, name: str) -> None:
    region = board.hex_region(parse_hex(name))
    await pilot.click(board, offset=(region.x + region.width // 2, region.y))


async def test_the_lessons_open_the_drill_with_c(tmp_path: Path) -> None:
    from cescacs_tui.tui.screens.drill import DrillScreen

    app = app_at("hexes", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await until(lambda: isinstance(app.screen, ChoiceDialog), "the drill's kinds")
        await answer(pilot, "2")
        await until(lambda: isinstance(app.screen, DrillScreen), "the drill")


@pytest.mark.parametrize("standalone", [True, False], ids=["cescacs-learn", "over-the-game"])
async def test_with_the_vim_keys_h_and_l_move_the_cursor_and_the_capitals_do_the_lessons_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, standalone: bool
) -> None:
    """The lessons take the player's keymap as the game does (``cescacs learn`` and the palette's Lessons alike):
    with the vim keys on, h l n move the board's cursor, and H L N are the hint, the list and the next lesson."""
    from cescacs_tui.data.settings import Settings
    from cescacs_tui.tui.app import CescacsApp
    from cescacs_tui.tui.screens.lessons import LessonScreen

    monkeypatch.setenv("CESCACS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CESCACS_CONFIG_DIR", str(tmp_path))
    settings = Settings(vim_keys=True)
    app: LearnApp | CescacsApp
    if standalone:
        app = LearnApp(MemoryProgress(), find_lesson("hexes"), settings=settings)
    else:
        app = CescacsApp(settings=settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if not standalone:
            {command.title: command for command in app.get_system_commands(app.screen)}["Lessons"].callback()
        at_e7 = parse_hex("E7")  # the piece the first lesson shows: begin() puts the cursor on it
        await until(lambda: isinstance(app.screen, LessonScreen) and app.screen.board.cursor == at_e7, "the lesson")
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        await pilot.press("h")
        await until(lambda: screen.board.cursor == parse_hex("D8"), "the cursor one hex left")
        await pilot.press("l")
        await until(lambda: screen.board.cursor == parse_hex("F8"), "the cursor one hex right")
        assert screen.said == "" and isinstance(app.screen, LessonScreen)  # no hint, no list
        await pilot.press("H")
        await until(lambda: screen.said.startswith("From the start of the task"), "the hint")
        await pilot.press("L")
        await until(lambda: isinstance(app.screen, ChoiceDialog), "the list of lessons")
        await answer(pilot, "escape")  # once the list listens: a key sooner is not an answer (DeliberateDialog)
        await until(lambda: app.screen is screen, "the lesson again")
        await pilot.press("N")
        await until(lambda: screen.run.lesson.key == "king", "the next lesson")


async def test_without_the_vim_keys_h_is_the_hint(tmp_path: Path) -> None:
    app = app_at("hexes", tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await until(lambda: app.lesson_screen.said.startswith("From the start of the task"), "the hint")
        assert app.lesson_screen.board.cursor == parse_hex("E7")
