"""From hexes the player picks to moves: the selection logic of the board.

The board widget only reports which hex was picked (cursor, Enter or a mouse
click); this module decides what that means in the current position — select
a piece, play a move, ask which piece to promote to or which castling was
meant — and explains refusals in words.  It has no Textual import, so it is
tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, auto

from ..core import HEX_NAMES, Move, Position
from ..core.move import CASTLING, EN_PASSANT, IN_PLACE_PROMOTION
from ..core.notation import explain_illegal
from ..core.pieces import NAMES


class PickKind(Enum):
    """What a pick led to."""

    SELECTED = auto()
    """A piece is now selected; its targets are shown."""
    DESELECTED = auto()
    PLAY = auto()
    """Exactly one move: play it."""
    CHOOSE = auto()
    """Several moves share this target (promotions, castlings): the player must choose."""
    REFUSED = auto()
    """Nothing to do; ``message`` says why."""


@dataclass(frozen=True)
class PickResult:
    kind: PickKind
    moves: tuple[Move, ...] = ()
    message: str = ""


@dataclass
class Picker:
    """The selection state for one position.

    Create a new one whenever the position changes (a move, a takeback, a
    review jump): a selection never survives a change of position.
    """

    position: Position
    selected: int | None = None
    _legal: list[Move] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self._legal = self.position.legal_moves()

    @property
    def legal_moves(self) -> list[Move]:
        return self._legal

    def moves_from(self, origin: int) -> list[Move]:
        return [m for m in self._legal if m.origin == origin]

    def targets(self) -> dict[int, str]:
        """For the selected piece: target hex → ``"move"`` or ``"capture"`` (for the board's markers)."""
        if self.selected is None:
            return {}
        out: dict[int, str] = {}
        for move in self.moves_from(self.selected):
            if move.kind == IN_PLACE_PROMOTION:
                out[move.target] = "move"
            elif move.kind == EN_PASSANT or self.position.is_capture(move):
                out[move.target] = "capture"
            else:
                out.setdefault(move.target, "move")
        return out

    def pick(self, h: int) -> PickResult:
        """The player picked hex ``h`` (Enter/Space on the cursor, or a click)."""
        position = self.position
        piece = position.piece_at(h)
        own = piece is not None and piece.colour == position.turn
        if self.selected is None:
            return self._select(h) if own else self._refuse_empty(h)
        if h == self.selected:
            in_place = [m for m in self.moves_from(h) if m.kind == IN_PLACE_PROMOTION]
            if in_place:
                return PickResult(PickKind.CHOOSE, tuple(in_place), "promote the waiting pawn")
            self.selected = None
            return PickResult(PickKind.DESELECTED)
        candidates = [m for m in self.moves_from(self.selected) if m.target == h]
        if candidates:
            if len(candidates) == 1:
                return PickResult(PickKind.PLAY, (candidates[0],))
            return PickResult(PickKind.CHOOSE, tuple(_ordered(candidates)), _choice_prompt(candidates))
        if own:
            return self._select(h)
        origin = self.selected
        return PickResult(PickKind.REFUSED, message=explain_illegal(position, origin, h))

    def cancel(self) -> None:
        self.selected = None

    def _select(self, h: int) -> PickResult:
        moves = self.moves_from(h)
        piece = self.position.piece_at(h)
        assert piece is not None
        name = f"the {NAMES[piece.type]} on {HEX_NAMES[h]}"
        if not moves:
            forced = [m for m in self._legal if m.kind == IN_PLACE_PROMOTION]
            if forced:
                where = ", ".join(sorted({HEX_NAMES[m.origin] for m in forced}))
                return PickResult(PickKind.REFUSED, message=f"a waiting pawn must be promoted this turn ({where})")
            reason = "it has no legal move"
            if self.position.is_check():
                reason = "it cannot answer the check"
            return PickResult(PickKind.REFUSED, message=f"{name} cannot move: {reason}")
        self.selected = h
        in_place = [m for m in moves if m.kind == IN_PLACE_PROMOTION]
        if in_place:
            return PickResult(PickKind.CHOOSE, tuple(in_place), "promote the waiting pawn")
        return PickResult(PickKind.SELECTED, tuple(moves))

    def _refuse_empty(self, h: int) -> PickResult:
        piece = self.position.piece_at(h)
        if piece is None:
            return PickResult(PickKind.REFUSED, message=f"{HEX_NAMES[h]} is empty: pick one of your pieces")
        return PickResult(
            PickKind.REFUSED,
            message=f"that is a {piece.colour.title} {NAMES[piece.type]}: {self.position.turn.title} is to move",
        )


def _ordered(moves: list[Move]) -> list[Move]:
    """Plain King's leap first, then castlings in table order; promotions by value, highest first."""
    return sorted(moves, key=lambda m: (m.kind == CASTLING, -m.promotion))


def _choice_prompt(moves: list[Move]) -> str:
    if any(m.kind == CASTLING for m in moves):
        return "the King can go there by leap or by castling: choose"
    return "choose the piece to regain"
