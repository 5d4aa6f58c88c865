"""The app driven as a person uses it: keys, clicks and typed moves through Textual's pilot."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import RenderableType
from textual import events
from textual._compositor import CompositorUpdate
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from cescacs_tui.core import HEX_NAMES, Position, parse_hex
from cescacs_tui.core.game import Game
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.questions import ChoiceDialog, ConfirmDialog, TextDialog
from cescacs_tui.tui.screens.game import GameScreen
from cescacs_tui.tui.widgets.annotations import AnnotationPanel
from cescacs_tui.tui.widgets.board import HexBoard
from cescacs_tui.tui.widgets.clock_panel import ClockPanel
from cescacs_tui.tui.widgets.engine_panels import ThinkingLine
from cescacs_tui.tui.widgets.move_entry import MoveEntry
from cescacs_tui.tui.widgets.panels import MaterialPanel, MoveList, StatusPanel
from tests.helpers.app import answer, click_hex, cursor_pick, message
from tests.helpers.games import FOOLS_MATE
from tests.helpers.waiting import until

ANSI_CODE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def fools_mate_final() -> Position:
    position = Position.initial()
    for text in FOOLS_MATE:
        position.push(position.parse_move(text))
    return position


def check_fools_mate_end(app: CescacsApp) -> None:
    game = app.game
    assert (game.result, game.termination) == ("0-3", "Black mates")
    assert game.position.to_pdtl() == fools_mate_final().to_pdtl()
    assert app.board.view.codes == fools_mate_final().board_codes
    moves = app.query_one(MoveList)
    assert moves.row_count == 6
    assert moves.cell_text(5, 1) == "GL5-H6#"
    assert "Black mates" in str(app.query_one("#status").render())


async def test_fools_mate_by_typed_moves() -> None:
    app = CescacsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash")
        for move in FOOLS_MATE:
            await pilot.press(*move.lower().replace("#", ""))  # typed in lower case, as people do
            await pilot.press("enter")
        await pilot.pause()
        check_fools_mate_end(app)


async def test_fools_mate_by_cursor_keys() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        for text in FOOLS_MATE:
            move = app.game.position.parse_move(text)
            await cursor_pick(pilot, app, HEX_NAMES[move.origin])
            await cursor_pick(pilot, app, HEX_NAMES[move.target])
        await pilot.pause()
        check_fools_mate_end(app)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_fools_mate_by_mouse_clicks(size: tuple[int, int]) -> None:
    app = CescacsApp()
    async with app.run_test(size=size) as pilot:
        for text in FOOLS_MATE:
            move = app.game.position.parse_move(text)
            await click_hex(pilot, app, HEX_NAMES[move.origin])
            await click_hex(pilot, app, HEX_NAMES[move.target])
        await pilot.pause()
        check_fools_mate_end(app)


async def test_the_first_paint_shows_the_board_and_it_keeps_its_place_when_the_rest_arrives() -> None:
    """The panels, the move box and the footer mount just after the first frame; the board must not jump then."""
    app = CescacsApp()
    at_first_frame: list[tuple[Region, int, int, str]] = []
    display = app._display

    def probe(screen: Screen[object], renderable: RenderableType | None) -> None:
        if not at_first_frame and isinstance(renderable, CompositorUpdate):
            text = ANSI_CODE.sub("", renderable.render_segments(app.console))
            at_first_frame.append((app.board.region, len(app.query(MoveEntry)), len(app.query(Footer)), text))
        display(screen, renderable)

    app._display = probe  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        region, entries, footers, text = at_first_frame[0]
        assert (entries, footers) == (0, 0)
        assert "P T A B C D E F G H I K L X Z" in " ".join(text.split())  # the board's column letters
        assert "Lazy" not in text  # the held lines are blank
        assert (len(app.query(MoveEntry)), len(app.query(Footer))) == (1, 1)
        assert app.board.region == region


async def test_the_first_resume_keeps_the_styles_of_the_mount_and_a_later_one_restyles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual restyles a screen each time it is shown; the first time, its widgets were styled as they mounted a
    moment before, so the game screen keeps those styles (some 3 ms of the first frame): nothing is left stale."""
    restyled: list[GameScreen] = []
    restyle = GameScreen.update_node_styles

    def counting(screen: GameScreen, animate: bool = True) -> None:
        restyled.append(screen)
        restyle(screen, animate)

    monkeypatch.setattr(GameScreen, "update_node_styles", counting)
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert restyled == []
        shown = app.export_screenshot()
        app.game_screen.post_message(events.ScreenResume())
        await until(lambda: restyled == [app.game_screen], "the later resume's restyle")
        await pilot.pause()
        assert app.export_screenshot() == shown


async def test_the_footer_offers_the_boards_keys_in_a_game_resumed_behind_the_resume_question() -> None:
    """The footer arrives after the first frame, when the resume question may already cover the board; its keys
    came from what the screen published before it arrived and stayed blank, with no focus change to come."""
    from cescacs_tui.data.autosave import SavedGame

    app = CescacsApp(Game.new(), resume=SavedGame(game=Game.new(), saved_at="2026-01-01T00:00:00+00:00"))
    async with app.run_test(size=(120, 40)) as pilot:
        await answer(pilot, "y")

        def footer_keys() -> str:
            return " ".join(str(key.render()) for footer in app.game_screen.query(Footer) for key in footer.children)

        await until(lambda: "Flip" in footer_keys(), "the board's keys in the footer")
        assert app.focused is app.board


async def test_a_move_and_a_cursor_key_redraw_the_panels_without_searching_the_screen_for_them() -> None:
    """A query walks the whole screen: the side panel and the move row are held as they arrive (their Ready messages),
    and the panels still updated."""
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        searched: list[object] = []
        query = screen.query

        def counting_query(selector: Any = None) -> Any:
            searched.append(selector)
            return query(selector)

        screen.query = counting_query  # type: ignore[method-assign]
        await pilot.press("slash", *"e7-e13", "enter")
        await pilot.press("escape", "up")
        await pilot.pause()
        assert app.query_one(MoveList).row_count == 1  # the move list was shown the move
        held = {ClockPanel, StatusPanel, MaterialPanel, MoveList, AnnotationPanel, ThinkingLine, MoveEntry}
        assert not held.intersection(searched)  # (the / and Esc keys still look for the box and the board)


async def test_a_move_typed_before_the_move_box_is_mounted_still_goes_to_it() -> None:
    class QuickTypist(CescacsApp):
        def on_mount(self) -> None:  # Textual runs it too: before anything mounted lazily exists
            super().on_mount()
            self.move_box_then = len(self.screen.query(MoveEntry))
            for key, character in [("slash", "/"), *((c, c) for c in "e7"), ("minus", "-"), *((c, c) for c in "e13")]:
                self.post_message(events.Key(key, character))  # as the terminal's keys arrive: all at once
            self.post_message(events.Key("enter", "\r"))

    app = QuickTypist()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.move_box_then == 0
        assert [node.san for node in app.game.nodes] == ["E7-E13"]
        assert app.focused is not None and app.focused.id == "move-input"


async def test_a_slash_while_the_move_row_is_mounted_but_not_yet_its_box_waits_for_the_box(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a loaded machine the row can be there a frame before its box: ``/`` then waited for the row only,
    looked for the box and the app died (NoMatches)."""
    from cescacs_tui.tui.widgets.move_entry import MoveInput

    compose = MoveEntry.compose

    def box_later(entry: MoveEntry) -> Iterator[Widget]:
        widgets = list(compose(entry))
        box = next(widget for widget in widgets if isinstance(widget, MoveInput))
        entry.call_after_refresh(lambda: entry.call_after_refresh(lambda: entry.mount(box, before=1)))
        return iter(widget for widget in widgets if widget is not box)

    monkeypatch.setattr(MoveEntry, "compose", box_later)
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: bool(app.screen.query(MoveEntry)), "the move row")
        assert not app.screen.query(MoveInput)
        await pilot.press("slash", *"e7-e13", "enter")
        await until(lambda: app.game.ply == 1, "the move typed into the box once it came")
        assert [node.san for node in app.game.nodes] == ["E7-E13"]


async def test_an_illegal_typed_move_is_explained_and_changes_nothing() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        before = app.game.position.to_pdtl()
        await pilot.press("slash", *"ee5-e11", "enter")
        assert "Elephant on E5 cannot go to E11" in message(app)
        assert app.game.position.to_pdtl() == before and app.game.ply == 0
        assert app.query_one("#move-input", Input).value == "ee5-e11"  # kept for correction
        await pilot.press(*"zz9", "enter")
        assert "not a CTL-AN move" in message(app) or "not a hex" in message(app)
        assert app.game.ply == 0


async def test_typed_move_is_previewed_on_the_board_before_it_is_played() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"ne3-d8")
        await pilot.pause()
        assert app.board.view.preview == (parse_hex("E3"), parse_hex("D8"))
        assert "Enter plays NE3-D8" in message(app)
        assert app.game.ply == 0


PROMOTION = "/27:1k/22:1P5/18:5p1/4:2J2/3:R3/2:GJG/1:DK/0:V/ w -- - 0 30"
"""RULES.md 7.1: the pawn on B22 may regain a Rook, a Knight or the black-hex Bishop on B24."""


async def test_promotion_dialog_offers_only_regainable_pieces() -> None:
    app = CescacsApp(Game.new(pdtl=PROMOTION))
    async with app.run_test(size=(120, 40)) as pilot:
        await click_hex(pilot, app, "B22")
        await click_hex(pilot, app, "B24")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        offered = [label for _, label, _ in dialog._options]
        assert [label.split()[0] for label in offered] == ["Rook", "Knight", "Bishop"]
        assert "black hexes" in offered[2]
        await answer(pilot, "n")  # the letter chooses
        await pilot.pause()
        assert app.game.nodes[-1].san == "B22-B24=N"
        assert getattr(app.game.position.piece_at(parse_hex("B24")), "symbol", None) == "N"


async def test_cancelling_the_promotion_dialog_plays_nothing() -> None:
    app = CescacsApp(Game.new(pdtl=PROMOTION))
    async with app.run_test(size=(120, 40)) as pilot:
        await click_hex(pilot, app, "B22")
        await click_hex(pilot, app, "B24")
        await pilot.press("escape")
        await pilot.pause()
        assert app.game.ply == 0


CASTLING = "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"
"""RULES.md 8.7: G1→H6 is a leap and also the target of six castlings."""


async def test_castling_chooser_names_and_previews_each_way() -> None:
    app = CescacsApp(Game.new(pdtl=CASTLING))
    async with app.run_test(size=(120, 40)) as pilot:
        await click_hex(pilot, app, "G1")
        await click_hex(pilot, app, "H6")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        labels = [label for _, label, _ in dialog._options]
        assert labels[0].startswith("King's leap G1→H6")
        tokens = [label.split(":")[0].rstrip("+^\u221e#") for label in labels[1:]]
        assert tokens == ["KRK-HIO", "KRK-HIOO", "KRK-HH", "KRK-HG", "KRD-HH", "KRD-HG", "KRR-HIH", "KRR-HGG"]
        await answer(pilot, "down")  # highlight KRK-HIO: the board previews King and Rook
        await pilot.pause()
        assert set(app.board.view.preview) == {parse_hex(n) for n in ("G1", "H6", "I3", "I5")}
        await pilot.press("enter")
        await pilot.pause()
        assert app.game.nodes[-1].san == "KRK-HIO"
        assert app.board.view.preview == ()


async def test_takeback_and_redo() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter", "escape")
        assert app.game.ply == 2
        await pilot.press("u")
        assert app.game.ply == 1 and "took back E21-E15" in message(app)
        assert app.board.view.codes == app.game.position.board_codes
        await pilot.press("U")
        assert [n.san for n in app.game.nodes] == ["E7-E13", "E21-E15"]


async def test_review_an_earlier_ply_and_return() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter", *"f8-f12", "enter", "escape")
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert app.game.cursor == 1
        assert app.board.view.codes == app.game.position_at(1).board_codes
        assert "Reviewing ply 1 of 3" in str(app.query_one("#status").render())
        await click_hex(pilot, app, "F20")
        assert "reviewing" in message(app) and app.game.ply == 3
        await pilot.press("right_curly_bracket")
        assert app.game.is_live and app.board.view.codes == app.game.position.board_codes


async def test_clicking_a_move_in_the_list_reviews_it() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter", *"f8-f12", "enter", "escape")
        # Header row, then move 1; Black's cell starts after the move number and White's cell.
        moves = app.query_one(MoveList)
        await pilot.click(MoveList, offset=(moves.NUMBER_WIDTH + moves.column_width + 3, 1))
        await pilot.pause()
        assert app.game.cursor == 2
        assert app.board.view.codes == app.game.position_at(2).board_codes


async def test_flip_puts_black_at_the_bottom() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(HexBoard)
        bottom_before = board.hex_region(parse_hex("F0")).y
        await pilot.press("f")
        assert board.flipped
        assert board.hex_region(parse_hex("F0")).y < board.hex_region(parse_hex("F28")).y < bottom_before + 1
        await pilot.press("f")
        assert not board.flipped


async def test_resign_asks_for_confirmation() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmDialog)
        await answer(pilot, "n")
        assert not app.game.is_over
        await pilot.press("r")
        await answer(pilot, "y")
        assert (app.game.result, app.game.termination) == ("0-3", "White resigns")


async def test_draw_offer_is_answered_by_the_opponent() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", "escape", "o")
        assert isinstance(app.screen, ConfirmDialog)
        await answer(pilot, "y")
        assert (app.game.result, app.game.termination) == ("1-1", "draw by agreement")


async def test_help_screen_lists_keys_and_notation() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, TextDialog)
        widget = app.screen.query_one("#text-body")
        body = "\n".join(strip.text for strip in widget.render_lines(widget.content_region.reset_offset))
        for expected in ("Takeback", "Flip", "KRK-HIO", "P21=J", "Up-left", "K D V R G N J E P"):
            assert expected in body
        await pilot.press("escape")
        assert not isinstance(app.screen, TextDialog)


FORCED = "/27:1k/24:P4/18:5p1/4:2J2/3:RNNR/2:GJG/1:DK/0:V/ w -- - 9 30"
"""RULES.md 7.4: the pawn waiting on B24 (a black hex) must become the black-hex Bishop this turn."""


async def test_the_forced_promotion_turn_is_explained_and_played() -> None:
    app = CescacsApp(Game.new(pdtl=FORCED))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()  # the side panel is mounted just after the first paint
        status = str(app.query_one("#status").render())
        assert "Promote the pawn on B24 this turn (J)" in status
        assert parse_hex("B24") in app.board.view.awaiting
        await click_hex(pilot, app, "G1")  # another piece: refused, with the reason
        assert "must be promoted this turn (B24)" in message(app)
        await click_hex(pilot, app, "B24")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert [label.split()[0] for _, label, _ in dialog._options] == ["Bishop"]
        await answer(pilot, "j")
        await pilot.pause()
        assert app.game.nodes[-1].san == "B24=J"
        assert app.game.position.halfmove_clock == 0


async def test_the_cursor_hex_and_its_piece_are_named() -> None:
    app = CescacsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up")  # from the King on G1 to the Knight on G3
        assert str(app.query_one("#cursor-info").render()) == "G3 White Knight"
        await pilot.press("up", "up", "up")
        assert str(app.query_one("#cursor-info").render()) == "G9"


async def test_a_long_message_keeps_its_useful_start_visible_at_80_columns() -> None:
    app = CescacsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c")  # the claim refusal explains both counts: longer than the line
        await pilot.pause()
        line = app.query_one("#message").render_line(0).text.rstrip()
        assert line.lstrip().startswith("no draw to claim: this position has occurred once")
        assert line.endswith("…") and len(line) <= 80
