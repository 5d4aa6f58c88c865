"""A whole game: its moves, review cursor, takeback, results and draws, clocks.

A :class:`Position` knows the rules of one moment; a :class:`Game` adds what
needs history (repetition, takeback, the record) and what needs people
(draw offers, claims, resignation, the clock).  It is what the app shows and
what CTL-PGN reads and writes.  Like the rest of the core it has no UI code.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .clock import NO_CLOCK, ChessClock, ClockState, TimeControl
from .errors import CescacsError, IllegalMoveError
from .move import Move
from .pieces import BLACK, WHITE, Colour, Piece
from .position import Position, StateKey

VARIANT = "C'escacs"
ANNOTATOR = "cescacs-tui"


class GameError(CescacsError):
    """An action the game does not allow now (a claim without grounds, a move after the end...)."""


class Ending(StrEnum):
    """How a game ended (RULES.md 10)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    FIVEFOLD_REPETITION = "fivefold repetition"
    SEVENTY_FIVE_MOVES = "seventy-five-move rule"
    INSUFFICIENT_MATERIAL = "insufficient material"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty-move rule"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"
    RECORDED = "recorded result"
    """A result read from a record whose final position does not decide it."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the result (White–Black points), how, and a sentence for people."""

    result: str
    ending: Ending
    reason: str

    @property
    def winner(self) -> Colour | None:
        if self.result in ("3-0", "2-1"):
            return WHITE
        if self.result in ("0-3", "1-2"):
            return BLACK
        return None


@dataclass
class Node:
    """One half-move of a line, with what the record says about it."""

    move: Move
    san: str
    """The move in CTL-AN with its check mark, written in the position before it."""
    colour: Colour
    number: int | None
    """The move number (``None`` when the start position's number is unknown)."""
    captured: Piece | None = None
    assessment: str = ""
    """``?``, ``??``, ``!?``... (NOTATION.md 4.5)."""
    draw_offer: bool = False
    comments: list[str] = field(default_factory=list)
    """Comments on this half-move, verbatim (without the braces)."""
    clock: float | None = None
    """The mover's remaining time after the move, in seconds (``[%clk]``)."""
    variations: list[list[Node]] = field(default_factory=list)
    """Alternative lines to this half-move, each starting in the position before it."""
    clock_before: ClockState | None = field(default=None, repr=False, compare=False)
    """The clock as it was before this move, so a takeback can restore it."""

    @classmethod
    def before(cls, position: Position, move: Move, number: int | None) -> Node:
        """The node of ``move``, described in ``position``, the position it is played from."""
        capture = position.captured_piece(move)
        return cls(
            move=move,
            san=position.ctl_an(move),
            colour=position.turn,
            number=number,
            captured=capture[1] if capture else None,
        )


def default_tags(*, white: str = "?", black: str = "?", date: datetime.date | None = None) -> dict[str, str]:
    """The roster a game played in the app starts with (NOTATION.md 7.5)."""
    day = date or datetime.date.today()
    return {
        "Variant": VARIANT,
        "Event": "CG",
        "Site": "?",
        "Date": day.isoformat(),
        "Round": "-",
        "White": white,
        "Black": black,
        "Result": "*",
        "Annotator": ANNOTATOR,
    }


class Game:
    """A C'escacs game: a start position and the main line of moves played from it.

    ``cursor`` is the ply being reviewed (0 = the start position); playing a
    move is only possible at the live end.  Takeback keeps the taken-back
    moves for :meth:`redo` until a different move is played.
    """

    def __init__(
        self,
        start: Position | None = None,
        *,
        tags: Mapping[str, str] | None = None,
        time_control: TimeControl = NO_CLOCK,
        time_source: Callable[[], float] = time.monotonic,
    ) -> None:
        self.start = (start or Position.initial()).copy()
        self._position = self.start.copy()
        self.tags: dict[str, str] = dict(tags) if tags is not None else default_tags()
        self.repeated_tags: list[tuple[str, str]] = []
        """Further occurrences of repeatable tags (``Annotator``...), written after the first."""
        self.nodes: list[Node] = []
        self.intro_comments: list[str] = []
        """Comments before the first move: the context of the record."""
        self.final_comments: list[str] = []
        """Comments after the result: about the game as a whole."""
        self.warnings: list[str] = []
        """What a reader tolerated or found contradictory in the record."""
        self.outcome: Outcome | None = None
        self.draw_offered_by: Colour | None = None
        self.cursor = 0
        self._redo: list[Node] = []
        self._keys: list[StateKey] = [self._position.state_key()]
        self.time_control = time_control
        self.clock: ChessClock | None = (
            ChessClock(time_control, time_source=time_source) if time_control.enabled else None
        )
        self._update_outcome()

    @classmethod
    def new(
        cls,
        *,
        pdtl: str | None = None,
        castling: bool = True,
        white: str = "?",
        black: str = "?",
        time_control: TimeControl = NO_CLOCK,
        time_source: Callable[[], float] = time.monotonic,
    ) -> Game:
        """A new game from the start (or from ``pdtl``), with the app's default tags."""
        start = Position.initial(castling=castling) if pdtl is None else Position.from_pdtl(pdtl, castling=castling)
        tags = default_tags(white=white, black=black)
        if pdtl is not None:
            tags["PDTL"] = start.to_pdtl()
        if not castling:
            tags["Castling"] = "No"
        if time_control.enabled:
            tags["TimeControl"] = time_control.to_tag()
        return cls(start, tags=tags, time_control=time_control, time_source=time_source)

    def set_time_control(self, time_control: TimeControl, *, time_source: Callable[[], float] = time.monotonic) -> None:
        """Put a (stopped) clock on the game, showing the times the record gives after each move."""
        self.time_control = time_control
        self.clock = ChessClock(time_control, time_source=time_source) if time_control.enabled else None
        if time_control.enabled:
            self.tags["TimeControl"] = time_control.to_tag()
            self._restore_recorded_times()

    def _recorded_times(self) -> tuple[float, float]:
        """White's and Black's times after their last recorded move (``[%clk]``), else the base time."""
        times = {WHITE: self.time_control.base, BLACK: self.time_control.base}
        for node in self.nodes:
            if node.clock is not None:
                times[node.colour] = node.clock
        return times[WHITE], times[BLACK]

    def _restore_recorded_times(self) -> None:
        """Set both clocks from the last ``[%clk]`` time of each side (or the base time)."""
        if self.clock is not None:
            self.clock.set_remaining(*self._recorded_times())

    # --- the main line -----------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """The main line as core moves."""
        return [node.move for node in self.nodes]

    @property
    def position(self) -> Position:
        """The position at the end of the main line (the live position).  Do not modify it."""
        return self._position

    @property
    def ply(self) -> int:
        """How many half-moves the main line has."""
        return len(self.nodes)

    @property
    def castling_enabled(self) -> bool:
        return self.start.castling_enabled

    def position_at(self, ply: int) -> Position:
        """A new position: the start with the first ``ply`` half-moves played."""
        if not 0 <= ply <= len(self.nodes):
            raise IndexError(f"ply {ply} is outside 0..{len(self.nodes)}")
        position = self.start.copy()
        for node in self.nodes[:ply]:
            position.push(node.move)
        return position

    def reviewed_position(self) -> Position:
        """The position at the review cursor."""
        return self._position if self.cursor == len(self.nodes) else self.position_at(self.cursor)

    @property
    def is_live(self) -> bool:
        """Whether the cursor is at the end of the main line, where moves are played."""
        return self.cursor == len(self.nodes)

    def go_to(self, ply: int) -> None:
        """Move the review cursor (clamped to the game)."""
        self.cursor = max(0, min(ply, len(self.nodes)))

    def branch(self, ply: int, line: int = 0) -> Game:
        """The game as it goes in a variation: the first ``ply`` half-moves, then the ``line``-th line
        the record gives instead of half-move ``ply + 1``.

        A new game, so it can be reviewed and its own variations followed
        without touching this one; its moves keep the record's comments,
        assessments and variations, and it has no clock.  Its cursor is on the
        variation's first half-move.  Playing the earlier moves again (rather
        than starting from the branching position) keeps the move numbers, and
        the repetitions that decide draws, as they are in the game.
        """
        variations = self.nodes[ply].variations if 0 <= ply < len(self.nodes) else []
        if not 0 <= line < len(variations):
            raise IndexError(f"half-move {ply + 1} has no variation {line + 1}")
        game = Game(self.start, tags=self.tags)
        game.intro_comments = list(self.intro_comments)
        for source in [*self.nodes[:ply], *variations[line]]:
            node = game.play(source.move)
            node.assessment = source.assessment
            node.draw_offer = source.draw_offer
            node.comments = list(source.comments)
            node.variations = source.variations
        game.go_to(ply + 1)
        return game

    # --- playing -------------------------------------------------------------------

    def play(self, move: Move, *, offer_draw: bool = False) -> Node:
        """Play a legal move at the live end; updates clocks, repetition and the outcome."""
        if self.outcome is not None or self.check_time() is not None:
            raise GameError(f"the game is over ({self.termination})")
        if not self.is_live:
            raise GameError("you are reviewing an earlier move: return to the live position to play")
        position = self._position
        if not position.is_legal(move):
            raise IllegalMoveError("not a legal move in this position", token=str(move))
        node = Node.before(position, move, position.fullmove_number)
        clock = self.clock
        if clock is not None:
            node.clock_before = clock.snapshot()
            if clock.paused:
                clock.resume()
            if clock.running is None:
                clock.start(position.turn)  # the first move starts the clocks
            node.clock = clock.press()
        position.push(move)
        self.nodes.append(node)
        self._keys.append(position.state_key())
        self.cursor = len(self.nodes)
        if self._redo and self._redo[-1].move == move:
            self._redo.pop()
        else:
            self._redo.clear()
        self.draw_offered_by = None
        if offer_draw:
            self.offer_draw()
        self._update_outcome()
        return node

    def play_text(self, text: str) -> Node:
        """Parse ``text`` (CTL-AN or canonical) in the live position and play it."""
        if self.outcome is not None:
            raise GameError(f"the game is over ({self.termination})")
        if not self.is_live:
            raise GameError("you are reviewing an earlier move: return to the live position to play")
        return self.play(self._position.parse_move(text))

    def takeback(self) -> Node | None:
        """Undo the last half-move (kept for :meth:`redo`); reopens a finished game."""
        if not self.nodes:
            return None
        node = self.nodes.pop()
        self._keys.pop()
        self._position.pop()
        self._redo.append(node)
        self.cursor = len(self.nodes)
        self.draw_offered_by = None
        if self.clock is not None:
            if node.clock_before is not None:
                self.clock.restore(node.clock_before)
            else:  # a move read from a record (a resumed game): its recorded times, and the mover's turn again
                self.clock.begin_turn_from(self._position.turn, *self._recorded_times())
        self.outcome = None
        self._update_outcome()
        return node

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> Node | None:
        """Replay the last taken-back half-move, at the live end (the review cursor goes there, as for a takeback).

        Raises :class:`GameError` if the game has ended since the takeback.
        """
        if not self._redo:
            return None
        node = self._redo[-1]
        self.cursor = len(self.nodes)
        replayed = self.play(node.move)
        replayed.comments, replayed.assessment, replayed.variations = node.comments, node.assessment, node.variations
        return replayed

    # --- results and draws ---------------------------------------------------------

    @property
    def result(self) -> str:
        """``"3-0"``, ``"2-1"``, ``"1-1"``, ``"1-2"``, ``"0-3"``, or ``"*"`` while the game goes on."""
        return self.outcome.result if self.outcome else "*"

    @property
    def termination(self) -> str:
        """How the game ended, in words ("Black mates", "draw by fivefold repetition"), or ``""``."""
        return self.outcome.reason if self.outcome else ""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def repetitions(self) -> int:
        """How many times the current position has occurred (the current occurrence included)."""
        return self._keys.count(self._keys[-1])

    def _update_outcome(self) -> None:
        """Endings the rules decide by themselves, in their order of precedence (RULES.md 10.2)."""
        if self.outcome is not None:
            return
        position = self._position
        mover = position.turn
        if not position.has_legal_moves():
            winner = mover.opponent
            if position.is_check():
                points = "3-0" if winner == WHITE else "0-3"
                self._finish(Outcome(points, Ending.CHECKMATE, f"{winner.title} mates"))
            else:
                points = "2-1" if winner == WHITE else "1-2"
                reason = f"{mover.title} is stalemated: a minimum win for {winner.title}"
                self._finish(Outcome(points, Ending.STALEMATE, reason))
        elif self.repetitions() >= 5:
            self._finish(Outcome("1-1", Ending.FIVEFOLD_REPETITION, "draw by fivefold repetition"))
        elif position.halfmove_clock >= 150:
            self._finish(Outcome("1-1", Ending.SEVENTY_FIVE_MOVES, "draw by the seventy-five-move rule"))
        elif position.is_insufficient_material():
            self._finish(Outcome("1-1", Ending.INSUFFICIENT_MATERIAL, "draw: insufficient material to mate"))

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.tags["Result"] = outcome.result
        if outcome.ending is Ending.TIME_FORFEIT:
            self.tags["Termination"] = "time forfeit"
        else:
            self.tags.pop("Termination", None)
        if self.clock is not None:
            self.clock.stop()

    def claimable_draw(self) -> Ending | None:
        """The draw the player to move may claim now (RULES.md 10.3), if any."""
        if self.outcome is not None:
            return None
        if self.repetitions() >= 3:
            return Ending.THREEFOLD_REPETITION
        if self._position.halfmove_clock >= 100:
            return Ending.FIFTY_MOVES
        return None

    def claim_draw(self) -> Outcome:
        """The player to move claims a draw by threefold repetition or the fifty-move rule."""
        ending = self.claimable_draw()
        if ending is None:
            raise GameError("no draw can be claimed: the position has not occurred three times and the "
                            "half-move clock is under 100")  # fmt: skip
        who = self._position.turn.title
        self._finish(Outcome("1-1", ending, f"draw by {ending.value} (claimed by {who})"))
        return self.outcome  # type: ignore[return-value]

    def offer_draw(self) -> None:
        """The player who has just moved offers a draw (RULES.md 10.3-1; CTL-AN ``(=)``)."""
        if self.outcome is not None:
            raise GameError("the game is over")
        if not self.nodes:
            raise GameError("a draw is offered together with a move")
        self.draw_offered_by = self.nodes[-1].colour
        self.nodes[-1].draw_offer = True

    def accept_draw(self) -> Outcome:
        """The player to move accepts the pending offer."""
        if self.draw_offered_by is None or self.draw_offered_by == self._position.turn:
            raise GameError("there is no draw offer to accept")
        self._finish(Outcome("1-1", Ending.AGREEMENT, "draw by agreement"))
        return self.outcome  # type: ignore[return-value]

    def decline_draw(self) -> None:
        """The player to move declines the pending offer: it leaves no ``(=)`` in the record."""
        if self.draw_offered_by is not None and self.nodes:
            self.nodes[-1].draw_offer = False
        self.draw_offered_by = None

    def resign(self, colour: Colour) -> Outcome:
        """``colour`` resigns: the opponent wins 3-0 / 0-3."""
        if self.outcome is not None:
            raise GameError("the game is over")
        points = "0-3" if colour == WHITE else "3-0"
        self._finish(Outcome(points, Ending.RESIGNATION, f"{colour.title} resigns"))
        return self.outcome  # type: ignore[return-value]

    def check_time(self) -> Outcome | None:
        """End the game if the running clock's flag has fallen (RULES.md 10.6)."""
        if self.clock is None or self.outcome is not None:
            return None
        flagged = self.clock.check_flag()
        if flagged is None:
            return None
        points = "0-3" if flagged == WHITE else "3-0"
        self._finish(Outcome(points, Ending.TIME_FORFEIT, f"{flagged.opponent.title} wins on time"))
        return self.outcome

    def set_recorded_outcome(self, result: str, reason: str | None = None, ending: Ending = Ending.RECORDED) -> None:
        """Adopt a result a record states for a position that does not decide it (a resignation...)."""
        if self.outcome is not None or result == "*":
            return
        words = {
            "3-0": "White wins",
            "0-3": "Black wins",
            "1-1": "draw",
            "2-1": "White wins by stalemate",
            "1-2": "Black wins by stalemate",
        }
        self._finish(Outcome(result, ending, reason or f"{words[result]} (as recorded)"))

    # --- material ----------------------------------------------------------------

    def captured_pieces(self, colour: Colour) -> list[Piece]:
        """``colour``'s pieces captured so far in the main line, in order of capture."""
        return [node.captured for node in self.nodes if node.captured is not None and node.captured.colour == colour]
