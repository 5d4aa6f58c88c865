"""What the position on the board shows, said in words: the check and how it can be answered, the pieces under
attack and by what, the unprotected ones, and what the last move threatened.

The same sentences serve a sighted beginner (the app's explain key shows them in a dialog) and a screen-reader
user (the plain mode's ``explain`` command prints them): plain text, one sentence a line.  Every fact comes from
the rules core — who attacks a hex, which pieces give check and the hexes between them and the King — so nothing
about how pieces move is restated here.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import HEX_NAMES, Colour, Move, Position
from ..core.game import Game
from ..core.geometry import KNIGHT_SET, NEIGHBOUR_SET
from ..core.move import CASTLING_BY_TOKEN
from ..core.pieces import KING
from ..i18n import _
from .terms import capitalised, check_name, piece_name, side, the_piece
from .words import describe_move, or_list

__all__ = ["attacked_pieces", "explain", "explain_attacks", "explain_check", "explain_last_move", "new_attacks"]

Attacks = dict[int, tuple[int, ...]]
"""The pieces of one side under attack (never the King: that is the check), each with its attackers' hexes."""


def explain(game: Game) -> list[str]:
    """Everything the position shown (the live one, or the one reviewed) says, a sentence or two a line."""
    position = game.reviewed_position()
    lines = [explain_check(position)]
    for colour in (position.turn, position.turn.opponent):
        lines.extend(explain_attacks(position, colour))
    if game.cursor > 0:
        before = game.position_at(game.cursor - 1)
        lines.append(explain_last_move(before, game.nodes[game.cursor - 1].move, position))
    return lines


# --- the check ---------------------------------------------------------------------------------


def _named(position: Position, h: int) -> str:
    """ "the Rook on F20" (a checker is always the other side's)."""
    piece = position.piece_at(h)
    assert piece is not None
    return _("{the_piece} on {hex}").format(the_piece=the_piece(piece.type), hex=HEX_NAMES[h])


def explain_check(position: Position) -> str:
    """Whether the side to move is in check, of which kind, by which pieces from where, and why it can or cannot
    be blocked."""
    mover = position.turn
    kind = position.check_kind()
    if kind is None:
        if not position.has_legal_moves():
            return capitalised(_("{side} is not in check but has no move: stalemate.").format(side=side(mover)))
        return capitalised(_("{side} is not in check.").format(side=side(mover)))
    king = position.king(mover)
    lines = position.check_lines()
    checkers = _(" and ").join(_named(position, h) for h, _between in lines)
    if len(lines) > 1:
        said = _("{side} is in {check}: {checkers} attack the King on {hex}.")
    else:
        said = _("{side} is in {check}: {checkers} attacks the King on {hex}.")
    values = {"side": side(mover), "check": check_name(kind), "checkers": checkers, "hex": HEX_NAMES[king]}
    sentences = [capitalised(said.format(**values))]
    if len(lines) > 1:
        sentences.append(_("No piece can block or take two checkers at once: only a King move answers it."))
    else:
        checker, between = lines[0]
        piece = position.piece_at(checker)
        assert piece is not None
        the = the_piece(piece.type)
        if between:
            blocks = or_list([HEX_NAMES[h] for h in between])
            sentences.append(
                _("It can be blocked on {hexes}; or take the checker, or move the King.").format(hexes=blocks)
            )
        elif checker in NEIGHBOUR_SET[king]:
            said = _("It cannot be blocked ({the_piece} stands next to the King): take the checker or move the King.")
            sentences.append(said.format(the_piece=the))
        elif checker in KNIGHT_SET[king]:
            said = _(
                "It cannot be blocked ({the_piece} jumps, and nothing stops a jump): take the checker or move the King."
            )
            sentences.append(said.format(the_piece=the))
    if not position.has_legal_moves():
        sentences.append(_("No move answers it: checkmate."))
    return " ".join(sentences)


# --- attacks -----------------------------------------------------------------------------------


def attacked_pieces(position: Position, colour: Colour) -> Attacks:
    """The pieces of ``colour`` (its King aside) the other side attacks, with their attackers' hexes."""
    found: Attacks = {}
    for h, piece in position.pieces(colour):
        if piece.type != KING and (by := position.attackers(h, colour.opponent)):
            found[h] = tuple(by)
    return found


def _protected(position: Position, h: int, colour: Colour) -> bool:
    return bool(position.attackers(h, colour))


def _attackers_words(position: Position, hexes: Iterable[int]) -> str:
    """ "Pawn F10 and Knight D8"."""
    named = []
    for x in hexes:
        piece = position.piece_at(x)
        assert piece is not None
        named.append(f"{piece_name(piece.type)} {HEX_NAMES[x]}")
    return named[0] if len(named) == 1 else _("{items} and {last}").format(items=", ".join(named[:-1]), last=named[-1])


def _target_words(position: Position, h: int, attackers: Iterable[int], colour: Colour) -> str:
    """ "Queen E7 by Pawn F10, unprotected"."""
    piece = position.piece_at(h)
    assert piece is not None
    values = {"piece": piece_name(piece.type), "hex": HEX_NAMES[h], "attackers": _attackers_words(position, attackers)}
    if _protected(position, h, colour):
        return _("{piece} {hex} by {attackers}").format(**values)
    return _("{piece} {hex} by {attackers}, unprotected").format(**values)


def explain_attacks(position: Position, colour: Colour) -> list[str]:
    """The pieces of ``colour`` under attack and by what (the unprotected ones said so), then its other
    unprotected pieces."""
    attacked = attacked_pieces(position, colour)
    if attacked:
        items = "; ".join(_target_words(position, h, by, colour) for h, by in attacked.items())
        first = _("{side}'s pieces under attack: {items}.").format(side=side(colour), items=items)
    else:
        first = _("No piece of {side} is under attack.").format(side=side(colour))
    loose = [
        f"{piece_name(piece.type)} {HEX_NAMES[h]}"
        for h, piece in position.pieces(colour)
        if piece.type != KING and h not in attacked and not _protected(position, h, colour)
    ]
    if loose:
        second = _("Unprotected, not attacked: {pieces}.").format(pieces=", ".join(loose))
    else:
        second = _("Every other piece of {side} is protected.").format(side=side(colour))
    return [capitalised(first), capitalised(second)]


# --- the last move ------------------------------------------------------------------------------


def _moved(before: Position, move: Move) -> dict[int, int]:
    """Where the move took each piece it moved: origin hex to target hex (a castling's Rooks too)."""
    moved = {move.origin: move.target}
    if move.castling is not None:
        for rook_from, rook_to, _path in CASTLING_BY_TOKEN[before.turn][move.castling].rooks:
            moved[rook_from] = rook_to
    return moved


def new_attacks(before: Position, move: Move, after: Position) -> Attacks:
    """The attacks on the pieces of the side now to move that ``move`` created: by the piece moved from its new
    hex, or by a piece whose line it opened; the King aside (a check is said on its own)."""
    mover = before.turn
    moved = _moved(before, move)
    created: Attacks = {}
    for h, piece in after.pieces(mover.opponent):
        if piece.type == KING:
            continue
        earlier = {moved.get(x, x) for x in before.attackers(h, mover)} if before.piece_at(h) == piece else set()
        if fresh := tuple(x for x in after.attackers(h, mover) if x not in earlier):
            created[h] = fresh
    return created


def explain_last_move(before: Position, move: Move, after: Position) -> str:
    """What the last move threatened: the new attacks it made on the other side's pieces."""
    said = describe_move(before, move)
    created = new_attacks(before, move, after)
    if not created:
        return _("The last move, {move}, made no new attack on a piece.").format(move=said)
    victim = after.turn
    items = "; ".join(_target_words(after, h, by, victim) for h, by in created.items())
    return _("The last move, {move}, attacks: {items}.").format(move=said, items=items)
