"""The side panels: the move list, the game status, and the pieces captured and regainable.

Each panel is given the :class:`Game` to show; none of them changes it.  The
move list lives in :mod:`.move_list` and is re-exported here.  Text
that comes from a record (player names, comments) is always wrapped in
:class:`rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from typing import Final

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..core import Colour, Piece, PieceType
from ..core.game import Game
from ..core.geometry import HEX_NAMES
from ..core.pieces import LETTERS
from .move_list import MoveList
from .safe_display import safe_rich

__all__ = ["HEX_TONES", "MaterialPanel", "MoveList", "StatusPanel", "material_rows", "material_table", "status_text"]

_SIDES = (Colour.WHITE, Colour.BLACK)


class StatusPanel(Static):
    """Whose turn it is and the state of the game, in words."""

    DEFAULT_CSS = """
    StatusPanel {
        height: auto;
        padding: 0 1;
    }
    """

    def show_game(self, game: Game, *, variation: str | None = None, warning: str | None = None) -> None:
        self.update(safe_rich(status_text(game, variation=variation, warning=warning)))  # names and endings: records


def status_text(game: Game, *, variation: str | None = None, warning: str | None = None) -> Text:
    """Turn, check, promotions, draw offers and the result (pure, for tests).

    ``variation`` names the record's variation on the board, when ``game`` is one;
    ``warning`` is a problem the players must keep seeing (the game is not being saved).
    """
    position = game.reviewed_position()
    text = Text()
    if warning is not None:
        text.append(f"⚠ {warning}\n", style="bold reverse")
    if variation is not None:
        text.append(f"{variation} (Esc: back)\n", style="bold reverse")
    names = {Colour.WHITE: game.tags.get("White", "?"), Colour.BLACK: game.tags.get("Black", "?")}
    mover = position.turn
    if game.outcome is not None and game.is_live:
        text.append(f"{game.result}  ", style="bold")
        text.append(game.termination, style="bold")
        return text
    who = mover.title
    if names[mover] not in ("?", "") and game.clock is None:  # with a clock, the clock panel names the players
        who += f" ({names[mover]})"
    text.append("\u25cf " if mover == Colour.BLACK else "\u25cb ", style="bold")
    text.append(f"{who} to move", style="bold")
    kind = position.check_kind()
    if kind is not None:
        text.append(f"\nCheck ({kind.value})!", style="bold red")
    for colour in _SIDES:
        for h in position.awaiting_pawns(colour):
            eligible = position.eligible_promotions(colour, h)
            if colour == mover and eligible and kind is None:
                letters = " ".join(LETTERS[p] for p in eligible)
                text.append(f"\nPromote the pawn on {HEX_NAMES[h]} this turn ({letters})", style="bold yellow")
            elif eligible:
                text.append(f"\n{colour.title} pawn on {HEX_NAMES[h]} must promote next turn", style="yellow")
            else:
                text.append(f"\n{colour.title} pawn on {HEX_NAMES[h]} awaits promotion", style="yellow")
    if not game.is_live:
        text.append(f"\nReviewing ply {game.cursor} of {game.ply}", style="italic")
    elif game.draw_offered_by is not None:
        text.append(f"\n{game.draw_offered_by.title} offers a draw", style="bold cyan")
    elif (claim := game.claimable_draw()) is not None:
        text.append(f"\n{mover.title} may claim a draw ({claim.value})", style="cyan")
    return text


HEX_TONES: Final = ("light", "dark", "mid")
"""The three hex colours in words that cannot be read as a side (indexed like ``HEX_COLOUR``): the rules'
white, black and colour hexes are the light, dark and middle tones of the board (RULES.md 2.5)."""


class MaterialPanel(Static):
    """Per side: the pieces it could regain by promotion, and everything it has lost."""

    DEFAULT_CSS = """
    MaterialPanel {
        height: auto;
        padding: 0 1;
    }
    """

    def show_game(self, game: Game) -> None:
        self.update(material_table(game))


def _piece_word(kind: PieceType, colour: Colour, hex_colour: int | None = None) -> str:
    """A piece in its side's letter case (White upper, Black lower); a regainable Bishop with its hexes' tone."""
    letter = LETTERS[kind] if colour == Colour.WHITE else LETTERS[kind].lower()
    if kind == PieceType.BISHOP and hex_colour is not None:
        return f"{letter}({HEX_TONES[hex_colour]})"
    return letter


def material_rows(game: Game) -> list[tuple[str, str, str]]:
    """Per side, its name, then ``("", "regain:", pieces)`` and ``("", "lost:", pieces)`` (pure, for tests).

    Pieces are words in the side's letter case, ``"nothing"`` when there are none.
    """
    position = game.reviewed_position()
    captured: list[Piece] = [node.captured for node in game.nodes[: game.cursor] if node.captured is not None]
    rows = []
    for colour in _SIDES:
        regain = [_piece_word(piece.type, colour, piece.hex_colour) for piece in position.regainable(colour)]
        lost = [_piece_word(piece.type, colour) for piece in captured if piece.colour == colour]
        rows.append((colour.title, "", ""))
        rows.append(("", "regain:", " ".join(regain) or "nothing"))
        rows.append(("", "lost:", " ".join(lost) or "nothing"))
    return rows


def material_table(game: Game) -> Table:
    """The panel's grid: labels in one column, pieces in the next, so a long list wraps under itself."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for side, label, pieces in material_rows(game):
        if side:
            table.add_row(Text(side, style="bold"), "")
        else:
            style = "dim" if pieces == "nothing" else "green" if label == "regain:" else ""
            table.add_row(Text(f" {label}"), Text(pieces, style=style))
    return table
