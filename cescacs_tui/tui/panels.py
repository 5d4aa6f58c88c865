"""The side panels: the move list, the game status, and the pieces captured and regainable.

Each panel is given the :class:`Game` to show; none of them changes it.  Text
that comes from a record (player names, comments) is always wrapped in
:class:`rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable, Static

from ..core import Colour, Piece, PieceType
from ..core.game import Game
from ..core.geometry import HEX_COLOUR_NAMES, HEX_NAMES
from ..core.pieces import LETTERS

_SIDES = (Colour.WHITE, Colour.BLACK)


class MoveList(DataTable[Text]):
    """The moves in CTL-AN, one numbered line per move; the reviewed ply is the cursor cell.

    When the player moves the cursor (keys or mouse, with the list focused) it
    posts :class:`PlyChosen`, so the app can show that position; the cell of
    ply *n* is the half-move that leads to it.
    """

    DEFAULT_CSS = """
    MoveList {
        height: 1fr;
        min-height: 3;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
    }
    """

    class PlyChosen(Message):
        """The player asked to see the position after half-move ``ply``."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="cell", zebra_stripes=True, show_row_labels=True)
        self._black_first = False
        self._plies = 0
        self._current = 0
        self._signature: tuple[object, ...] = ()
        self._column_width = 0
        self._game: Game | None = None

    def on_mount(self) -> None:
        self._add_columns(12)

    def _add_columns(self, width: int) -> None:
        self._column_width = width
        self.add_column("White", width=width, key="white")
        self.add_column("Black", width=width, key="black")

    def on_resize(self) -> None:
        """Fit both move columns in the panel: no sideways scrolling in a narrow terminal."""
        width = max(8, min(14, (self.size.width - 6) // 2 - 2))
        if width != self._column_width and self._game is not None:
            self.clear(columns=True)
            self._add_columns(width)
            self._signature = ()
            self.show_game(self._game)

    def show_game(self, game: Game) -> None:
        """Show the game's moves (rebuilt only when they changed) with the cursor on the reviewed ply."""
        self._game = game
        signature = (id(game), tuple((node.san, node.assessment, node.draw_offer) for node in game.nodes))
        if signature != self._signature:
            self._signature = signature
            self._rebuild(game)
        self._current = game.cursor
        self.show_cursor = game.cursor > 0
        if game.cursor:
            row, column = self._cell_of(game.cursor)
            if self.cursor_coordinate != (row, column):
                self.move_cursor(row=row, column=column, animate=False)

    def _rebuild(self, game: Game) -> None:
        self._black_first = game.start.turn == Colour.BLACK
        self._plies = game.ply
        self.clear()
        rows: list[list[Text]] = []
        labels: list[int | None] = []
        for index, node in enumerate(game.nodes):
            row, column = self._cell_of(index + 1)
            if row == len(rows):
                rows.append([Text("\u2026", style="dim"), Text("")])
                labels.append(node.number)
            text = Text(node.san + (f" {node.assessment}" if node.assessment else ""))
            if node.draw_offer:
                text.append(" (=)", style="italic")
            rows[row][column] = text
        for number, cells in zip(labels, rows, strict=True):
            label = "?" if number is None else str(number)
            self.add_row(*cells, label=Text(f"{label}.", style="dim"))

    def _cell_of(self, ply: int) -> tuple[int, int]:
        """Row and column of the half-move that leads to ``ply`` (ply ≥ 1)."""
        index = ply - 1 + self._black_first
        return index // 2, index % 2

    def _ply_at(self, coordinate: Coordinate) -> int | None:
        ply = coordinate.row * 2 + coordinate.column + 1 - self._black_first
        return ply if 1 <= ply <= self._plies else None

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        event.stop()
        if not self.has_focus:
            return  # the app moved the cursor (or the table reset it): not the player's choice
        ply = self._ply_at(event.coordinate)
        if ply is not None and ply != self._current:
            self._current = ply
            self.post_message(self.PlyChosen(ply))

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        ply = self._ply_at(event.coordinate)
        if ply is not None:
            self._current = ply
            self.post_message(self.PlyChosen(ply))


class StatusPanel(Static):
    """Whose turn it is and the state of the game, in words."""

    DEFAULT_CSS = """
    StatusPanel {
        height: auto;
        padding: 0 1;
    }
    """

    def show_game(self, game: Game) -> None:
        self.update(status_text(game))


def status_text(game: Game) -> Text:
    """Turn, check, promotions, draw offers and the result (pure, for tests)."""
    position = game.reviewed_position()
    text = Text()
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


class MaterialPanel(Static):
    """Per side: the pieces it could regain by promotion, and everything it has lost."""

    DEFAULT_CSS = """
    MaterialPanel {
        height: auto;
        padding: 0 1;
    }
    """

    def show_game(self, game: Game) -> None:
        self.update(material_text(game))


def _piece_word(piece: Piece) -> str:
    return LETTERS[piece.type] if piece.colour == Colour.WHITE else LETTERS[piece.type].lower()


def material_text(game: Game) -> Text:
    """Regainable and captured pieces of both sides (pure, for tests)."""
    position = game.reviewed_position()
    captured_by_ply = game.nodes[: game.cursor]
    text = Text()
    for colour in _SIDES:
        if colour == Colour.BLACK:
            text.append("\n")
        text.append(f"{colour.title}", style="bold")
        regainable = position.regainable(colour)
        words = []
        for piece in regainable:
            if piece.type == PieceType.BISHOP and piece.hex_colour is not None:
                words.append(f"J({HEX_COLOUR_NAMES[piece.hex_colour]})")
            else:
                words.append(LETTERS[piece.type])
        text.append("\n regain: ")
        text.append(" ".join(words) if words else "nothing", style="green" if words else "dim")
        lost = [
            node.captured for node in captured_by_ply if node.captured is not None and node.captured.colour == colour
        ]
        text.append("\n lost: ")
        text.append(" ".join(_piece_word(p) for p in lost) if lost else "nothing", style="dim" if not lost else "")
    return text
