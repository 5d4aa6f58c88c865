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
    KINGS_ROOK_HOME,
    KNIGHT_SET,
    LINE,
    QUEENS_ROOK_HOME,
    hex_at,
)
from ..core.move import CASTLING, EN_PASSANT, IN_PLACE_PROMOTION, SCORNFUL_CAPTURE
from ..core.pieces import PieceType
from ..core.state import EnPassant
from ..i18n import N_, _, ngettext
from ..session.selection import Picker
from ..session.terms import capitalised, piece_name, piece_words, pieces_name, say, side, side_label, tile_name
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
from .commands import COMMANDS, typed

__all__ = [
    "DIRECTIONS",
    "around",
    "attacks_on",
    "clocks",
    "direction_name",
    "find_direction",
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
    (N_("up"), (0, 2)),
    (N_("steep up-right"), (1, 3)),
    (N_("up-right"), (1, 1)),
    (N_("right"), (2, 0)),
    (N_("down-right"), (1, -1)),
    (N_("steep down-right"), (1, -3)),
    (N_("down"), (0, -2)),
    (N_("steep down-left"), (-1, -3)),
    (N_("down-left"), (-1, -1)),
    (N_("left"), (-2, 0)),
    (N_("up-left"), (-1, 1)),
    (N_("steep up-left"), (-1, 3)),
)
"""The twelve directions of RULES.md 3 clockwise from "up" (towards Black), as seen from White's side.

The orthogonal ones (up, down, up-right, down-right, down-left, up-left: the
Rook's lines) alternate with the diagonal ones (right and left along the
cross-line, and the four steep diagonals: the Bishop's lines), as the
directions of a clock face do: up is 12 o'clock, steep up-right 1 o'clock.
The names are English message ids: :func:`direction_name` says one in the
interface's language, :func:`find_direction` reads one typed in either.
"""

ORDER: Final = (
    PieceType.KING, PieceType.QUEEN, PieceType.WYVERN, PieceType.ROOK, PieceType.PEGASUS,
    PieceType.KNIGHT, PieceType.BISHOP, PieceType.ELEPHANT, PieceType.PAWN,
)  # fmt: skip
"""Piece kinds in the order a position is read out: the King first, the pawns last."""


def direction_name(name: str) -> str:
    """One of :data:`DIRECTIONS` in the interface's language ("amunt", "arriba")."""
    return _(name)


def find_direction(text: str) -> str | None:
    """The direction ``text`` names (English or the interface's language, any case or accents), or ``None``."""
    wanted = typed(" ".join(text.split()))
    for name, _delta in DIRECTIONS:
        if wanted in (name, typed(direction_name(name))):
            return name
    return None


def _by_column(hexes: Iterable[int]) -> list[int]:
    """Hexes left to right, each column bottom to top: the order people read them in."""
    return sorted(hexes, key=lambda h: (COLUMN[h], LINE[h]))


def _names(hexes: Iterable[int]) -> str:
    return ", ".join(HEX_NAMES[h] for h in _by_column(hexes))


def hex_content(position: Position, h: int) -> str:
    """``"White Pawn"`` or ``"empty"``, in the interface's language."""
    piece = position.piece_at(h)
    return _("empty") if piece is None else piece_words(piece)


def ray(h: int, delta: tuple[int, int]) -> tuple[int, ...]:
    """The hexes from ``h`` in direction ``delta`` up to the edge, nearest first."""
    out = []
    column, line = COLUMN[h], LINE[h]
    while (nxt := hex_at(column + delta[0], line + delta[1])) is not None:
        out.append(nxt)
        column, line = COLUMN[nxt], LINE[nxt]
    return tuple(out)


# --- where the pieces are -------------------------------------------------------------


def _counted(count: int, kind: PieceType) -> str:
    """ "Knight" for one, "2 Knights" for more."""
    return piece_name(kind) if count == 1 else _("{count} {pieces}").format(count=count, pieces=pieces_name(kind))


def _kind_list(count: int, kind: PieceType, hexes: Sequence[int]) -> str:
    return f"{_counted(count, kind)} {_names(hexes)}"


def pieces(position: Position, colour: Colour | None = None, kind: PieceType | None = None) -> list[str]:
    """Where the pieces stand: of one kind (``kind``), of one side (``colour``), or all, a line per side.

    "White Knights: E3, G3.", "White, 27 pieces: King G1; Queen F1; ...".
    """
    sides = (WHITE, BLACK) if colour is None else (colour,)
    lines = []
    for colour_ in sides:
        found: dict[PieceType, list[int]] = {}
        for h, piece in position.pieces(colour_):
            found.setdefault(piece.type, []).append(h)
        if kind is not None:
            hexes = found.get(kind, [])
            if not hexes:
                lines.append(
                    capitalised(_("{side} has no {piece}.").format(side=side(colour_), piece=piece_name(kind)))
                )
            else:
                title = piece_name(kind) if len(hexes) == 1 else pieces_name(kind)
                said = _("{side} {pieces}: {hexes}.").format(side=side(colour_), pieces=title, hexes=_names(hexes))
                lines.append(capitalised(said))
            continue
        total = sum(len(hexes) for hexes in found.values())
        kinds = "; ".join(_kind_list(len(found[k]), k, found[k]) for k in ORDER if k in found)
        said = ngettext("{side}, {count} piece: {pieces}.", "{side}, {count} pieces: {pieces}.", total)
        lines.append(capitalised(said.format(side=side(colour_), count=total, pieces=kinds)))
    return lines


def _scan(position: Position, hexes: Sequence[int], title: str) -> str:
    items: list[str] = []
    empty: list[int] = []

    def close_run() -> None:
        if len(empty) == 1:
            items.append(_("{hex} empty").format(hex=HEX_NAMES[empty[0]]))
        elif len(empty) == 2:
            items.append(_("{first} and {second} empty").format(first=HEX_NAMES[empty[0]], second=HEX_NAMES[empty[1]]))
        elif empty:
            items.append(_("{first} to {last} empty").format(first=HEX_NAMES[empty[0]], last=HEX_NAMES[empty[-1]]))
        empty.clear()

    for h in hexes:
        piece = position.piece_at(h)
        if piece is None:
            empty.append(h)
            continue
        close_run()
        items.append(f"{HEX_NAMES[h]} {piece_words(piece)}")
    close_run()
    return f"{title}: {', '.join(items)}."


def scan_column(position: Position, column: int) -> str:
    """What stands on a column (index 0-14, ``P`` to ``Z``), from White's side up, empty runs said once."""
    hexes = sorted((h for h in HEXES if COLUMN[h] == column), key=LINE.__getitem__)
    title = _("Column {column}, {hexes} from White's side").format(column=COLUMNS[column], hexes=_hexes(len(hexes)))
    return _scan(position, hexes, title)


def scan_line(position: Position, line: int) -> str:
    """What stands on a transversal line (0-28), left to right as White sees it."""
    hexes = sorted((h for h in HEXES if LINE[h] == line), key=COLUMN.__getitem__)
    return _scan(
        position, hexes, _("Line {line}, {hexes} from White's left").format(line=line, hexes=_hexes(len(hexes)))
    )


def _hexes(count: int) -> str:
    return ngettext("{count} hex", "{count} hexes", count).format(count=count)


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
                found = _("{piece} on {hex}").format(piece=piece_words(piece), hex=HEX_NAMES[x])
                break
            empty.append(HEX_NAMES[x])
        said = direction_name(name)
        if found is None:
            lines.append(_("{direction}: {hexes} empty, then the edge.").format(direction=said, hexes=", ".join(empty)))
        elif empty:
            line = _("{direction}: {hexes} empty, then {piece}.")
            lines.append(line.format(direction=said, hexes=", ".join(empty), piece=found))
        else:
            lines.append(f"{said}: {found}.")
    if off:
        lines.append(_("Off the board: {directions}.").format(directions=", ".join(map(direction_name, off))))
    return lines


# --- moves and attacks ------------------------------------------------------------------


def _target_words(position: Position, moves: Sequence[Move]) -> str:
    """The moves of one piece to one hex, in a few words: "F16 taking Black Knight, adjoining check"."""
    first = moves[0]
    words = HEX_NAMES[first.target]
    captured = position.captured_piece(first)
    if first.kind == EN_PASSANT and captured is not None:
        said = _("{hex} taking {piece} on {where} en passant")
        words = said.format(hex=words, piece=piece_words(captured[1]), where=HEX_NAMES[captured[0]])
    elif first.kind == SCORNFUL_CAPTURE and captured is not None:
        words = _("{hex} taking the scornful {piece}").format(hex=words, piece=piece_words(captured[1]))
    elif captured is not None:
        words = _("{hex} taking {piece}").format(hex=words, piece=piece_words(captured[1]))
    piece = position.moving_piece(first)
    if piece.type == PieceType.KING and first.target in KNIGHT_SET[first.origin]:
        words = _("{move} by leap").format(move=words)
    if first.promotion:
        pieces = or_list([_with_check(position, m, regained_words(m)) for m in moves])
        return _("{move} promoting to {pieces}").format(move=words, pieces=pieces)
    if position.is_awaiting_arrival(first):
        words = _("{move} awaiting promotion").format(move=words)
    return _with_check(position, first, words)


def _with_check(position: Position, move: Move, words: str) -> str:
    check = check_words(position, move)
    return _("{move}, {check}").format(move=words, check=check) if check else words


def moves_of(position: Position, h: int) -> str:
    """The legal moves of the piece on ``h``, grouped by target hex; or why it has none."""
    name = HEX_NAMES[h]
    piece = position.piece_at(h)
    if piece is None:
        return _("{hex} is empty.").format(hex=name)
    if piece.colour != position.turn:
        said = _("{piece} {hex}: it is {side}'s turn, so it has no legal move now.")
        return said.format(piece=piece_words(piece), hex=name, side=side(position.turn))
    moves = [m for m in position.legal_moves() if m.origin == h]
    if not moves:
        reason = Picker(position).pick(h).message  # the session's own words for a piece that cannot move
        return f"{capitalised(reason)}."
    items = []
    in_place = [m for m in moves if m.kind == IN_PLACE_PROMOTION]
    if in_place:
        pieces = or_list([regained_words(m) for m in in_place])
        items.append(_("promotion where it stands to {pieces}").format(pieces=pieces))
    by_target: dict[int, list[Move]] = {}
    for move in moves:
        if move.kind not in (IN_PLACE_PROMOTION, CASTLING):
            by_target.setdefault(move.target, []).append(move)
    items += [_target_words(position, by_target[t]) for t in _by_column(by_target)]
    castlings = [m.castling for m in moves if m.castling is not None]
    if castlings:
        items.append(_("castling {tokens}").format(tokens=", ".join(castlings)))
    count = len(moves)
    said = ngettext("{piece} {hex}, {count} move: {moves}.", "{piece} {hex}, {count} moves: {moves}.", count)
    return said.format(piece=piece_words(piece), hex=name, count=count, moves="; ".join(items))


def attacks_on(position: Position, h: int) -> str:
    """Which pieces of each side attack hex ``h`` (a side "protects" a hex its own piece stands on)."""
    occupant = position.piece_at(h)
    parts = []
    for colour in (WHITE, BLACK):
        found = []
        for x in _by_column(position.attackers(h, colour)):
            attacker = position.piece_at(x)
            assert attacker is not None
            found.append(f"{piece_name(attacker.type)} {HEX_NAMES[x]}")
        if occupant is not None and occupant.colour == colour:
            said = _("protected by {side}: {pieces}")
        else:
            said = _("attacked by {side}: {pieces}")
        parts.append(said.format(side=side(colour), pieces=", ".join(found) or _("nothing")))
    return f"{HEX_NAMES[h]} ({hex_content(position, h)}): {'; '.join(parts)}."


# --- the game ---------------------------------------------------------------------------


def last_move(game: Game) -> str:
    """The half-move that led to the position shown, in words, then where the game stands."""
    if game.cursor == 0:
        none = _("No move has been played yet.")
        return f"{none} {situation(game)}" if game.is_live else f"{none} "
    node = game.nodes[game.cursor - 1]
    move = describe_move(game.position_at(game.cursor - 1), node.move)
    if node.number is None:
        said = _("Last move: {move}.").format(move=move)
    else:
        said = _("Last move {number}: {move}.").format(number=node.number, move=move)
    if not game.is_live:
        reviewing = _("Reviewing: after {moves} of {total}.").format(moves=half_moves(game.cursor), total=game.ply)
        return f"{said} {reviewing}"
    return f"{said} {situation(game, check=False)}"


def move_list(game: Game, width: int = 80) -> list[str]:
    """The moves in CTL-AN, numbered, in lines of at most ``width`` characters (a move is never split)."""
    if not game.nodes:
        return [_("No move has been played yet.")]
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


def _castling_words(position: Position, colour: Colour) -> str:
    rights = position.castling_rights(colour)
    if not rights.king:
        return _("{side}'s King has moved").format(side=side(colour))
    rooks = [
        HEX_NAMES[home[colour]]
        for home, kept in ((QUEENS_ROOK_HOME, rights.queens_rook), (KINGS_ROOK_HOME, rights.kings_rook))
        if kept
    ]
    if not position.castling_enabled or not rooks:
        return _("{side}'s King may still leap").format(side=side(colour))
    if len(rooks) == 1:
        return _("{side} may still castle with the Rook on {hex}").format(side=side(colour), hex=rooks[0])
    said = _("{side} may still castle with the Rooks on {first} and {second}")
    return said.format(side=side(colour), first=rooks[0], second=rooks[1])


def _special_words(position: Position) -> str | None:
    special = position.special
    if special is None:
        return None
    pawn = position.piece_at(special.pawn)
    piece = _("empty") if pawn is None else piece_words(pawn)
    where = HEX_NAMES[special.pawn]
    if isinstance(special, EnPassant):
        crossed = or_list([HEX_NAMES[h] for h in special.crossed])
        return _("the {piece} on {hex} can be taken en passant on {hexes}").format(
            piece=piece, hex=where, hexes=crossed
        )
    takers = or_list([HEX_NAMES[h] for h in special.capturers])
    return _("the scornful {piece} on {hex} can be taken from {hexes}").format(piece=piece, hex=where, hexes=takers)


def position_words(game: Game) -> list[str]:
    """The whole position shown: where the game stands, the castling and en passant state, then each side's pieces."""
    position = game.reviewed_position()
    if game.is_live:
        head = situation(game)
    else:
        values = {"moves": half_moves(game.cursor), "total": game.ply, "side": side(position.turn)}
        if position.check_kind() is None:
            head = _("Reviewing, after {moves} of {total}: {side} to move.").format(**values)
        else:
            head = _("Reviewing, after {moves} of {total}: {side} to move, in check.").format(**values)
    details = [_castling_words(position, colour) for colour in (WHITE, BLACK)]
    if not position.castling_enabled:
        details.append(_("no castling in this game"))
    if (special := _special_words(position)) is not None:
        details.append(special)
    if position.halfmove_clock:
        since = _("{moves} since the last capture or pawn move")
        details.append(since.format(moves=half_moves(position.halfmove_clock)))
    if position.fullmove_number is not None:
        details.append(_("move {number}").format(number=position.fullmove_number))
    state = "; ".join(details)
    return [head, capitalised(state) + ".", *pieces(position)]


def regainable(position: Position) -> list[str]:
    """Per side, the captured pieces a pawn could bring back by promotion (RULES.md 7.1)."""
    lines = []
    for colour in (WHITE, BLACK):
        counted = Counter(position.regainable(colour))
        words = []
        for piece, count in counted.items():
            if piece.hex_colour is not None:
                words.append(_("Bishop of the {tiles}").format(tiles=tile_name(piece.hex_colour)))
            else:
                words.append(_counted(count, PieceType(piece.type)))
        said = _("{side} can regain {pieces}.").format(side=side(colour), pieces=", ".join(words) or _("nothing"))
        lines.append(capitalised(said))
    return lines


def clocks(game: Game) -> str:
    """Both clocks' times and which one runs."""
    clock = game.clock
    if clock is None:
        return _("This game has no clock.")
    faces = []
    for colour in (WHITE, BLACK):
        time = duration_words(clock.remaining(colour))
        if clock.flagged == colour:
            face = _("{side} {time}, flag fallen")
        elif clock.running == colour:
            face = _("{side} {time}, running")
        else:
            face = _("{side} {time}")
        faces.append(face.format(side=side_label(colour), time=time))
    said = _("Clock {control}: {faces}.").format(control=say(game.time_control.description()), faces="; ".join(faces))
    if game.is_over:
        return said
    if clock.paused:
        paused = _("The clock is paused: {pause} restarts it.").format(pause=COMMANDS["pause"].word)
        return f"{said} {paused}"
    if clock.to_move is None:
        starts = _("The clock starts with the first move.")
        return f"{said} {starts}"
    return said
