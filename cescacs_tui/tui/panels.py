"""The side panels: the move list, the game status, and the pieces captured and regainable.

Each panel is given the :class:`Game` to show; none of them changes it.  The
move list lives in :mod:`.move_list` and is re-exported here.  Text
that comes from a record (player names, comments) is always wrapped in
:class:`rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..core import Colour, Piece, PieceType
from ..core.game import Game
from ..core.geometry import HEX_COLOUR_NAMES, HEX_NAMES
from ..core.pieces import LETTERS
from ..safe_text import safe_rich
from .move_list import MoveList

__all__ = ["MaterialPanel", "MoveList", "StatusPanel", "material_text", "status_text"]

_SIDES = (Colour.WHITE, Colour.BLACK)


class StatusPanel(Static):
    """Whose turn it is and the state of the game, in words."""

    DEFAULT_CSS = """
    StatusPanel {
        height: auto;
        padding: 0 1;
    }
    """

    def show_game(self, game: Game, *, variation: str | None = None) -> None:
        self.update(safe_rich(status_text(game, variation=variation)))  # names and endings come from records


def status_text(game: Game, *, variation: str | None = None) -> Text:
    """Turn, check, promotions, draw offers and the result (pure, for tests).

    ``variation`` names the record's variation on the board, when ``game`` is one.
    """
    position = game.reviewed_position()
    text = Text()
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
