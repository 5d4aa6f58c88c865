"""Answers to questions about the board, in words: what a player who cannot see it asks.

Adapted from Lichess's blind mode to 169 hexes: the pieces of a kind and
where they stand, what stands on a column or a line, what is around a hex
ray by ray, the legal moves of a piece, what attacks a hex, the clocks, the
pieces a pawn could regain, the whole position.  Each function is pure (a
position or a game in, a line or a few out), so the plain front end only
parses the question and prints the answer, and any other front end (a
speech output, a help panel) can say the same thing the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from ..core import BLACK, HEX_NAMES, HEXES, WHITE, Colour, Move, Position
from ..core.game import Game
from ..core.geometry import (
    COLUMN,
    COLUMNS,
    HEX_COLOUR_NAMES,
    KINGS_ROOK_HOME,
    KNIGHT_SET,
    LINE,
    QUEENS_ROOK_HOME,
    hex_at,
)
from ..core.move import CASTLING, EN_PASSANT, IN_PLACE_PROMOTION, SCORNFUL_CAPTURE
from ..core.pieces import NAMES, PieceType
from ..core.state import EnPassant
from ..session.selection import Picker
from ..session.words import (
    check_words,
    describe_move,
    duration_words,
    half_moves,
    move_label,
    or_list,
    regained_words,
    situation,
)

__all__ = [
    "DIRECTIONS",
    "around",
    "attacks_on",
    "clocks",
    "hex_content",
    "last_move",
    "move_list",
    "moves_of",
    "pieces",
    "position_words",
    "ray",
    "regainable",
    "scan_column",
    "scan_line",
]

DIRECTIONS: Final[tuple[tuple[str, tuple[int, int]], ...]] = (
    ("up", (0, 2)),
    ("steep up-right", (1, 3)),
    ("up-right", (1, 1)),
    ("right", (2, 0)),
    ("down-right", (1, -1)),
    ("steep down-right", (1, -3)),
    ("down", (0, -2)),
    ("steep down-left", (-1, -3)),
    ("down-left", (-1, -1)),
    ("left", (-2, 0)),
    ("up-left", (-1, 1)),
    ("steep up-left", (-1, 3)),
)
"""The twelve directions of RULES.md 3 clockwise from "up" (towards Black), as seen from White's side.

The orthogonal ones (up, down, up-right, down-right, down-left, up-left: the
Rook's lines) alternate with the diagonal ones (right and left along the
cross-line, and the four steep diagonals: the Bishop's lines), as the
directions of a clock face do: up is 12 o'clock, steep up-right 1 o'clock.
"""

ORDER: Final = (
    PieceType.KING, PieceType.QUEEN, PieceType.WYVERN, PieceType.ROOK, PieceType.PEGASUS,
    PieceType.KNIGHT, PieceType.BISHOP, PieceType.ELEPHANT, PieceType.PAWN,
)  # fmt: skip
"""Piece kinds in the order a position is read out: the King first, the pawns last."""

PLURALS: Final = {
    PieceType.PAWN: "Pawns", PieceType.ELEPHANT: "Elephants", PieceType.BISHOP: "Bishops",
    PieceType.KNIGHT: "Knights", PieceType.PEGASUS: "Pegasi", PieceType.ROOK: "Rooks",
    PieceType.WYVERN: "Wyverns", PieceType.QUEEN: "Queens", PieceType.KING: "Kings",
}  # fmt: skip


def _by_column(hexes: Iterable[int]) -> list[int]:
    """Hexes left to right, each column bottom to top: the order people read them in."""
    return sorted(hexes, key=lambda h: (COLUMN[h], LINE[h]))


def _names(hexes: Iterable[int]) -> str:
    return ", ".join(HEX_NAMES[h] for h in _by_column(hexes))


def hex_content(position: Position, h: int) -> str:
    """``"White Pawn"`` or ``"empty"``."""
    piece = position.piece_at(h)
    return "empty" if piece is None else str(piece)


def ray(h: int, delta: tuple[int, int]) -> tuple[int, ...]:
    """The hexes from ``h`` in direction ``delta`` up to the edge, nearest first."""
    out = []
    column, line = COLUMN[h], LINE[h]
    while (nxt := hex_at(column + delta[0], line + delta[1])) is not None:
        out.append(nxt)
        column, line = COLUMN[nxt], LINE[nxt]
    return tuple(out)


# --- where the pieces are -------------------------------------------------------------


def _kind_list(count: int, kind: PieceType, hexes: Sequence[int]) -> str:
    return f"{NAMES[kind]} {_names(hexes)}" if count == 1 else f"{count} {PLURALS[kind]} {_names(hexes)}"


def pieces(position: Position, colour: Colour | None = None, kind: PieceType | None = None) -> list[str]:
    """Where the pieces stand: of one kind (``kind``), of one side (``colour``), or all, a line per side.

    "White Knights: E3, G3.", "White, 27 pieces: King G1; Queen F1; ...".
    """
    sides = (WHITE, BLACK) if colour is None else (colour,)
    lines = []
    for side in sides:
        found: dict[PieceType, list[int]] = {}
        for h, piece in position.pieces(side):
            found.setdefault(piece.type, []).append(h)
        if kind is not None:
            hexes = found.get(kind, [])
            if not hexes:
                lines.append(f"{side.title} has no {NAMES[kind]}.")
            else:
                title = NAMES[kind] if len(hexes) == 1 else PLURALS[kind]
                lines.append(f"{side.title} {title}: {_names(hexes)}.")
            continue
        total = sum(len(hexes) for hexes in found.values())
        kinds = "; ".join(_kind_list(len(found[k]), k, found[k]) for k in ORDER if k in found)
        lines.append(f"{side.title}, {total} piece{'' if total == 1 else 's'}: {kinds}.")
    return lines


def _scan(position: Position, hexes: Sequence[int], title: str) -> str:
    items: list[str] = []
    empty: list[int] = []

    def close_run() -> None:
        if len(empty) == 1:
            items.append(f"{HEX_NAMES[empty[0]]} empty")
        elif len(empty) == 2:
            items.append(f"{HEX_NAMES[empty[0]]} and {HEX_NAMES[empty[1]]} empty")
        elif empty:
            items.append(f"{HEX_NAMES[empty[0]]} to {HEX_NAMES[empty[-1]]} empty")
        empty.clear()

    for h in hexes:
        piece = position.piece_at(h)
        if piece is None:
            empty.append(h)
            continue
        close_run()
        items.append(f"{HEX_NAMES[h]} {piece}")
    close_run()
    return f"{title}: {', '.join(items)}."


def scan_column(position: Position, column: int) -> str:
    """What stands on a column (index 0-14, ``P`` to ``Z``), from White's side up, empty runs said once."""
    hexes = sorted((h for h in HEXES if COLUMN[h] == column), key=LINE.__getitem__)
    return _scan(position, hexes, f"Column {COLUMNS[column]}, {_hexes(len(hexes))} from White's side")


def scan_line(position: Position, line: int) -> str:
    """What stands on a transversal line (0-28), left to right as White sees it."""
    hexes = sorted((h for h in HEXES if LINE[h] == line), key=COLUMN.__getitem__)
    return _scan(position, hexes, f"Line {line}, {_hexes(len(hexes))} from White's left")


def _hexes(count: int) -> str:
    return f"{count} hex{'' if count == 1 else 'es'}"


def around(position: Position, h: int, direction: str | None = None) -> list[str]:
    """What is around hex ``h``, ray by ray: the empty hexes, then the first piece (or the edge).

    One line per direction of :data:`DIRECTIONS` (only ``direction``, when
    given); the directions that leave the board at once are named together.
    """
    lines = [f"{HEX_NAMES[h]}: {hex_content(position, h)}."]
    off: list[str] = []
    for name, delta in DIRECTIONS:
        if direction is not None and name != direction:
            continue
        hexes = ray(h, delta)
        if not hexes:
            off.append(name)
            continue
        empty: list[str] = []
        found = None
        for x in hexes:
            piece = position.piece_at(x)
            if piece is not None:
                found = f"{piece} on {HEX_NAMES[x]}"
                break
            empty.append(HEX_NAMES[x])
        if found is None:
            lines.append(f"{name}: {', '.join(empty)} empty, then the edge.")
        elif empty:
            lines.append(f"{name}: {', '.join(empty)} empty, then {found}.")
        else:
            lines.append(f"{name}: {found}.")
    if off:
        lines.append(f"Off the board: {', '.join(off)}.")
    return lines


# --- moves and attacks ------------------------------------------------------------------


def _target_words(position: Position, moves: Sequence[Move]) -> str:
    """The moves of one piece to one hex, in a few words: "F16 taking Black Knight, adjoining check"."""
    first = moves[0]
    words = HEX_NAMES[first.target]
    captured = position.captured_piece(first)
    if first.kind == EN_PASSANT and captured is not None:
        words += f" taking {captured[1]} on {HEX_NAMES[captured[0]]} en passant"
    elif first.kind == SCORNFUL_CAPTURE and captured is not None:
        words += f" taking the scornful {captured[1]}"
    elif captured is not None:
        words += f" taking {captured[1]}"
    piece = position.moving_piece(first)
    if piece.type == PieceType.KING and first.target in KNIGHT_SET[first.origin]:
        words += " by leap"
    if first.promotion:
        words += " promoting to " + or_list([_with_check(position, m, regained_words(m)) for m in moves])
        return words
    if position.is_awaiting_arrival(first):
        words += " awaiting promotion"
    return _with_check(position, first, words)


def _with_check(position: Position, move: Move, words: str) -> str:
    check = check_words(position, move)
    return f"{words}, {check}" if check else words


def moves_of(position: Position, h: int) -> str:
    """The legal moves of the piece on ``h``, grouped by target hex; or why it has none."""
    name = HEX_NAMES[h]
    piece = position.piece_at(h)
    if piece is None:
        return f"{name} is empty."
    if piece.colour != position.turn:
        return f"{piece} {name}: it is {position.turn.title}'s turn, so it has no legal move now."
    moves = [m for m in position.legal_moves() if m.origin == h]
    if not moves:
        reason = Picker(position).pick(h).message  # the session's own words for a piece that cannot move
        return f"{reason[0].upper()}{reason[1:]}."
    items = []
    in_place = [m for m in moves if m.kind == IN_PLACE_PROMOTION]
    if in_place:
        items.append("promotion where it stands to " + or_list([regained_words(m) for m in in_place]))
    by_target: dict[int, list[Move]] = {}
    for move in moves:
        if move.kind not in (IN_PLACE_PROMOTION, CASTLING):
            by_target.setdefault(move.target, []).append(move)
    items += [_target_words(position, by_target[t]) for t in _by_column(by_target)]
    castlings = [m.castling for m in moves if m.castling is not None]
    if castlings:
        items.append("castling " + ", ".join(castlings))
    count = len(moves)
    return f"{piece} {name}, {count} move{'' if count == 1 else 's'}: {'; '.join(items)}."


def attacks_on(position: Position, h: int) -> str:
    """Which pieces of each side attack hex ``h`` (a side "protects" a hex its own piece stands on)."""
    occupant = position.piece_at(h)
    parts = []
    for side in (WHITE, BLACK):
        found = []
        for x in _by_column(position.attackers(h, side)):
            attacker = position.piece_at(x)
            assert attacker is not None
            found.append(f"{NAMES[attacker.type]} {HEX_NAMES[x]}")
        verb = "protected" if occupant is not None and occupant.colour == side else "attacked"
        parts.append(f"{verb} by {side.title}: {', '.join(found) or 'nothing'}")
    return f"{HEX_NAMES[h]} ({hex_content(position, h)}): {'; '.join(parts)}."


# --- the game ---------------------------------------------------------------------------


def last_move(game: Game) -> str:
    """The half-move that led to the position shown, in words, then where the game stands."""
    if game.cursor == 0:
        return "No move has been played yet. " + (situation(game) if game.is_live else "")
    node = game.nodes[game.cursor - 1]
    number = "" if node.number is None else f" {node.number}"
    said = f"Last move{number}: {describe_move(game.position_at(game.cursor - 1), node.move)}."
    if not game.is_live:
        return f"{said} Reviewing: after {half_moves(game.cursor)} of {game.ply}."
    return f"{said} {situation(game, check=False)}"


def move_list(game: Game, width: int = 80) -> list[str]:
    """The moves in CTL-AN, numbered, in lines of at most ``width`` characters (a move is never split)."""
    if not game.nodes:
        return ["No move has been played yet."]
    lines: list[str] = []
    line = ""
    for i, node in enumerate(game.nodes):
        label = move_label(node, first=i == 0)
        if line and len(line) + 1 + len(label) > width:
            lines.append(line)
            line = label
        else:
            line = f"{line} {label}" if line else label
    lines.append(line)
    if game.result != "*":
        lines[-1] += f" {game.result}"
    return lines


def _castling_words(position: Position, side: Colour) -> str:
    rights = position.castling_rights(side)
    if not rights.king:
        return f"{side.title}'s King has moved"
    rooks = [
        HEX_NAMES[home[side]]
        for home, kept in ((QUEENS_ROOK_HOME, rights.queens_rook), (KINGS_ROOK_HOME, rights.kings_rook))
        if kept
    ]
    if not position.castling_enabled or not rooks:
        return f"{side.title}'s King may still leap"
    return f"{side.title} may still castle with the Rook{'s' if len(rooks) > 1 else ''} on {' and '.join(rooks)}"


def _special_words(position: Position) -> str | None:
    special = position.special
    if special is None:
        return None
    piece = hex_content(position, special.pawn)
    where = HEX_NAMES[special.pawn]
    if isinstance(special, EnPassant):
        crossed = " or ".join(HEX_NAMES[h] for h in special.crossed)
        return f"the {piece} on {where} can be taken en passant on {crossed}"
    takers = " or ".join(HEX_NAMES[h] for h in special.capturers)
    return f"the scornful {piece} on {where} can be taken from {takers}"


def position_words(game: Game) -> list[str]:
    """The whole position shown: where the game stands, the castling and en passant state, then each side's pieces."""
    position = game.reviewed_position()
    if game.is_live:
        head = situation(game)
    else:
        kind = position.check_kind()
        check = "" if kind is None else ", in check"
        head = f"Reviewing, after {half_moves(game.cursor)} of {game.ply}: {position.turn.title} to move{check}."
    details = [_castling_words(position, side) for side in (WHITE, BLACK)]
    if not position.castling_enabled:
        details.append("no castling in this game")
    if (special := _special_words(position)) is not None:
        details.append(special)
    if position.halfmove_clock:
        details.append(f"{half_moves(position.halfmove_clock)} since the last capture or pawn move")
    if position.fullmove_number is not None:
        details.append(f"move {position.fullmove_number}")
    state = "; ".join(details)
    return [head, state[0].upper() + state[1:] + ".", *pieces(position)]


def regainable(position: Position) -> list[str]:
    """Per side, the captured pieces a pawn could bring back by promotion (RULES.md 7.1)."""
    lines = []
    for side in (WHITE, BLACK):
        counted = Counter(position.regainable(side))
        words = []
        for piece, count in counted.items():
            if piece.hex_colour is not None:
                words.append(f"Bishop of the {HEX_COLOUR_NAMES[piece.hex_colour]} hexes")
            else:
                words.append(NAMES[piece.type] if count == 1 else f"{count} {PLURALS[piece.type]}")
        lines.append(f"{side.title} can regain {', '.join(words) if words else 'nothing'}.")
    return lines


def clocks(game: Game) -> str:
    """Both clocks' times and which one runs."""
    clock = game.clock
    if clock is None:
        return "This game has no clock."
    faces = []
    for side in (WHITE, BLACK):
        face = f"{side.title} {duration_words(clock.remaining(side))}"
        if clock.flagged == side:
            face += ", flag fallen"
        elif clock.running == side:
            face += ", running"
        faces.append(face)
    said = f"Clock {game.time_control.describe()}: {'; '.join(faces)}."
    if game.is_over:
        return said
    if clock.paused:
        return said + " The clock is paused: pause restarts it."
    if clock.to_move is None:
        return said + " The clock starts with the first move."
    return said
