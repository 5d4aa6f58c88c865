"""The review screen (tui/screens/review.py): the analysis in a worker while keys are answered, the eval graph
clicked and stepped, the bad moves marked, the review saved into the record, from the table and the archive;
a visitor without engines is refused by the policy."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import ProgressBar, Select

from cescacs_tui.core.game import Game
from cescacs_tui.data.archive import archive_game
from cescacs_tui.data.records import open_pgn_file
from cescacs_tui.data.settings import Settings
from cescacs_tui.learn.annotate import read_annotations
from cescacs_tui.learn.scoring import Class
from cescacs_tui.session.policy import LaunchKind, Policy
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.archive import ArchiveDialog
from cescacs_tui.tui.screens.review import ReviewScreen
from cescacs_tui.tui.widgets.eval_graph import EvalGraph
from tests.helpers.app import answer, message
from tests.helpers.review import BLUNDER_PLY, PLANTED, PacedReview, instant_review, planted
from tests.helpers.waiting import until


def details(screen: ReviewScreen) -> str:
    return str(screen.query_one("#review-ply").render())


async def review_screen(app: CescacsApp) -> ReviewScreen:
    await until(lambda: isinstance(app.screen, ReviewScreen), "the review screen")
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


async def test_keys_are_answered_while_the_analysis_runs_and_esc_stops_it() -> None:
    paced = PacedReview()
    app = CescacsApp(planted(), reviewer=lambda: paced)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await until(lambda: paced.started, "the analysis to start")
        paced.step(2)
        await until(lambda: len(screen.plies) == 2, "two half-moves judged")
        assert screen.running and screen.query_one(ProgressBar).progress == 3
        await pilot.press("home")
        assert screen.graph.chosen == 1 and "G7-G13" in details(screen)
        await pilot.press("right")
        assert screen.graph.chosen == 2 and "H22-H16" in details(screen)
        await pilot.press("right")  # ply 3: not judged yet, said so
        assert "not analysed yet" in details(screen)
        assert screen.running and not paced.cancelled  # every key answered, the analysis still waiting
        await pilot.press("escape")
        await until(lambda: paced.cancelled, "the analysis to be cancelled")
        assert not screen.running and "review stopped" in str(screen.query_one("#review-message").render())
        assert len(screen.plies) == 2  # what was judged stays
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen, "the game screen again")
        assert app.session.shown.cursor == 3  # the half-move chosen in the review, on the board


async def test_the_blunder_is_marked_and_explained_and_the_graph_is_clicked() -> None:
    app = CescacsApp(planted(), reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await until(lambda: screen.review is not None, "the review")
        assert [node.assessment for node in screen.game.nodes] == ["", "", "", "", "??", ""]
        graph = screen.query_one(EvalGraph)
        column = next(c for c in range(graph.content_size.width) if BLUNDER_PLY in graph.column_plies(c))
        await pilot.click(EvalGraph, offset=(column, 1))
        assert graph.chosen == BLUNDER_PLY
        said = details(screen)
        assert "DE1-I13 ??" in said and "blunder" in said and "best: H6-H10 (+1.42)" in said and "-13.70" in said
        assert "Accuracy: White" in str(screen.query_one("#review-accuracy").render())
        assert app.game.nodes[BLUNDER_PLY - 1].assessment == ""  # the table's record is untouched until saved


async def test_s_saves_the_review_into_the_record_of_the_game_on_the_table() -> None:
    app = CescacsApp(planted(), reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await pilot.press("s")  # too soon or not: said either way, nothing half-written
        await until(lambda: screen.review is not None, "the review")
        await pilot.press("s")
        assert "the review is in the record of the game" in str(screen.query_one("#review-message").render())
        blunder = read_annotations(app.game)[BLUNDER_PLY - 1]
        assert blunder.assessment == "??" and blunder.better == ("H6-H10",)
        assert "[%eval -13.70]" in app.session.record_text()


async def test_an_archived_game_is_reviewed_from_the_archive_and_saved_in_its_file() -> None:
    path = archive_game(planted())
    app = CescacsApp(reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await until(lambda: isinstance(app.screen, ArchiveDialog), "the archive")
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await until(lambda: screen.review is not None, "the review")
        assert app.game.ply == 0  # reviewed, not put on the table
        await pilot.press("s")
        assert Path(path.name).name in str(screen.query_one("#review-message").render())
    annotations = read_annotations(open_pgn_file(path).game)
    assert annotations[BLUNDER_PLY - 1].assessment == "??" and annotations[BLUNDER_PLY - 1].better == ("H6-H10",)


async def test_a_visitor_without_engines_is_refused_the_review_and_an_empty_game_too() -> None:
    app = CescacsApp(planted(), policy=Policy(LaunchKind.WEB), reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        assert "runs no engine" in message(app) and app.screen is app.game_screen
    app = CescacsApp(reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        assert "no move to review yet" in message(app)


async def test_keys_are_answered_while_the_real_engine_analyses_and_esc_stops_it() -> None:
    app = CescacsApp(planted(), settings=Settings(review_seconds=2.0))  # 14 s of searching: Esc comes long before
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await pilot.press("home", "right", "right")
        assert screen.graph.chosen == 3 and "JF4-K16" in details(screen)
        assert screen.running  # the keys were answered while the engine searched
        await pilot.press("escape")
        assert not screen.running
        await pilot.press("s")
        assert "stopped before its end" in str(screen.query_one("#review-message").render())


async def test_the_engine_reviews_the_game_on_the_table() -> None:
    app = CescacsApp(planted(), settings=Settings(review_seconds=0.05))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await until(lambda: screen.review is not None or screen.problem is not None, "the engine's review")
        assert screen.problem is None
        assert screen.plies[BLUNDER_PLY].kind is Class.BLUNDER


async def test_the_players_blunders_become_puzzles_of_their_deck() -> None:
    from cescacs_tui.data.progress import ProgressFile, progress_path
    from cescacs_tui.learn.deck import deck_puzzles
    from cescacs_tui.tui.screens.puzzles import PuzzleScreen

    app = CescacsApp(planted(), reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        await until(lambda: screen.review is not None, "the review")
        assert "1 blunder is now a puzzle of your deck: My blunders, in Puzzles (Ctrl+P)" in str(
            screen.query_one("#review-message").render()
        )
        [made] = deck_puzzles(ProgressFile(progress_path()).progress)
        assert made.moves == ("H6-H10",)
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen, "the game")
        {command.title: command for command in app.get_system_commands(app.screen)}["Puzzles"].callback()
        await until(
            lambda: isinstance(app.screen, PuzzleScreen) and bool(app.screen.query("#puzzle-deck #label")),
            "the puzzles, their deck list drawn (a loaded machine mounts the list a frame before its label)",
        )
        puzzles = app.screen
        assert isinstance(puzzles, PuzzleScreen)
        puzzles.query_one("#puzzle-deck", Select).value = "mine"  # the deck list, as a click on it would
        await until(lambda: puzzles.trainer.deck == "mine", "the player's deck")
        attempt = puzzles.trainer.attempt
        assert attempt is not None and attempt.puzzle.id == made.id
    again = CescacsApp(planted(), reviewer=lambda: instant_review)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(again)
        await until(lambda: screen.review is not None, "the review")
        assert "puzzle" not in str(screen.query_one("#review-message").render())  # already in the deck
    assert len(ProgressFile(progress_path()).progress.deck) == 1


async def test_a_long_game_shares_the_graphs_columns_and_a_click_chooses_within_them() -> None:
    from textual.app import App, ComposeResult

    from cescacs_tui.learn.scoring import Class as Kind

    class GraphApp(App[None]):
        def compose(self) -> ComposeResult:
            yield EvalGraph(200)

    app = GraphApp()
    async with app.run_test(size=(50, 10)) as pilot:
        graph = app.query_one(EvalGraph)
        assert graph.content_size.width == 50
        assert list(graph.column_plies(0)) == [1, 2, 3, 4] and list(graph.column_plies(49)) == [197, 198, 199, 200]
        graph.set_point(6, 0.1, Kind.BLUNDER)
        graph.set_point(5, 0.9, None)
        strip = graph.render_line(graph.content_size.height - 1)
        # column 1 (plies 5-8) draws its worst half-move, the blunder at 0.1: half the bottom row of 5 (not 0.9's █)
        assert strip.text[1] == "▄" and strip.text[0] == " "  # column 0: not analysed (its dot is mid-height)
        await pilot.click(EvalGraph, offset=(1, 0))
        assert graph.chosen == 8  # the column's last half-move
        await pilot.press("end", "left")
        assert graph.chosen == 199


async def test_the_players_names_from_a_record_are_shown_safely() -> None:
    game = planted()
    game.tags["White"] = "Eve\x1b[31m\u202e"
    app = CescacsApp(game, reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        screen = await review_screen(app)
        title = str(screen.query_one("#review-title").render())
        assert "\x1b" not in title and "\u202e" not in title and "Eve" in title


async def review_on_the_table(app: CescacsApp, pilot: Pilot[None], *, new_puzzle: bool = True) -> ReviewScreen:
    """Ctrl+R on the game on the table, the review done (its blunder a ``new_puzzle`` of the deck, or one already
    there), the blunder chosen, ``s`` pressed, Esc: the screen."""
    await pilot.press("ctrl+r")
    screen = await review_screen(app)
    await until(lambda: screen.review is not None, "the review")
    assert [node.assessment for node in screen.game.nodes] == ["", "", "", "", "??", ""]
    added = "1 blunder is now a puzzle of your deck" in str(screen.query_one("#review-message").render())
    assert added is new_puzzle
    await pilot.press("home", *["right"] * (BLUNDER_PLY - 1))
    assert screen.graph.chosen == BLUNDER_PLY and "best: H6-H10" in details(screen)
    await pilot.press("s")
    assert "the review is in the record of the game" in str(screen.query_one("#review-message").render())
    await pilot.press("escape")
    await until(lambda: app.screen is app.game_screen and app.session.shown.cursor == BLUNDER_PLY, "the blunder shown")
    return screen


async def the_blunder_in_the_puzzles(app: CescacsApp, pilot: Pilot[None]) -> None:
    """The puzzles from the palette: the deck of blunders holds the one just reviewed, and it is solved."""
    from cescacs_tui.tui.screens.puzzles import PuzzleScreen

    await pilot.press("escape")  # from the move list back to the board, as a player would
    {command.title: command for command in app.get_system_commands(app.screen)}["Puzzles"].callback()
    await until(
        lambda: isinstance(app.screen, PuzzleScreen) and bool(app.screen.query("#puzzle-deck #label")), "the puzzles"
    )
    puzzles = app.screen
    assert isinstance(puzzles, PuzzleScreen)
    puzzles.query_one("#puzzle-deck", Select).value = "mine"
    await until(lambda: puzzles.trainer.deck == "mine" and puzzles.trainer.attempt is not None, "the player's deck")
    attempt = puzzles.trainer.attempt
    assert attempt is not None and attempt.puzzle.moves == ("H6-H10",)
    await pilot.press("slash", *"H6-H10", "enter")
    await until(lambda: attempt.solved, "the blunder's puzzle solved")
    await pilot.press("escape")
    await until(lambda: puzzles.board.has_focus, "the board")
    await pilot.press("escape")
    await until(lambda: app.screen is app.game_screen, "the game again")


def started(game: Game | None = None) -> CescacsApp:
    """The app as ``cescacs`` starts it: on the autosave it owns, offering the unfinished game found there."""
    from cescacs_tui.data.autosave_store import AutosaveStore
    from cescacs_tui.data.slots import open_autosave

    start = open_autosave()
    store = AutosaveStore.at_start(start)
    return CescacsApp(game, store=store, resume=start.saved, reviewer=lambda: instant_review)


async def test_the_review_and_the_puzzles_of_a_game_resumed_after_a_restart() -> None:
    """The app restarted on its autosave: the game resumed is the one reviewed, saved into, and its blunder a puzzle."""
    first = started(planted())
    async with first.run_test(size=(120, 40)) as pilot:
        await pilot.pause()  # quitting keeps the game in the autosave
    app = started()
    async with app.run_test(size=(120, 40)) as pilot:
        await answer(pilot, "y")  # resume
        await until(lambda: app.game.ply == len(PLANTED), "the game resumed")
        await review_on_the_table(app, pilot)
        assert read_annotations(app.game)[BLUNDER_PLY - 1].assessment == "??"
        await the_blunder_in_the_puzzles(app, pilot)
        assert app.game.ply == len(PLANTED) and app.session.shown.cursor == BLUNDER_PLY
    again = started()
    async with again.run_test(size=(120, 40)) as pilot:
        await answer(pilot, "y")
        await until(lambda: again.game.ply == len(PLANTED), "the game resumed again")
        assert read_annotations(again.game)[BLUNDER_PLY - 1].better == ("H6-H10",)  # the review was kept with it


async def test_the_review_and_the_puzzles_after_a_takeback_and_a_redo() -> None:
    app = CescacsApp(planted(), reviewer=lambda: instant_review)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await until(lambda: app.game.ply == len(PLANTED) - 1, "a move taken back")
        await pilot.press("ctrl+r")  # the game as it is now: five half-moves
        screen = await review_screen(app)
        await until(lambda: screen.review is not None, "the review of five half-moves")
        assert len(screen.game.nodes) == len(PLANTED) - 1 and screen.game.nodes[BLUNDER_PLY - 1].assessment == "??"
        assert "1 blunder is now a puzzle of your deck" in str(screen.query_one("#review-message").render())
        await pilot.press("s")  # the review of the five into the record: the move taken back can still be redone
        assert "the review is in the record of the game" in str(screen.query_one("#review-message").render())
        await pilot.press("escape")
        await until(lambda: app.screen is app.game_screen, "the game")
        await pilot.press("U")
        await until(lambda: app.game.ply == len(PLANTED), "the move redone")
        await review_on_the_table(app, pilot, new_puzzle=False)  # the same blunder: in the deck already
        blunder = read_annotations(app.game)[BLUNDER_PLY - 1]
        assert blunder.assessment == "??" and blunder.better == ("H6-H10",)
        await the_blunder_in_the_puzzles(app, pilot)
