"""The HexBoard widget driven through Textual's pilot."""

from __future__ import annotations

import pytest
from rich.color import Color
from rich.style import Style
from textual.app import ComposeResult
from textual.geometry import Region
from textual.message import Message
from textual.widgets import Footer, Input

from cescacs_tui.core import Position, parse_hex
from cescacs_tui.core.geometry import HEX_COLOUR, HEX_NAMES, HEXES, LINE, ORTHOGONAL_NEIGHBOURS
from cescacs_tui.core.pieces import FAN_GLYPHS, KING
from cescacs_tui.tui.board_layout import START_HEX, TILE_FILLS
from cescacs_tui.tui.keymap import vim_keymap
from cescacs_tui.tui.themes import BoardHostApp
from cescacs_tui.tui.widgets.board import BoardView, HexBoard

INITIAL = Position.initial().board_codes
SMALL, LARGE, HUGE = (80, 24), (120, 40), (160, 50)


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

    def on_hex_board_layout_changed(self, message: HexBoard.LayoutChanged) -> None:
        self.messages.append(message)

    def selected(self) -> list[int]:
        return [m.hex for m in self.messages if isinstance(m, HexBoard.HexSelected)]


def cell(board: HexBoard, name: str) -> str:
    """The rendered text of a hex's piece row."""
    region = board.hex_region(parse_hex(name))
    return board.render_line(region.y + board.board_layout.piece_row).text[region.x : region.right]


async def click_hex(pilot, board: HexBoard, h: int) -> None:
    region = board.hex_region(h)
    content = board.content_region.offset - board.region.offset
    await pilot.click(board, offset=(content.x + region.x + region.width - 1, content.y + region.bottom - 1))


@pytest.mark.parametrize(
    ("size", "mode", "content"), [(SMALL, "compact", (49, 17)), (LARGE, "full", (79, 32)), (HUGE, "large", (109, 47))]
)
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
        # The targets carry their number keys in reading order: G21 (line 21) first, then E11, E9.
        assert texts == {"E7": ">P<", "E9": "3", "E11": "2", "G21": "×p1", "G27": "!k", "F14": "[]", "F16": ""}
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
            board.piece_set = "emoji"  # type: ignore[assignment]  # refused at run time
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
        assert white is not None and black is not None
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


# --- Playing among the targets ------------------------------------------------------------------------

PAWN_VIEW = BoardView(
    INITIAL, selected=parse_hex("E7"), targets={parse_hex(n): "move" for n in ("D8", "E9", "E11", "E13")}
)


async def test_tab_and_shift_tab_cycle_the_targets_and_enter_plays():
    app = BoardApp(HexBoard(PAWN_VIEW))
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        board.cursor = parse_hex("E7")
        assert [HEX_NAMES[h] for h in board.target_order] == ["E13", "E11", "E9", "D8"]
        seen = []
        for key in ("tab", "tab", "shift+tab", "shift+tab", "shift+tab"):
            await pilot.press(key)
            seen.append(HEX_NAMES[board.cursor])
        assert seen == ["E13", "E11", "E13", "D8", "E9"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.selected() == [parse_hex("E9")]
        assert board.has_focus


class BoardAndInputApp(BoardApp):
    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Input()


async def test_tab_and_digits_are_the_apps_when_nothing_is_selected():
    app = BoardAndInputApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        await pilot.press("3", "tab")
        await pilot.pause()
        assert board.cursor == START_HEX and app.selected() == []
        assert not board.has_focus  # Tab moved the focus on, as everywhere in Textual


async def test_a_number_key_plays_its_target():
    app = BoardApp(HexBoard(PAWN_VIEW))
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        assert cell(board, "E11").strip() == "2" and cell(board, "D8").strip() == "4"
        await pilot.press("2")
        await pilot.pause()
        assert app.selected() == [parse_hex("E11")] and board.cursor == parse_hex("E11")
        await pilot.press("9")  # no ninth target: nothing happens
        await pilot.pause()
        assert app.selected() == [parse_hex("E11")]


async def test_direction_keys_jump_among_the_targets_while_a_piece_is_selected():
    app = BoardApp(HexBoard(PAWN_VIEW))
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        board.cursor = parse_hex("E7")
        path = []
        for key in ("up", "up", "up", "up", "down", "down", "down", "left"):
            await pilot.press(key)
            path.append(HEX_NAMES[board.cursor])
        # Up walks E9, E11, E13; beyond the last target it steps freely (E15); down comes back; left: D8.
        assert path == ["E9", "E11", "E13", "E15", "E13", "E11", "E9", "D8"]
        board.show(BoardView(INITIAL))  # nothing selected: the arrows step hex by hex again
        board.cursor = parse_hex("E7")
        await pilot.press("up")
        assert HEX_NAMES[board.cursor] == "E9"
        await pilot.press("up")
        assert HEX_NAMES[board.cursor] == "E11"


async def test_the_vim_keys_are_a_keymap_over_the_boards_binding_ids():
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        board = app.board
        await pilot.press("k", "l")
        assert board.cursor == START_HEX
        app.set_keymap(vim_keymap())
        path = [("k", "F16"), ("l", "G15"), ("h", "F16"), ("j", "F14"), ("y", "E15"), ("n", "F14")]
        path += [("u", "G15"), ("b", "F14"), ("up", "F16"), ("q", "E17")]  # the usual keys still move
        for key, name in path:
            await pilot.press(key)
            assert HEX_NAMES[board.cursor] == name, key
        app.set_keymap({"board.up": "w"})  # any binding with an id takes the keys a keymap gives it
        await pilot.press("k", "up")
        assert HEX_NAMES[board.cursor] == "E17"
        await pilot.press("w")
        assert HEX_NAMES[board.cursor] == "E19"


async def test_each_side_keeps_its_own_cursor():
    from cescacs_tui.core import Colour

    app = BoardApp()
    async with app.run_test(size=SMALL):
        board = app.board
        g1, g27 = parse_hex("G1"), parse_hex("G27")
        board.switch_cursor(Colour.WHITE, default=g1)
        assert board.cursor == g1
        board.cursor = parse_hex("E7")  # White moves the cursor and plays
        board.switch_cursor(Colour.BLACK, default=g27)
        assert board.cursor == g27  # Black's first turn: its default
        board.cursor = parse_hex("E21")
        board.switch_cursor(Colour.WHITE, default=g1)
        assert board.cursor == parse_hex("E7")  # where White left it
        board.switch_cursor(Colour.BLACK, default=g27)
        assert board.cursor == parse_hex("E21")
        board.forget_cursors()
        board.switch_cursor(Colour.WHITE, default=g1)
        assert board.cursor == g1


# --- Layouts: the room used, a forced layout that does not fit -------------------------------------------


async def test_a_forced_layout_that_does_not_fit_falls_back_and_says_so():
    app = BoardApp(HexBoard(BoardView(INITIAL), layout="large"))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        board = app.board
        assert board.mode == "full" and tuple(board.size) == (79, 32)
        assert board.layout_note == "the large board needs 109x47 cells and has 120x39: showing the full board"
        changes = [m for m in app.messages if isinstance(m, HexBoard.LayoutChanged)]
        assert changes and changes[-1].mode == "full" and changes[-1].note == board.layout_note
        await pilot.resize_terminal(*HUGE)
        await pilot.pause()
        assert board.mode == "large" and board.layout_note is None
        changes = [m for m in app.messages if isinstance(m, HexBoard.LayoutChanged)]
        assert (changes[-1].mode, changes[-1].note) == ("large", None)


async def test_the_mode_is_right_as_soon_as_the_choice_changes():
    """The app's message names the layout right after the choice, before the next layout pass."""
    app = BoardApp(HexBoard(BoardView(INITIAL), layout="compact"))
    async with app.run_test(size=LARGE) as pilot:
        board = app.board
        await pilot.pause()
        assert board.mode == "compact"
        board.layout_mode = "auto"
        assert board.mode == "full"  # not the stale "compact" of the current size
        await pilot.pause()
        assert board.mode == "full" and board.size.height == 32


async def test_the_large_board_names_every_hex():
    app = BoardApp()
    async with app.run_test(size=HUGE):
        board = app.board
        assert board.mode == "large"
        for name in ("F0", "F14", "P13", "Z21", "E27"):
            region = board.hex_region(parse_hex(name))
            assert board.render_line(region.y + 2).text[region.x : region.right].strip() == name
        assert cell(board, "G1").strip() == "K"
        g1 = board.hex_region(parse_hex("G1"))
        assert board.render_line(g1.y + 1).text[g1.x : g1.right] == "   K   "  # the piece on the middle row


async def test_no_color_fills_the_tiles_with_patterns(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = BoardApp()
    async with app.run_test(size=LARGE):
        board = app.board
        assert app.no_color and board.patterned
        fills: dict[int, set[str]] = {}
        for h in HEXES:
            if h == board.cursor or INITIAL[h]:
                continue
            region = board.hex_region(h)
            fills.setdefault(HEX_COLOUR[h], set()).add(board.render_line(region.y + 1).text[region.x : region.right])
        assert {tile: texts for tile, texts in fills.items()} == {t: {TILE_FILLS[t] * 5} for t in range(3)}
        g1 = TILE_FILLS[HEX_COLOUR[parse_hex("G1")]]
        assert cell(board, "G1") == f"{g1 * 2}K{g1 * 2}"
    plain = BoardApp(HexBoard(BoardView(INITIAL), patterns=False))
    async with plain.run_test(size=LARGE):
        assert not plain.board.patterned and cell(plain.board, "G1") == "  K  "


@pytest.mark.parametrize("size", [SMALL, LARGE, HUGE], ids=["80x24", "120x40", "160x50"])
async def test_every_line_number_can_be_read_from_the_drawn_labels(size):
    """Read the screen as a player does: each hex's line is written at an edge of the row its piece is on,
    and its column's letter above and below it."""
    app = BoardApp()
    async with app.run_test(size=size):
        board = app.board
        layout = board.board_layout
        text = [board.render_line(y).text for y in range(board.size.height)]
        x0 = board.hex_region(0).x - layout.cells[0].x  # where the board's drawing starts (it is centred)
        y0 = board.hex_region(0).y - layout.cells[0].y
        read = set()
        for h in HEXES:
            region = board.hex_region(h)
            row = text[region.y + layout.piece_row]
            edges = (row[x0 : x0 + 2], row[x0 + layout.width - 2 : x0 + layout.width])
            numbers = {int(edge) for edge in edges if edge.strip()}
            assert LINE[h] in numbers, (HEX_NAMES[h], edges)
            read |= numbers
            centre = region.x + region.width // 2
            assert text[y0][centre] == text[y0 + layout.height - 1][centre] == HEX_NAMES[h][0], HEX_NAMES[h]
        assert read == set(range(29))


async def test_the_apps_layout_message_names_the_layout_drawn_next():
    """``L`` cycles the layouts; the message said "auto (compact now)" from a compact board in a roomy terminal."""
    from cescacs_tui.tui.app import CescacsApp
    from tests.helpers.app import message

    app = CescacsApp()
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        said = []
        for _ in range(4):
            await pilot.press("L")
            await pilot.pause()
            said.append(message(app))
            assert app.board.mode == said[-1].rpartition("(")[2].split()[0]  # what is drawn is what it said
        assert said == [
            "board layout: full (full now)",
            "board layout: compact (compact now)",
            "board layout: large (full now)",  # does not fit in 120x40: the board falls back
            "board layout: auto (full now)",
        ]
