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
from ..core.geometry import HEX_COLOUR, KNIGHT_SET, LINE
from ..core.move import CASTLING_BY_TOKEN, EN_PASSANT, IN_PLACE_PROMOTION, MULTI_STEP, SCORNFUL_CAPTURE, SCORNFUL_STEP
from ..core.notation import AFAR, check_mark
from ..core.outcome import Ending
from ..core.pieces import LETTERS, PieceType
from ..i18n import N_, _, ngettext
from .terms import capitalised, check_name, piece_name, piece_words, side, termination, tile_name

CHECK_WORDS: Final = {
    CheckKind.ADJOINING: N_("adjoining check"),
    CheckKind.AFAR: N_("check from afar"),
    CheckKind.DOUBLE: N_("double check"),
}
"""The three kinds of check of RULES.md 9.4, as players say them (message ids: say them with ``_()``)."""

_MARK_WORDS: Final = {
    "+^": CHECK_WORDS[CheckKind.ADJOINING],
    AFAR: CHECK_WORDS[CheckKind.AFAR],
    "++": CHECK_WORDS[CheckKind.DOUBLE],
    "#": N_("checkmate"),
}
_STEPS: Final = {2: N_("double step"), 3: N_("triple step")}


def move_label(node: Node, *, first: bool) -> str:
    """``12. E7-E13`` for White; for Black ``12… E21-E15`` only where a line starts or resumes, else the move alone."""
    number = "" if node.number is None else str(node.number)
    if node.colour == Colour.WHITE:
        return f"{number}. {node.san}" if number else node.san
    return f"{number}\u2026 {node.san}" if first and number else node.san


def promotion_label(position: Position, move: Move) -> str:
    """The piece a promotion regains, with its CTL-AN; a Bishop says the colour of hexes it is bound to."""
    name = piece_name(move.promotion)
    if move.promotion == PieceType.BISHOP:
        name = _("{piece} ({tiles})").format(piece=name, tiles=tile_name(HEX_COLOUR[move.target]))
    return f"{name}  {position.ctl_an(move)}"


def king_move_label(position: Position, move: Move) -> str:
    """A King's leap or one castling, each piece's way spelt out (they can share the King's target)."""
    if move.castling is None:
        return _("King's leap {origin}→{target}  ({move})").format(
            origin=HEX_NAMES[move.origin], target=HEX_NAMES[move.target], move=position.ctl_an(move)
        )
    plan = CASTLING_BY_TOKEN[position.turn][move.castling]
    rook, king = piece_name(PieceType.ROOK), piece_name(PieceType.KING)
    rooks = ", ".join(f"{rook} {HEX_NAMES[a]}→{HEX_NAMES[b]}" for a, b, _way in plan.rooks)
    return f"{position.ctl_an(move)}: {king} {HEX_NAMES[plan.king_from]}→{HEX_NAMES[plan.king_to]}, {rooks}"


def half_moves(count: int) -> str:
    return ngettext("{count} half-move", "{count} half-moves", count).format(count=count)


def tolerated(warnings: list[str]) -> str:
    """What a tolerant reader let pass in a record, said when it is opened: how many, and the first in full.

    A record's clock that cannot be used (``[TimeControl "٣٠٠"]``) makes a game without clock: the player must
    read why, not only that something was tolerated.
    """
    count = len(warnings)
    said = ngettext(
        "{count} irregularity tolerated: {first}", "{count} irregularities tolerated, the first: {first}", count
    )
    return said.format(count=count, first=warnings[0])


def when(timestamp: str) -> str:
    """An ISO time stamp as people read it, in local time ("at 14:05 on 2026-11-29"); ``""`` if unreadable."""
    try:
        moment = datetime.datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return ""
    return _("at {time} on {date}").format(time=f"{moment:%H:%M}", date=f"{moment:%Y-%m-%d}")


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
    return _("{move}, {check}").format(move=words, check=check) if check else words


def check_words(position: Position, move: Move) -> str:
    """What ``move`` does to the enemy King, in words: "checkmate", "check from afar"... or ``""``."""
    mark = _MARK_WORDS.get(check_mark(position, move))
    return "" if mark is None else _(mark)


def _move_words(position: Position, move: Move) -> str:
    side_ = position.turn
    origin, target = HEX_NAMES[move.origin], HEX_NAMES[move.target]
    if move.castling is not None:
        plan = CASTLING_BY_TOKEN[side_][move.castling]
        rooks = _(" and ").join(
            _("Rook {origin} to {target}").format(origin=HEX_NAMES[a], target=HEX_NAMES[b]) for a, b, _way in plan.rooks
        )
        said = _("{side} castles {token}: King {origin} to {target}, {rooks}")
        return capitalised(
            said.format(side=side(side_), token=move.castling, origin=origin, target=target, rooks=rooks)
        )
    if move.kind == IN_PLACE_PROMOTION:
        said = _("{side} promotes the Pawn on {hex} to {piece}")
        return capitalised(said.format(side=side(side_), hex=origin, piece=regained_words(move)))
    piece = position.moving_piece(move)
    captured = position.captured_piece(move)
    values = {"piece": piece_words(piece), "origin": origin, "target": target}
    if captured is None:
        words = _("{piece} {origin} to {target}").format(**values)
    elif move.kind == EN_PASSANT:
        words = _("{piece} {origin} to {target}, taking {captured} on {hex} en passant").format(
            captured=piece_words(captured[1]), hex=HEX_NAMES[captured[0]], **values
        )
    elif move.kind == SCORNFUL_CAPTURE:
        words = _("{piece} {origin} takes the scornful {captured} on {target}").format(
            captured=piece_words(captured[1]), **values
        )
    else:
        words = _("{piece} {origin} takes {captured} on {target}").format(captured=piece_words(captured[1]), **values)
    extra = None
    if piece.type == PieceType.KING and move.target in KNIGHT_SET[move.origin]:
        extra = _("King's leap")
    elif move.kind == MULTI_STEP:
        extra = _(_STEPS[abs(LINE[move.target] - LINE[move.origin]) // 2])
    elif move.kind == SCORNFUL_STEP:
        extra = _("a scornful step")
    if extra is not None:
        words = _("{move}, {what}").format(move=words, what=extra)
    if move.promotion:
        words = _("{move}, promoting to {piece}").format(move=words, piece=regained_words(move))
    elif position.is_awaiting_arrival(move):
        words = _("{move}, awaiting promotion").format(move=words)
    return words


def regained_words(move: Move) -> str:
    """The piece a promotion regains; a Bishop says the colour of the hexes it is bound to."""
    if move.promotion == PieceType.BISHOP:
        return _("Bishop of the {tiles}").format(tiles=tile_name(HEX_COLOUR[move.target]))
    return piece_name(move.promotion)


def situation(game: Game, *, check: bool = True) -> str:
    """Where the game stands at its live end, in a sentence or two.

    "Black to move.", "White (Ros) to move, in adjoining check. White must
    first promote the Pawn on P21: Bishop (P21=J) or Rook (P21=R).", "Game
    over: Black mates (0-3)."  ``check=False`` leaves the check out, for
    when the move just said has already named it.
    """
    if game.outcome is not None:
        return _("Game over: {reason} ({result}).").format(reason=termination(game), result=game.result)
    position = game.position
    mover = position.turn
    name = game.tags.get(mover.title, "?").strip()
    who = side(mover) if name in ("", "?") else _("{side} ({name})").format(side=side(mover), name=name)
    kind = position.check_kind()
    if check and kind is not None:
        first = _("{side} to move, in {check}.").format(side=who, check=check_name(kind))
    else:
        first = _("{side} to move.").format(side=who)
    sentences = [capitalised(first)]
    if kind is None:
        for h in position.awaiting_pawns(mover):
            eligible = position.eligible_promotions(mover, h)
            if eligible:
                where = HEX_NAMES[h]
                options = or_list([f"{piece_name(p)} ({where}={LETTERS[p]})" for p in eligible])
                said = _("{side} must first promote the Pawn on {hex}: {options}.")
                sentences.append(capitalised(said.format(side=side(mover), hex=where, options=options)))
    if game.draw_offered_by is not None:
        sentences.append(capitalised(_("{side} offers a draw.").format(side=side(game.draw_offered_by))))
    elif (claim := game.claimable_draw()) is not None:
        said = _("{side} may claim a draw ({rule}).").format(side=side(mover), rule=claim_rule(claim))
        sentences.append(capitalised(said))
    return " ".join(sentences)


def claim_rule(ending: Ending) -> str:
    """The rule a draw is claimed by: "threefold repetition" or "fifty-move rule"."""
    return _("threefold repetition") if ending is Ending.THREEFOLD_REPETITION else _("fifty-move rule")


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
    if len(items) == 1:
        return items[0]
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def duration_words(seconds: float) -> str:
    """A clock's time as it is said: "1 h 2 min 3 s", "4 min 58 s", "9.7 s" under ten seconds, "unlimited"."""
    if seconds == math.inf:
        return _("unlimited")
    tenths = ceil_tenths(seconds)
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10} s"
    hours, minutes, secs = hours_minutes_seconds(tenths)
    parts = [f"{value} {unit}" for value, unit in ((hours, "h"), (minutes, "min"), (secs, "s")) if value]
    return " ".join(parts)
