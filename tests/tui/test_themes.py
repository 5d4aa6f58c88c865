"""The themes: registration, the board restyled by a theme switch, readable colours, ANSI-only colours."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Any, Final

import pytest
from rich._palettes import STANDARD_PALETTE, WINDOWS_PALETTE
from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual._ansi_theme import ALABASTER
from textual.app import App, ComposeResult, InvalidThemeError
from textual.color import Color
from textual.theme import BUILTIN_THEMES, Theme
from textual.widgets import Footer, Input

from cescacs_tui.core import Position, parse_hex
from cescacs_tui.core.game import Game
from cescacs_tui.core.geometry import HEX_COLOUR, HEXES
from cescacs_tui.tui.themes import (
    ANSI_BOARD,
    BOARD_VARIABLES,
    DARK_BOARD,
    DEFAULT_THEME,
    HIGHLIGHTS,
    LIGHT_BOARD,
    THEMES,
    BoardHostApp,
    as_standard_colour,
    board_variables,
    colour_depth,
    contrast_ratio,
    parse_colour,
    relative_luminance,
)
from cescacs_tui.tui.widgets.board import BoardView, HexBoard
from cescacs_tui.tui.widgets.panels import MaterialPanel, MoveList, StatusPanel

INITIAL = Position.initial().board_codes
OCCUPIED = frozenset(h for h in HEXES if INITIAL[h])
TILES = ("white", "black", "colour")  # indexed like HEX_COLOUR
SIZE = (120, 40)  # full layout: every marker shows
START = parse_hex("F14")  # where the cursor starts


class ThemedBoardApp(BoardHostApp[None]):
    """A board under the app's themes (``theme``), as the real app will run it."""

    def __init__(self, view: BoardView | None = None, theme: str = DEFAULT_THEME) -> None:
        super().__init__(theme=theme)
        self.view = view or BoardView(INITIAL)

    def compose(self) -> ComposeResult:
        yield HexBoard(self.view)
        yield Footer()

    @property
    def board(self) -> HexBoard:
        return self.query_one(HexBoard)


class PlainBoardApp(BoardHostApp[None]):
    """A board in an app that does not register the C'escacs themes."""

    def compose(self) -> ComposeResult:
        yield HexBoard(BoardView(INITIAL))


def hex_of(tile: int) -> int:
    """An empty hex of tile colour ``tile`` well away from the start cursor (F14)."""
    return next(h for h in HEXES if HEX_COLOUR[h] == tile and not INITIAL[h] and abs(h - START) > 20)


def cell_segments(board: HexBoard, h: int, row: int = 0) -> list[tuple[str, Style]]:
    """The text and style of each segment of one row of hex ``h`` (row 0 holds the piece)."""
    region = board.hex_region(h)
    out, x = [], 0
    for segment in board.render_line(region.y + row):
        if region.x <= x < region.right and segment.style is not None:
            out.append((segment.text, segment.style))
        x += segment.cell_length
    assert out, h
    return out


def tile_backgrounds(board: HexBoard) -> tuple[RichColor | None, ...]:
    """The background of a plain white, black and colour hex, from the lower row (only the tile is drawn there)."""
    return tuple(cell_segments(board, hex_of(tile), row=1)[0][1].bgcolor for tile in range(3))


def as_textual(colour: RichColor | None) -> Color:
    assert colour is not None and colour.triplet is not None, colour
    return Color(*colour.triplet)


def lab(colour: Color) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, for telling tiles apart."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour.rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(first: Color, second: Color) -> float:
    return sum((a - b) ** 2 for a, b in zip(lab(first), lab(second), strict=True)) ** 0.5


# --- registration -------------------------------------------------------------------------------------


def test_three_themes_and_a_default():
    assert set(THEMES) == {"cescacs-dark", "cescacs-light", "cescacs-ansi"}
    assert DEFAULT_THEME == "cescacs-dark"
    assert all(name == theme.name for name, theme in THEMES.items())
    assert THEMES["cescacs-ansi"].ansi and not THEMES["cescacs-light"].dark and THEMES["cescacs-dark"].dark


@pytest.mark.parametrize("name", THEMES)
def test_each_theme_defines_every_board_variable(name):
    variables = THEMES[name].variables
    assert set(BOARD_VARIABLES) <= set(variables)
    for variable in BOARD_VARIABLES:
        parse_colour(variables[variable])  # raises if it is not a colour
    assert board_variables(THEMES[name]) == {v: variables[v] for v in BOARD_VARIABLES}


async def test_register_themes_adds_them_to_the_app():
    app = ThemedBoardApp()
    async with app.run_test(size=SIZE):
        assert {*THEMES} <= set(app.available_themes)
        for name, theme in THEMES.items():
            assert app.get_theme(name) is theme
        assert app.theme == DEFAULT_THEME
        assert app.current_theme is THEMES[DEFAULT_THEME]


# --- the board follows the theme ------------------------------------------------------------------------


async def test_switching_themes_restyles_the_board():
    app = ThemedBoardApp()
    seen = {}
    async with app.run_test(size=SIZE) as pilot:
        for name, theme in [*THEMES.items(), (DEFAULT_THEME, THEMES[DEFAULT_THEME])]:
            app.theme = name
            await pilot.pause()
            tiles = tile_backgrounds(app.board)
            expected = tuple(parse_colour(theme.variables[f"board-tile-{tile}"]).rich_color for tile in TILES)
            assert tiles == expected, name
            assert len(set(tiles)) == 3, name
            seen[name] = tiles
            white = next(s for text, s in cell_segments(app.board, parse_hex("G1")) if text == "K")
            assert white.color == parse_colour(theme.variables["board-piece-white"]).rich_color and white.bold
    assert len(set(seen.values())) == 3, "each theme has its own tiles"


@pytest.mark.parametrize(
    ("theme", "board"), [("nord", DARK_BOARD), ("textual-light", LIGHT_BOARD), ("ansi-dark", ANSI_BOARD)]
)
async def test_any_textual_theme_gets_fitting_board_colours(theme, board):
    app = ThemedBoardApp(theme=theme)
    async with app.run_test(size=SIZE):
        assert tile_backgrounds(app.board) == tuple(parse_colour(board[f"board-tile-{t}"]).rich_color for t in TILES)


@pytest.mark.parametrize("name", [*THEMES, "textual-light", "nord"])
async def test_an_app_starts_in_its_theme_with_its_css_parsed_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``theme=`` is the theme Textual builds the stylesheet with: no theme switch before the first frame (which
    parses all the CSS again), and the board, the classes and the colours are the theme's from the start."""
    refreshes: list[App[Any]] = []
    refresh_css = App.refresh_css

    def counting(app: App[Any], animate: bool = True) -> None:
        refreshes.append(app)
        refresh_css(app, animate)

    monkeypatch.setattr(App, "refresh_css", counting)
    app = ThemedBoardApp(theme=name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        theme = app.current_theme
        assert theme.name == name
        board = board_variables(theme)
        assert tile_backgrounds(app.board) == tuple(parse_colour(board[f"board-tile-{t}"]).rich_color for t in TILES)
        assert ("-light-mode" in app.classes) == (not theme.dark)
        assert ("-dark-mode" in app.classes) == theme.dark
        assert f"-theme-{name}" in app.classes  # as after a theme switch
    assert refreshes == []


def test_an_unknown_starting_theme_is_refused() -> None:
    with pytest.raises(InvalidThemeError, match="no-such-theme"):
        ThemedBoardApp(theme="no-such-theme")


async def test_the_board_works_in_an_app_without_the_themes():
    """BoardHostApp supplies the board's variables: an app without the themes, and its theme switches, work."""
    app = PlainBoardApp()
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one(HexBoard)
        assert tile_backgrounds(board) == tuple(parse_colour(DARK_BOARD[f"board-tile-{t}"]).rich_color for t in TILES)
        app.theme = "textual-light"
        await pilot.pause()
        assert tile_backgrounds(board) == tuple(parse_colour(LIGHT_BOARD[f"board-tile-{t}"]).rich_color for t in TILES)
        app.theme = "textual-dark"
        await pilot.pause()
        assert tile_backgrounds(board)[0] == parse_colour(DARK_BOARD["board-tile-white"]).rich_color


async def test_a_theme_or_the_app_can_override_board_colours():
    class OwnColours(PlainBoardApp):
        def get_theme_variable_defaults(self) -> dict[str, str]:
            return {**super().get_theme_variable_defaults(), "board-tile-black": "#102030"}

    app = OwnColours()
    app.register_theme(Theme("mine", primary="#888888", variables={"board-tile-white": "#405060"}))
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one(HexBoard)
        assert tile_backgrounds(board)[1] == Color.parse("#102030").rich_color
        app.theme = "mine"
        await pilot.pause()
        white, black, colour = tile_backgrounds(board)
        assert white == Color.parse("#405060").rich_color
        assert black == Color.parse("#102030").rich_color
        assert colour == parse_colour(DARK_BOARD["board-tile-colour"]).rich_color


def test_board_variables_fall_back_by_kind_of_theme():
    assert board_variables(BUILTIN_THEMES["nord"]) == dict(DARK_BOARD)
    assert board_variables(BUILTIN_THEMES["textual-light"]) == dict(LIGHT_BOARD)
    assert board_variables(BUILTIN_THEMES["ansi-light"]) == dict(ANSI_BOARD)
    mine = Theme("mine", primary="#888888", dark=False, variables={"board-piece-white": "#123456"})
    assert board_variables(mine) == {**LIGHT_BOARD, "board-piece-white": "#123456"}


# --- readable colours -----------------------------------------------------------------------------------


def blended(board: Mapping[str, str], tile: str, *highlights: str) -> Color:
    """A tile's background under ``highlights``, blended as the board does."""
    background = parse_colour(board[f"board-tile-{tile}"])
    for name in highlights:
        background = background + parse_colour(board[f"board-{name}"])
    return background


def contrasts(board: Mapping[str, str], background: Color) -> tuple[float, float]:
    white, black = (parse_colour(board[f"board-piece-{side}"]) for side in ("white", "black"))
    return contrast_ratio(background, white), contrast_ratio(background, black)


def test_wcag_formula():
    assert relative_luminance(Color.parse("#ffffff")) == pytest.approx(1.0)
    assert relative_luminance(Color.parse("#000000")) == 0
    assert contrast_ratio(Color.parse("#000000"), Color.parse("#ffffff")) == pytest.approx(21)
    assert contrast_ratio(Color.parse("#777777"), Color.parse("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert parse_colour("#ff0000 25%") == Color(255, 0, 0, 0.25)


@pytest.mark.parametrize(
    ("tile", "luminance", "against_white", "against_black"),
    [("white", 0.266, 3.33, 6.31), ("colour", 0.192, 4.35, 4.83), ("black", 0.136, 5.66, 3.71)],
)
def test_dark_tiles_are_mid_tones_that_both_sides_read_on(tile, luminance, against_white, against_black):
    """The figures in the comment above DARK_BOARD: luminance 0.12-0.30, >= 3:1 against both pieces."""
    background = parse_colour(DARK_BOARD[f"board-tile-{tile}"])
    assert 0.12 <= relative_luminance(background) <= 0.30
    assert relative_luminance(background) == pytest.approx(luminance, abs=0.001)
    assert contrasts(DARK_BOARD, background) == pytest.approx((against_white, against_black), abs=0.01)
    assert min(contrasts(DARK_BOARD, background)) >= 3


def as_256(colour: Color) -> Color:
    """The colour a 256-colour terminal shows for ``colour``: Rich's downgrade to xterm's 6x6x6 cube or grey ramp."""
    shown = RichColor.from_rgb(colour.r, colour.g, colour.b).downgrade(ColorSystem.EIGHT_BIT)
    return Color(*shown.get_truecolor())


DEPTHS = {"truecolor": lambda colour: colour, "256": as_256}

# The contrast floors, WCAG 2 ratios of a piece's letter (bold for White) against the hex under it.  Dark
# theme 3:1, WCAG's floor for large or bold text and for the parts of a graphic (1.4.3, 1.4.11): one
# letter on a coloured hex is read as a shape, and 3:1 is the most that mid-tone tiles keep against both a
# white and a black letter.  Light theme 4.5:1, WCAG AA for text, which pale tiles allow.  At 256 colours
# Rich rounds every colour to xterm's cube (steps of 40 per channel), which takes the light theme to 3.9:1:
# the floor there is 3:1 for both.
FLOORS = {("dark", "truecolor"): 3.0, ("light", "truecolor"): 4.5, ("dark", "256"): 3.0, ("light", "256"): 3.0}


@pytest.mark.parametrize(("board", "name"), [(DARK_BOARD, "dark"), (LIGHT_BOARD, "light")], ids=["dark", "light"])
@pytest.mark.parametrize("depth", list(DEPTHS))
def test_every_highlight_keeps_both_sides_readable(board, name, depth):
    minimum, shown = FLOORS[name, depth], DEPTHS[depth]
    pieces = [shown(parse_colour(board[f"board-piece-{side}"])) for side in ("white", "black")]

    def worst(background: Color) -> float:
        return min(contrast_ratio(shown(background), piece) for piece in pieces)

    for tile in TILES:
        assert worst(blended(board, tile)) >= minimum, tile
        assert contrast_ratio(shown(blended(board, tile)), shown(parse_colour(board["board-name"]))) >= 3, tile
        for highlight in HIGHLIGHTS:
            background = blended(board, tile, highlight)
            assert worst(background) >= minimum, (tile, highlight)
            marker = shown(parse_colour(board[f"board-{highlight}-text"]))
            assert contrast_ratio(shown(background), marker) >= 3, (tile, highlight, "marker")
        for pair in combinations(HIGHLIGHTS, 2):
            assert worst(blended(board, tile, *pair)) >= minimum, (tile, pair)


@pytest.mark.parametrize("board", [DARK_BOARD, LIGHT_BOARD], ids=["dark", "light"])
@pytest.mark.parametrize("depth", list(DEPTHS))
def test_the_three_tiles_are_clearly_distinct(board, depth):
    tiles = [DEPTHS[depth](parse_colour(board[f"board-tile-{tile}"])) for tile in TILES]
    for first, second in combinations(tiles, 2):
        assert delta_e(first, second) >= 20, (first.hex, second.hex)


TILE_ORDER = ("white", "colour", "black")


@pytest.mark.parametrize("board", [DARK_BOARD, LIGHT_BOARD], ids=["dark", "light"])
def test_tiles_go_from_light_to_dark_as_the_bishop_words_say(board):
    """The material panel names a Bishop's hexes light (white), mid (colour) and dark (black)."""
    white, colour, black = (
        relative_luminance(parse_colour(board[f"board-tile-{t}"])) for t in ("white", "colour", "black")
    )
    assert white > colour > black


# --- 16 colours: the terminal's own palette ------------------------------------------------------------


def _palette(text: str) -> tuple[Color, ...]:
    colours = tuple(Color.parse(value) for value in text.split())
    assert len(colours) == 16
    return colours


REAL_TERMINALS: dict[str, tuple[Color, ...]] = {
    "VGA (Linux console; Rich's standard palette)": tuple(Color(*c) for c in STANDARD_PALETTE._colors),
    "xterm": _palette(
        "#000000 #cd0000 #00cd00 #cdcd00 #0000ee #cd00cd #00cdcd #e5e5e5"
        " #7f7f7f #ff0000 #00ff00 #ffff00 #5c5cff #ff00ff #00ffff #ffffff"
    ),
    "PuTTY": _palette(
        "#000000 #bb0000 #00bb00 #bbbb00 #0000bb #bb00bb #00bbbb #bbbbbb"
        " #555555 #ff5555 #55ff55 #ffff55 #5555ff #ff55ff #55ffff #ffffff"
    ),
    "Windows Terminal (Campbell)": tuple(Color(*c) for c in WINDOWS_PALETTE._colors),
    "GNOME (Tango)": _palette(
        "#2e3436 #cc0000 #4e9a06 #c4a000 #3465a4 #75507b #06989a #d3d7cf"
        " #555753 #ef2929 #8ae234 #fce94f #729fcf #ad7fa8 #34e2e2 #eeeeec"
    ),
    "macOS Terminal": _palette(
        "#000000 #990000 #00a600 #999900 #0000b2 #b200b2 #00a6b2 #bfbfbf"
        " #666666 #e50000 #00d900 #e5e500 #0000ff #e500e5 #00e5e5 #e5e5e5"
    ),
    "Windows console (conhost, before Windows 10 1709)": _palette(
        "#000000 #800000 #008000 #808000 #000080 #800080 #008080 #c0c0c0"
        " #808080 #ff0000 #00ff00 #ffff00 #0000ff #ff00ff #00ffff #ffffff"
    ),
}
"""The 16 colours of common terminals as they ship."""
SOLARIZED: Final = _palette(
    "#073642 #dc322f #859900 #b58900 #268bd2 #d33682 #2aa198 #eee8d5"
    " #002b36 #cb4b16 #586e75 #657b83 #839496 #6c71c4 #93a1a1 #fdf6e3"
)
"""Solarized's 16 colours (the same in its dark and light forms): its bright black, green, yellow, blue and cyan
are its greys (base03, base01, base00, base0, base1), its bright red orange and its bright magenta violet."""
BACKGROUNDS: Final[dict[str, tuple[tuple[Color, ...], tuple[Color, ...]]]] = {
    **{name: (colours, (colours[0], Color.parse(default))) for name, colours, default in (
        ("xterm", REAL_TERMINALS["xterm"], "#ffffff"),
        ("GNOME (Tango)", REAL_TERMINALS["GNOME (Tango)"], "#2e3436"),
        ("Windows Terminal (Campbell)", REAL_TERMINALS["Windows Terminal (Campbell)"], "#0c0c0c"),
        ("Windows console (conhost, before Windows 10 1709)",
         REAL_TERMINALS["Windows console (conhost, before Windows 10 1709)"], "#000000"),
        ("VGA (Linux console; Rich's standard palette)",
         REAL_TERMINALS["VGA (Linux console; Rich's standard palette)"], "#000000"),
        ("Solarized dark", SOLARIZED, "#002b36"),
        ("Solarized light", SOLARIZED, "#fdf6e3"),
    )},
}  # fmt: skip
"""Per palette, its 16 colours and the backgrounds a board is drawn on there: the palette's black (what a theme's
dark screen becomes at 16 colours, and the ANSI theme's panels) and the terminal's own default background (the
ANSI theme's screen), as each terminal ships."""
APART: Final = 25.0
"""The least CIE76 colour difference (dE76) for two colours to read as different at a glance: 2.3 is the least
a person can tell apart side by side; 25 is about the difference of two neighbouring hues of one palette."""
OTHER_PALETTES: dict[str, tuple[Color, ...]] = {
    "Rich's default (SVG export)": tuple(Color(*c) for c in DEFAULT_TERMINAL_THEME.ansi_colors._colors),
    "Textual's Alabaster (light)": tuple(Color(*c) for c in ALABASTER.ansi_colors._colors),
}
"""Palettes of the tools around the app.  (Textual's Monokai is left out: it gives red, magenta and their
bright forms one colour, so no four of them can differ there; it only renders ANSI colours for Textual's
own conversions, which the ANSI board avoids.)"""

ALL_PALETTES = {**REAL_TERMINALS, **OTHER_PALETTES}


def in_palette(palette: tuple[Color, ...], value: str) -> Color:
    colour = parse_colour(value)
    assert colour.ansi is not None and 0 <= colour.ansi < 16, value
    return palette[colour.ansi]


@pytest.mark.parametrize("palette", ALL_PALETTES, ids=list(ALL_PALETTES))
def test_16_colour_pieces_are_chips_that_read_on_any_palette(palette):
    """At least 7:1 (WCAG AAA): a chip is black and bright white whatever the tile, and those two always differ."""
    colours = ALL_PALETTES[palette]
    for side in ("white", "black"):
        letter = in_palette(colours, ANSI_BOARD[f"board-piece-{side}"])
        chip = in_palette(colours, ANSI_BOARD[f"board-piece-{side}-chip"])
        assert contrast_ratio(letter, chip) >= 7, side
    white_chip, black_chip = (in_palette(colours, ANSI_BOARD[f"board-piece-{s}-chip"]) for s in ("white", "black"))
    assert delta_e(white_chip, black_chip) >= 50


@pytest.mark.parametrize("palette", ALL_PALETTES, ids=list(ALL_PALETTES))
def test_16_colour_tiles_and_markers_on_each_palette(palette):
    """Tiles apart (:data:`APART`); markers and names at 3:1 (WCAG's floor for graphics) on real terminals, 2:1
    else.

    Highlights that replace the tile stay apart from every tile (dE >= 10), so a target is seen as one.
    """
    colours = ALL_PALETTES[palette]
    floor = 3.0 if palette in REAL_TERMINALS else 2.0
    tiles = [in_palette(colours, ANSI_BOARD[f"board-tile-{t}"]) for t in TILES]
    for first, second in combinations(tiles, 2):
        assert delta_e(first, second) >= APART
    name = in_palette(colours, ANSI_BOARD["board-name"])
    assert all(contrast_ratio(tile, name) >= floor for tile in tiles)
    for highlight in HIGHLIGHTS:
        value = ANSI_BOARD[f"board-{highlight}"]
        marker = in_palette(colours, ANSI_BOARD[f"board-{highlight}-text"])
        backgrounds = tiles if value == "transparent" else [in_palette(colours, value)]
        for background in backgrounds:
            assert contrast_ratio(background, marker) >= floor, highlight
        if value != "transparent":
            assert all(delta_e(backgrounds[0], tile) >= 10 for tile in tiles), highlight


@pytest.mark.parametrize("palette", BACKGROUNDS, ids=list(BACKGROUNDS))
def test_16_colour_tiles_and_cursor_stay_apart_from_the_background_and_each_other(palette):
    """Under each palette, on its backgrounds: every tile and the cursor at least :data:`APART` (dE76) from the
    background, the tiles from each other, and the cursor from every tile (Solarized's bright black is its dark
    background: a tile of that colour vanished; its bright yellow is a grey: a cursor of that colour was dim)."""
    colours, backgrounds = BACKGROUNDS[palette]
    tiles = {t: in_palette(colours, ANSI_BOARD[f"board-tile-{t}"]) for t in TILES}
    cursor = in_palette(colours, ANSI_BOARD["board-cursor"])
    for name, tile in tiles.items():
        assert all(delta_e(tile, background) >= APART for background in backgrounds), name
        assert delta_e(cursor, tile) >= APART, name
    for first, second in combinations(tiles.values(), 2):
        assert delta_e(first, second) >= APART
    assert all(delta_e(cursor, background) >= APART for background in backgrounds)
    assert contrast_ratio(cursor, in_palette(colours, ANSI_BOARD["board-cursor-text"])) >= 3  # its [ ]


def test_standard_colours_reach_the_terminal_as_their_ansi_numbers():
    """Under a true-colour theme at 16 colours, Rich downgrades each board colour to the very ANSI colour meant."""
    for name, value in ANSI_BOARD.items():
        if value == "transparent":
            assert as_standard_colour(value) == value
            continue
        downgraded = RichColor.parse(as_standard_colour(value)).downgrade(ColorSystem.STANDARD)
        assert downgraded.number == parse_colour(value).ansi, name


def test_colour_depth_as_rich_names_it():
    assert colour_depth("truecolor") == "truecolor"
    assert colour_depth("256") == "256"
    assert colour_depth("standard") == colour_depth("windows") == colour_depth(None) == "16"


@pytest.mark.parametrize(
    ("environment", "system", "depth"),
    [
        ({"COLORTERM": "truecolor", "TERM": "xterm"}, "auto", "truecolor"),
        ({"COLORTERM": "", "TERM": "xterm-256color"}, "auto", "256"),
        ({"COLORTERM": "", "TERM": "xterm"}, "auto", "16"),
        ({"COLORTERM": "", "TERM": "linux"}, "auto", "16"),
        ({"COLORTERM": "truecolor", "TERM": "xterm-256color"}, "standard", "16"),  # $TEXTUAL_COLOR_SYSTEM
    ],
)
async def test_the_app_knows_the_terminals_colours(monkeypatch, environment, system, depth):
    import textual.constants

    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", system)  # read from $TEXTUAL_COLOR_SYSTEM at import
    app = ThemedBoardApp()
    async with app.run_test(size=SIZE):
        assert app.colour_depth == depth
        expected = ANSI_BOARD if depth == "16" else DARK_BOARD
        colours = tuple(parse_colour(as_standard_colour(expected[f"board-tile-{t}"])).rich_color for t in TILES)
        assert app.theme == DEFAULT_THEME  # the player's theme stays; only the board's colours change
        assert tile_backgrounds(app.board) == colours


async def test_a_16_colour_terminal_draws_pieces_as_chips_under_every_theme(monkeypatch):
    monkeypatch.setenv("COLORTERM", "")
    monkeypatch.setenv("TERM", "xterm")
    app = ThemedBoardApp()
    async with app.run_test(size=SIZE) as pilot:
        for name in (*THEMES, "nord"):
            app.theme = name
            await pilot.pause()
            white = next(s for text, s in cell_segments(app.board, parse_hex("G1")) if text == "K")
            black = next(s for text, s in cell_segments(app.board, parse_hex("G27")) if text == "k")
            bright_white, black_colour = (Color(*STANDARD_PALETTE[n]).rich_color for n in (15, 0))
            if THEMES.get(name) is not None and THEMES[name].ansi:
                bright_white, black_colour = RichColor.from_ansi(15), RichColor.from_ansi(0)
            assert (white.bgcolor, white.color, black.bgcolor, black.color) == (
                bright_white,
                black_colour,
                black_colour,
                bright_white,
            ), name
            assert len(set(tile_backgrounds(app.board))) == 3, name


@pytest.mark.parametrize("name", [*THEMES, "nord", "textual-light", "ansi-dark"])
async def test_white_and_black_differ_by_case_weight_and_colour_in_every_theme(name):
    """Not by brightness alone: White's pieces are upper-case and bold, Black's lower-case and plain."""
    app = ThemedBoardApp(theme=name)
    async with app.run_test(size=SIZE):
        white = next((t, s) for t, s in cell_segments(app.board, parse_hex("G1")) if t.strip())
        black = next((t, s) for t, s in cell_segments(app.board, parse_hex("G27")) if t.strip())
        assert white[0] == "K" and black[0] == "k"
        assert white[1].bold and not black[1].bold
        assert (white[1].color, white[1].bgcolor) != (black[1].color, black[1].bgcolor)


def piece_hexes() -> list[int]:
    """One piece of each side on each tile colour."""
    return [
        next(h for h in sorted(OCCUPIED) if HEX_COLOUR[h] == tile and (INITIAL[h] > 0) == white)
        for tile in range(3)
        for white in (True, False)
    ]


def marked_views() -> Iterator[BoardView]:
    """Views putting each highlight on pieces of both sides on every tile colour."""
    everywhere = tuple(sorted(OCCUPIED))
    yield BoardView(INITIAL)
    yield BoardView(INITIAL, attacked=OCCUPIED)
    yield BoardView(INITIAL, threatened=OCCUPIED, last_move=everywhere)
    yield BoardView(INITIAL, awaiting=OCCUPIED, preview=everywhere)
    yield BoardView(INITIAL, targets=dict.fromkeys(OCCUPIED, "capture"))
    for h in piece_hexes():
        yield BoardView(INITIAL, selected=h)
        yield BoardView(INITIAL, check=h)


@pytest.mark.parametrize(("theme", "minimum"), [("cescacs-dark", 3.0), ("cescacs-light", 4.5)])
async def test_rendered_pieces_and_markers_are_readable(theme, minimum):
    """What the board really draws, pieces and markers, under every highlight and the cursor: the contrast holds."""
    app = ThemedBoardApp(theme=theme)
    checked = 0
    async with app.run_test(size=SIZE):
        board = app.board
        for view in marked_views():
            board.show(view)
            for cursor in (board.cursor, *piece_hexes()):
                board.cursor = cursor
                for h in OCCUPIED if cursor == START else (cursor,):
                    for text, style in cell_segments(board, h):
                        if text.strip():
                            ratio = contrast_ratio(as_textual(style.color), as_textual(style.bgcolor))
                            assert ratio >= minimum, (theme, h, text, view)
                            checked += 1
            board.cursor = START
    assert checked > 1000


# --- the ANSI theme -------------------------------------------------------------------------------------


def is_ansi(value: str) -> bool:
    """A board variable is a plain ANSI colour (0-15), or transparent (the tile shows through)."""
    colour = parse_colour(value)
    return value == "transparent" or (colour.ansi is not None and 0 <= colour.ansi < 16 and colour.a == 1)


def test_the_ansi_board_uses_only_ansi_colours():
    ansi = THEMES["cescacs-ansi"]
    assert all(is_ansi(ansi.variables[name]) for name in BOARD_VARIABLES)
    assert all(ansi.variables[f"board-tile-{t}"] != "transparent" for t in TILES)
    tiles = {ansi.variables[f"board-tile-{t}"] for t in TILES}
    pieces = {ansi.variables[f"board-piece-{s}"] for s in ("white", "black")}
    assert len(tiles) == 3 and not tiles & pieces


def test_the_ansi_theme_defines_what_textual_ansi_themes_need():
    """Textual's own CSS needs some variables that only its ANSI themes define (``$ansi-background``...)."""
    assert set(BUILTIN_THEMES["ansi-dark"].variables) <= set(THEMES["cescacs-ansi"].variables)


def css_colour(value: str) -> Color | None:
    try:
        return Color.parse(value.split()[0])
    except Exception:
        return None  # a text style ("bold"), not a colour


def only_ansi(colour: RichColor | None) -> bool:
    return colour is None or colour.type is ColorType.DEFAULT or (colour.type is ColorType.STANDARD)


class AnsiScreenApp(ThemedBoardApp):
    """The board with every kind of highlight, the panels, a move box and a footer, in the ANSI theme."""

    def __init__(self) -> None:
        pieces = piece_hexes()
        empty = [h for h in HEXES if not INITIAL[h]]
        view = BoardView(
            INITIAL,
            selected=pieces[0],
            targets={empty[0]: "move", pieces[1]: "capture"},
            last_move=(pieces[2], empty[1]),
            check=pieces[3],
            attacked=frozenset({empty[2], pieces[4]}),
            threatened=frozenset({pieces[5]}),
            awaiting=frozenset({pieces[2]}),
            preview=(empty[3],),
        )
        super().__init__(view, theme="cescacs-ansi")

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield StatusPanel()
        yield MaterialPanel()
        yield MoveList()
        yield Input(placeholder="move")

    def on_mount(self) -> None:
        game = Game.new(white="Ann", black="Bob")
        for widget in (self.query_one(StatusPanel), self.query_one(MaterialPanel), self.query_one(MoveList)):
            widget.show_game(game)


async def test_the_ansi_theme_draws_the_whole_screen_in_ansi_colours():
    app = AnsiScreenApp()
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        assert app.native_ansi_color, "ANSI colours go to the terminal as they are, not converted to true colour"
        variables: dict[str, Any] = app.get_css_variables()
        for name, value in variables.items():
            colour = css_colour(value)
            assert colour is None or colour.ansi is not None or colour.a == 0, (name, value)
        colours = set()
        for strip in app.screen._compositor.render_strips():
            for segment in strip:
                if segment.style is not None:
                    colours |= {segment.style.color, segment.style.bgcolor}
        assert all(only_ansi(colour) for colour in colours), {c for c in colours if not only_ansi(c)}
        board_colours = {parse_colour(ANSI_BOARD[f"board-tile-{t}"]).rich_color for t in TILES}
        assert board_colours <= colours
