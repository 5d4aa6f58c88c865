"""CTL-AN and CTL-FAN: writing and reading one move (NOTATION.md 4).

CTL-AN is long and reversible: ``[piece]origin(-|×|@|@@)[captured]target
[=X|=&][check mark]``.  :func:`write_move` produces the canonical form with
the refined check marks; :func:`parse_move` reads everything NOTATION.md
lets a tolerant reader accept and resolves it against the legal moves,
checking "algebraic coherence" (the letters and separators must match the
board).  Irregular but acceptable input comes back as warnings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, NamedTuple

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, printable
from .geometry import HEX_NAMES, IS_PROMOTION, find_hex
from .message import N_, Message, a, the
from .move import (
    CASTLING_TOKENS,
    EN_PASSANT,
    IN_PLACE_PROMOTION,
    SCORNFUL_CAPTURE,
    Move,
)
from .pieces import ALIASES, FAN_GLYPHS, LETTERS, NAMES, PAWN, PIECE_BY_GLYPH, PIECE_BY_LETTER, Colour, PieceType
from .state import EnPassant

if TYPE_CHECKING:
    from .position import Position

CAPTURE: Final = "\u00d7"
"""The capture separator ``×``."""
AFAR: Final = "+\u221e"
"""The check-from-afar mark ``+∞``."""

ASSESSMENTS: Final = ("??", "?!", "!?", "!!", "?", "!", "\u25c7")
INDICATORS: Final = ("(=):", "(=)", ":")

_HYPHENS: Final = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2013": "-", "\u2212": "-", "*": CAPTURE})


def check_mark(position: Position, move: Move) -> str:
    """The mark ``move`` earns (RULES.md 9.4): ``#``, ``++``, ``+^``, ``+∞`` or nothing."""
    position.push(move)
    try:
        kind = position.check_kind()
        if kind is None:
            return ""
        if not position.has_legal_moves():
            return "#"
        return {"double": "++", "adjoining": "+^"}.get(kind, AFAR)
    finally:
        position.pop()


def write_move(position: Position, move: Move, *, fan: bool = False, mark: bool = True) -> str:
    """``move`` in canonical CTL-AN (NOTATION.md 4.7), or CTL-FAN with ``fan``.

    ``mark=False`` leaves out the check mark, which saves playing the move.
    """
    mover = position.turn

    def letter(kind: int, colour: Colour) -> str:
        return FAN_GLYPHS[kind][colour] if fan else LETTERS[kind]

    suffix = check_mark(position, move) if mark else ""
    if move.castling is not None:
        return move.castling + suffix
    if move.kind == IN_PLACE_PROMOTION:
        return f"{HEX_NAMES[move.origin]}={letter(move.promotion, mover)}{suffix}"
    piece = position.moving_piece(move)
    text = "" if piece.type == PAWN else letter(piece.type, mover)
    text += HEX_NAMES[move.origin]
    captured = position.captured_piece(move)
    if move.kind == EN_PASSANT:
        special = position.special
        assert isinstance(special, EnPassant)
        text += "@@" if len(special.crossed) == 2 and move.target == special.crossed[0] else "@"
    elif move.kind == SCORNFUL_CAPTURE:
        text += "@"
    else:
        text += CAPTURE if captured else "-"
    if captured and captured[1].type != PAWN:
        text += letter(captured[1].type, mover.opponent)
    text += HEX_NAMES[move.target]
    if move.promotion:
        text += "=" + letter(move.promotion, mover)
    elif position.is_awaiting_arrival(move):
        text += "=&"
    return text + suffix


# --- reading -------------------------------------------------------------------

_MARK = r"(?P<mark>\+\u221e|\+\^|\^\+|\+\+|\+|#)?"
# Digits are ASCII only ([0-9]): "\d" would also take Arabic-Indic and other Unicode digits.
_CASTLING_RE: Final = re.compile(r"K(?P<rook>[A-Z])(?P<side>[A-Z])-(?P<columns>[A-Z]+)" + _MARK)
"""``KRK-HIO``; under ``[Redefine "T@R"]`` ``KTK``, ``KTD`` and ``KTT`` (the side letter of ``KRR`` is the Rook's)."""
_IN_PLACE_RE: Final = re.compile(r"(?P<hex>[A-Z][0-9]+)=(?P<promotion>[A-Z])" + _MARK)
_DISPLACEMENT_RE: Final = re.compile(
    r"(?P<piece>[A-Z])?(?P<origin>[A-Z][0-9]+)(?P<sep>-|\u00d7|@@|@)(?P<captured>[A-Z])?(?P<target>[A-Z][0-9]+)"
    r"(?:=(?P<promotion>[A-Z&]))?" + _MARK
)
_CANONICAL_RE: Final = re.compile(r"[A-Z][0-9]+-[A-Z][0-9]+(?:=[DVRGNJ])?|[A-Z][0-9]+=[DVRGNJ]|KR[KDR]-[A-Z]+")


class ParsedMove(NamedTuple):
    """A move read from text, with what the reader tolerated."""

    move: Move
    warnings: list[str]


def normalise(text: str) -> str:
    """Map the alternative characters NOTATION.md 4.8 allows to the canonical ones.

    U+2010, U+2011, U+2013 and U+2212 become ``-``, ``*`` becomes ``×``,
    the legacy ``^+`` becomes ``+^``, and CTL-FAN glyphs become letters.
    """
    text = text.translate(_HYPHENS).replace("^+", "+^")
    if any(ch in PIECE_BY_GLYPH for ch in text):
        text = "".join(LETTERS[PIECE_BY_GLYPH[ch][0]] if ch in PIECE_BY_GLYPH else ch for ch in text)
    return text


def normalise_typed(text: str) -> str:
    """Make what a player types in a move box readable as CTL-AN.

    NOTATION.md 2 and 4.1 allow an interactive box (never a file) to take
    lower case and an ``x`` between two hexes for a capture: ``e13xnf14`` is
    read as ``E13×NF14``.
    """
    text = re.sub(r"(?<=[0-9])[xX](?=[A-Za-z])", CAPTURE, text.strip())
    return text.upper()


def split_trailer(text: str) -> tuple[str, str]:
    """Split a move token from a glued or spaced assessment and game indicator: ``"E7-E13 ?? :"`` →
    ``("E7-E13", "?? :")``.

    Read from the end, in one pass: a search for the trailer's pattern at every position of the text took
    time in the fourth power of a run of spaces (``'C' + ' ' * 160 + 'x'``: two seconds).
    """
    body = text.rstrip()
    for marks in (INDICATORS, ASSESSMENTS):  # the indicator comes last: it is taken off first
        mark = next((mark for mark in marks if body.endswith(mark)), "")
        body = body.removesuffix(mark).rstrip() if mark else body
    return body, text[len(body) :].strip()


class _Letters:
    """Resolves piece letters, honouring declared aliases (NOTATION.md 3.2)."""

    def __init__(self, aliases: Mapping[str, PieceType] | None, strict: bool, warnings: list[str]):
        self.aliases = aliases
        self.strict = strict
        self.warnings = warnings

    def resolve(self, letter: str, token: str) -> PieceType:
        declared = self.aliases or {}
        if letter in declared:
            return declared[letter]
        if letter in PIECE_BY_LETTER:
            kind = PIECE_BY_LETTER[letter]
            if kind in declared.values():
                self.tolerate(f"{letter} is used although an alias replaces it", token)
            return kind
        if letter in ALIASES:
            self.tolerate(f"{letter} is an alias of {LETTERS[ALIASES[letter]]} that the record did not declare", token)
            return ALIASES[letter]
        raise InvalidMoveError(Message(N_("{letter} is not a piece letter"), letter=repr(letter)), token=token)

    def tolerate(self, message: str, token: str) -> None:
        if self.strict:
            raise InvalidMoveError(message, token=token)
        self.warnings.append(printable(f"{token}: {message}"))


def parse_move(
    position: Position,
    text: str,
    *,
    strict: bool = False,
    canonical: bool = True,
    aliases: Mapping[str, PieceType] | None = None,
) -> ParsedMove:
    """Resolve ``text`` to a legal move of ``position`` (NOTATION.md 4.8).

    ``canonical`` also accepts the coordinate form of the test data
    (``E3-A11``, ``F26-F28=D``), which is not CTL-AN: files use CTL-AN only.
    ``aliases`` are the piece letters a ``Redefine`` tag declared; when it is
    ``None`` every alias is accepted with a warning.  In ``strict`` mode the
    tolerated irregularities (wrong check marks, legacy separators) are errors.
    """
    token = text.strip()
    if not token:
        raise InvalidMoveError(Message(N_("empty move")), token=text)
    body, _ = split_trailer(normalise(token))
    if not body:
        raise InvalidMoveError(Message(N_("no move before the assessment")), token=token)
    if canonical and _CANONICAL_RE.fullmatch(body):
        # Only the moves of the piece the text starts from are generated: a castling's are the King's.
        origin = position.king(position.turn) if body.startswith("KR") else find_hex(re.split("[-=]", body)[0])
        for move in position.legal_moves(origin) if origin is not None else ():
            if str(move) == body:
                return ParsedMove(move, [])
    warnings: list[str] = []
    letters = _Letters(aliases, strict, warnings)
    match = _CASTLING_RE.fullmatch(body)
    if match:
        move = _resolve_castling(position, match, letters, token)
    elif match := _IN_PLACE_RE.fullmatch(body):
        move = _resolve_in_place(position, match, letters, token)
    elif match := _DISPLACEMENT_RE.fullmatch(body):
        move = _resolve_displacement(position, match, letters, token, strict, warnings)
    else:
        raise InvalidMoveError(_describe_malformed(body), token=token)
    written = match.group("mark") or ""
    _check_mark_coherence(position, move, written.replace("^+", "+^"), token, strict, warnings)
    return ParsedMove(move, warnings)


def _hex(name: str, token: str) -> int:
    h = find_hex(name)
    if h is None:
        raise InvalidMoveError(Message(N_("{hex} is not a hex of the board"), hex=name), token=token)
    return h


def _describe_malformed(body: str) -> Message:
    if re.match(r"/[0-9]+:", body):
        return Message(N_('this is a PDTL position, not a move; a record gives its start position as [PDTL "..."]'))
    if re.search(r"[0-9][xX]", body):
        return Message(N_("'x' is not a capture sign in CTL-AN: write × (or *)"))
    if re.fullmatch(r"[A-Z]?[0-9]+.*", body) and not re.match(r"[A-Z]", body):
        return Message(N_("a move starts with a piece letter or a hex such as E7"))
    return Message(N_("not a CTL-AN move (expected e.g. E7-E13, NE3-D8, E13×F16, KRK-HIO or P21=J)"))


def _resolve_castling(position: Position, match: re.Match[str], letters: _Letters, token: str) -> Move:
    rook_letter = match.group("rook")
    if letters.resolve(rook_letter, token) != PieceType.ROOK:
        raise InvalidMoveError(
            Message(N_("{letter} does not name the Rook in a castling token"), letter=repr(rook_letter)), token=token
        )
    side = match.group("side")
    if side not in "KD":  # KRR: both Rooks, written with the record's Rook letter (KTT under T@R)
        if side != rook_letter and letters.resolve(side, token) != PieceType.ROOK:
            raise InvalidMoveError(
                Message(N_("{letter} names no side in a castling token (K, D or the Rook)"), letter=repr(side)),
                token=token,
            )
        side = "R"
    canonical = f"KR{side}-{match.group('columns')}"
    if canonical not in CASTLING_TOKENS:
        if canonical == "KRK-HI":
            message = Message(
                N_("{token} is not one of the 24 castling tokens (write KRK-HIO or KRK-HIOO)"), token=canonical
            )
        else:
            message = Message(N_("{token} is not one of the 24 castling tokens"), token=canonical)
        raise InvalidMoveError(message, token=token)
    for move in position.legal_moves(position.king(position.turn)):
        if move.castling == canonical:
            return move
    raise IllegalMoveError(_why_no_castling(position, canonical), token=token)


def _why_no_castling(position: Position, token: str) -> Message:
    rights = position.castling_rights(position.turn)
    if not position.castling_enabled:
        return Message(N_("this game is played without castling"))
    if not rights.king:
        return Message(N_("the King has moved: no castling any more"))
    if position.is_check():
        return Message(N_("no castling while in check"))
    return Message(
        N_("{token} is not possible here (a Rook has moved, the way is blocked, or the King would be attacked)"),
        token=token,
    )


def _resolve_in_place(position: Position, match: re.Match[str], letters: _Letters, token: str) -> Move:
    h = _hex(match.group("hex"), token)
    kind = letters.resolve(match.group("promotion"), token)
    legal = position.legal_moves(h)
    for move in legal:
        if move.kind == IN_PLACE_PROMOTION and move.promotion == kind:
            return move
    if position.piece_at(h) != (PieceType.PAWN, position.turn) or not IS_PROMOTION[position.turn][h]:
        message = Message(N_("no pawn of {side} awaits promotion on {hex}"), side=position.turn, hex=HEX_NAMES[h])
        raise IllegalMoveError(message, token=token)
    if any(m.kind == IN_PLACE_PROMOTION for m in legal):
        message = Message(N_("{a_piece} cannot be regained on {hex}"), a_piece=a(kind), hex=HEX_NAMES[h])
        raise IllegalMoveError(message, token=token)
    if position.is_check():
        raise IllegalMoveError(Message(N_("an in-place promotion waits while the King is in check")), token=token)
    raise IllegalMoveError(Message(N_("nothing can be regained on {hex} now"), hex=HEX_NAMES[h]), token=token)


def _resolve_displacement(
    position: Position,
    match: re.Match[str],
    letters: _Letters,
    token: str,
    strict: bool,
    warnings: list[str],
) -> Move:
    origin = _hex(match.group("origin"), token)
    target = _hex(match.group("target"), token)
    piece = position.piece_at(origin)
    mover = position.turn
    if piece is None or piece.colour != mover:
        if piece is None:
            message = Message(N_("there is no piece on {hex}, not a {side} piece"), hex=HEX_NAMES[origin], side=mover)
        else:
            message = Message(
                N_("there is a {piece} on {hex}, not a {side} piece"), piece=piece, hex=HEX_NAMES[origin], side=mover
            )
        raise IllegalMoveError(message, token=token)

    def tolerate(message: str) -> None:
        if strict:
            raise IllegalMoveError(message, token=token)
        warnings.append(printable(f"{token}: {message}"))

    written_piece = match.group("piece")
    if written_piece is None:
        if piece.type != PAWN:
            message = Message(
                N_("{the_piece} on {hex} needs its letter: {letter}{hex}..."),
                the_piece=the(piece.type),
                hex=HEX_NAMES[origin],
                letter=LETTERS[piece.type],
            )
            raise IllegalMoveError(message, token=token)
    else:
        kind = letters.resolve(written_piece, token)
        if kind == PAWN:
            tolerate("pawn moves are written without a letter")
        if kind != piece.type:
            message = Message(
                N_("the piece on {hex} is {a_piece}, not {another}"),
                hex=HEX_NAMES[origin],
                a_piece=a(piece.type),
                another=a(kind),
            )
            raise IllegalMoveError(message, token=token)

    candidates = [m for m in position.legal_moves(origin) if m.target == target and m.castling is None]
    if not candidates:
        raise IllegalMoveError(explain_illegal(position, origin, target), token=token)
    promotion = match.group("promotion")
    if promotion is not None and promotion != "&":
        kind = letters.resolve(promotion, token)
        chosen = [m for m in candidates if m.promotion == kind]
        if not chosen:
            if candidates[0].promotion:
                offered = ", ".join("=" + LETTERS[m.promotion] for m in candidates)
                message = Message(
                    N_("{a_piece} cannot be regained here (possible: {offered})"), a_piece=a(kind), offered=offered
                )
                raise IllegalMoveError(message, token=token)
            raise IllegalMoveError(Message(N_("this move does not promote")), token=token)
        candidates = chosen
    if len(candidates) > 1:
        offered = ", ".join("=" + LETTERS[m.promotion] for m in candidates)
        raise AmbiguousMoveError(Message(N_("promotion piece required: {offered}"), offered=offered), token=token)
    move = candidates[0]
    if promotion == "&" and move.promotion:
        raise IllegalMoveError(Message(N_("=& (awaiting promotion) but a piece can be regained")), token=token)
    if promotion is None and position.is_awaiting_arrival(move):
        tolerate("the pawn awaits promotion: =& is missing")

    # Separator and captured piece: the algebraic coherence of NOTATION.md 4.8.
    separator = match.group("sep")
    captured = position.captured_piece(move)
    special = move.kind in (EN_PASSANT, SCORNFUL_CAPTURE)
    if separator == "-" and captured:
        raise IllegalMoveError(
            Message(N_("this move captures: write {sign} (or @ for en passant)"), sign=CAPTURE), token=token
        )
    if separator != "-" and not captured:
        message = Message(N_("{sign} marks a capture, but {hex} is empty"), sign=separator, hex=HEX_NAMES[target])
        raise IllegalMoveError(message, token=token)
    if separator == CAPTURE and special:
        tolerate(f"{CAPTURE} written for an en passant or scornful capture (@)")
    if separator in ("@", "@@") and not special:
        message = Message(N_("{sign} is only for en passant and scornful captures"), sign=separator)
        raise IllegalMoveError(message, token=token)
    if separator in ("@", "@@") and move.kind == EN_PASSANT:
        state = position.special
        assert isinstance(state, EnPassant)
        expected = "@@" if len(state.crossed) == 2 and target == state.crossed[0] else "@"
        if separator != expected:
            tolerate(f"{separator} written for {expected}")
    if separator == "@@" and move.kind == SCORNFUL_CAPTURE:
        tolerate("@@ written for a scornful capture (@)")
    written_captured = match.group("captured")
    if captured:
        victim = captured[1].type
        if written_captured is None:
            if victim != PAWN:
                tolerate(f"the captured {NAMES[victim]} is not named ({LETTERS[victim]})")
        else:
            kind = letters.resolve(written_captured, token)
            if kind != victim:
                message = Message(
                    N_("the piece captured on {hex} is {a_piece}, not {another}"),
                    hex=HEX_NAMES[captured[0]],
                    a_piece=a(victim),
                    another=a(kind),
                )
                raise IllegalMoveError(message, token=token)
            if victim == PAWN:
                tolerate("a captured pawn is not named")
    return move


def explain_illegal(position: Position, origin: int, target: int) -> Message:
    """Say in words why the piece on ``origin`` cannot go to ``target`` (``str()`` of it is English)."""
    piece = position.piece_at(origin)
    assert piece is not None
    legal = position.legal_moves()
    forced = [m for m in legal if m.kind == IN_PLACE_PROMOTION]
    if forced:
        hexes = ", ".join(sorted({HEX_NAMES[m.origin] for m in forced}))
        return Message(
            N_("a pawn awaiting promotion must be promoted this turn (on {hexes}, e.g. {example})"),
            hexes=hexes,
            example=str(forced[0]),
        )
    if not position.pseudo_legal(origin, target):
        template = N_("{the_piece} on {hex} cannot go to {target}")
    elif position.is_check():
        template = N_("{the_piece} on {hex} cannot go to {target}: the King is in check and stays in check")
    else:
        template = N_("{the_piece} on {hex} cannot go to {target}: it would leave its King in check")
    return Message(template, the_piece=the(piece.type), hex=HEX_NAMES[origin], target=HEX_NAMES[target])


def _check_mark_coherence(
    position: Position, move: Move, written: str, token: str, strict: bool, warnings: list[str]
) -> None:
    """NOTATION.md 4.4: a wrong check mark is reported, not fatal (except in strict mode)."""
    actual = check_mark(position, move)
    if written == actual or (written == "+" and actual in ("++", "+^", AFAR)):
        return
    if not actual:
        message = f"{written} but the move gives no check"
    elif not written:
        message = f"the move gives {'mate' if actual == '#' else 'check'} but has no mark ({actual})"
    else:
        message = f"{written} written where {actual} is right"
    if strict:
        raise IllegalMoveError(message, token=token)
    warnings.append(printable(f"{token}: {message}"))


__all__ = [
    "CAPTURE",
    "ParsedMove",
    "check_mark",
    "explain_illegal",
    "normalise",
    "normalise_typed",
    "parse_move",
    "write_move",
]
