"""PDTL, the one-line position format of C'escacs (NOTATION.md 5).

``placement turn castling special halfmove-clock move-number``, for example
the start position::

    /28:v/27:dk/26:gjg/25:rnnr/.../1:DK/0:V/ w RKRrkr - 0 1

:func:`parse_pdtl` is a tolerant reader: it also takes the legacy forms of the
official implementation and the irregular forms NOTATION.md lets a reader
accept, reporting each as a warning; ``strict=True`` turns those into errors.
Everything else raises :class:`PDTLError` naming the field, the column and
the token.  :func:`format_pdtl` writes the canonical form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from .errors import PDTL_FIELDS, PDTLError, printable
from .geometry import (
    COLUMN,
    COLUMNS,
    FACING,
    HEX_COLOUR,
    HEX_COUNT,
    HEX_NAMES,
    IS_PROMOTION,
    KING_HOME,
    KINGS_ROOK_HOME,
    LINE,
    LINE_HEXES,
    PAWN_FORWARD,
    QUEENS_ROOK_HOME,
    find_hex,
    hex_at,
)
from .message import N_, Message
from .pieces import (
    ALIASES,
    BISHOP,
    FAN_GLYPHS,
    INITIAL_COUNTS,
    KING,
    LETTERS,
    PAWN,
    PIECE_BY_GLYPH,
    PIECE_BY_LETTER,
    REGAINABLE,
    ROOK,
    Colour,
    PieceType,
)
from .state import RIGHT_KING, RIGHT_KINGS_ROOK, RIGHT_QUEENS_ROOK, EnPassant, Scornful

Letters = Mapping[str, tuple[PieceType, Colour]]
"""Which character stands for which piece: standard letters, declared aliases or FAN glyphs."""

STANDARD_LETTERS: Final[dict[str, tuple[PieceType, Colour]]] = {
    **{letter: (kind, Colour.WHITE) for letter, kind in PIECE_BY_LETTER.items()},
    **{letter.lower(): (kind, Colour.BLACK) for letter, kind in PIECE_BY_LETTER.items()},
}
FAN_LETTERS: Final[dict[str, tuple[PieceType, Colour]]] = dict(PIECE_BY_GLYPH)

_HYPHENS: Final = "-\u2010"
_DIGITS: Final = "0123456789"
"""The digits of PDTL: ASCII only (``str.isdigit`` and ``\\d`` also take ``³`` and Arabic-Indic digits)."""
MAX_NUMBER_DIGITS: Final = 6
"""The half-move clock and the move number have at most six digits: no game comes near a million moves."""
_NUMBER_RE: Final = re.compile(r"[0-9]+")
_HEX_NAME_RE: Final = re.compile(r"[A-Z][0-9]{1,2}")


def _listed(fields: Sequence[str]) -> Message:
    """PDTL field names as a list said in the language: "castling, special"."""
    said = Message(PDTL_FIELDS[fields[-1]])
    for name in reversed(fields[:-1]):
        said = Message(N_("{first}, {rest}"), first=Message(PDTL_FIELDS[name]), rest=said)
    return said


class Setup(NamedTuple):
    """A parsed and validated PDTL, before it becomes a :class:`Position`."""

    board: list[int]
    turn: int
    rights: int
    special: EnPassant | Scornful | None
    halfmove_clock: int
    fullmove_number: int | None
    notes: list[Message]
    """What the tolerant reader accepted, each as a sentence a front end says in its language."""

    @property
    def warnings(self) -> list[str]:
        """The :attr:`notes` in English, printable (for logs, tests and the readers' ``warnings=`` lists)."""
        return [printable(str(note)) for note in self.notes]


def letters_with_aliases(aliases: Mapping[str, PieceType]) -> dict[str, tuple[PieceType, Colour]]:
    """The letter table after ``[Redefine "alias@standard, ..."]``: each alias replaces its letter."""
    table = dict(STANDARD_LETTERS)
    for alias, kind in aliases.items():
        standard = LETTERS[kind]
        del table[standard], table[standard.lower()]
        table[alias.upper()] = (kind, Colour.WHITE)
        table[alias.lower()] = (kind, Colour.BLACK)
    return table


class _Reader:
    """Parses one PDTL string; collects warnings; raises on errors."""

    def __init__(self, text: str, strict: bool, letters: Letters) -> None:
        self.text = text
        self.strict = strict
        self.letters = letters
        self.notes: list[Message] = []
        self.symbols = {(kind, colour): ch for ch, (kind, colour) in letters.items()}

    def fail(
        self, field: str, message: str | Message, column: int | None = None, token: str | None = None
    ) -> PDTLError:
        return PDTLError(message, field=field, column=None if column is None else column + 1, token=token)

    def tolerate(self, field: str, message: Message, column: int | None = None) -> None:
        """An irregularity a tolerant reader accepts: an error only in strict mode."""
        if self.strict:
            raise self.fail(field, Message(N_("{reason} (not canonical)"), reason=message), column)
        self.notes.append(Message(N_("PDTL {field}: {reason}"), field=Message(PDTL_FIELDS[field]), reason=message))

    # --- the whole string -----------------------------------------------------

    def read(self) -> Setup:
        fields = [(m.start(), m.group()) for m in re.finditer(r"\S+", self.text)]
        if len(fields) < 4:
            missing = ("placement", "turn", "castling", "special")[len(fields) :]
            raise self.fail(
                "fields",
                Message(N_("fields 1-4 are mandatory; missing: {fields}"), fields=_listed(missing)),
                len(self.text.rstrip()),
            )
        if len(fields) > 6:
            start, token = fields[6]
            raise self.fail(
                "fields", Message(N_("a PDTL has at most six fields, found {count}"), count=len(fields)), start, token
            )
        if self.text != " ".join(token for _, token in fields):
            self.tolerate("fields", Message(N_("fields are not separated by single spaces")))
        board = self.placement(*fields[0])
        self.validate_material(board)
        turn = self.turn(*fields[1])
        rights = self.castling(board, *fields[2])
        special = self.special(board, turn, *fields[3])
        halfmove = self.halfmove(*fields[4]) if len(fields) > 4 else 0
        fullmove = self.fullmove(*fields[5]) if len(fields) > 5 else None
        return Setup(board, turn, rights, special, halfmove, fullmove, self.notes)

    # --- field 1: placement ---------------------------------------------------

    def placement(self, start: int, text: str) -> list[int]:
        if len(text) < 2 or not text.startswith("/") or not text.endswith("/"):
            raise self.fail("placement", Message(N_('the placement must start and end with "/"')), start, text)
        board = [0] * HEX_COUNT
        seen: set[int] = set()
        previous = 29
        offset = start + 1
        for entry in text[1:-1].split("/"):
            line = self.line_entry(board, offset, entry)
            if line in seen:
                raise self.fail("placement", Message(N_("duplicate entry for line {line}"), line=line), offset, entry)
            if line > previous:
                said = Message(
                    N_("line {line} comes after line {previous}: entries must descend"), line=line, previous=previous
                )
                self.tolerate("placement", said, offset)
            seen.add(line)
            previous = line
            offset += len(entry) + 1
        return board

    def line_entry(self, board: list[int], start: int, entry: str) -> int:
        match = re.fullmatch(r"([0-9]+):(.*)", entry)
        if not match:
            if not entry:
                raise self.fail("placement", Message(N_('empty line entry ("//")')), start)
            said = Message(N_('line entry {entry} is not "line:cells" (a ":" is missing)'), entry=repr(entry))
            raise self.fail("placement", said, start, entry)
        number, cells = match.groups()
        if len(number) > 1 and number.startswith("0"):
            raise self.fail(
                "placement", Message(N_("line number {number} has a leading zero"), number=repr(number)), start, number
            )
        line = int(number) if len(number) <= 2 else 29
        if line > 28:
            raise self.fail(
                "placement", Message(N_("line {line} does not exist (lines are 0-28)"), line=number), start, number
            )
        if not cells:
            raise self.fail("placement", Message(N_("the entry of line {line} is empty"), line=line), start, entry)
        hexes = LINE_HEXES[line]
        position = 0
        previous_digit = False
        column = start + len(number) + 1
        for i, ch in enumerate(cells):
            at = column + i
            if ch in _DIGITS:
                run = int(ch)
                if run == 0 or run > 8:
                    said = Message(N_("empty run {run} on line {line} (runs are 1-8)"), run=repr(ch), line=line)
                    raise self.fail("placement", said, at, ch)
                if previous_digit:
                    self.tolerate("placement", Message(N_("two empty runs in a row on line {line}"), line=line), at)
                position += run
                previous_digit = True
            else:
                if position >= len(hexes):
                    position += 1
                    break
                board[hexes[position]] = self.piece_code(ch, at)
                position += 1
                previous_digit = False
            if position > len(hexes):
                break
        if position > len(hexes):
            raise self.fail(
                "placement",
                Message(N_("too many hexes on line {line}: it has {count}"), line=line, count=len(hexes)),
                start,
                entry,
            )
        if position < len(hexes):
            template = N_("the entry of line {line} covers {position} of its {count} hexes")
            self.tolerate("placement", Message(template, line=line, position=position, count=len(hexes)), start)
        if not any(board[h] for h in hexes):
            self.tolerate("placement", Message(N_("the entry of line {line} holds no piece"), line=line), start)
        return line

    def piece_code(self, ch: str, at: int) -> int:
        found = self.letters.get(ch)
        if found is None and STANDARD_LETTERS.get(ch) in self.symbols:
            found = STANDARD_LETTERS[ch]
            template = N_("{letter} is used although the record writes this piece {symbol}")
            self.tolerate("placement", Message(template, letter=repr(ch), symbol=repr(self.symbols[found])), at)
        if found is not None:
            kind, colour = found
            return int(kind) if colour == Colour.WHITE else -int(kind)
        if ch in "Mm":
            said = Message(N_("M (the Almogaver of Grand C'escacs) is not a C'escacs piece"))
            raise self.fail("placement", said, at, ch)
        if ch.upper() in ALIASES or ch.upper() in PIECE_BY_LETTER:
            raise self.fail(
                "placement",
                Message(N_("{letter} is not a piece letter here (aliases need a Redefine tag)"), letter=repr(ch)),
                at,
                ch,
            )
        raise self.fail("placement", Message(N_("unknown piece letter {letter}"), letter=repr(ch)), at, ch)

    def validate_material(self, board: list[int]) -> None:
        """One King each, no more pieces of a type than a side starts with (RULES.md 12)."""
        for colour in Colour:
            sign = 1 if colour == Colour.WHITE else -1
            counts = {kind: 0 for kind in PieceType}
            bishops: dict[int, list[int]] = {}
            for h, code in enumerate(board):
                if code * sign > 0:
                    counts[PieceType(abs(code))] += 1
                    if abs(code) == BISHOP:
                        bishops.setdefault(HEX_COLOUR[h], []).append(h)
            if counts[KING] != 1:
                if counts[KING] == 0:
                    said = Message(N_("the {side} King is missing: each side has exactly one"), side=colour)
                else:
                    template = N_("the {side} King appears {count} times: each side has exactly one")
                    said = Message(template, side=colour, count=counts[KING])
                raise self.fail("position", said)
            for kind, count in counts.items():
                if count > INITIAL_COUNTS[kind]:
                    template = N_("{side} has {count} pieces of the kind {piece} (at most {most})")
                    said = Message(template, side=colour, count=count, piece=kind, most=INITIAL_COUNTS[kind])
                    raise self.fail("position", said)
            for hexes in bishops.values():
                if len(hexes) > 1:
                    template = N_(
                        "two {side} Bishops on the same hex colour ({first} and {second}): one Bishop per hex colour"
                    )
                    said = Message(template, side=colour, first=HEX_NAMES[hexes[0]], second=HEX_NAMES[hexes[1]])
                    raise self.fail("position", said)

    # --- field 2: side to move --------------------------------------------------

    def turn(self, start: int, text: str) -> int:
        if text == "w":
            return 0
        if text == "b":
            return 1
        said = Message(N_("side to move must be 'w' or 'b', not {token}"), token=repr(text))
        raise self.fail("turn", said, start, text)

    # --- field 3: castling and leap rights ----------------------------------------

    def castling(self, board: list[int], start: int, text: str) -> int:
        text = "".join("-" if ch in _HYPHENS else ch for ch in text)
        if text == "-":
            self.tolerate("castling", Message(N_('a single "-" stands for "--" (legacy form)')), start)
            return 0
        (white_rook, white_king), (black_rook, black_king) = (
            (
                self.symbols.get((PieceType.ROOK, colour), "R" if colour == Colour.WHITE else "r"),
                self.symbols.get((PieceType.KING, colour), "K" if colour == Colour.WHITE else "k"),
            )
            for colour in Colour
        )
        white_symbols, black_symbols = white_rook + white_king, black_rook + black_king
        redefined = {std: own for std, own in zip("RKrk", white_symbols + black_symbols, strict=True) if std != own}
        declared = str.maketrans(redefined)
        if text.translate(declared) != text and not any(ch in text for ch in redefined.values()):
            template = N_("{token} uses the standard letters although the record redefines them")
            self.tolerate("castling", Message(template, token=repr(text)), start)
            text = text.translate(declared)

        def error(reason: Message) -> PDTLError:
            template = N_("{token}: {reason} (White's part RKR, RK, KR, K or -, then Black's rkr, rk, kr, k or -)")
            return self.fail("castling", Message(template, token=repr(text), reason=reason), start, text)

        white, rest = self.rights_part(text, white_rook, white_king)
        if white is None:
            if rest[0] not in black_symbols:
                bad = rest[0]
                if bad in white_symbols:
                    raise error(Message(N_("rook rights without the King")))
                raise error(Message(N_("unknown letter {letter}"), letter=repr(bad)))
            self.tolerate("castling", Message(N_("White's part is omitted (legacy form)")), start)
            white = 0
        if not rest:
            self.tolerate("castling", Message(N_("Black's part is omitted (legacy form)")), start)
            return self.usable_rights(board, white, start)
        black, leftover = self.rights_part(rest, black_rook, black_king)
        if black is None or leftover:
            bad = (rest if black is None else leftover)[0]
            if bad not in white_symbols + black_symbols + "-":
                raise error(Message(N_("unknown letter {letter}"), letter=repr(bad)))
            if rest is text and bad in white_symbols:
                raise error(Message(N_("White's part must come first")))
            if bad in white_symbols and black is None and rest.upper() == rest:
                raise error(Message(N_("Black's part must be lower case")))
            raise error(Message(N_("not a valid rights value")))
        return self.usable_rights(board, white | black << 3, start)

    @staticmethod
    def rights_part(text: str, rook: str, king: str) -> tuple[int | None, str]:
        """Match one side's part at the start of ``text``: its rights bits and the rest."""
        for form, bits in ((rook + king + rook, 7), (rook + king, 3), (king + rook, 5), (king, 1), ("-", 0)):
            if text.startswith(form):
                return bits, text[len(form) :]
        return None, text

    def usable_rights(self, board: list[int], rights: int, start: int) -> int:
        """Drop (or, strictly, reject) rights whose King or Rook is not on its initial hex."""
        for side in (0, 1):
            sign = 1 - 2 * side
            if rights & RIGHT_KING[side] and board[KING_HOME[side]] != sign * KING:
                template = N_("{side} has castling rights but its King is not on {hex}: rights dropped")
                self.tolerate("castling", Message(template, side=Colour(side), hex=HEX_NAMES[KING_HOME[side]]), start)
                rights &= ~(RIGHT_KING[side] | RIGHT_QUEENS_ROOK[side] | RIGHT_KINGS_ROOK[side])
            for bit, home in (
                (RIGHT_QUEENS_ROOK[side], QUEENS_ROOK_HOME[side]),
                (RIGHT_KINGS_ROOK[side], KINGS_ROOK_HOME[side]),
            ):
                if rights & bit and board[home] != sign * ROOK:
                    template = N_("{side} has a castling right for a Rook that is not on {hex}: right dropped")
                    self.tolerate("castling", Message(template, side=Colour(side), hex=HEX_NAMES[home]), start)
                    rights &= ~bit
        return rights

    # --- field 4: en passant or scornful capture ------------------------------

    def special(self, board: list[int], turn: int, start: int, text: str) -> EnPassant | Scornful | None:
        if text in ("-", "\u2010"):
            return None
        mover = 1 - turn  # the side that just moved owns the pawn named here
        legacy = re.fullmatch(r"P@([A-Z][0-9]+)(?:,([0-9]+))?\[([A-Z][0-9]+)\]", text)
        if legacy:
            first, second, pawn_name = legacy.groups()
            self.tolerate("special", Message(N_("legacy en passant form {token}"), token=repr(text)), start)
            pawn = self.hex_named(pawn_name, start, text)
            crossed = self.hex_named(first, start, text)
            if COLUMN[crossed] != COLUMN[pawn]:
                raise self.fail(
                    "special",
                    Message(
                        N_("{token}: the passed hex {passed} is not in the column of the pawn on {pawn}"),
                        token=repr(text),
                        passed=first,
                        pawn=pawn_name,
                    ),
                    start,
                    text,
                )
            lines = [str(LINE[crossed])] + ([second] if second else [])
            return self.en_passant(board, mover, pawn, lines, start, text)
        if text.startswith("P@"):
            said = Message(N_("malformed legacy en passant field {token}"), token=repr(text))
            raise self.fail("special", said, start, text)
        match = re.fullmatch(r"([A-Za-z][0-9]*)(?:@(.*))?", text)
        if not match:
            said = Message(N_("{token} is not '-', an en passant or a scornful field"), token=repr(text))
            raise self.fail("special", said, start, text)
        first_name, after = match.groups()
        if first_name[0].islower():
            said = Message(N_("column letters are upper case: {token}"), token=repr(first_name))
            raise self.fail("special", said, start, text)
        first = self.hex_named(first_name, start, text)
        if after is None:
            return self.scornful(board, mover, first, None, start, text)
        if re.fullmatch(r"[0-9]+(?:-[0-9]+)?", after):
            return self.en_passant(board, mover, first, after.split("-"), start, text)
        if re.fullmatch(r"[A-Z][0-9]+", after):
            return self.scornful(board, mover, self.hex_named(after, start, text), first, start, text)
        if not after:
            raise self.fail(
                "special", Message(N_("no line number after '@' in {token}"), token=repr(text)), start, text
            )
        said = Message(N_("{token}: after '@' come line numbers or a hex"), token=repr(text))
        raise self.fail("special", said, start, text)

    def hex_named(self, name: str, start: int, text: str) -> int:
        h = find_hex(name)
        if h is None:
            if _HEX_NAME_RE.fullmatch(name) and name[0] in COLUMNS and int(name[1:]) <= 28:
                raise self.fail(
                    "special",
                    Message(
                        N_("hex {hex} does not exist (column {column} carries odd lines only, within its range)")
                        if COLUMNS.index(name[0]) % 2 == 0
                        else N_("hex {hex} does not exist (column {column} carries even lines only, within its range)"),
                        hex=name,
                        column=name[0],
                    ),
                    start,
                    text,
                )
            raise self.fail("special", Message(N_("hex {hex} does not exist"), hex=name), start, text)
        return h

    def stepped_piece(self, board: list[int], mover: int, pawn: int, what: Message, start: int, text: str) -> None:
        """The piece named by the special field must be a pawn of the side that just moved that may be taken
        en passant or scornfully: a pawn, or on that side's promotion hex the piece it has just become
        (RULES.md 6.4, 6.5).  A King, or any other piece, never is."""
        sign = 1 - 2 * mover
        name = HEX_NAMES[pawn]
        code = board[pawn]
        if not code:
            said = Message(N_("{field} names {hex}, but there is no piece there"), field=what, hex=name)
            raise self.fail("special", said, start, text)
        if code * sign < 0:
            template = N_("{field} names {hex}, but the piece there is {owner}'s, and {side} has just moved")
            said = Message(template, field=what, hex=name, owner=Colour(1 - mover), side=Colour(mover))
            raise self.fail("special", said, start, text)
        kind = abs(code)
        if kind != PAWN and not (IS_PROMOTION[mover][pawn] and kind in REGAINABLE):
            template = (
                N_(
                    "{field} names {hex}, which holds the {side} {piece}: only a {side} pawn (or the piece it has "
                    "just promoted to) can be taken that way"
                )
                if IS_PROMOTION[mover][pawn]
                else N_("{field} names {hex}, which holds the {side} {piece}: only a {side} pawn can be taken that way")
            )
            said = Message(template, field=what, hex=name, side=Colour(mover), piece=PieceType(kind))
            raise self.fail("special", said, start, text)

    def en_passant(
        self, board: list[int], mover: int, pawn: int, written: Sequence[str], start: int, text: str
    ) -> EnPassant:
        name = HEX_NAMES[pawn]
        self.stepped_piece(board, mover, pawn, Message(N_("en passant")), start, text)
        crossed = []
        for number in written:
            h = hex_at(COLUMN[pawn], int(number)) if len(number) <= 2 else None
            if h is None:
                said = Message(N_("en passant: hex {hex} does not exist"), hex=f"{COLUMNS[COLUMN[pawn]]}{number}")
                raise self.fail("special", said, start, text)
            crossed.append(h)
        lines = [LINE[h] for h in crossed]
        # The pawn came from the hex two or three steps behind: find the step that fits.
        for origin in range(HEX_COUNT):
            forward = PAWN_FORWARD[mover][origin]
            if COLUMN[origin] != COLUMN[pawn] or pawn not in forward[1:]:
                continue
            passed = forward[: forward.index(pawn)]
            if sorted(passed) == sorted(crossed):
                for h in passed:
                    if board[h]:
                        said = Message(N_("en passant: the crossed hex {hex} is not empty"), hex=HEX_NAMES[h])
                        raise self.fail("special", said, start, text)
                if board[origin]:
                    template = N_("en passant: the pawn on {hex} cannot have just left {origin}, which is occupied")
                    said = Message(template, hex=name, origin=HEX_NAMES[origin])
                    raise self.fail("special", said, start, text)
                if len(lines) == 2 and lines != sorted(lines):
                    self.tolerate("special", Message(N_("en passant lines are not in ascending order")), start)
                return EnPassant(pawn, passed)
        template = N_("en passant: a {side} pawn on {hex} cannot have crossed {lines} in one double or triple step")
        said = Message(template, side=Colour(mover), hex=name, lines="-".join(written))
        raise self.fail("special", said, start, text)

    def scornful(
        self, board: list[int], mover: int, pawn: int, capturer: int | None, start: int, text: str
    ) -> Scornful:
        sign = 1 - 2 * mover
        name = HEX_NAMES[pawn]
        self.stepped_piece(board, mover, pawn, Message(N_("the scornful field")), start, text)
        faced_pawns: dict[int, int] = {}  # faced pawn -> the hex the scornful pawn came from
        c, line = COLUMN[pawn], LINE[pawn]
        back = -1 if mover == 0 else 1
        for dc in (-1, 1):
            origin = hex_at(c + dc, line + back)
            faced = hex_at(c + dc, line - back)
            if (
                origin is not None
                and faced is not None
                and FACING[mover][origin] == faced
                and board[faced] == -sign * PAWN
            ):
                faced_pawns[faced] = origin
        possible = [faced for faced, origin in faced_pawns.items() if not board[origin]]
        if capturer is not None:
            if capturer in possible:
                return Scornful(pawn, (capturer,))
            if capturer in faced_pawns:
                template = N_("the scornful pawn on {hex} cannot have just left {origin}, which is occupied")
                said = Message(template, hex=name, origin=HEX_NAMES[faced_pawns[capturer]])
                raise self.fail("special", said, start, text)
            template = N_("the pawn on {capturer} cannot have faced the scornful pawn on {hex}")
            raise self.fail("special", Message(template, capturer=HEX_NAMES[capturer], hex=name), start, text)
        if not faced_pawns:
            said = Message(N_("no {side} pawn faces the scornful pawn on {hex}"), side=Colour(1 - mover), hex=name)
            raise self.fail("special", said, start, text)
        if not possible:
            first, *others = (HEX_NAMES[origin] for origin in faced_pawns.values())
            if others:
                template = N_("the scornful pawn on {hex} cannot have just left {first} or {second}: occupied")
                said = Message(template, hex=name, first=first, second=others[0])
            else:
                template = N_("the scornful pawn on {hex} cannot have just left {first}: occupied")
                said = Message(template, hex=name, first=first)
            raise self.fail("special", said, start, text)
        # Two faced pawns: the bare form lost which one was faced, so either may capture (NOTATION.md 5.4).
        return Scornful(pawn, tuple(faced_pawns))

    # --- fields 5 and 6 --------------------------------------------------------

    def number(self, field: str, start: int, text: str, expected: Message) -> int:
        """A decimal number of ASCII digits, at most :data:`MAX_NUMBER_DIGITS` long, without leading zeros."""
        if not _NUMBER_RE.fullmatch(text):
            raise self.fail(
                field, Message(N_("{token} is not {expected}"), token=repr(text), expected=expected), start, text
            )
        if len(text) > MAX_NUMBER_DIGITS:
            template = N_("a number of {count} digits is too large (at most {most})")
            raise self.fail(field, Message(template, count=len(text), most=MAX_NUMBER_DIGITS), start, text)
        if len(text) > 1 and text.startswith("0"):
            self.tolerate(field, Message(N_("{token} has a leading zero"), token=repr(text)), start)
        return int(text)

    def halfmove(self, start: int, text: str) -> int:
        if text == "-":
            self.tolerate("half-move clock", Message(N_("'-' read as 0 (legacy form)")), start)
            return 0
        return self.number("half-move clock", start, text, Message(N_("a whole number >= 0")))

    def fullmove(self, start: int, text: str) -> int | None:
        if text == "?":
            return None
        if text == "-":
            self.tolerate("move number", Message(N_("'-' read as '?' (legacy form)")), start)
            return None
        expected = Message(N_("a whole number >= 1 or '?'"))
        number = self.number("move number", start, text, expected)
        if number < 1:
            said = Message(N_("{token} is not {expected}"), token=repr(text), expected=expected)
            raise self.fail("move number", said, start, text)
        return number


def parse_pdtl(text: str, *, strict: bool = False, letters: Letters | None = None) -> Setup:
    """Parse and validate a PDTL string (NOTATION.md 5, RULES.md 12).

    Checks everything that needs no attack detection; the position checks
    that the side not to move is not in check.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return _Reader(text.strip(), strict, STANDARD_LETTERS if letters is None else letters).read()


_LETTER_SYMBOLS: Final[dict[int, str]] = {
    **{kind: letter for kind, letter in LETTERS.items()},
    **{-kind: letter.lower() for kind, letter in LETTERS.items()},
}
"""Each piece code's PDTL letter: upper case for White (positive codes), lower case for Black."""
_FAN_SYMBOLS: Final[dict[int, str]] = {
    **{kind: glyphs[0] for kind, glyphs in FAN_GLYPHS.items()},
    **{-kind: glyphs[1] for kind, glyphs in FAN_GLYPHS.items()},
}
"""The same as figurine glyphs (``fan``): a table read per piece, as :func:`format_pdtl` writes positions by
the thousand in a search's log or a property test."""


def format_pdtl(
    board: Sequence[int],
    turn: int,
    rights: int,
    special: EnPassant | Scornful | None,
    halfmove_clock: int,
    fullmove_number: int | None,
    *,
    fan: bool = False,
) -> str:
    """The canonical PDTL of a state (all six fields)."""
    symbols = _FAN_SYMBOLS if fan else _LETTER_SYMBOLS
    entries = []
    for line in range(28, -1, -1):
        pieces = [board[h] for h in LINE_HEXES[line]]
        if not any(pieces):
            continue
        cells = []
        run = 0
        for code in pieces:
            if code:
                if run:
                    cells.append(str(run))
                    run = 0
                cells.append(symbols[code])
            else:
                run += 1
        if run:
            cells.append(str(run))
        entries.append(f"{line}:{''.join(cells)}")
    placement = "/" + "/".join(entries) + "/"
    castling = _format_rights(rights, fan)
    return " ".join(
        (
            placement,
            "w" if turn == 0 else "b",
            castling,
            _format_special(board, turn, special),
            str(halfmove_clock),
            "?" if fullmove_number is None else str(fullmove_number),
        )
    )


def _format_rights(rights: int, fan: bool) -> str:
    out = []
    for side in (0, 1):
        bits = (rights >> (3 * side)) & 7
        if fan:
            rook, king = FAN_GLYPHS[ROOK][side], FAN_GLYPHS[KING][side]
        else:
            rook, king = ("R", "K") if side == 0 else ("r", "k")
        if not bits & 1:
            out.append("-")
        else:
            out.append((rook if bits & 2 else "") + king + (rook if bits & 4 else ""))
    return "".join(out)


def _format_special(board: Sequence[int], turn: int, special: EnPassant | Scornful | None) -> str:
    if special is None:
        return "-"
    pawn = HEX_NAMES[special.pawn]
    if isinstance(special, EnPassant):
        lines = sorted(LINE[h] for h in special.crossed)
        return f"{pawn}@{'-'.join(str(n) for n in lines)}"
    if len(special.capturers) == 1:
        mover = 1 - turn
        c, line = COLUMN[special.pawn], LINE[special.pawn]
        ahead = 1 if mover == 0 else -1
        pawn_code = -1 if mover == 0 else 1  # a pawn of the side to move
        faced = [hex_at(c + dc, line + ahead) for dc in (-1, 1)]
        if all(f is not None and board[f] == pawn_code for f in faced):
            return f"{HEX_NAMES[special.capturers[0]]}@{pawn}"
    return pawn
