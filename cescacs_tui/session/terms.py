"""The game's own words in the interface's language: sides, pieces, tiles, checks, and the core's sentences.

The rules core speaks English and keeps its player-facing sentences as
:class:`~cescacs_tui.core.message.Message` templates; :func:`say` puts one in
the interface's language (:mod:`cescacs_tui.i18n`), each value said with the
words of this module.  The vocabulary is the official site's and the rules
documents': Catalan Rei, Dama, Víbria, Roc, Pegàs, Cavall, Alfil, Elefant,
Peó; Spanish Rey, Dama, Guiverno, Roque, Pegaso, Caballo, Alfil, Elefante,
Peón.  Every phrase whose words agree in gender in Catalan or Spanish ("White
Bishop" is "Alfil blanc", "White Queen" is "Dama blanca") is a message of its
own, so translators never have to assemble one.  Piece letters and CTL-AN are
the same in every language and are never translated.
"""

from __future__ import annotations

from typing import Final

from ..core import CheckKind, Colour
from ..core.game import Game
from ..core.message import Message, PieceWord
from ..core.pieces import BISHOP, ELEPHANT, KING, KNIGHT, PAWN, PEGASUS, QUEEN, ROOK, WYVERN, Piece, PieceType
from ..i18n import N_, _, ngettext, pgettext

__all__ = [
    "a_piece",
    "capitalised",
    "check_name",
    "hex_words",
    "piece_name",
    "piece_words",
    "pieces_name",
    "say",
    "side",
    "side_label",
    "termination",
    "the_piece",
    "tile_name",
]

_PIECE_NAMES: Final[dict[int, str]] = {
    PAWN: N_("Pawn"), ELEPHANT: N_("Elephant"), BISHOP: N_("Bishop"), KNIGHT: N_("Knight"),
    PEGASUS: N_("Pegasus"), ROOK: N_("Rook"), WYVERN: N_("Wyvern"), QUEEN: N_("Queen"), KING: N_("King"),
}  # fmt: skip
_PLURAL_NAMES: Final[dict[int, str]] = {
    PAWN: N_("Pawns"), ELEPHANT: N_("Elephants"), BISHOP: N_("Bishops"), KNIGHT: N_("Knights"),
    PEGASUS: N_("Pegasi"), ROOK: N_("Rooks"), WYVERN: N_("Wyverns"), QUEEN: N_("Queens"), KING: N_("Kings"),
}  # fmt: skip
_THE: Final[dict[int, str]] = {
    PAWN: N_("the Pawn"), ELEPHANT: N_("the Elephant"), BISHOP: N_("the Bishop"), KNIGHT: N_("the Knight"),
    PEGASUS: N_("the Pegasus"), ROOK: N_("the Rook"), WYVERN: N_("the Wyvern"), QUEEN: N_("the Queen"),
    KING: N_("the King"),
}  # fmt: skip
_A: Final[dict[int, str]] = {
    PAWN: N_("a Pawn"), ELEPHANT: N_("an Elephant"), BISHOP: N_("a Bishop"), KNIGHT: N_("a Knight"),
    PEGASUS: N_("a Pegasus"), ROOK: N_("a Rook"), WYVERN: N_("a Wyvern"), QUEEN: N_("a Queen"), KING: N_("a King"),
}  # fmt: skip
_PIECES: Final = {
    (Colour.WHITE, PAWN): N_("White Pawn"), (Colour.BLACK, PAWN): N_("Black Pawn"),
    (Colour.WHITE, ELEPHANT): N_("White Elephant"), (Colour.BLACK, ELEPHANT): N_("Black Elephant"),
    (Colour.WHITE, BISHOP): N_("White Bishop"), (Colour.BLACK, BISHOP): N_("Black Bishop"),
    (Colour.WHITE, KNIGHT): N_("White Knight"), (Colour.BLACK, KNIGHT): N_("Black Knight"),
    (Colour.WHITE, PEGASUS): N_("White Pegasus"), (Colour.BLACK, PEGASUS): N_("Black Pegasus"),
    (Colour.WHITE, ROOK): N_("White Rook"), (Colour.BLACK, ROOK): N_("Black Rook"),
    (Colour.WHITE, WYVERN): N_("White Wyvern"), (Colour.BLACK, WYVERN): N_("Black Wyvern"),
    (Colour.WHITE, QUEEN): N_("White Queen"), (Colour.BLACK, QUEEN): N_("Black Queen"),
    (Colour.WHITE, KING): N_("White King"), (Colour.BLACK, KING): N_("Black King"),
}  # fmt: skip
_CHECKS: Final = {
    CheckKind.ADJOINING: N_("adjoining check"),
    CheckKind.AFAR: N_("check from afar"),
    CheckKind.DOUBLE: N_("double check"),
}
_TILES: Final = (N_("white hexes"), N_("black hexes"), N_("colour hexes"))
"""The three tile colours as the hexes of a Bishop (``HEX_COLOUR_NAMES`` order: white, black, colour)."""
_A_HEX: Final = (N_("a white hex"), N_("a black hex"), N_("a colour hex"))
"""One hex of each tile colour, with its article (``HEX_COLOUR_NAMES`` order)."""


def side(colour: Colour) -> str:
    """A side inside a sentence: "White" ("les blanques", "las blancas")."""
    return (
        pgettext("side in a sentence", "White") if colour == Colour.WHITE else pgettext("side in a sentence", "Black")
    )


def side_label(colour: Colour) -> str:
    """A side as a label or a heading: "White" ("Blanques", "Blancas")."""
    return _("White") if colour == Colour.WHITE else _("Black")


def piece_name(kind: int) -> str:
    """A kind of piece, alone: "Bishop" ("Alfil")."""
    return _(_PIECE_NAMES[kind])


def pieces_name(kind: int) -> str:
    """A kind of piece in the plural, alone: "Knights" ("Cavalls")."""
    return _(_PLURAL_NAMES[kind])


def the_piece(kind: int) -> str:
    """A kind of piece with the definite article: "the Bishop" ("l'Alfil", "el Alfil")."""
    return _(_THE[kind])


def a_piece(kind: int) -> str:
    """A kind of piece with the indefinite article: "an Elephant" ("un Elefant")."""
    return _(_A[kind])


def piece_words(piece: Piece) -> str:
    """A piece and its side: "White Bishop" ("Alfil blanc", "Alfil blanco")."""
    return _(_PIECES[piece.colour, PieceType(piece.type)])


def check_name(kind: CheckKind) -> str:
    """One of the three kinds of check (RULES.md 9.4): "check from afar" ("escac a distància")."""
    return _(_CHECKS[kind])


def tile_name(tile: int) -> str:
    """The hexes of one tile colour, as a Bishop is bound to them: "white hexes" ("hexcacs blancs")."""
    return _(_TILES[tile])


def hex_words(tile: int) -> str:
    """One hex of a tile colour: "a white hex" ("un hexcac blanc")."""
    return _(_A_HEX[tile])


def capitalised(text: str) -> str:
    """``text`` with its first letter in capitals, for a sentence that starts with a word in the middle form."""
    return text[:1].upper() + text[1:]


class _Language:
    """The interface's language as a :class:`~cescacs_tui.core.message.Translator`."""

    def gettext(self, message: str, /) -> str:
        return _(message)

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return ngettext(singular, plural, count)


_LANGUAGE: Final = _Language()


def _word(value: object) -> str:
    if isinstance(value, Colour):
        return side(value)
    if isinstance(value, PieceType):
        return piece_name(value)
    if isinstance(value, PieceWord):
        return the_piece(value.kind) if value.article == "the" else a_piece(value.kind)
    if isinstance(value, Piece):
        return piece_words(value)
    return str(value)


def say(message: Message | str) -> str:
    """A sentence of the rules core in the interface's language (a plain string is said as it is)."""
    return message if isinstance(message, str) else message.say(_LANGUAGE, _word)


def termination(game: Game) -> str:
    """How ``game`` ended, in words ("Les negres fan mat"), or ``""`` while it goes on."""
    return "" if game.outcome is None else say(game.outcome.message)
