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
from typing import Final

from .clock import NO_CLOCK, ChessClock, ClockState, TimeControl
from .errors import CescacsError, IllegalMoveError
from .message import N_, Message
from .move import Move
from .outcome import FIVEFOLD_REPETITIONS, THREEFOLD_REPETITIONS, UNFINISHED, ClaimStatus, Ending, Outcome
from .pieces import BLACK, WHITE, Colour, Piece
from .position import Position, StateKey

VARIANT = "C'escacs"
ANNOTATOR = "cescacs-tui"


class GameError(CescacsError):
    """An action the game does not allow now (a claim without grounds, a move after the end...)."""


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


OVER_THE_BOARD: Final = "OTB"
"""The ``Mode`` tag (NOTATION.md 7.3.3) of a game at one board: the hot seat, or a person against the computer."""


def default_tags(*, white: str = "?", black: str = "?", date: datetime.date | None = None) -> dict[str, str]:
    """The roster a game played in the app starts with, ``Mode`` included (NOTATION.md 7.5: the hot seat's tags);
    a game played otherwise says so over it (remote games, the server's rooms)."""
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
        "Mode": OVER_THE_BOARD,
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
            raise GameError(Message(N_("the game is over ({reason})"), reason=self.outcome_message()))
        if not self.is_live:
            raise GameError(Message(N_("you are reviewing an earlier move: return to the live position to play")))
        position = self._position
        if not position.is_legal(move):
            raise IllegalMoveError(Message(N_("not a legal move in this position")), token=str(move))
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
            raise GameError(Message(N_("the game is over ({reason})"), reason=self.outcome_message()))
        if not self.is_live:
            raise GameError(Message(N_("you are reviewing an earlier move: return to the live position to play")))
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
        """The outcome's result (:attr:`Outcome.result`), or ``"*"`` while the game goes on."""
        return self.outcome.result if self.outcome else UNFINISHED

    @property
    def termination(self) -> str:
        """How the game ended, in words ("Black mates", "draw by fivefold repetition"), or ``""``."""
        return self.outcome.reason if self.outcome else ""

    def outcome_message(self) -> Message:
        """:attr:`termination` for a front end to say in its language."""
        return self.outcome.message if self.outcome else Message.verbatim("")

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def repetitions(self) -> int:
        """How many times the current position has occurred (the current occurrence included).

        Only the positions since the last capture or pawn move are counted: those moves cannot be undone, so no
        earlier position can come back (and the half-move clock counts exactly these plies).  A move of a long
        game then costs what a move of a short one does, instead of a count over the whole game.
        """
        since = self._keys[-(self._position.halfmove_clock + 1) :]
        return since.count(self._keys[-1])

    def is_fivefold_repetition(self) -> bool:
        """The current position has occurred five times: the game is drawn by itself (RULES.md 10.3-4)."""
        return self.repetitions() >= FIVEFOLD_REPETITIONS

    def can_claim_threefold_repetition(self) -> bool:
        """The game goes on and the current position has occurred at least three times (RULES.md 10.3-4)."""
        return self.outcome is None and self.repetitions() >= THREEFOLD_REPETITIONS

    def can_claim_fifty_moves(self) -> bool:
        """The game goes on and the half-move clock is at least 100 (RULES.md 10.3-3)."""
        return self.outcome is None and self._position.can_claim_fifty_moves()

    def claim_status(self) -> ClaimStatus:
        """What the player to move may claim now, and how far each draw claim is, to explain a refusal."""
        position = self._position
        return ClaimStatus(position.turn, self.repetitions(), position.halfmove_clock, game_over=self.is_over)

    def _update_outcome(self) -> None:
        """Endings the rules decide by themselves, in their order of precedence (RULES.md 10.2).

        The position decides mate, stalemate, the seventy-five-move rule and
        insufficient material; only the history knows a fivefold repetition,
        which comes after mate and stalemate but before the other draws.
        """
        if self.outcome is not None:
            return
        outcome = self._position.outcome()
        if (outcome is None or outcome.winner is None) and self.is_fivefold_repetition():
            outcome = Outcome.draw(Ending.FIVEFOLD_REPETITION)
        if outcome is not None:
            self._finish(outcome)

    def _finish(self, outcome: Outcome) -> Outcome:
        self.outcome = outcome
        self.tags["Result"] = outcome.result
        if outcome.ending is Ending.TIME_FORFEIT:
            self.tags["Termination"] = "time forfeit"
        else:
            self.tags.pop("Termination", None)
        if self.clock is not None:
            self.clock.stop()
        return outcome

    def claimable_draw(self) -> Ending | None:
        """The draw the player to move may claim now (RULES.md 10.3), if any."""
        return self.claim_status().claimable

    def claim_draw(self) -> Outcome:
        """The player to move claims a draw by threefold repetition or the fifty-move rule.

        Raises :class:`GameError` without grounds; its message is :meth:`ClaimStatus.explain`.
        """
        status = self.claim_status()
        ending = status.claimable
        if ending is None:
            raise GameError(status.explanation())
        return self._finish(Outcome.draw(ending, claimed_by=self._position.turn))

    def offer_draw(self) -> None:
        """The player who has just moved offers a draw (RULES.md 10.3-1; CTL-AN ``(=)``)."""
        if self.outcome is not None:
            raise GameError(Message(N_("the game is over")))
        if not self.nodes:
            raise GameError(Message(N_("a draw is offered together with a move")))
        self.draw_offered_by = self.nodes[-1].colour
        self.nodes[-1].draw_offer = True

    def accept_draw(self) -> Outcome:
        """The player to move accepts the pending offer."""
        if self.draw_offered_by is None or self.draw_offered_by == self._position.turn:
            raise GameError(Message(N_("there is no draw offer to accept")))
        return self._finish(Outcome.draw(Ending.AGREEMENT))

    def decline_draw(self) -> None:
        """The player to move declines the pending offer: it leaves no ``(=)`` in the record."""
        if self.draw_offered_by is not None and self.nodes:
            self.nodes[-1].draw_offer = False
        self.draw_offered_by = None

    def resign(self, colour: Colour) -> Outcome:
        """``colour`` resigns: the opponent wins."""
        if self.outcome is not None:
            raise GameError(Message(N_("the game is over")))
        return self._finish(Outcome.resignation(colour))

    def check_time(self) -> Outcome | None:
        """End the game if the running clock's flag has fallen (RULES.md 10.6)."""
        if self.clock is None or self.outcome is not None:
            return None
        flagged = self.clock.check_flag()
        if flagged is None:
            return None
        return self._finish(Outcome.time_forfeit(flagged))

    def set_recorded_outcome(self, outcome: Outcome) -> None:
        """Adopt the outcome a record states for a position that does not decide it (a resignation...)."""
        if self.outcome is None:
            self._finish(outcome)

    # --- material ----------------------------------------------------------------

    def captured_pieces(self, colour: Colour) -> list[Piece]:
        """``colour``'s pieces captured so far in the main line, in order of capture."""
        return [node.captured for node in self.nodes if node.captured is not None and node.captured.colour == colour]
