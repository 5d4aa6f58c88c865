"""The side panels: the move list, the game status, and the pieces captured and regainable.

Each panel is given the :class:`Game` to show; none of them changes it.  The
move list lives in :mod:`.move_list` and is re-exported here.  Text
that comes from a record (player names, comments) is always wrapped in
:class:`rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ...core import Colour, Piece, PieceType, Position
from ...core.game import Game
from ...core.geometry import HEX_NAMES
from ...core.pieces import LETTERS, VALUES
from ...i18n import N_, _
from ...session.terms import capitalised, check_name, piece_words, side, side_label, termination
from ...session.words import claim_rule
from ..safe_display import safe_rich
from .move_list import MoveList

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

    _shown: Text | None = None

    def show_game(self, game: Game, *, variation: str | None = None, warning: str | None = None) -> None:
        text = safe_rich(status_text(game, variation=variation, warning=warning))  # names and endings: records
        if text == self._shown:
            return
        before, self._shown = self._shown, text
        self.update(
            text,
            layout=before is None or _rows(before, self.content_size.width) != _rows(text, self.content_size.width),
        )


def _rows(text: Text, width: int) -> int:
    """The rows ``text`` takes at ``width`` cells (each line wrapped): the panel is laid out again only when they
    change, which most moves' new status ('Black to move' after 'White to move') does not."""
    return sum(max(1, -(-cell_len(line) // max(1, width))) for line in text.plain.split("\n"))


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
        text.append(_("{variation} (Esc: back)").format(variation=variation) + "\n", style="bold reverse")
    names = {Colour.WHITE: game.tags.get("White", "?"), Colour.BLACK: game.tags.get("Black", "?")}
    mover = position.turn
    if game.outcome is not None and game.is_live:
        text.append(f"{game.result}  ", style="bold")
        text.append(capitalised(termination(game)), style="bold")
        return text
    who = side(mover)
    if names[mover] not in ("?", "") and game.clock is None:  # with a clock, the clock panel names the players
        who = _("{side} ({name})").format(side=who, name=names[mover])
    text.append("\u25cf " if mover == Colour.BLACK else "\u25cb ", style="bold")
    text.append(capitalised(_("{side} to move").format(side=who)), style="bold")
    kind = position.check_kind()
    if kind is not None:
        text.append("\n" + _("Check: {kind}!").format(kind=check_name(kind)), style="bold red")
    for colour in _SIDES:
        for h in position.awaiting_pawns(colour):
            eligible = position.eligible_promotions(colour, h)
            if colour == mover and eligible and kind is None:
                letters = " ".join(LETTERS[p] for p in eligible)
                said = _("Promote the pawn on {hex} this turn ({letters})").format(hex=HEX_NAMES[h], letters=letters)
                text.append("\n" + said, style="bold yellow")
            elif eligible:
                said = _("{pawn} on {hex} must promote next turn").format(pawn=_pawn(colour), hex=HEX_NAMES[h])
                text.append("\n" + said, style="yellow")
            else:
                said = _("{pawn} on {hex} awaits promotion").format(pawn=_pawn(colour), hex=HEX_NAMES[h])
                text.append("\n" + said, style="yellow")
    if not game.is_live:
        said = _("Reviewing ply {ply} of {count}").format(ply=game.cursor, count=game.ply)
        text.append("\n" + said, style="italic")
    elif game.draw_offered_by is not None:
        said = capitalised(_("{side} offers a draw").format(side=side(game.draw_offered_by)))
        text.append("\n" + said, style="bold cyan")
    elif (claim := game.claimable_draw()) is not None:
        said = capitalised(_("{side} may claim a draw ({rule})").format(side=side(mover), rule=claim_rule(claim)))
        text.append("\n" + said, style="cyan")
    return text


def _pawn(colour: Colour) -> str:
    return piece_words(Piece(PieceType.PAWN, colour))


HEX_TONES: Final = (N_("light"), N_("dark"), N_("mid"))
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

    _rows: list[tuple[str, str, str]] | None = None

    def show_game(self, game: Game) -> None:
        """Show the game's material; the screen is laid out again only when the table's height changes.

        A capture changes a list of pieces, seldom the table's height (a list that wraps onto another line):
        the update is a repaint, and a layout of the whole screen (some 4 ms at 120x40) only when needed.
        """
        rows = material_rows(game)
        if rows == self._rows:  # most moves capture nothing: the same table
            return
        self._rows = rows
        height, width = self.content_size.height, self.content_size.width
        self.update(material_table(rows), layout=False)
        if not width or self.get_content_height(self.container_size, self.app.size, width) != height:
            self.refresh(layout=True)


def _piece_word(kind: PieceType, colour: Colour, hex_colour: int | None = None) -> str:
    """A piece in its side's letter case (White upper, Black lower); a regainable Bishop with its hexes' tone."""
    letter = LETTERS[kind] if colour == Colour.WHITE else LETTERS[kind].lower()
    if kind == PieceType.BISHOP and hex_colour is not None:
        return f"{letter}({_(HEX_TONES[hex_colour])})"
    return letter


def material_rows(game: Game) -> list[tuple[str, str, str]]:
    """Per side, its name, then ``("", "regain:", pieces)`` and ``("", "lost:", pieces)`` (pure, for tests).

    Pieces are letters in the side's letter case, ``"nothing"`` (in the interface's language) when there are none.
    """
    position = game.reviewed_position()
    captured: list[Piece] = [node.captured for node in game.nodes[: game.cursor] if node.captured is not None]
    rows = []
    for colour in _SIDES:
        regain = [_piece_word(piece.type, colour, piece.hex_colour) for piece in position.regainable(colour)]
        lost = [_piece_word(piece.type, colour) for piece in captured if piece.colour == colour]
        rows.append((side_label(colour), "", ""))
        rows.append(("", _("regain:"), " ".join(regain) or _("nothing")))
        rows.append(("", _("lost:"), " ".join(lost) or _("nothing")))
    rows.append((_("Balance"), "", balance_words(material_balance(position))))
    return rows


def material_balance(position: Position) -> int:
    """White's material minus Black's on the board, in the official values (RULES.md 4.2: P 1 ... D 16)."""
    return sum(VALUES[piece.type] * (1 if piece.colour == Colour.WHITE else -1) for _h, piece in position.pieces())


def balance_words(balance: int) -> str:
    """The balance as the panel says it: ``even``, or the side ahead and by how much (``White +3``)."""
    if balance == 0:
        return _("even")
    ahead = Colour.WHITE if balance > 0 else Colour.BLACK
    return _("{side} +{points}").format(side=side_label(ahead), points=abs(balance))


def material_table(rows: list[tuple[str, str, str]]) -> Table:
    """The panel's grid of :func:`material_rows`: labels in one column, pieces in the next, so a long list wraps
    under itself."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for name, label, pieces in rows:
        if name:
            table.add_row(Text(name, style="bold"), Text(pieces))
        else:
            style = "dim" if pieces == _("nothing") else "green" if label == _("regain:") else ""
            table.add_row(Text(f" {label}"), Text(pieces, style=style))
    return table
