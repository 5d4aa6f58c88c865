"""The move list on its own: rows, numbering, the highlighted ply, repaints, clicks and keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.color import ColorType
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Input

from cescacs_tui.core.game import Game
from cescacs_tui.tui.themes import register_themes
from cescacs_tui.tui.widgets.move_list import MARKER, MoveList
from tests.helpers.app import answer
from tests.helpers.games import FOOLS_MATE

BLACK_FIRST = "/27:1k/19:2r5/9:5R2/1:1K/ b -- - 0 40"
UNNUMBERED = "/27:1k/19:2r5/9:5R2/1:1K/ b -- - 0 ?"


def game_with(moves: list[str], pdtl: str | None = None) -> Game:
    game = Game.new(pdtl=pdtl)
    for text in moves:
        game.play(game.position.parse_move(text))
    return game


class MoveListApp(App[None]):
    """The move list (29 cells wide, as in the app's side panel at 80x24) beside a move box that has the focus."""

    CSS = """
    Screen { layout: horizontal; }
    MoveList { width: 29; height: 8; }
    Input { width: 1fr; }
    """

    def __init__(self, game: Game, theme: str = "cescacs-dark", height: int = 8) -> None:
        super().__init__()
        register_themes(self)
        self.theme = theme
        self.game = game
        self.height = height
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        yield MoveList()
        yield Input()

    def on_mount(self) -> None:
        self.query_one(MoveList).styles.height = self.height
        self.query_one(Input).focus()
        self.show()

    def show(self) -> None:
        self.query_one(MoveList).show_game(self.game)

    def on_move_list_ply_chosen(self, event: MoveList.PlyChosen) -> None:
        self.chosen.append(event.ply)
        self.game.go_to(event.ply)
        self.show()


def lines(moves: MoveList) -> list[str]:
    return [moves.render_line(y).text for y in range(moves.size.height)]


def rows(moves: MoveList) -> list[tuple[str, str, str]]:
    return [(moves.row_label(r), moves.cell_text(r, 0), moves.cell_text(r, 1)) for r in range(moves.row_count)]


def cell_offset(moves: MoveList, row: int, column: int) -> tuple[int, int]:
    """A point inside the cell (column -1: the move number), as offsets for ``pilot.click``."""
    x = 1 if column < 0 else moves.NUMBER_WIDTH + column * moves.column_width + 2
    return x, row + moves.HEADER_ROWS - moves.scroll_offset.y


async def test_one_numbered_row_per_move() -> None:
    app = MoveListApp(game_with(FOOLS_MATE))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert moves.row_count == 6
        assert rows(moves)[0] == ("1.", "H6-H12", "I23-I19")
        assert rows(moves)[5] == ("6.", "K4-K10", "GL5-H6#")
        assert "White" in lines(moves)[0] and "Black" in lines(moves)[0]


async def test_a_game_that_starts_with_black_has_an_ellipsis_for_white() -> None:
    app = MoveListApp(game_with(["RC19-C21", "RI9-I11"], BLACK_FIRST))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert rows(moves) == [("40.", "\u2026", "RC19-C21"), ("41.", "RI9-I11", "")]
        assert lines(moves)[1].startswith("40.  \u2026 ")
        assert moves.cell_of(1) == (0, 1) and moves.cell_of(2) == (1, 0)


async def test_unknown_move_numbers_show_as_question_marks() -> None:
    app = MoveListApp(game_with(["RC19-C21", "RI9-I11"], UNNUMBERED))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert [label for label, _, _ in rows(moves)] == ["?.", "?."]
        assert lines(moves)[2].startswith(" ?. ")


async def test_assessments_and_draw_offers_are_shown_and_record_text_is_not_markup() -> None:
    game = game_with(FOOLS_MATE[:4])
    game.nodes[0].assessment = "?!"
    game.nodes[1].draw_offer = True
    game.nodes[2].san = "[bold]JF6-C15"
    app = MoveListApp(game)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert rows(moves)[:2] == [("1.", "H6-H12 ?!", "I23-I19 (=)"), ("2.", "[bold]JF6-C15", "GH26-Z11")]
        assert "[bold]JF6-\u2026" in lines(moves)[2]  # cut to the column, as plain text


async def test_the_reviewed_ply_is_highlighted_and_marked() -> None:
    game = game_with(FOOLS_MATE[:5])
    app = MoveListApp(game)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        current = moves.get_component_rich_style("movelist--current")

        def marked() -> list[tuple[int, str]]:
            return [(y, line.strip()) for y, line in enumerate(lines(moves)) if MARKER in line]

        assert marked() == [(3, "3. \u25b8L5-L7")]  # live: the last move
        assert any(segment.style == current for segment in moves.render_line(3))
        game.go_to(2)
        app.show()
        assert moves.ply == 2
        assert [(y, line.split()) for y, line in marked()] == [(1, ["1.", "H6-H12", "\u25b8I23-I19"])]
        game.go_to(0)
        app.show()
        assert marked() == []
        assert all(segment.style != current for y in range(moves.size.height) for segment in moves.render_line(y))


class Counter:
    """Counts the lines a widget draws (``render_line``) and the rows it builds anew."""

    def __init__(self, moves: MoveList) -> None:
        self.lines: list[int] = []
        self.built: list[int] = []
        self._wrap(moves, "render_line", self.lines)
        self._wrap(moves, "_render_row", self.built)

    @staticmethod
    def _wrap(moves: MoveList, name: str, calls: list[int]) -> None:
        original: Callable[..., Strip] = getattr(moves, name)

        def counted(y: int, *args: Any) -> Strip:
            calls.append(y)
            return original(y, *args)

        setattr(moves, name, counted)

    def take(self) -> tuple[set[int], set[int]]:
        result = set(self.lines), set(self.built)
        self.lines.clear()
        self.built.clear()
        return result


async def test_only_the_rows_that_changed_are_drawn_again() -> None:
    game = game_with(FOOLS_MATE[:7])
    app = MoveListApp(game)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        counter = Counter(moves)

        async def after(change: Callable[[], object]) -> tuple[set[int], set[int]]:
            counter.take()
            change()
            app.show()
            await pilot.pause()
            return counter.take()

        # Black's reply fills in the last row: only that row is drawn (line 4, under the header).
        assert await after(lambda: game.play(game.position.parse_move(FOOLS_MATE[7]))) == ({4}, {3})
        # Reviewing an earlier ply: the row losing the highlight and the row gaining it.
        assert await after(lambda: game.go_to(2)) == ({1, 4}, {0, 3})
        assert await after(lambda: game.go_to(1)) == ({1}, {0})
        # Nothing changed: nothing is drawn.
        assert await after(lambda: None) == (set(), set())
        # A new row: only it and the row losing the highlight are built (the list's height changes, so every
        # line is drawn again, from the rows kept).
        game.go_to(game.ply)
        app.show()
        await pilot.pause()
        _, built = await after(lambda: game.play(game.position.parse_move(FOOLS_MATE[8])))
        assert built == {3, 4}


async def test_the_reviewed_row_is_kept_in_view() -> None:
    game = game_with(FOOLS_MATE)
    app = MoveListApp(game, height=5)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        visible = moves.size.height - moves.HEADER_ROWS
        assert moves.row_count > visible
        assert moves.scroll_offset.y == moves.row_count - visible  # the last move shows
        assert MARKER in lines(moves)[-1]
        game.go_to(1)
        app.show()
        assert moves.scroll_offset.y == 0
        assert MARKER in lines(moves)[1]
        assert "White" in lines(moves)[0]  # the header stays


async def test_clicking_a_move_chooses_its_ply() -> None:
    app = MoveListApp(game_with(FOOLS_MATE[:5]))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        await pilot.click(MoveList, offset=cell_offset(moves, 0, 1))  # 1. … I23-I19
        await pilot.click(MoveList, offset=cell_offset(moves, 1, -1))  # the number 2.: White's move
        await pilot.click(MoveList, offset=cell_offset(moves, 2, 0))  # 3. L5-L7
        await pilot.click(MoveList, offset=cell_offset(moves, 2, 1))  # empty
        await pilot.click(MoveList, offset=(8, 0))  # the header
        await pilot.click(MoveList, offset=cell_offset(moves, 5, 0))  # below the moves
        assert app.chosen == [2, 3, 5]
        assert app.game.cursor == 5


async def test_clicking_the_number_of_a_black_first_row_chooses_blacks_move() -> None:
    app = MoveListApp(game_with(["RC19-C21", "RI9-I11"], BLACK_FIRST))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        await pilot.click(MoveList, offset=cell_offset(moves, 0, -1))
        await pilot.click(MoveList, offset=cell_offset(moves, 1, 0))
        assert app.chosen == [1, 2]


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)


async def test_keys_step_through_the_game_only_when_the_list_has_the_focus() -> None:
    app = MoveListApp(game_with(FOOLS_MATE[:7]))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        await press(pilot, "up", "left", "home", "down")
        assert app.chosen == [] and moves.ply == 7
        moves.focus()
        await press(pilot, "up", "left", "left", "right", "home", "up", "down", "down", "end", "down", "right")
        assert app.chosen == [5, 4, 3, 4, 0, 2, 4, 7]
        assert app.game.cursor == moves.ply == 7


async def test_showing_the_game_posts_no_choice() -> None:
    game = game_with(FOOLS_MATE[:6])
    app = MoveListApp(game)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.query_one(MoveList).focus()
        for ply in (3, 0, 6):
            game.go_to(ply)
            app.show()
            await pilot.pause()
        game.takeback()
        app.show()
        await pilot.pause()
        assert app.chosen == []
        assert app.query_one(MoveList).row_count == 3


async def test_the_columns_fit_a_narrow_panel() -> None:
    game = game_with(FOOLS_MATE)
    game.nodes[11].assessment = "!?"
    game.nodes[11].draw_offer = True  # "GL5-H6# !? (=)" does not fit
    app = MoveListApp(game, height=5)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        width = moves.scrollable_content_region.width
        assert width == 28  # 29 cells less the scrollbar
        assert not moves.show_horizontal_scrollbar and moves.show_vertical_scrollbar
        assert moves.column_width == (width - moves.NUMBER_WIDTH) // 2
        assert all(moves.render_line(y).cell_length == width for y in range(moves.size.height))
        last = lines(moves)[-1]
        assert last.rstrip().endswith("\u2026") and "GL5-H6#" in last
        assert moves.cell_text(5, 1) == "GL5-H6# !? (=)"


async def test_a_resize_redraws_the_columns() -> None:
    app = MoveListApp(game_with(FOOLS_MATE[:2]))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        before = lines(moves)[1]
        moves.styles.width = 41
        await pilot.pause()
        after = lines(moves)[1]
        assert len(after) == 41 and after.index("I23-I19") > before.index("I23-I19")


async def test_the_highlight_follows_the_focus_and_the_theme() -> None:
    app = MoveListApp(game_with(FOOLS_MATE[:3]))
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)

        def current_style() -> Any:
            return next(s.style for s in moves.render_line(2) if MARKER in s.text)

        blurred = current_style()
        moves.focus()
        await pilot.pause()
        focused = current_style()
        assert focused != blurred
        app.theme = "cescacs-light"
        await pilot.pause()
        assert current_style() not in (blurred, focused)


async def test_the_ansi_theme_uses_only_ansi_colours_and_reverse_video() -> None:
    app = MoveListApp(game_with(FOOLS_MATE[:3]), theme="cescacs-ansi")
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        styles = [s.style for y in range(moves.size.height) for s in moves.render_line(y) if s.style is not None]
        colours = {c for style in styles for c in (style.color, style.bgcolor) if c is not None}
        assert all(c.type in (ColorType.DEFAULT, ColorType.STANDARD) for c in colours), colours
        marked = next(s.style for s in moves.render_line(2) if MARKER in s.text)
        assert marked is not None and marked.reverse and marked.bold


async def test_a_longer_game_shown_later_scrolls_to_its_current_move() -> None:
    """As when a game is opened or resumed: the list was empty, the new game is long."""
    app = MoveListApp(Game.new(), height=5)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        app.game = game_with(FOOLS_MATE)
        app.show()
        await pilot.pause()
        visible = moves.size.height - moves.HEADER_ROWS
        assert moves.scroll_offset.y == moves.row_count - visible > 0
        assert MARKER in lines(moves)[-1]
        moves.scroll_to(y=0, animate=False, immediate=True)
        moves.scroll_to_current()
        assert moves.scroll_offset.y == moves.row_count - visible


async def test_the_app_shows_the_current_move_after_resume_and_open(tmp_path) -> None:
    from cescacs_tui.core.pgn import write_pgn
    from cescacs_tui.data.autosave import SavedGame
    from cescacs_tui.tui.app import CescacsApp
    from scripts.screenshots import middlegame

    app = CescacsApp(Game.new(), resume=SavedGame(game=middlegame(), saved_at="2026-01-01T00:00:00+00:00"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, "y")  # resume
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert moves.row_count == 16 and moves.scroll_offset.y == moves.max_scroll_y > 0
        assert MARKER in lines(moves)[-1]
        screen = app.game_screen
        screen.apply(app.session.start_game(Game.new()))
        await pilot.pause()
        record = tmp_path / "game.ctl-pgn"
        record.write_text(write_pgn(middlegame()), encoding="utf-8")
        screen.apply(app.session.open_record(record))
        await pilot.pause()
        assert moves.scroll_offset.y == moves.max_scroll_y > 0 and MARKER in lines(moves)[-1]


async def test_a_growing_list_lays_the_screen_out_only_when_its_scroll_bar_comes(monkeypatch) -> None:
    """The list's size is the panel's: a new row changes only how far it scrolls, until the scroll bar is needed.

    Laying the whole screen out for every row it grew by cost a move some 2 ms at 120x40 (benchmarks/ui.py).
    """
    game = Game.new()
    app = MoveListApp(game, height=6)  # the header and 5 rows
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        layouts: list[int] = []
        laid_out = app.screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            layouts.append(game.ply)
            laid_out(*args, **kwargs)

        monkeypatch.setattr(app.screen, "_refresh_layout", counted)
        for text in FOOLS_MATE[:9]:  # rows 1 to 5: the list still fits
            game.play(game.position.parse_move(text))
            app.show()
            await pilot.pause()
        assert moves.row_count == 5 and not moves.show_vertical_scrollbar
        assert layouts == []
        for text in FOOLS_MATE[9:11]:  # row 6: the scroll bar comes
            game.play(game.position.parse_move(text))
            app.show()
            await pilot.pause()
        assert moves.show_vertical_scrollbar
        assert layouts
        assert moves.vertical_scrollbar.window_virtual_size == moves.row_count + moves.HEADER_ROWS
        assert MARKER in lines(moves)[-1]


async def test_a_takeback_at_the_end_of_a_long_list_leaves_no_blank_line() -> None:
    """The list, scrolled to its last move, loses a row: it scrolls back by one, its last row still at the bottom."""
    game = game_with(FOOLS_MATE[:11])  # 6 rows under the header, 4 shown
    app = MoveListApp(game, height=5)
    async with app.run_test() as pilot:
        await pilot.pause()
        moves = app.query_one(MoveList)
        assert moves.scroll_offset.y == moves.max_scroll_y == 2
        for _ in range(2):  # the 11th half-move, then the 10th: the 6th row goes
            game.takeback()
            app.show()
            await pilot.pause()
        assert moves.row_count == 5
        assert moves.scroll_offset.y == moves.max_scroll_y == 1
        assert lines(moves)[-1].startswith(" 5.")
