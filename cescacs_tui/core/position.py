"""A C'escacs position and its legal moves.

:class:`Position` holds the complete game state of RULES.md 12 and generates
legal moves the way fast chess programs do: instead of playing every
pseudo-legal move and testing the King, it finds the checking pieces and the
pinned pieces once per position and filters with them.  Only the rare moves
that can uncover a line in unusual ways (en passant, castling, and every move
when a King's leap is what gives check) are played and tested.

The board is a list of 169 integers: 0 for an empty hex, the piece type for a
White piece, the negated type for a Black one.  ``push``/``pop`` change it in
place and keep an undo stack, so searching (perft, a future engine) never
copies a position.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from . import notation as _notation
from . import pdtl as _pdtl
from .errors import IllegalMoveError, PDTLError
from .geometry import (
    ALL_RAYS,
    DIAGONAL_RAYS,
    ELEPHANT_FAR,
    ELEPHANT_FAR_ATTACKER,
    ELEPHANT_NEAR,
    ELEPHANT_NEAR_ATTACKERS,
    FACING,
    HEX_COLOUR,
    HEX_COUNT,
    IS_PROMOTION,
    KNIGHT,
    KNIGHT_SET,
    NEIGHBOUR_SET,
    NEIGHBOURS,
    ORTHOGONAL_RAYS,
    PAWN_ATTACKERS,
    PAWN_CAPTURES,
    PAWN_FORWARD,
    PAWN_OBLIQUE,
    PROMOTION_HEXES,
    RIDES,
)
from .message import N_, Message
from .move import (
    CASTLING,
    CASTLING_BY_TOKEN,
    CASTLINGS,
    EN_PASSANT,
    IN_PLACE_PROMOTION,
    MULTI_STEP,
    NORMAL,
    SCORNFUL_CAPTURE,
    SCORNFUL_STEP,
    Move,
)
from .outcome import FIFTY_MOVE_PLIES, SEVENTY_FIVE_MOVE_PLIES, Ending, Outcome
from .pieces import (
    BISHOP_CODE,
    BLACK,
    ELEPHANT_CODE,
    INITIAL_COUNTS,
    KING_CODE,
    KNIGHT_CODE,
    PAWN_CODE,
    PEGASUS_CODE,
    QUEEN_CODE,
    REGAINABLE,
    ROOK_CODE,
    WYVERN_CODE,
    Colour,
    Piece,
    PieceType,
)
from .state import RIGHT_KING, RIGHT_KINGS_ROOK, RIGHT_QUEENS_ROOK, RIGHTS_KEPT, SIDE_RIGHTS, EnPassant, Scornful

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer in the compiled build (docs/engine.md, Speed); int here

INITIAL_PDTL: Final = (
    "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3"
    "/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1"
)
"""The start position (RULES.md 4.3)."""

_SIGN: Final = (1, -1)
_ORTHOGONAL_SLIDERS: Final = tuple(frozenset(s * t for t in (ROOK_CODE, WYVERN_CODE, QUEEN_CODE)) for s in _SIGN)
_DIAGONAL_SLIDERS: Final = tuple(frozenset(s * t for t in (BISHOP_CODE, PEGASUS_CODE, QUEEN_CODE)) for s in _SIGN)
_ByCode = tuple[frozenset[int] | set[int], ...]
"""Sets of hexes by piece code (index 0 unused)."""
_JUMPERS: Final = tuple(frozenset(s * t for t in (KNIGHT_CODE, WYVERN_CODE, PEGASUS_CODE)) for s in _SIGN)

_SLIDES: Final[dict[int, tuple[tuple[tuple[int, ...], ...], ...]]] = {
    ROOK_CODE: ORTHOGONAL_RAYS,
    WYVERN_CODE: ORTHOGONAL_RAYS,
    BISHOP_CODE: DIAGONAL_RAYS,
    PEGASUS_CODE: DIAGONAL_RAYS,
    QUEEN_CODE: ALL_RAYS,
}
"""Per line piece, the rays it slides along (per hex)."""

MoveTuple = tuple[int, int, int, int, "str | None"]
StateKey = tuple[tuple[int, ...], int, int, "EnPassant | Scornful | None"]
"""What makes two positions the same for repetition: see :meth:`Position.state_key`."""
PromotionPool = tuple[list[int], set[int]]
"""What a side may regain: counts per piece type, and the hex colours of its captured Bishops."""
"""The generator's plain-tuple form of a :class:`Move` (same fields, no class overhead)."""


class CheckKind(StrEnum):
    """The kinds of check of RULES.md 9.4, which CTL-AN marks ``+^``, ``+∞`` and ``++``."""

    ADJOINING = "adjoining"
    """One checking piece, adjacent to the King or a knight jump away."""
    AFAR = "afar"
    """One checking piece further away on a line: the check can be blocked."""
    DOUBLE = "double"
    """Two or more checking pieces: only a King move helps."""


class RegainablePiece(NamedTuple):
    """A captured piece that a pawn could bring back (RULES.md 7.1).

    ``hex_colour`` is set for Bishops only: the tile colour they are bound to.
    """

    type: PieceType
    hex_colour: int | None = None


class CastlingRights(NamedTuple):
    """One side's castling rights as PDTL records them (RULES.md 12)."""

    king: bool
    """The King has never moved: it may leap, and castle if a Rook may."""
    queens_rook: bool
    kings_rook: bool


class Position:
    """The state of a C'escacs game at one moment, with its legal moves.

    Create one with :meth:`initial` or :meth:`from_pdtl`.  ``castling=False``
    plays the beginners' option of RULES.md 11.1 (no castling, and a King's
    leap that may not capture).
    """

    __slots__ = (
        "_board",
        "_kings",
        "_pieces",
        "_rights",
        "_special",
        "_stack",
        "_turn",
        "castling_enabled",
        "fullmove_number",
        "halfmove_clock",
    )

    def __init__(self) -> None:
        self._board: list[int] = [0] * HEX_COUNT
        self._turn = 0  # a plain int (0 White, 1 Black): it indexes every per-side table
        self._rights = 0
        self._special: EnPassant | Scornful | None = None
        self.halfmove_clock = 0
        """Half-moves since the last pawn move or capture (RULES.md 10.4)."""
        self.fullmove_number: int | None = 1
        """The number of the current move, ``None`` when unknown (PDTL ``?``)."""
        self.castling_enabled = True
        self._pieces: tuple[set[int], set[int]] = (set(), set())
        self._kings = [-1, -1]
        self._stack: list[tuple[Any, ...]] = []

    # --- construction ---------------------------------------------------------

    @classmethod
    def initial(cls, *, castling: bool = True) -> Position:
        """The start position (RULES.md 4.3).

        A copy of one position read once: every game and every record without
        a PDTL tag starts here, and copying is ten times faster than reading.
        """
        position = _start_position().copy()
        position.castling_enabled = castling
        return position

    @classmethod
    def from_pdtl(
        cls,
        text: str,
        *,
        strict: bool = False,
        castling: bool = True,
        letters: _pdtl.Letters | None = None,
        warnings: list[str] | None = None,
        notes: list[Message] | None = None,
    ) -> Position:
        """Read a position from PDTL (NOTATION.md 5).

        A tolerant reader by default: forms that NOTATION.md lets a reader
        accept with a warning (legacy castling and special fields, entries
        out of order, rights that cannot be used...) are accepted, and a
        sentence about each is appended to ``warnings`` when a list is given
        (and to ``notes`` as a :class:`Message`, for a player in any language).
        With ``strict=True`` they raise :class:`PDTLError`, like everything
        that is plainly wrong; no other exception escapes.  ``letters`` maps
        the piece letters a ``Redefine`` tag declared.
        """
        setup = _pdtl.parse_pdtl(text, strict=strict, letters=letters)
        position = cls()
        position.castling_enabled = castling
        for h, code in enumerate(setup.board):
            if code:
                position._board[h] = code
                position._pieces[0 if code > 0 else 1].add(h)
                if abs(code) == KING_CODE:
                    position._kings[0 if code > 0 else 1] = h
        position._turn = setup.turn
        position._rights = setup.rights
        position._special = setup.special
        position.halfmove_clock = setup.halfmove_clock
        position.fullmove_number = setup.fullmove_number
        them = 1 - setup.turn
        if position._attacked(position._kings[them], setup.turn):
            said = Message(N_("{side}, who is not to move, is in check: the position cannot arise"), side=Colour(them))
            raise PDTLError(said, field="position")
        if warnings is not None:
            warnings.extend(setup.warnings)
        if notes is not None:
            notes.extend(setup.notes)
        return position

    def copy(self) -> Position:
        """An independent copy of the current state (without the move history)."""
        other = Position()
        other._board = self._board.copy()
        other._turn = self._turn
        other._rights = self._rights
        other._special = self._special
        other.halfmove_clock = self.halfmove_clock
        other.fullmove_number = self.fullmove_number
        other.castling_enabled = self.castling_enabled
        other._pieces = (set(self._pieces[0]), set(self._pieces[1]))
        other._kings = list(self._kings)
        return other

    def to_pdtl(self, *, fan: bool = False) -> str:
        """The position in canonical PDTL; ``fan`` writes CTL-FAN glyphs instead of letters."""
        return _pdtl.format_pdtl(
            self._board,
            self._turn,
            self._rights,
            self._special,
            self.halfmove_clock,
            self.fullmove_number,
            fan=fan,
        )

    # --- reading the state -------------------------------------------------

    @property
    def turn(self) -> Colour:
        """The side to move."""
        return Colour(self._turn)

    @property
    def special(self) -> EnPassant | Scornful | None:
        """The pending en passant or scornful capture state, if any."""
        return self._special

    def piece_at(self, h: int) -> Piece | None:
        """The piece on hex ``h``, or ``None``."""
        code = self._board[h]
        return Piece.from_code(code) if code else None

    def pieces(self, colour: Colour | None = None) -> Iterator[tuple[int, Piece]]:
        """``(hex, piece)`` for every piece (of one side), in hex order."""
        sides = (0, 1) if colour is None else (colour,)
        for h in sorted(h for side in sides for h in self._pieces[side]):
            yield h, Piece.from_code(self._board[h])

    def king(self, colour: Colour) -> int:
        """The hex of ``colour``'s King."""
        return self._kings[colour]

    def castling_rights(self, colour: Colour) -> CastlingRights:
        rights = self._rights
        return CastlingRights(
            bool(rights & RIGHT_KING[colour]),
            bool(rights & RIGHT_QUEENS_ROOK[colour]),
            bool(rights & RIGHT_KINGS_ROOK[colour]),
        )

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed onto this position, oldest first."""
        return [Move._make(entry[0]) for entry in self._stack]

    def state_key(self) -> StateKey:
        """What makes two positions "the same" for repetition (RULES.md 10.3-4).

        The pieces, the side to move, the castling rights and the special pawn
        capture, which counts only when such a capture is actually legal.
        """
        special = self._special
        if special is not None:
            if isinstance(special, EnPassant):
                kinds: tuple[int, ...] = (EN_PASSANT,)
            else:
                kinds = (SCORNFUL_CAPTURE,)
            if not any(m[2] in kinds for m in self._legal()):
                special = None
        return (tuple(self._board), self._turn, self._rights, special)

    def __eq__(self, other: object) -> bool:
        """Equal when the whole PDTL state is equal (history is not compared)."""
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._board == other._board
            and self._turn == other._turn
            and self._rights == other._rights
            and self._special == other._special
            and self.halfmove_clock == other.halfmove_clock
            and self.fullmove_number == other.fullmove_number
            and self.castling_enabled == other.castling_enabled
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Position.from_pdtl({self.to_pdtl()!r})"

    # --- regaining pieces ------------------------------------------------------

    def _pool(self, side: int) -> PromotionPool:
        """Counts of ``side``'s pieces by type, and the tile colours of its Bishops."""
        board = self._board
        counts = [0] * 10
        bishop_colours: set[int] = set()
        for h in self._pieces[side]:
            kind = abs(board[h])
            counts[kind] += 1
            if kind == BISHOP_CODE:
                bishop_colours.add(HEX_COLOUR[h])
        return counts, bishop_colours

    @staticmethod
    def _eligible_from(pool: PromotionPool, hex_colour: int) -> list[int]:
        counts, bishop_colours = pool
        out: list[int] = [kind for kind in REGAINABLE if kind != BISHOP_CODE and counts[kind] < INITIAL_COUNTS[kind]]
        if hex_colour not in bishop_colours:
            out.append(BISHOP_CODE)
        return out

    def eligible_promotions(self, colour: Colour, h: int) -> list[PieceType]:
        """The pieces a pawn of ``colour`` promoting on hex ``h`` may become (RULES.md 7.1)."""
        return [PieceType(k) for k in self._eligible_from(self._pool(colour), HEX_COLOUR[h])]

    def regainable(self, colour: Colour) -> list[RegainablePiece]:
        """The captured pieces ``colour`` could regain, Bishops with their tile colour."""
        counts, bishop_colours = self._pool(colour)
        out: list[RegainablePiece] = []
        for kind in REGAINABLE:
            if kind == BISHOP_CODE:
                out.extend(RegainablePiece(PieceType.BISHOP, c) for c in (0, 1, 2) if c not in bishop_colours)
            else:
                out.extend(RegainablePiece(kind) for _ in range(INITIAL_COUNTS[kind] - counts[kind]))
        return out

    def awaiting_pawns(self, colour: Colour) -> list[int]:
        """Hexes of ``colour``'s pawns that stand on their promotion hex (RULES.md 7.3)."""
        code = _SIGN[colour] * PAWN_CODE
        return [h for h in PROMOTION_HEXES[colour] if self._board[h] == code]

    # --- attacks and check -----------------------------------------------------

    def _attacked(self, h: int, by: int, leap: bool = True) -> bool:
        """Is hex ``h`` attacked by side ``by`` (RULES.md 9.1)?

        ``leap=False`` leaves out the attack of an unmoved King's leap; it is
        used to ask whether that King is itself in check, which suspends it.
        """
        board = self._board
        sign: i64 = _SIGN[by]
        for x in PAWN_ATTACKERS[by][h]:
            if board[x] == sign:
                return True
        elephant = sign * ELEPHANT_CODE
        for x in ELEPHANT_NEAR_ATTACKERS[by][h]:
            if board[x] == elephant:
                return True
        far = ELEPHANT_FAR_ATTACKER[by][h]
        if far is not None and board[far[0]] == elephant and not board[far[1]]:
            return True
        jumpers = _JUMPERS[by]
        for x in KNIGHT[h]:
            if board[x] in jumpers:
                return True
        king = self._kings[by]
        if king in NEIGHBOUR_SET[h]:
            return True
        if (
            leap
            and self._rights & RIGHT_KING[by]
            and self.castling_enabled
            and h in KNIGHT_SET[king]
            and not self._attacked(king, 1 - by, False)
        ):
            return True
        sliders = _ORTHOGONAL_SLIDERS[by]
        for ray in ORTHOGONAL_RAYS[h]:
            for x in ray:
                if board[x]:
                    if board[x] in sliders:
                        return True
                    break
        sliders = _DIAGONAL_SLIDERS[by]
        for ray in DIAGONAL_RAYS[h]:
            for x in ray:
                if board[x]:
                    if board[x] in sliders:
                        return True
                    break
        return False

    def is_attacked(self, h: int, by: Colour) -> bool:
        """Whether side ``by`` attacks hex ``h`` (pins do not matter, RULES.md 9.1)."""
        return self._attacked(h, by)

    def _checkers(self, king: int, by: int) -> list[tuple[int, frozenset[int] | None]]:
        """The pieces of ``by`` attacking the King on ``king``.

        Each comes with the hexes where a move answers it (the checker's hex
        and, for a line piece, the hexes between), or ``None`` for an unmoved
        King's leap, which no capture or block can answer.
        """
        board = self._board
        sign: i64 = _SIGN[by]
        out: list[tuple[int, frozenset[int] | None]] = []
        for x in PAWN_ATTACKERS[by][king]:
            if board[x] == sign:
                out.append((x, frozenset((x,))))
        elephant = sign * ELEPHANT_CODE
        for x in ELEPHANT_NEAR_ATTACKERS[by][king]:
            if board[x] == elephant:
                out.append((x, frozenset((x,))))
        far = ELEPHANT_FAR_ATTACKER[by][king]
        if far is not None and board[far[0]] == elephant and not board[far[1]]:
            out.append((far[0], frozenset(far)))
        jumpers = _JUMPERS[by]
        for x in KNIGHT[king]:
            if board[x] in jumpers:
                out.append((x, frozenset((x,))))
        other_king = self._kings[by]
        if other_king in NEIGHBOUR_SET[king]:
            out.append((other_king, frozenset((other_king,))))
        elif (
            self._rights & RIGHT_KING[by]
            and self.castling_enabled
            and king in KNIGHT_SET[other_king]
            and not self._attacked(other_king, 1 - by, False)
        ):
            out.append((other_king, None))
        for rays, sliders in (
            (ORTHOGONAL_RAYS[king], _ORTHOGONAL_SLIDERS[by]),
            (DIAGONAL_RAYS[king], _DIAGONAL_SLIDERS[by]),
        ):
            for ray in rays:
                for i, x in enumerate(ray):
                    if board[x]:
                        if board[x] in sliders:
                            out.append((x, frozenset(ray[: i + 1])))
                        break
        return out

    def checkers(self) -> list[int]:
        """Hexes of the pieces giving check to the side to move."""
        return [h for h, _ in self._checkers(self._kings[self._turn], 1 - self._turn)]

    def check_lines(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pieces giving check to the side to move, each with the hexes between it and the King.

        A piece put on one of those hexes blocks that check (RULES.md 9.3): a
        line piece's, or an Elephant's two-hex step's.  An adjacent checker, a
        knight jump and the King's leap have none: they cannot be blocked.
        The hexes come in board order, which is their order along the line.
        """
        king = self._kings[self._turn]
        return [
            (x, () if answers is None else tuple(sorted(answers - {x})))
            for x, answers in self._checkers(king, 1 - self._turn)
        ]

    def attackers(self, h: int, by: Colour) -> list[int]:
        """Hexes of the pieces of ``by`` that attack hex ``h``, in hex order (RULES.md 9.1: pins do not matter).

        Exactly the attacks :meth:`is_attacked` sees, the unmoved King's leap
        included, so a front end can say *what* attacks a hex, not only whether.
        """
        return sorted({x for x, _ in self._checkers(h, by)})

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return self._attacked(self._kings[self._turn], 1 - self._turn)

    def check_kind(self) -> CheckKind | None:
        """The kind of the check the side to move is in, or ``None`` (RULES.md 9.4)."""
        king = self._kings[self._turn]
        found = self._checkers(king, 1 - self._turn)
        if not found:
            return None
        if len(found) > 1:
            return CheckKind.DOUBLE
        checker = found[0][0]
        if checker in NEIGHBOUR_SET[king] or checker in KNIGHT_SET[king]:
            return CheckKind.ADJOINING
        return CheckKind.AFAR

    # --- move generation -------------------------------------------------------

    def _pins(self, king: int, us: int) -> dict[int, frozenset[int]]:
        """Own pieces pinned against the King, each with the hexes it may still move to."""
        board = self._board
        sign: i64 = _SIGN[us]
        them = 1 - us
        pins: dict[int, frozenset[int]] = {}
        for rays, sliders in (
            (ORTHOGONAL_RAYS[king], _ORTHOGONAL_SLIDERS[them]),
            (DIAGONAL_RAYS[king], _DIAGONAL_SLIDERS[them]),
        ):
            for ray in rays:
                blocker = -1
                for i, x in enumerate(ray):
                    piece = board[x]
                    if not piece:
                        continue
                    if blocker >= 0:
                        if piece in sliders:
                            pins[blocker] = frozenset(ray[: i + 1])
                        break
                    if piece * sign < 0:
                        break
                    blocker = x
        far = ELEPHANT_FAR_ATTACKER[them][king]
        if far is not None and board[far[0]] == -sign * ELEPHANT_CODE and board[far[1]] * sign > 0:
            pins[far[1]] = frozenset((far[0],))
        return pins

    def _add_arrival(
        self,
        moves: list[MoveTuple],
        origin: int,
        target: int,
        kind: int,
        pool: list[PromotionPool],
    ) -> None:
        """Add a pawn move, expanded into one move per regainable piece on a promotion hex."""
        if not IS_PROMOTION[self._turn][target]:
            moves.append((origin, target, kind, 0, None))
            return
        if not pool:
            pool.append(self._pool(self._turn))
        eligible = self._eligible_from(pool[0], HEX_COLOUR[target])
        if eligible:
            for piece in eligible:
                moves.append((origin, target, kind, piece, None))
        else:
            moves.append((origin, target, kind, 0, None))  # the pawn awaits promotion

    def _piece_moves(self, moves: list[MoveTuple], pieces: Iterable[int] | None = None) -> None:
        """Pseudo-legal moves of every piece but the King (of those on ``pieces``, own pieces' hexes), and no en
        passant."""
        board = self._board
        us = self._turn
        sign: i64 = _SIGN[us]
        is_promotion = IS_PROMOTION[us]
        pool: list[PromotionPool] = []  # filled on demand by _add_arrival
        for h in self._pieces[us] if pieces is None else pieces:
            kind = board[h] * sign
            if kind == PAWN_CODE:
                forward = PAWN_FORWARD[us][h]
                if forward and not board[forward[0]]:
                    x = forward[0]
                    if is_promotion[x]:
                        self._add_arrival(moves, h, x, NORMAL, pool)
                    else:
                        moves.append((h, x, NORMAL, 0, None))
                    for x in forward[1:]:
                        if board[x]:
                            break
                        if is_promotion[x]:
                            self._add_arrival(moves, h, x, MULTI_STEP, pool)
                        else:
                            moves.append((h, x, MULTI_STEP, 0, None))
                facing = FACING[us][h]
                step = SCORNFUL_STEP if facing is not None and board[facing] == -sign else NORMAL
                for x in PAWN_OBLIQUE[us][h]:
                    if not board[x]:
                        if is_promotion[x]:
                            self._add_arrival(moves, h, x, step, pool)
                        else:
                            moves.append((h, x, step, 0, None))
                for x in PAWN_CAPTURES[us][h]:
                    if board[x] * sign < 0:
                        if is_promotion[x]:
                            self._add_arrival(moves, h, x, NORMAL, pool)
                        else:
                            moves.append((h, x, NORMAL, 0, None))
            elif kind == KING_CODE:
                continue
            elif kind == KNIGHT_CODE:
                for x in KNIGHT[h]:
                    if board[x] * sign <= 0:
                        moves.append((h, x, NORMAL, 0, None))
                for middle, x in RIDES[h]:
                    if not board[middle] and not board[x]:
                        moves.append((h, x, NORMAL, 0, None))
            elif kind == ELEPHANT_CODE:
                for x in ELEPHANT_NEAR[us][h]:
                    if board[x] * sign <= 0:
                        moves.append((h, x, NORMAL, 0, None))
                far = ELEPHANT_FAR[us][h]
                if far is not None and not board[far[0]] and board[far[1]] * sign <= 0:
                    moves.append((h, far[1], NORMAL, 0, None))
            else:
                for ray in _SLIDES[kind][h]:
                    for x in ray:
                        piece = board[x]
                        if not piece:
                            moves.append((h, x, NORMAL, 0, None))
                        else:
                            if piece * sign < 0:
                                moves.append((h, x, NORMAL, 0, None))
                            break
                if kind in (PEGASUS_CODE, WYVERN_CODE):
                    for x in KNIGHT[h]:
                        if board[x] * sign <= 0:
                            moves.append((h, x, NORMAL, 0, None))

    def _piece_captures(self, moves: list[MoveTuple]) -> None:
        """Pseudo-legal captures and promotions of every piece but the King, and no en passant.

        The same moves as :meth:`_piece_moves` keeps after dropping the quiet
        ones, found without generating those: a quiescence search asks for
        little else.
        """
        board = self._board
        us = self._turn
        sign: i64 = _SIGN[us]
        is_promotion = IS_PROMOTION[us]
        pool: list[PromotionPool] = []  # filled on demand
        for h in self._pieces[us]:
            kind = board[h] * sign
            if kind == PAWN_CODE:
                for x in PAWN_CAPTURES[us][h]:
                    if board[x] * sign < 0:
                        if is_promotion[x]:
                            self._add_arrival(moves, h, x, NORMAL, pool)
                        else:
                            moves.append((h, x, NORMAL, 0, None))
                step = NORMAL
                for x in PAWN_FORWARD[us][h]:
                    if board[x]:
                        break
                    if is_promotion[x]:
                        self._add_promotions(moves, h, x, step, pool)
                    step = MULTI_STEP
                for x in PAWN_OBLIQUE[us][h]:
                    if is_promotion[x] and not board[x]:
                        facing = FACING[us][h]
                        scornful = facing is not None and board[facing] == -sign
                        self._add_promotions(moves, h, x, SCORNFUL_STEP if scornful else NORMAL, pool)
            elif kind == KING_CODE:
                continue
            elif kind == KNIGHT_CODE:
                for x in KNIGHT[h]:
                    if board[x] * sign < 0:
                        moves.append((h, x, NORMAL, 0, None))
            elif kind == ELEPHANT_CODE:
                for x in ELEPHANT_NEAR[us][h]:
                    if board[x] * sign < 0:
                        moves.append((h, x, NORMAL, 0, None))
                far = ELEPHANT_FAR[us][h]
                if far is not None and not board[far[0]] and board[far[1]] * sign < 0:
                    moves.append((h, far[1], NORMAL, 0, None))
            else:
                for ray in _SLIDES[kind][h]:
                    for x in ray:
                        piece = board[x]
                        if piece:
                            if piece * sign < 0:
                                moves.append((h, x, NORMAL, 0, None))
                            break
                if kind in (PEGASUS_CODE, WYVERN_CODE):
                    for x in KNIGHT[h]:
                        if board[x] * sign < 0:
                            moves.append((h, x, NORMAL, 0, None))

    def _add_promotions(
        self, moves: list[MoveTuple], origin: int, target: int, kind: int, pool: list[PromotionPool]
    ) -> None:
        """Add a quiet pawn arrival on a promotion hex, once per regainable piece (none if it would await)."""
        if not pool:
            pool.append(self._pool(self._turn))
        for piece in self._eligible_from(pool[0], HEX_COLOUR[target]):
            moves.append((origin, target, kind, piece, None))

    def _special_captures(self, moves: list[MoveTuple], origin: int | None = None) -> None:
        """Pseudo-legal en passant and scornful captures (RULES.md 6.4, 6.5), only the pawn's on ``origin`` if given."""
        special = self._special
        if special is None:
            return
        board = self._board
        us = self._turn
        sign: i64 = _SIGN[us]
        if isinstance(special, EnPassant):
            for x in special.crossed:
                if board[x]:
                    continue
                for y in PAWN_ATTACKERS[us][x]:
                    if board[y] == sign and (origin is None or y == origin):
                        moves.append((y, x, EN_PASSANT, 0, None))
        elif board[special.pawn] * sign < 0:
            for y in special.capturers:
                if board[y] == sign and (origin is None or y == origin):
                    self._add_arrival(moves, y, special.pawn, SCORNFUL_CAPTURE, [])

    def _king_moves(
        self, moves: list[MoveTuple], king: int, in_check: bool, captures_only: bool = False, first: bool = False
    ) -> None:
        """Legal King steps and leaps (only the captures if asked), each tested with the King really on its target;
        with ``first``, only the first found (whether the King can move is all :meth:`has_legal_moves` asks)."""
        board = self._board
        us = self._turn
        them = 1 - us
        sign: i64 = _SIGN[us]
        code = sign * KING_CODE
        targets: tuple[int, ...] = NEIGHBOURS[king]
        if not in_check and self._rights & RIGHT_KING[us]:
            if self.castling_enabled:
                targets = targets + KNIGHT[king]
            else:  # the beginners' leap may not capture (RULES.md 11.1)
                targets = targets + tuple(x for x in KNIGHT[king] if not board[x])
        if captures_only:
            targets = tuple(x for x in targets if board[x] * sign < 0)
        kings = self._kings
        board[king] = 0
        for x in targets:
            captured = board[x]
            if captured * sign > 0:
                continue
            board[x] = code
            kings[us] = x
            if not self._attacked(x, them):
                moves.append((king, x, NORMAL, 0, None))
                if first:
                    board[x] = captured
                    break
            board[x] = captured
        board[king] = code
        kings[us] = king

    def _castlings(self, moves: list[MoveTuple], king: int) -> None:
        """Legal castlings, assuming the King is not in check (RULES.md 8.4)."""
        us = self._turn
        rights = self._rights
        if not (rights & RIGHT_KING[us]) or not self.castling_enabled:
            return
        board = self._board
        rook = _SIGN[us] * ROOK_CODE
        them = 1 - us
        for castling in CASTLINGS[us]:
            if rights & castling.rights != castling.rights or board[castling.king_to]:
                continue
            if any(board[rook_from] != rook or any(board[x] for x in path) for rook_from, _, path in castling.rooks):
                continue
            if self._attacked(castling.king_to, them):
                continue
            move = (king, castling.king_to, CASTLING, 0, castling.token)
            if self._safe_after(move):
                moves.append(move)

    def _safe_after(self, move: MoveTuple) -> bool:
        """Play ``move`` and report whether the mover's King is then unattacked."""
        us = self._turn
        self.push(move)
        safe = not self._attacked(self._kings[us], 1 - us)
        self.pop()
        return safe

    def _forced_promotions(self) -> list[MoveTuple]:
        """The in-place promotions of a forced promotion turn (RULES.md 7.4), assuming no check."""
        us = self._turn
        sign: i64 = _SIGN[us]
        board = self._board
        awaiting = [h for h in PROMOTION_HEXES[us] if board[h] == sign]
        if not awaiting:
            return []
        pool = self._pool(us)
        return [
            (h, h, IN_PLACE_PROMOTION, piece, None)
            for h in awaiting
            for piece in self._eligible_from(pool, HEX_COLOUR[h])
        ]

    def _legal(self, origin: int | None = None, *, king_steps: bool = True) -> list[MoveTuple]:
        """All legal moves as plain tuples (RULES.md 9.3).

        With ``origin``, only those that start on that hex (a castling starts
        on the King's), in the same order: the other pieces' moves are not
        generated, which makes reading a move cheap.  Without ``king_steps``,
        the King's steps and leaps are left out (its castlings are not).
        """
        us = self._turn
        king = self._kings[us]
        checkers = self._checkers(king, 1 - us)

        if not checkers:
            forced = self._forced_promotions()
            if forced:
                return forced if origin is None else [m for m in forced if m[0] == origin]

        pieces: Iterable[int] = self._pieces[us]
        kings = True
        if origin is not None:
            pieces = (origin,) if origin != king and origin in pieces else ()
            kings = origin == king

        moves: list[MoveTuple] = []
        if any(answer is None for _, answer in checkers):
            # A King's leap gives check.  Giving check back suspends it, so no
            # shortcut applies: try every move (this is very rare).
            self._piece_moves(moves, pieces)
            self._special_captures(moves, origin)
            candidates = moves
            moves = []
            if kings and king_steps:
                self._king_moves(moves, king, True)
            return moves + [m for m in candidates if self._safe_after(m)]

        if len(checkers) < 2:
            self._piece_moves(moves, pieces)
            self._special_captures(moves, origin)
            pins = self._pins(king, us)
            if checkers:
                answers = checkers[0][1]
                assert answers is not None
                moves = [
                    m
                    for m in moves
                    if m[2] == EN_PASSANT or (m[1] in answers and (m[0] not in pins or m[1] in pins[m[0]]))
                ]
            elif pins:
                moves = [m for m in moves if m[0] not in pins or m[1] in pins[m[0]] or m[2] == EN_PASSANT]
            if self._special is not None and isinstance(self._special, EnPassant):
                moves = [m for m in moves if m[2] != EN_PASSANT or self._safe_after(m)]
        else:
            candidates = []
            self._special_captures(candidates, origin)
            moves = [m for m in candidates if m[2] == EN_PASSANT and self._safe_after(m)]
        if kings:
            if king_steps:
                self._king_moves(moves, king, bool(checkers))
            if not checkers:
                self._castlings(moves, king)
        return moves

    def _noisy(self) -> list[MoveTuple]:
        """The legal captures and promotions: what :meth:`noisy_tuples` returns."""
        us = self._turn
        king = self._kings[us]
        if self._checkers(king, 1 - us):
            return [m for m in self._legal() if self._is_noisy(m)]
        forced = self._forced_promotions()
        if forced:
            return forced
        moves: list[MoveTuple] = []
        self._piece_captures(moves)
        self._special_captures(moves)
        pins = self._pins(king, us)
        if pins:
            moves = [m for m in moves if m[0] not in pins or m[1] in pins[m[0]] or m[2] == EN_PASSANT]
        if isinstance(self._special, EnPassant):
            moves = [m for m in moves if m[2] != EN_PASSANT or self._safe_after(m)]
        self._king_moves(moves, king, False, captures_only=True)
        return moves

    def _is_noisy(self, move: MoveTuple) -> bool:
        """Whether ``move`` captures something or promotes a pawn to a regained piece."""
        kind = move[2]
        if move[3] or kind in (EN_PASSANT, SCORNFUL_CAPTURE):
            return True
        return kind != CASTLING and self._board[move[1]] * _SIGN[self._turn] < 0

    def pseudo_legal(self, origin: int, target: int) -> bool:
        """Whether a piece of the side to move could go from ``origin`` to ``target``
        by its movement rules alone, ignoring what that does to its own King.

        Used to explain why a move is illegal.
        """
        moves: list[MoveTuple] = []
        self._piece_moves(moves)
        self._special_captures(moves)
        if any(m[0] == origin and m[1] == target for m in moves):
            return True
        us = self._turn
        if origin != self._kings[us] or self._board[target] * _SIGN[us] > 0:
            return False
        return target in NEIGHBOUR_SET[origin] or bool(self._rights & RIGHT_KING[us] and target in KNIGHT_SET[origin])

    def legal_moves(self, origin: int | None = None) -> list[Move]:
        """Every legal move in the position (RULES.md 9.3).

        With ``origin``, the legal moves of the piece on that hex (the King's
        include its castlings), in the same order as in the whole list:
        generated alone, so this is cheap.
        """
        return [Move._make(m) for m in self._legal(origin)]

    def is_legal(self, move: Move) -> bool:
        return tuple(move) in self._legal(move[0])

    def has_legal_moves(self) -> bool:
        """Whether the side to move has a legal move (else it is mated or stalemated).

        A King's move, when there is one, is found before any other piece's
        move is generated: most checks are answered so, and a mate search
        asks this after every check.
        """
        return self._can_move(self._attacked(self._kings[self._turn], 1 - self._turn))

    def _can_move(self, in_check: bool) -> bool:
        """:meth:`has_legal_moves`, told whether the side to move is in check (as a mate search knows)."""
        king = self._kings[self._turn]
        if not in_check and self._forced_promotions():
            return True  # a forced promotion turn: only the promotions are legal, and there are some
        moves: list[MoveTuple] = []
        self._king_moves(moves, king, in_check, first=True)
        return bool(moves) or bool(self._legal())

    # --- for search engines ------------------------------------------------------
    #
    # A search plays millions of moves: it works with the generator's plain
    # tuples (a ``Move`` is built only for the moves it reports) and reads the
    # board in place.  Everything here is exact, like the rest of the class.

    def legal_tuples(self) -> list[MoveTuple]:
        """Every legal move as a plain tuple (the fields of :class:`Move`), without building ``Move`` objects."""
        return self._legal()

    def noisy_tuples(self) -> list[MoveTuple]:
        """The legal moves that capture or promote, for a quiescence search.

        Exactly the legal moves that capture a piece (en passant, scornful and
        King's-leap captures included) or bring back a regained piece (in-place
        promotions included; a pawn arriving to await promotion is quiet).
        When not in check they are generated directly, without the quiet moves.
        """
        return self._noisy()

    def giving_check(self, moves: Iterable[MoveTuple]) -> list[MoveTuple]:
        """Those of ``moves`` (legal moves here) that give check, in their order: for a mate search.

        Only a move that could give check is played to see whether it does,
        and not even played when it does for certain: see
        :meth:`_check_candidates`.
        """
        us = self._turn
        target = self._kings[1 - us]
        out: list[MoveTuple] = []
        for _, move, certain in self._check_candidates(list(moves)):
            if not certain:
                self.push(move)
                checks = self._attacked(target, us)
                self.pop()
                if not checks:
                    continue
            out.append(move)
        return out

    def mating_tuples(self, *, first: bool = False) -> tuple[list[MoveTuple], int]:
        """The legal moves that checkmate, in the order of :meth:`legal_tuples` (with ``first``, the first only),
        and how many legal moves were looked at to find them: for a mate search, which counts its work in moves.

        Only the moves that could give check are played (see
        :meth:`_check_candidates`), each asked while played whether the King
        it checks can move (and whether it checks at all, when that is not
        certain); the King's own steps are not even generated when none of
        them could give check (testing each one's safety is a good part of
        the cost of the list).
        """
        us = self._turn
        target = self._kings[1 - us]
        own = self._kings[us]
        if self._leap_may_check(us):
            moves = self._legal()
            candidates = [(index, move, False) for index, move in enumerate(moves)]
        else:
            hexes = self._check_hexes(target, us)
            near = hexes[1][KING_CODE]
            steps = own in hexes[0] or not (near.isdisjoint(NEIGHBOURS[own]) and near.isdisjoint(KNIGHT[own]))
            moves = self._legal(king_steps=steps)
            candidates = self._could_check(moves, *hexes)
        out: list[MoveTuple] = []
        for index, move, certain in candidates:
            self.push(move)
            mate = (certain or self._attacked(target, us)) and not self._can_move(True)
            self.pop()
            if mate:
                out.append(move)
                if first:
                    return out, index + 1
        return out, len(moves)

    def _leap_may_check(self, us: int) -> bool:
        """Whether the King's leap of ``us`` could attack the enemy King once its own King is out of check: then
        any move may give check."""
        return bool(
            self._rights & RIGHT_KING[us]
            and self.castling_enabled
            and self._kings[1 - us] in KNIGHT_SET[self._kings[us]]
        )

    def _check_candidates(self, moves: list[MoveTuple]) -> list[tuple[int, MoveTuple, bool]]:
        """Those of ``moves`` that could give check, in their order, each with its index and whether it gives check
        for certain: every move, none certain, when the King's leap may check, else see :meth:`_could_check`."""
        us = self._turn
        if self._leap_may_check(us):
            return [(index, move, False) for index, move in enumerate(moves)]
        return self._could_check(moves, *self._check_hexes(self._kings[1 - us], us))

    def _could_check(
        self, moves: list[MoveTuple], opening: set[int], arriving: _ByCode, certain: _ByCode
    ) -> list[tuple[int, MoveTuple, bool]]:
        """Those of ``moves`` that could give check (the King's leap aside), in their order, each with its index and
        whether it gives check for certain (see :meth:`_check_hexes`): one that leaves a hex whose emptying may
        open an attack on the enemy King (``opening``), that brings a piece (the promoted one after a promotion)
        to a hex from which that piece may attack it (``arriving``, by piece code; for certain from ``certain``),
        or that moves a second piece (castling, en passant)."""
        board = self._board
        sign: i64 = _SIGN[self._turn]
        out: list[tuple[int, MoveTuple, bool]] = []
        for index, move in enumerate(moves):
            origin, arrival, kind, promotion, _ = move
            code = promotion or board[origin] * sign
            if kind in (CASTLING, EN_PASSANT):
                out.append((index, move, False))
            elif arrival in certain[code]:
                out.append((index, move, True))
            elif origin in opening or arrival in arriving[code]:
                out.append((index, move, False))
        return out

    def _check_hexes(self, h: int, by: int) -> tuple[set[int], _ByCode, _ByCode]:
        """For :meth:`giving_check`: the hexes whose emptying may open an attack of ``by`` on hex ``h``, and, by
        piece code, the hexes from which such a piece of ``by`` may attack ``h``, and those from which it does
        for certain, whatever else the move changes (not an Elephant's far step, whose crossed hex must be empty,
        nor the King's).

        The attacks :meth:`_attacked` reads: a pawn's, an Elephant's near and
        far steps (the far one's crossed hex may empty), a jumper's, and each
        line to ``h`` up to and including its first piece (moving that piece
        may open the line); for the King its steps and, should it keep the
        right to leap after moving, its leap (the caller plays every move
        when the leap could check from where the King stands).
        """
        orthogonal = self._lines_to_first_piece(ORTHOGONAL_RAYS[h])
        diagonal = self._lines_to_first_piece(DIAGONAL_RAYS[h])
        opening = orthogonal | diagonal
        elephant = set(ELEPHANT_NEAR_ATTACKERS[by][h])
        far = ELEPHANT_FAR_ATTACKER[by][h]
        if far is not None:
            opening.add(far[1])
            elephant.add(far[0])
        jumps = KNIGHT_SET[h]
        certain: dict[int, frozenset[int] | set[int]] = {
            PAWN_CODE: frozenset(PAWN_ATTACKERS[by][h]),
            ELEPHANT_CODE: frozenset(ELEPHANT_NEAR_ATTACKERS[by][h]),
            BISHOP_CODE: diagonal,
            KNIGHT_CODE: jumps,
            PEGASUS_CODE: diagonal | jumps,
            ROOK_CODE: orthogonal,
            WYVERN_CODE: orthogonal | jumps,
            QUEEN_CODE: orthogonal | diagonal,
        }
        arriving = {**certain, ELEPHANT_CODE: elephant, KING_CODE: NEIGHBOUR_SET[h] | jumps}
        codes = range(KING_CODE + 1)
        return (
            opening,
            tuple(arriving.get(code, frozenset()) for code in codes),
            tuple(certain.get(code, frozenset()) for code in codes),
        )

    def _lines_to_first_piece(self, rays: tuple[tuple[int, ...], ...]) -> set[int]:
        """The hexes of ``rays`` (from a hex outwards), each ray up to and including its first piece."""
        board = self._board
        hexes: set[int] = set()
        for ray in rays:
            for x in ray:
                hexes.add(x)
                if board[x]:
                    break
        return hexes

    @property
    def raw_board(self) -> list[int]:
        """The live board: per hex 0, the piece type, or its negation for Black.

        The list itself, not a copy, so an engine reads it between ``push`` and
        ``pop`` for free: never modify it.
        """
        return self._board

    def piece_hexes(self, colour: Colour) -> set[int]:
        """The live set of the hexes holding ``colour``'s pieces (the King's included): read it, never modify it."""
        return self._pieces[colour]

    @property
    def rights(self) -> int:
        """The castling rights as a bit mask of ``state.RIGHT_*`` (both sides)."""
        return self._rights

    def push_null(self) -> None:
        """Pass the turn: a search's "null move", which is not a move of the game.

        The side to move must not be in check.  The pending en passant or
        scornful capture lapses, the clocks do not move.  Undo it with
        :meth:`pop_null` before any :meth:`pop`.
        """
        self._stack.append((None, self._special))
        self._special = None
        self._turn = 1 - self._turn

    def pop_null(self) -> None:
        """Undo :meth:`push_null`."""
        _, self._special = self._stack.pop()
        self._turn = 1 - self._turn

    # --- playing moves -----------------------------------------------------------

    def push(self, move: Move | MoveTuple) -> None:
        """Play a move.  It must be legal here: ``push`` trusts its caller.

        Use :meth:`parse_move` or :meth:`legal_moves` to get a legal move, or
        :meth:`push_checked` for a move of unknown origin.
        """
        origin, target, kind, promotion, castling = move
        board = self._board
        us = self._turn
        them = 1 - us
        sign: i64 = _SIGN[us]
        own = self._pieces[us]
        piece = board[origin]
        captured = 0
        captured_at = -1
        rights, special, halfmove, fullmove = self._rights, self._special, self.halfmove_clock, self.fullmove_number
        if kind == CASTLING:
            assert castling is not None
            plan = CASTLING_BY_TOKEN[us][castling]
            board[origin] = 0
            own.discard(origin)
            for rook_from, _, _ in plan.rooks:
                board[rook_from] = 0
                own.discard(rook_from)
            for _, rook_to, _ in plan.rooks:
                board[rook_to] = sign * ROOK_CODE
                own.add(rook_to)
            board[target] = piece
            own.add(target)
            self._kings[us] = target
            self._rights &= ~SIDE_RIGHTS[us]
            self._special = None
            self.halfmove_clock += 1
        elif kind == IN_PLACE_PROMOTION:
            board[origin] = sign * promotion
            self._special = None
            self.halfmove_clock = 0
        else:
            captured_at = self._special.pawn if kind == EN_PASSANT else target  # type: ignore[union-attr]
            captured = board[captured_at]
            if captured:
                board[captured_at] = 0
                self._pieces[them].discard(captured_at)
            board[origin] = 0
            own.discard(origin)
            board[target] = sign * promotion if promotion else piece
            own.add(target)
            if piece == sign * KING_CODE:
                self._kings[us] = target
            self._rights &= RIGHTS_KEPT[origin] & RIGHTS_KEPT[target]
            if kind == MULTI_STEP:
                forward = PAWN_FORWARD[us][origin]
                self._special = EnPassant(target, forward[: forward.index(target)])
            elif kind == SCORNFUL_STEP:
                faced = FACING[us][origin]
                assert faced is not None  # a scornful step needs a faced pawn
                self._special = Scornful(target, (faced,))
            else:
                self._special = None
            self.halfmove_clock = 0 if captured or piece == sign else self.halfmove_clock + 1
        if us == BLACK and self.fullmove_number is not None:
            self.fullmove_number += 1
        self._turn = them
        self._stack.append((move, piece, captured, captured_at, rights, special, halfmove, fullmove))

    def pop(self) -> None:
        """Undo the last move exactly (:meth:`peek` names it first where that matters).

        Nothing is returned: a search pops millions of times and never asks, so
        building a ``Move`` on each was a cost for nothing.
        """
        move, piece, captured, captured_at, rights, special, halfmove, fullmove = self._stack.pop()
        origin, target, kind, _, castling = move
        board = self._board
        us = 1 - self._turn
        own = self._pieces[us]
        if kind == CASTLING:
            plan = CASTLING_BY_TOKEN[us][castling]
            board[target] = 0
            own.discard(target)
            for _, rook_to, _ in plan.rooks:
                board[rook_to] = 0
                own.discard(rook_to)
            for rook_from, _, _ in plan.rooks:
                board[rook_from] = _SIGN[us] * ROOK_CODE
                own.add(rook_from)
            board[origin] = piece
            own.add(origin)
            self._kings[us] = origin
        elif kind == IN_PLACE_PROMOTION:
            board[origin] = piece
        else:
            board[target] = 0
            own.discard(target)
            board[origin] = piece
            own.add(origin)
            if captured:
                board[captured_at] = captured
                self._pieces[1 - us].add(captured_at)
            if abs(piece) == KING_CODE:
                self._kings[us] = origin
        self._turn = us
        self._rights = rights
        self._special = special
        self.halfmove_clock = halfmove
        self.fullmove_number = fullmove

    def peek(self) -> Move | None:
        """The last move pushed, if any."""
        return Move._make(self._stack[-1][0]) if self._stack else None

    # --- describing moves ------------------------------------------------------

    def moving_piece(self, move: Move) -> Piece:
        """The piece that makes ``move`` (the King for castling, the pawn for a promotion)."""
        return Piece.from_code(self._board[move.origin])

    def captured_piece(self, move: Move) -> tuple[int, Piece] | None:
        """``(hex, piece)`` that ``move`` captures, or ``None``."""
        if move.kind == CASTLING or move.kind == IN_PLACE_PROMOTION:
            return None
        at = self._special.pawn if move.kind == EN_PASSANT else move.target  # type: ignore[union-attr]
        code = self._board[at]
        return (at, Piece.from_code(code)) if code else None

    def is_capture(self, move: Move) -> bool:
        return self.captured_piece(move) is not None

    def gives_check(self, move: Move) -> bool:
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    def is_awaiting_arrival(self, move: Move) -> bool:
        """A pawn move onto its promotion hex with nothing to regain (CTL-AN ``=&``)."""
        return (
            move.kind not in (CASTLING, IN_PLACE_PROMOTION)
            and not move.promotion
            and abs(self._board[move.origin]) == PAWN_CODE
            and IS_PROMOTION[self._turn][move.target]
        )

    # --- game end --------------------------------------------------------------

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal()

    def is_insufficient_material(self) -> bool:
        """RULES.md 10.3-2: no pawns, a lone King against King plus at most one minor piece or Elephant."""
        material: tuple[list[int], list[int]] = ([], [])
        for side in (0, 1):
            for h in self._pieces[side]:
                kind = abs(self._board[h])
                if kind == PAWN_CODE:
                    return False
                if kind != KING_CODE:
                    material[side].append(kind)
        for lone, other in ((0, 1), (1, 0)):
            if not material[lone]:
                rest = material[other]
                return len(rest) == 0 or (len(rest) == 1 and rest[0] in (BISHOP_CODE, KNIGHT_CODE, ELEPHANT_CODE))
        return False

    def is_seventy_five_moves(self) -> bool:
        """The half-move clock has reached 150: the game is drawn by itself (RULES.md 10.3-3)."""
        return self.halfmove_clock >= SEVENTY_FIVE_MOVE_PLIES

    def can_claim_fifty_moves(self) -> bool:
        """The half-move clock is at least 100: the player to move may claim a draw (RULES.md 10.3-3)."""
        return self.halfmove_clock >= FIFTY_MOVE_PLIES

    def outcome(self) -> Outcome | None:
        """The end the position alone decides, or ``None`` while play goes on.

        Checkmate and stalemate (a minimum win for the side that stalemates,
        RULES.md 9.5) take precedence (RULES.md 10.2) over the seventy-five-move
        rule and insufficient material, both draws.  Repetition needs the game
        history: see :class:`cescacs_tui.core.game.Game`.
        """
        if not self._legal():
            winner = Colour(1 - self._turn)
            return Outcome.checkmate(winner) if self.is_check() else Outcome.stalemate(winner)
        if self.is_seventy_five_moves():
            return Outcome.draw(Ending.SEVENTY_FIVE_MOVES)
        if self.is_insufficient_material():
            return Outcome.draw(Ending.INSUFFICIENT_MATERIAL)
        return None

    def result(self) -> str | None:
        """The result string of :meth:`outcome` (:attr:`Outcome.result`), or ``None`` while play goes on."""
        outcome = self.outcome()
        return None if outcome is None else outcome.result

    # --- notation ------------------------------------------------------------------

    def ctl_an(self, move: Move, *, fan: bool = False) -> str:
        """``move`` in canonical CTL-AN with its check mark (NOTATION.md 4.7), or CTL-FAN."""
        return _notation.write_move(self, move, fan=fan)

    def parse_move(self, text: str, *, strict: bool = False, warnings: list[str] | None = None) -> Move:
        """The legal move that ``text`` names, in CTL-AN or the canonical coordinate form.

        Raises :class:`InvalidMoveError` for text that is neither,
        :class:`IllegalMoveError` for a move that is not legal here or that
        contradicts the board (wrong piece letter, wrong captured piece...),
        and :class:`AmbiguousMoveError` when the text fits several moves; no
        other exception escapes.  Tolerated irregularities (a wrong check
        mark, a legacy separator) are appended to ``warnings`` when a list is
        given; ``strict=True`` makes them errors and accepts CTL-AN only.
        """
        move, found = _notation.parse_move(self, text, strict=strict, canonical=not strict)
        if warnings is not None:
            warnings.extend(found)
        return move

    def push_checked(self, move: Move) -> None:
        """Play ``move`` after checking that it is legal (``IllegalMoveError`` if not)."""
        if not self.is_legal(move):
            raise IllegalMoveError(Message(N_("not a legal move in this position")), token=str(move))
        self.push(move)

    @property
    def board_codes(self) -> tuple[int, ...]:
        """The raw board: per hex, 0 or the piece type (negated for Black)."""
        return tuple(self._board)


@functools.cache
def _start_position() -> Position:
    """The start position, read once (never handed out: :meth:`Position.initial` copies it)."""
    return Position.from_pdtl(INITIAL_PDTL)
