"""The app's Textual themes, and the board colours every theme needs.

Three themes are registered by :func:`register_themes`:

``cescacs-dark`` (the default)
    Mid-tone tiles on a dark screen.  Every tile, plain or under any one or
    two highlights, keeps a WCAG contrast of at least 3:1 against *both* piece
    colours (pure white, bold, for White; pure black for Black): a tile's
    relative luminance must lie between about 0.10 and 0.30 for that, and the
    three tiles sit at 0.14, 0.19 and 0.27.
``cescacs-light``
    Pale tiles on a light screen.  White's pieces are drawn dark red (still
    bold and upper-case), Black's black (plain, lower-case): both keep a
    contrast of at least 4.5:1 on every tile, plain or highlighted; the
    board stays readable on a light screen without a dark block in it.
``cescacs-ansi``
    Only the 16 ANSI colours, so that it follows the terminal's own palette.  Like Textual's ``ansi-dark`` theme it is a
    ``Theme(ansi=True)`` whose colours are ``ansi_*`` names: Textual then
    builds its design variables (``$panel``, ``$text-muted``...) from ANSI
    colours only and sends them to the terminal as ANSI codes instead of
    converting them to true colour.  The board's variables are ANSI names or
    ``transparent``: an ANSI colour cannot be blended, so a highlight either
    replaces the tile (cursor, selection, targets, captures, check) or leaves
    it and only colours the marker characters (the attacked and threatened
    overlays, last move, preview, pawn awaiting promotion).  Pieces are
    chips, black on bright white or bright white on black, readable on any
    palette.

In a 16-colour terminal (``TERM=xterm`` without ``COLORTERM``, for one) every
theme's board is that ANSI board, as the very true colours that Rich turns
back into those ANSI colours (:func:`as_standard_colour`): the rest of the
theme stays as the player chose it.

The board's colours are theme variables (``$board-tile-white``...; see
:data:`BOARD_VARIABLES`) that :class:`~cescacs_tui.tui.widgets.board.HexBoard`'s
CSS uses.  A theme that does not define them (Textual's own themes, a user's)
gets the set that suits it from :func:`board_variables`: the ANSI set for an
ANSI theme, else the dark or the light one.  An app that shows the board
derives from :class:`BoardHostApp`, which supplies those fallbacks, so the
board works under any theme.

The contrast figures in this module's tables are checked by
``tests/tui/test_themes.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, TypeVar

from rich._palettes import STANDARD_PALETTE
from textual import constants
from textual.app import App, InvalidThemeError
from textual.color import Color
from textual.reactive import Initialize, Reactive
from textual.theme import BUILTIN_THEMES, Theme

from ..data.choices import DEFAULT_THEME
from .input_order import InputInOrderApp

__all__ = [
    "ANSI_BOARD",
    "BOARD_VARIABLES",
    "DARK_BOARD",
    "DEFAULT_THEME",
    "HIGHLIGHTS",
    "LIGHT_BOARD",
    "THEMES",
    "BoardHostApp",
    "ColourDepth",
    "as_standard_colour",
    "board_variables",
    "colour_depth",
    "contrast_ratio",
    "known_themes",
    "parse_colour",
    "register_themes",
    "relative_luminance",
]

HIGHLIGHTS: Final = (
    "attacked",
    "threatened",
    "last-move",
    "preview",
    "target",
    "capture",
    "awaiting",
    "selected",
    "check",
    "cursor",
)
"""The board's highlights, lowest priority first (as ``HexBoard`` layers them)."""

BOARD_VARIABLES: Final[tuple[str, ...]] = (
    "board-tile-white",
    "board-tile-black",
    "board-tile-colour",
    "board-piece-white",
    "board-piece-white-chip",
    "board-piece-black",
    "board-piece-black-chip",
    "board-name",
    *(f"board-{name}{part}" for name in HIGHLIGHTS for part in ("", "-text")),
)
"""The variables the board's CSS uses: tiles, pieces, and per highlight its background and marker colour.

``board-<highlight>`` is a background laid over the tile (with an alpha, it
tints it); ``board-<highlight>-text`` colours the highlight's marker
characters (``[ ]`` cursor, ``·`` target...).  A piece keeps its own colour, and its own background
(``board-piece-<side>-chip``) where that is not ``transparent``.  ``board-name`` colours the hex names
written on the tiles (every hex's in the large layout).
"""

# Contrast against White's piece (#ffffff) and Black's (#000000), WCAG 2 formula:
#   tile           colour   luminance  vs White  vs Black
#   white          #a08a64  0.266      3.33      6.31
#   colour         #3f8577  0.192      4.35      4.83
#   black          #835c6c  0.136      5.66      3.71
# Tiles apart: white/colour dE76 37, white/black dE76 34, colour/black dE76 45.
# Every highlight over every tile stays >= 3:1 against both pieces and its marker colour (lowest: last
# move over a white tile, 3.08 vs White), and so does every pair of highlights (lowest 3.23).
DARK_BOARD: Final[Mapping[str, str]] = {
    "board-tile-white": "#a08a64",
    "board-tile-black": "#835c6c",
    "board-tile-colour": "#3f8577",
    "board-piece-white": "#ffffff",
    "board-piece-white-chip": "transparent",
    "board-piece-black": "#000000",
    "board-piece-black-chip": "transparent",
    "board-name": "#1c1c1c",
    "board-attacked": "#ff4040 25%",
    "board-attacked-text": "#ffffff",
    "board-threatened": "#d0409a 55%",
    "board-threatened-text": "#000000",
    "board-last-move": "#c0a400 30%",
    "board-last-move-text": "#ffffff",
    "board-preview": "#9a5ae0 65%",
    "board-preview-text": "#000000",
    "board-target": "#3aa03a 60%",
    "board-target-text": "#000000",
    "board-capture": "#e04a2a 70%",
    "board-capture-text": "#000000",
    "board-awaiting": "#119c9c 65%",
    "board-awaiting-text": "#000000",
    "board-selected": "#3a7be0 75%",
    "board-selected-text": "#000000",
    "board-check": "#e00000 85%",
    "board-check-text": "#ffffff",
    "board-cursor": "#b88600 80%",
    "board-cursor-text": "#000000",
}
"""The dark theme's board (also the fallback for any dark non-ANSI theme)."""

# Contrast against White's piece (#7a1200, dark red, bold) and Black's (#000000):
#   tile           colour   luminance  vs White  vs Black
#   white          #ecdfc0  0.744      8.30      15.9
#   colour         #a4d6c6  0.601      6.80      13.0
#   black          #cca4ba  0.429      5.01      9.59
# Tiles apart: white/colour dE76 25, white/black dE76 34, colour/black dE76 40.
# Every highlight, or pair of highlights, over every tile stays >= 4.5:1 against both pieces (lowest:
# attacked and threatened over a black tile, 4.6 vs White) and >= 8:1 against its (black) marker colour.
LIGHT_BOARD: Final[Mapping[str, str]] = {
    "board-tile-white": "#ecdfc0",
    "board-tile-black": "#cca4ba",
    "board-tile-colour": "#a4d6c6",
    "board-piece-white": "#7a1200",
    "board-piece-white-chip": "transparent",
    "board-piece-black": "#000000",
    "board-piece-black-chip": "transparent",
    "board-name": "#4a3f36",
    "board-attacked": "#ff6060 18%",
    "board-attacked-text": "#000000",
    "board-threatened": "#ff80cc 35%",
    "board-threatened-text": "#000000",
    "board-last-move": "#fff06a 40%",
    "board-last-move-text": "#000000",
    "board-preview": "#c9a0ff 55%",
    "board-preview-text": "#000000",
    "board-target": "#8fe07a 55%",
    "board-target-text": "#000000",
    "board-capture": "#ffa080 55%",
    "board-capture-text": "#000000",
    "board-awaiting": "#6fe0e0 55%",
    "board-awaiting-text": "#000000",
    "board-selected": "#8cbcff 65%",
    "board-selected-text": "#000000",
    "board-check": "#ff8a8a 60%",
    "board-check-text": "#000000",
    "board-cursor": "#ffd24a 75%",
    "board-cursor-text": "#000000",
}
"""The light theme's board (also the fallback for any light non-ANSI theme)."""

# The 16 ANSI colours look different on every terminal, so no tile can keep 3:1 against both a white
# and a black letter everywhere (over the palettes below, the best three tiles manage 1.7:1).  So at
# 16 colours each piece is a chip: White's a black letter on a bright white cell, Black's a bright
# white letter on a black cell, whatever the tile; the letter's contrast is that of black and bright
# white, at least 10.9:1 (Tango) in every palette.  The tiles are then free to be three dark colours
# that stay apart, apart from the screen's background and under bright markers:
#   tile     colour    luminance (xterm)
#   white    magenta   0.19
#   colour   red       0.13
#   black    blue      0.06
# Only the six plain hues are used for tiles and the cursor: Solarized gives bright black, green, yellow,
# blue and cyan to its greys, bright black being its dark background itself (the white tile was bright
# black, and vanished there; the cursor was bright yellow, a dim grey there).  Checked on VGA (the Linux
# console), xterm, PuTTY, Windows Terminal's Campbell, the old Windows console, GNOME's Tango, macOS
# Terminal, Solarized dark and light, Rich's default and Textual's Alabaster: tiles apart by dE76 >= 25
# (27 in Tango and Alabaster) and from the background (the palette's black, which a theme's dark screen
# becomes at 16 colours, and the terminal's own) by dE76 >= 25 (32 in Tango); the cursor, yellow, from
# every tile and background by dE76 >= 25 (31).  Highlights replace the tile (an ANSI colour cannot be
# blended) with a bright colour under black markers, or, ``transparent``, keep it and only colour their
# markers; every highlight also has its marker characters, so none relies on colour.
ANSI_BOARD: Final[Mapping[str, str]] = {
    "board-tile-white": "ansi_magenta",
    "board-tile-black": "ansi_blue",
    "board-tile-colour": "ansi_red",
    "board-piece-white": "ansi_black",
    "board-piece-white-chip": "ansi_bright_white",
    "board-piece-black": "ansi_bright_white",
    "board-piece-black-chip": "ansi_black",
    "board-name": "ansi_bright_white",
    "board-attacked": "transparent",
    "board-attacked-text": "ansi_bright_yellow",
    "board-threatened": "transparent",
    "board-threatened-text": "ansi_bright_yellow",
    "board-last-move": "transparent",
    "board-last-move-text": "ansi_bright_white",
    "board-preview": "transparent",
    "board-preview-text": "ansi_bright_white",
    "board-target": "ansi_green",
    "board-target-text": "ansi_black",
    "board-capture": "ansi_bright_magenta",
    "board-capture-text": "ansi_black",
    "board-awaiting": "transparent",
    "board-awaiting-text": "ansi_bright_yellow",
    "board-selected": "ansi_bright_cyan",
    "board-selected-text": "ansi_black",
    "board-check": "ansi_bright_red",
    "board-check-text": "ansi_black",
    "board-cursor": "ansi_yellow",
    "board-cursor-text": "ansi_black",
}
"""The 16-colour board: the ANSI theme's, the fallback of any ANSI theme (such as Textual's ``ansi-dark``),
and every theme's in a 16-colour terminal (see :meth:`BoardHostApp.get_css_variables`)."""


def as_standard_colour(value: str) -> str:
    """An ANSI board value as the true colour that a 16-colour terminal gets as that very ANSI colour.

    Under a true-colour theme Textual writes true colours and Rich downgrades them to the nearest of
    its standard (VGA) palette; giving exactly that palette's colour makes the terminal show its own
    colour number ``n``, as the ANSI theme would.  ``transparent`` stays transparent.
    """
    colour = parse_colour(value)
    if colour.a == 0 or colour.ansi is None or not 0 <= colour.ansi < 16:
        return value
    return "#{:02x}{:02x}{:02x}".format(*STANDARD_PALETTE[colour.ansi])


THEMES: Final[dict[str, Theme]] = {
    "cescacs-dark": Theme(
        name="cescacs-dark",
        primary="#5b9bd5",
        secondary="#3f8577",
        accent="#d8a74a",
        warning="#e0a030",
        error="#e05555",
        success="#5fb36a",
        foreground="#e6e1d6",
        background="#16181c",
        surface="#1f2227",
        panel="#2c3038",
        dark=True,
        variables=dict(DARK_BOARD),
    ),
    "cescacs-light": Theme(
        name="cescacs-light",
        primary="#2f5d8a",
        secondary="#2f6f62",
        accent="#a25d00",
        warning="#a25d00",
        error="#b3261e",
        success="#2e7d32",
        foreground="#1f1d1a",
        background="#f4f1ea",
        surface="#ebe6dc",
        panel="#d9d2c3",
        dark=False,
        variables=dict(LIGHT_BOARD),
    ),
    "cescacs-ansi": Theme(
        name="cescacs-ansi",
        ansi=True,
        primary="ansi_blue",
        secondary="ansi_cyan",
        accent="ansi_magenta",
        warning="ansi_yellow",
        error="ansi_red",
        success="ansi_green",
        foreground="ansi_default",
        background="ansi_default",
        surface="ansi_default",
        panel="ansi_default",
        boost="ansi_default",
        dark=True,
        variables={
            # What Textual's own ansi-dark theme defines (its screen CSS needs $ansi-background)...
            "ansi-background": "ansi_black",
            "ansi-foreground": "ansi_white",
            "border-blurred": "ansi_black",
            "block-cursor-foreground": "ansi_black",
            "block-cursor-background": "ansi_white",
            "input-cursor-background": "ansi_black",
            "input-cursor-foreground": "ansi_bright_white",
            "input-cursor-text-style": "none",
            "input-selection-background": "ansi_bright_blue",
            "input-selection-foreground": "ansi_black",
            "screen-selection-background": "ansi_bright_blue",
            "screen-selection-foreground": "ansi_black",
            # ...and the board.
            **ANSI_BOARD,
        },
    ),
}
"""The app's themes by name; :func:`register_themes` adds them to an app."""


def board_variables(theme: Theme) -> dict[str, str]:
    """The board variables for ``theme``: its own where it defines them, else the set that suits its kind."""
    fallback = ANSI_BOARD if theme.ansi else DARK_BOARD if theme.dark else LIGHT_BOARD
    return {name: theme.variables.get(name, fallback[name]) for name in BOARD_VARIABLES}


def known_themes(extra: Iterable[str] = ()) -> frozenset[str]:
    """The theme names a setting may use: the app's three, Textual's built-in themes, and ``extra``."""
    return frozenset((*THEMES, *BUILTIN_THEMES, *extra))


def register_themes(app: App[Any]) -> None:
    """Add the three themes to ``app`` (which keeps its current theme)."""
    for theme in THEMES.values():
        app.register_theme(theme)


ReturnType = TypeVar("ReturnType")


ColourDepth = Literal["truecolor", "256", "16"]


def colour_depth(color_system: str | None) -> ColourDepth:
    """How many colours a terminal shows, from Rich's name for its colour system.

    Textual's console decides it as Rich does: ``$TEXTUAL_COLOR_SYSTEM`` if
    set, else ``$COLORTERM`` ``truecolor``/``24bit`` gives true colour, else
    the end of ``$TERM`` (``-256color``: 256, anything else: 16).  The
    legacy Windows console's ``"windows"`` system has 16 colours; ``None``
    (a dumb terminal) is taken as 16 too, the least any colour terminal has.
    """
    if color_system == "truecolor":
        return "truecolor"
    return "256" if color_system == "256" else "16"


def _theme_at_start(app: BoardHostApp[Any]) -> str:
    """The theme ``app`` starts in: its ``theme`` argument, with the app's themes registered, or Textual's default."""
    if app.start_theme is None:
        return constants.DEFAULT_THEME
    register_themes(app)
    if app.start_theme not in app.available_themes:
        raise InvalidThemeError(f"no theme {app.start_theme!r}: the app's themes and Textual's are {known_themes()}")
    return app.start_theme


class BoardHostApp(InputInOrderApp[ReturnType]):
    """Base class of an app that shows a :class:`~cescacs_tui.tui.widgets.board.HexBoard`.

    Its keys and clicks take effect in order, each after what the previous one set off (the board's Enter
    selects a piece through the screen: tui/input_order.py).

    The board's CSS uses the ``$board-*`` variables, and Textual refuses CSS
    whose variables the current theme does not define.  This app supplies the
    set that suits the current theme (:func:`board_variables`) under every
    theme; a theme's own values, and a subclass's, still win, except in a
    16-colour terminal, where every theme's board is the 16-colour one
    (:data:`ANSI_BOARD`): blended true colours would fall onto two or three
    of the same ANSI colours there.
    """

    theme: Reactive[str] = Reactive(Initialize(_theme_at_start))
    """The theme in use.  The first is the ``theme`` argument, the value Textual builds the app's stylesheet with:
    setting it after the app is made, as Textual's guide does, queues a second parse of all the app's CSS before
    the first frame (some 2 ms of every start: benchmarks/README.md).  A theme set later restyles as usual."""

    def __init__(self, *, theme: str | None = None) -> None:
        self.start_theme = theme
        """The theme to start in (``None``: Textual's default, without the app's themes).  Set before Textual's
        ``App.__init__``, which asks for the theme (:func:`_theme_at_start`) as it builds the stylesheet."""
        super().__init__()
        if theme is not None:  # the class a theme switch gives the app, for CSS that tells the themes apart
            self.set_class(True, f"-theme-{theme}", update=False)

    @property
    def colour_depth(self) -> ColourDepth:
        """The terminal's colours as Textual detected them at start (see :func:`colour_depth`)."""
        return colour_depth(self.console.color_system)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**board_variables(self.current_theme), **super().get_theme_variable_defaults()}

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        if self.colour_depth == "16" and not self.current_theme.ansi:
            variables.update({name: as_standard_colour(value) for name, value in ANSI_BOARD.items()})
            self.theme_variables = variables
        return variables


def parse_colour(value: str) -> Color:
    """A CSS colour value as the board's variables write it: a colour, optionally followed by an alpha ``NN%``."""
    colour, _, alpha = value.strip().partition(" ")
    parsed = Color.parse(colour)
    if alpha.strip():
        parsed = parsed.with_alpha(float(alpha.strip().removesuffix("%")) / 100)
    return parsed


def relative_luminance(colour: Color) -> float:
    """WCAG 2 relative luminance of an opaque colour, from 0 (black) to 1 (white)."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.r) + 0.7152 * linear(colour.g) + 0.0722 * linear(colour.b)


def contrast_ratio(first: Color, second: Color) -> float:
    """WCAG 2 contrast ratio of two opaque colours, from 1 (equal) to 21 (black on white)."""
    darker, lighter = sorted((relative_luminance(first), relative_luminance(second)))
    return (lighter + 0.05) / (darker + 0.05)
