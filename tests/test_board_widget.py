"""The HexBoard widget driven through Textual's pilot."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.style import Style
from textual.app import ComposeResult
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Footer

from cescacs_tui.core import Position, parse_hex
from cescacs_tui.core.geometry import HEX_NAMES, HEXES, ORTHOGONAL_NEIGHBOURS
from cescacs_tui.core.pieces import FAN_GLYPHS, KING
from cescacs_tui.tui.board import BoardView, HexBoard, demo_app
from cescacs_tui.tui.board_layout import START_HEX
from cescacs_tui.tui.themes import BoardHostApp

INITIAL = Position.initial().board_codes
SMALL, LARGE = (80, 24), (120, 40)


class BoardApp(BoardHostApp[None]):
    """A board and a footer; records every message the board posts."""

    def __init__(self, board: HexBoard | None = None) -> None:
        super().__init__()
        self.board = board or HexBoard(BoardView(INITIAL))
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield self.board
        yield Footer()

    def on_hex_board_hex_selected(self, message: HexBoard.HexSelected) -> None:
        self.messages.append(message)

    def on_hex_board_cancelled(self, message: HexBoard.Cancelled) -> None:
        self.messages.append(message)

    def on_hex_board_cursor_moved(self, message: HexBoard.CursorMoved) -> None:
        self.messages.append(message)

    def selected(self) -> list[int]:
        return [m.hex for m in self.messages if isinstance(m, HexBoard.HexSelected)]


def cell(board: HexBoard, name: str) -> str:
    """The rendered text of a hex's piece row."""
    region = board.hex_region(parse_hex(name))
    return board.render_line(region.y).text[region.x : region.right]


async def click_hex(pilot, board: HexBoard, h: int) -> None:
    region = board.hex_region(h)
    content = board.content_region.offset - board.region.offset
    await pilot.click(board, offset=(content.x + region.x + region.width - 1, content.y + region.bottom - 1))


@pytest.mark.parametrize(("size", "mode", "content"), [(SMALL, "compact", (49, 17)), (LARGE, "full", (79, 32))])
async def test_mode_follows_the_terminal_size(size, mode, content):
    app = BoardApp()
    async with app.run_test(size=size):
        assert app.board.mode == mode
        assert tuple(app.board.size) == content


async def test_resizing_the_terminal_switches_the_mode():
    app = BoardApp()
    async with app.run_test(size=LARGE) as pilot:
        assert app.board.mode == "full"
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert app.board.mode == "compact" and tuple(app.board.size) == (49, 17)
        assert cell(app.board, "G1") == " K "
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        assert app.board.mode == "full" and cell(app.board, "G1") == "  K  "


async def test_layout_can_be_forced():
    app = BoardApp(HexBoard(BoardView(INITIAL), layout="compact"))
    async with app.run_test(size=LARGE) as pilot:
        assert app.board.mode == "compact"
        app.board.layout_mode = "full"
        await pilot.pause()
        assert app.board.mode == "full" and app.board.size.height == 32
    with pytest.raises(ValueError):
        HexBoard(layout="huge")


async def test_arrow_keys_move_the_cursor():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        assert board.cursor == START_HEX
        path = [("up", "F16"), ("right", "G15"), ("right", "H16"), ("left", "G15"), ("down", "G13")]
        path += [("q", "F14"), ("e", "G15"), ("d", "H14"), ("a", "G13"), ("home", "G27"), ("end", "G1")]
        for key, name in path:
            await pilot.press(key)
            assert board.cursor == parse_hex(name), key
        moved = [m.hex for m in app.messages if isinstance(m, HexBoard.CursorMoved)]
        assert moved == [parse_hex(name) for _, name in path]


async def test_keys_act_in_screen_terms_when_flipped():
    app = BoardApp(HexBoard(BoardView(INITIAL), flipped=True))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("up", "right")
        assert app.board.cursor == parse_hex("E13")  # F12, then E13 beside it on the same row


async def test_enter_space_and_escape_post_messages():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter", "left", "space", "escape")
        await pilot.pause()
        assert app.selected() == [START_HEX, parse_hex("E13")]
        assert isinstance(app.messages[-1], HexBoard.Cancelled)
        assert app.messages[0].control is app.board


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_click_selects_the_hex_under_the_mouse(size):
    app = BoardApp()
    async with app.run_test(size=size) as pilot:
        board = app.board
        for name in ("F0", "P13", "Z21", "E27"):
            await click_hex(pilot, board, parse_hex(name))
        await pilot.pause()
        assert app.selected() == [parse_hex(n) for n in ("F0", "P13", "Z21", "E27")]
        assert board.cursor == parse_hex("E27")
        await pilot.click(board, offset=(0, 0))  # the corner: no hex, no label
        await pilot.click(board, offset=(0, board.hex_region(parse_hex("P13")).y))  # a line number
        await pilot.pause()
        assert len(app.selected()) == 4


async def test_click_maps_through_the_centring_offset():
    board = HexBoard(BoardView(INITIAL))
    board.styles.width = board.styles.height = "1fr"
    app = BoardApp(board)
    async with app.run_test(size=LARGE) as pilot:
        assert board.mode == "full"
        assert board.hex_region(parse_hex("P13")).x == (120 - 79) // 2 + 2
        await click_hex(pilot, board, parse_hex("K4"))
        await pilot.pause()
        assert app.selected() == [parse_hex("K4")]


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_highlights_show_in_the_text(size):
    app = BoardApp()
    async with app.run_test(size=size) as pilot:
        board = app.board
        e7, e9, e11, g21, g27 = (parse_hex(n) for n in ("E7", "E9", "E11", "G21", "G27"))
        board.show(BoardView(INITIAL, selected=e7, targets={e9: "move", e11: "move", g21: "capture"}, check=g27))
        await pilot.pause()
        texts = {name: cell(board, name).replace(" ", "") for name in ("E7", "E9", "E11", "G21", "G27", "F14", "F16")}
        assert texts == {"E7": ">P<", "E9": "·", "E11": "·", "G21": "×p", "G27": "!k", "F14": "[]", "F16": ""}
        board.show(BoardView(INITIAL, awaiting=frozenset({e7}), preview=(e9,)))
        await pilot.pause()
        assert cell(board, "E7").strip() == "P?" and cell(board, "E9").strip() == "{ }"
        assert cell(board, "E11").strip() == "" and cell(board, "G21").strip() == "p"


async def test_show_repaints_only_the_changed_rows():
    app = BoardApp()
    async with app.run_test(size=LARGE) as pilot:
        board = app.board
        await pilot.pause()
        refreshed: list[Region] = []
        original = board.refresh

        def spy(*regions: Region, **kwargs: bool) -> HexBoard:
            refreshed.extend(regions)
            return original(*regions, **kwargs)

        board.refresh = spy  # type: ignore[method-assign]
        board.show(BoardView(INITIAL, targets={parse_hex("E9"): "move"}))
        e9 = board.hex_region(parse_hex("E9"))
        assert refreshed == [Region(0, e9.y, board.size.width, 2)]
        refreshed.clear()
        board.show(BoardView(INITIAL, targets={parse_hex("E9"): "move"}))
        assert refreshed == []
        await pilot.press("up")
        f14, f16 = (board.hex_region(parse_hex(n)) for n in ("F14", "F16"))
        assert refreshed == [Region(0, f16.y, board.size.width, 4)]  # F16 above F14: one run of rows
        assert f14.y == f16.bottom


async def test_flip_moves_f0_from_bottom_to_top():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        f0 = parse_hex("F0")
        assert board.hex_region(f0).y == 15
        assert cell(board, "F0") == " V "
        board.flipped = True
        await pilot.pause()
        assert board.hex_region(f0).y == 1
        assert cell(board, "F0") == " V "
        assert board.render_line(0).text.split() == list("ZXLKIHGFEDCBATP")


async def test_piece_sets():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        assert cell(board, "G1") == " K " and cell(board, "G27") == " k "
        board.piece_set = "fan"
        await pilot.pause()
        assert cell(board, "G1") == f" {FAN_GLYPHS[KING][0]} " and cell(board, "G27") == f" {FAN_GLYPHS[KING][1]} "
        board.piece_set = "fan-safe"
        await pilot.pause()
        assert cell(board, "D2").strip() == "G"  # the White Pegasus, as a letter
        with pytest.raises(ValueError):
            board.piece_set = "emoji"
        with pytest.raises(ValueError):
            board.cursor = 169


async def test_sides_differ_by_more_than_colour():
    app = BoardApp()
    async with app.run_test(size=SMALL):
        board = app.board
        region = board.hex_region(parse_hex("G1"))
        white = next(s for s in board.render_line(region.y) if s.text == "K").style
        region = board.hex_region(parse_hex("G27"))
        black = next(s for s in board.render_line(region.y) if s.text == "k").style
        assert white.bold and not black.bold
        assert white.color != black.color


async def test_neighbouring_tiles_have_distinct_backgrounds():
    app = BoardApp()
    async with app.run_test(size=LARGE):
        board = app.board
        board.cursor = parse_hex("F0")  # the cursor tints its hex: keep it out of the way
        tiles = {h: tile_background(board, h) for h in HEXES if h != board.cursor}
        assert len(set(tiles.values())) == 3
        for h, background in tiles.items():
            for n in ORTHOGONAL_NEIGHBOURS[h]:
                assert tiles.get(n) != background, HEX_NAMES[h]


def tile_background(board: HexBoard, h: int) -> Color:
    """The background at a hex's lower row in full mode, where only the tile is drawn."""
    region = board.hex_region(h)
    x = 0
    for segment in board.render_line(region.y + 1):
        if x <= region.x < x + segment.cell_length:
            assert segment.style is not None and segment.style.bgcolor is not None
            return segment.style.bgcolor
        x += segment.cell_length
    raise AssertionError(HEX_NAMES[h])


async def test_theme_change_restyles_the_board():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        before = label_style(board)
        app.theme = "textual-light"
        await pilot.pause()
        assert label_style(board).color != before.color


def label_style(board: HexBoard) -> Style:
    """The style of the column letter P on the top row."""
    style = next(s.style for s in board.render_line(0) if s.text == "P")
    assert style is not None
    return style


async def test_demo_app_plays_a_move():
    app = demo_app()
    async with app.run_test(size=SMALL) as pilot:
        board = app.query_one(HexBoard)
        await click_hex(pilot, board, parse_hex("E7"))
        await pilot.pause()
        assert board.view.selected == parse_hex("E7")
        assert set(board.view.targets) == {parse_hex(n) for n in ("D8", "E9", "E11", "E13")}
        await click_hex(pilot, board, parse_hex("E13"))
        await pilot.pause()
        assert board.view.last_move == (parse_hex("E7"), parse_hex("E13"))
        assert cell(board, "E13") == "[P]" and board.view.selected is None  # the click left the cursor there
        await pilot.press("f")
        await pilot.pause()
        assert board.flipped and board.hex_region(parse_hex("F0")).y == 1
