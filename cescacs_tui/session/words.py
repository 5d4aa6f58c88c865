"""The game in words for players: move labels, moves and positions said in full, the ways a King can go, times.

Every front end says these things the same way, so they live beside the
session rather than in a widget.  :func:`announce_last_move` is what any front
end says when a move has been played, whoever played it (a player, a
computer, a remote opponent): "White Pegasus G7 to C15, check from afar.
Black to move."
"""

from __future__ import annotations

import datetime
import math
from typing import Final

from ..core import HEX_NAMES, CheckKind, Colour, Move, Position
from ..core.clock import ceil_tenths, hours_minutes_seconds
from ..core.game import Game, Node
from ..core.geometry import HEX_COLOUR, HEX_COLOUR_NAMES, KNIGHT_SET, LINE
from ..core.move import CASTLING_BY_TOKEN, EN_PASSANT, IN_PLACE_PROMOTION, MULTI_STEP, SCORNFUL_CAPTURE, SCORNFUL_STEP
from ..core.notation import AFAR, check_mark
from ..core.pieces import LETTERS, NAMES, PieceType

CHECK_WORDS: Final = {
    CheckKind.ADJOINING: "adjoining check",
    CheckKind.AFAR: "check from afar",
    CheckKind.DOUBLE: "double check",
}
"""The three kinds of check of RULES.md 9.4, as players say them."""

_MARK_WORDS: Final = {
    "+^": CHECK_WORDS[CheckKind.ADJOINING],
    AFAR: CHECK_WORDS[CheckKind.AFAR],
    "++": CHECK_WORDS[CheckKind.DOUBLE],
    "#": "checkmate",
}
_STEPS: Final = {2: "double step", 3: "triple step"}


def move_label(node: Node, *, first: bool) -> str:
    """``12. E7-E13`` for White; for Black ``12… E21-E15`` only where a line starts or resumes, else the move alone."""
    number = "" if node.number is None else str(node.number)
    if node.colour == Colour.WHITE:
        return f"{number}. {node.san}" if number else node.san
    return f"{number}\u2026 {node.san}" if first and number else node.san


def promotion_label(position: Position, move: Move) -> str:
    """The piece a promotion regains, with its CTL-AN; a Bishop says the colour of hexes it is bound to."""
    name = NAMES[move.promotion]
    if move.promotion == PieceType.BISHOP:
        name += f" ({HEX_COLOUR_NAMES[HEX_COLOUR[move.target]]} hexes)"
    return f"{name}  {position.ctl_an(move)}"


def king_move_label(position: Position, move: Move) -> str:
    """A King's leap or one castling, each piece's way spelt out (they can share the King's target)."""
    if move.castling is None:
        return f"King's leap {HEX_NAMES[move.origin]}→{HEX_NAMES[move.target]}  ({position.ctl_an(move)})"
    plan = CASTLING_BY_TOKEN[position.turn][move.castling]
    rooks = ", ".join(f"Rook {HEX_NAMES[a]}→{HEX_NAMES[b]}" for a, b, _ in plan.rooks)
    return f"{position.ctl_an(move)}: King {HEX_NAMES[plan.king_from]}→{HEX_NAMES[plan.king_to]}, {rooks}"


def half_moves(count: int) -> str:
    return f"{count} half-move{'' if count == 1 else 's'}"


def when(timestamp: str) -> str:
    """An ISO time stamp as people read it, in local time ("at 14:05 on 2026-11-29"); ``""`` if unreadable."""
    try:
        moment = datetime.datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return ""
    return f"at {moment:%H:%M} on {moment:%Y-%m-%d}"


# --- moves and positions said in full ------------------------------------------------------


def describe_move(position: Position, move: Move) -> str:
    """``move`` in words, said in ``position``, the position it is played from (left as it was).

    "White Pegasus G7 to C15, check from afar", "Black Pawn E15 takes White
    Knight on F12", "White castles KRK-HIO: King G1 to H6, Rook I3 to I5",
    "White Pawn F26 to F28, promoting to Queen, checkmate": the piece and its
    side always named in full, then what the move does, then any check.
    """
    words = _move_words(position, move)
    check = check_words(position, move)
    return f"{words}, {check}" if check else words


def check_words(position: Position, move: Move) -> str:
    """What ``move`` does to the enemy King, in words: "checkmate", "check from afar"... or ``""``."""
    return _MARK_WORDS.get(check_mark(position, move), "")


def _move_words(position: Position, move: Move) -> str:
    side = position.turn
    origin, target = HEX_NAMES[move.origin], HEX_NAMES[move.target]
    if move.castling is not None:
        plan = CASTLING_BY_TOKEN[side][move.castling]
        rooks = " and ".join(f"Rook {HEX_NAMES[a]} to {HEX_NAMES[b]}" for a, b, _ in plan.rooks)
        return f"{side.title} castles {move.castling}: King {origin} to {target}, {rooks}"
    if move.kind == IN_PLACE_PROMOTION:
        return f"{side.title} promotes the Pawn on {origin} to {regained_words(move)}"
    piece = position.moving_piece(move)
    captured = position.captured_piece(move)
    if captured is None:
        words = f"{piece} {origin} to {target}"
    elif move.kind == EN_PASSANT:
        words = f"{piece} {origin} to {target}, taking {captured[1]} on {HEX_NAMES[captured[0]]} en passant"
    elif move.kind == SCORNFUL_CAPTURE:
        words = f"{piece} {origin} takes the scornful {captured[1]} on {target}"
    else:
        words = f"{piece} {origin} takes {captured[1]} on {target}"
    if piece.type == PieceType.KING and move.target in KNIGHT_SET[move.origin]:
        words += ", King's leap"
    elif move.kind == MULTI_STEP:
        words += ", " + _STEPS[abs(LINE[move.target] - LINE[move.origin]) // 2]
    elif move.kind == SCORNFUL_STEP:
        words += ", a scornful step"
    if move.promotion:
        words += f", promoting to {regained_words(move)}"
    elif position.is_awaiting_arrival(move):
        words += ", awaiting promotion"
    return words


def regained_words(move: Move) -> str:
    """The piece a promotion regains; a Bishop says the colour of the hexes it is bound to."""
    name = NAMES[move.promotion]
    if move.promotion == PieceType.BISHOP:
        name += f" of the {HEX_COLOUR_NAMES[HEX_COLOUR[move.target]]} hexes"
    return name


def situation(game: Game, *, check: bool = True) -> str:
    """Where the game stands at its live end, in a sentence or two.

    "Black to move.", "White (Ros) to move, in adjoining check. White must
    first promote the Pawn on P21: Bishop (P21=J) or Rook (P21=R).", "Game
    over: Black mates (0-3)."  ``check=False`` leaves the check out, for
    when the move just said has already named it.
    """
    if game.outcome is not None:
        return f"Game over: {game.termination} ({game.result})."
    position = game.position
    mover = position.turn
    name = game.tags.get(mover.title, "?").strip()
    who = mover.title if name in ("", "?") else f"{mover.title} ({name})"
    kind = position.check_kind()
    sentences = [f"{who} to move" + (f", in {CHECK_WORDS[kind]}." if check and kind is not None else ".")]
    if kind is None:
        for h in position.awaiting_pawns(mover):
            eligible = position.eligible_promotions(mover, h)
            if eligible:
                where = HEX_NAMES[h]
                options = or_list([f"{NAMES[p]} ({where}={LETTERS[p]})" for p in eligible])
                sentences.append(f"{mover.title} must first promote the Pawn on {where}: {options}.")
    if game.draw_offered_by is not None:
        sentences.append(f"{game.draw_offered_by.title} offers a draw.")
    elif (claim := game.claimable_draw()) is not None:
        sentences.append(f"{mover.title} may claim a draw ({claim.value}).")
    return " ".join(sentences)


def announce_last_move(game: Game) -> str:
    """The last half-move of ``game`` in words, then where the game stands: what any front end says after a move.

    "White Pegasus G7 to C15, check from afar. Black to move."  Call it after
    every move played, by a player, a computer or a remote opponent alike.
    """
    if not game.nodes:
        return situation(game)
    before = game.position_at(game.ply - 1)
    return f"{describe_move(before, game.nodes[-1].move)}. {situation(game, check=False)}"


def or_list(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def duration_words(seconds: float) -> str:
    """A clock's time as it is said: "1 h 2 min 3 s", "4 min 58 s", "9.7 s" under ten seconds, "unlimited"."""
    if seconds == math.inf:
        return "unlimited"
    tenths = ceil_tenths(seconds)
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10} s"
    hours, minutes, secs = hours_minutes_seconds(tenths)
    parts = [f"{value} {unit}" for value, unit in ((hours, "h"), (minutes, "min"), (secs, "s")) if value]
    return " ".join(parts)
