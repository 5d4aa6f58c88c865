"""How a game ends, and what it scores: the one place that knows the results of C'escacs.

An :class:`Outcome` is an :class:`Ending` and a winner (``None`` for a draw);
the result string (``"3-0"``, ``"2-1"``, ``"1-1"``...) and the sentence people
read ("Black mates") are derived from them, never stored beside them, so they
cannot disagree.  :meth:`Position.outcome <cescacs_tui.core.position.Position.outcome>`
decides the endings the position alone decides, :class:`~cescacs_tui.core.game.Game`
the ones that need its history or its players; both build their outcomes here.

The thresholds of the draw rules are named here too (RULES.md 10.3), and
:class:`ClaimStatus` explains to the player to move what could be claimed and
how far each claim is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .pieces import BLACK, WHITE, Colour

# --- results (RULES.md 10.1, NOTATION.md 6.4) ------------------------------------------------

WHITE_WINS: Final = "3-0"
BLACK_WINS: Final = "0-3"
WHITE_MINIMUM_WIN: Final = "2-1"
"""White has stalemated Black: a win by the minimum score (RULES.md 9.5)."""
BLACK_MINIMUM_WIN: Final = "1-2"
DRAW: Final = "1-1"
UNFINISHED: Final = "*"
RESULTS: Final = (WHITE_WINS, BLACK_WINS, DRAW, WHITE_MINIMUM_WIN, BLACK_MINIMUM_WIN, UNFINISHED)
"""Every result a record may state, ``*`` (no result yet) included."""

_SCORES: Final[dict[tuple[Colour | None, bool], str]] = {
    (WHITE, False): WHITE_WINS,
    (BLACK, False): BLACK_WINS,
    (WHITE, True): WHITE_MINIMUM_WIN,
    (BLACK, True): BLACK_MINIMUM_WIN,
    (None, False): DRAW,
}
_BY_RESULT: Final = {result: key for key, result in _SCORES.items()}

# --- the thresholds of the draw rules (RULES.md 10.3) -----------------------------------------

SEVENTY_FIVE_MOVE_PLIES: Final = 150
"""The half-move clock at which the game is drawn by itself (the seventy-five-move rule)."""
FIFTY_MOVE_PLIES: Final = 100
"""The half-move clock from which the player to move may claim a draw (the fifty-move rule)."""
FIVEFOLD_REPETITIONS: Final = 5
"""The occurrence of a position that draws the game by itself."""
THREEFOLD_REPETITIONS: Final = 3
"""The occurrences of a position from which the player to move may claim a draw."""


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

    @property
    def is_draw(self) -> bool:
        """Whether this ending is always a draw (a recorded result may be anything)."""
        return self in _DRAWS

    @property
    def is_claim(self) -> bool:
        """Whether this draw is claimed by the player to move rather than reached by itself."""
        return self in (Ending.THREEFOLD_REPETITION, Ending.FIFTY_MOVES)


_DRAWS: Final = frozenset(
    {
        Ending.FIVEFOLD_REPETITION,
        Ending.SEVENTY_FIVE_MOVES,
        Ending.INSUFFICIENT_MATERIAL,
        Ending.THREEFOLD_REPETITION,
        Ending.FIFTY_MOVES,
        Ending.AGREEMENT,
    }
)
_DRAW_WORDS: Final = {
    Ending.FIVEFOLD_REPETITION: "draw by fivefold repetition",
    Ending.SEVENTY_FIVE_MOVES: "draw by the seventy-five-move rule",
    Ending.INSUFFICIENT_MATERIAL: "draw: insufficient material to mate",
    Ending.THREEFOLD_REPETITION: "draw by threefold repetition",
    Ending.FIFTY_MOVES: "draw by the fifty-move rule",
    Ending.AGREEMENT: "draw by agreement",
}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and who won (``None``: a draw).

    ``minimum`` marks a win by the minimum score (2-1 / 1-2): a stalemate, or a
    result a record states so.  ``claimed_by`` names the player who claimed a
    threefold-repetition or fifty-move draw, when known.  ``note`` is a
    record's own words for its ending (``"White resigns"``); when it is set,
    :attr:`reason` says it instead of the standard words.  Impossible
    combinations (a drawn checkmate, a stalemate that is not a minimum win...)
    raise :class:`ValueError`.
    """

    ending: Ending
    winner: Colour | None = None
    minimum: bool = False
    claimed_by: Colour | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.ending.is_draw and self.winner is not None:
            raise ValueError(f"a {self.ending} is a draw: it has no winner")
        if not self.ending.is_draw and self.ending is not Ending.RECORDED and self.winner is None:
            raise ValueError(f"a {self.ending} has a winner")
        if self.minimum != (self.ending is Ending.STALEMATE) and self.ending is not Ending.RECORDED:
            raise ValueError("a stalemate, and only a stalemate, is a win by the minimum score")
        if self.minimum and self.winner is None:
            raise ValueError("a win by the minimum score has a winner")
        if self.claimed_by is not None and not self.ending.is_claim:
            raise ValueError(f"a {self.ending} is not claimed")

    # --- the endings, by the words of the rules ----------------------------------

    @classmethod
    def checkmate(cls, winner: Colour) -> Outcome:
        return cls(Ending.CHECKMATE, winner)

    @classmethod
    def stalemate(cls, winner: Colour) -> Outcome:
        """``winner`` has stalemated the other side: a win by the minimum score."""
        return cls(Ending.STALEMATE, winner, minimum=True)

    @classmethod
    def resignation(cls, loser: Colour) -> Outcome:
        return cls(Ending.RESIGNATION, loser.opponent)

    @classmethod
    def time_forfeit(cls, flagged: Colour) -> Outcome:
        """``flagged``'s time ran out: the opponent wins (RULES.md 10.1)."""
        return cls(Ending.TIME_FORFEIT, flagged.opponent)

    @classmethod
    def draw(cls, ending: Ending, *, claimed_by: Colour | None = None) -> Outcome:
        return cls(ending, None, claimed_by=claimed_by)

    @classmethod
    def recorded(cls, result: str, ending: Ending = Ending.RECORDED, *, note: str | None = None) -> Outcome:
        """The outcome a record states: its ``result``, and ``ending`` if that fits the result
        (otherwise :attr:`Ending.RECORDED`).  Raises :class:`ValueError` for ``*`` or a string
        that is not a result."""
        if result not in _BY_RESULT:
            raise ValueError(f"{result!r} is not the result of a finished game ({', '.join(_BY_RESULT)})")
        winner, minimum = _BY_RESULT[result]
        try:
            return cls(ending, winner, minimum=minimum, note=note)
        except ValueError:
            return cls(Ending.RECORDED, winner, minimum=minimum, note=note)

    # --- what is derived -----------------------------------------------------------

    @property
    def result(self) -> str:
        """White's and Black's points: ``"3-0"``, ``"2-1"``, ``"1-1"``, ``"1-2"`` or ``"0-3"``."""
        return _SCORES[self.winner, self.minimum]

    @property
    def loser(self) -> Colour | None:
        return None if self.winner is None else self.winner.opponent

    @property
    def reason(self) -> str:
        """How the game ended, in words: ``"Black mates"``, ``"draw by fivefold repetition"``..."""
        if self.note is not None:
            return self.note
        winner, loser = self.winner, self.loser
        match self.ending:
            case Ending.CHECKMATE:
                assert winner is not None
                return f"{winner.title} mates"
            case Ending.STALEMATE:
                assert winner is not None and loser is not None
                return f"{loser.title} is stalemated: a minimum win for {winner.title}"
            case Ending.RESIGNATION:
                assert loser is not None
                return f"{loser.title} resigns"
            case Ending.TIME_FORFEIT:
                assert winner is not None
                return f"{winner.title} wins on time"
            case Ending.RECORDED:
                if winner is None:
                    return "draw (as recorded)"
                return f"{winner.title} wins{' by stalemate' if self.minimum else ''} (as recorded)"
            case _:
                claim = f" (claimed by {self.claimed_by.title})" if self.claimed_by is not None else ""
                return _DRAW_WORDS[self.ending] + claim


@dataclass(frozen=True)
class ClaimStatus:
    """What the player to move could claim now, and how far each claim is (RULES.md 10.3).

    ``repetitions`` counts the occurrences of the current position (this one
    included); ``halfmove_clock`` the half-moves since the last capture or pawn
    move.  ``claimable`` is the draw that may be claimed now, ``None`` when
    neither threshold is reached or the game is over (``game_over``).
    """

    claimant: Colour
    repetitions: int
    halfmove_clock: int
    game_over: bool = False

    @property
    def claimable(self) -> Ending | None:
        if self.game_over:
            return None
        if self.repetitions >= THREEFOLD_REPETITIONS:
            return Ending.THREEFOLD_REPETITION
        if self.halfmove_clock >= FIFTY_MOVE_PLIES:
            return Ending.FIFTY_MOVES
        return None

    @property
    def repetitions_needed(self) -> int:
        """How many more occurrences of this position a threefold-repetition claim needs (0: none)."""
        return max(0, THREEFOLD_REPETITIONS - self.repetitions)

    @property
    def half_moves_needed(self) -> int:
        """How many more half-moves without a capture or pawn move a fifty-move claim needs (0: none)."""
        return max(0, FIFTY_MOVE_PLIES - self.halfmove_clock)

    def explain(self) -> str:
        """One sentence for the player: the draw that may be claimed, or why none can be and when one could."""
        if self.game_over:
            return "the game is over: there is no draw to claim"
        who = self.claimant.title
        match self.claimable:
            case Ending.THREEFOLD_REPETITION:
                occurred = _times(self.repetitions)
                return f"{who} may claim a draw by threefold repetition (this position has occurred {occurred})"
            case Ending.FIFTY_MOVES:
                return (
                    f"{who} may claim a draw by the fifty-move rule "
                    f"({self.halfmove_clock} half-moves without a capture or pawn move)"
                )
        return (
            f"no draw to claim: this position has occurred {_times(self.repetitions)} "
            f"(a claim needs {THREEFOLD_REPETITIONS}), and {_half_moves(self.halfmove_clock)} have passed "
            f"without a capture or pawn move (a claim needs {FIFTY_MOVE_PLIES}, {self.half_moves_needed} more)"
        )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _half_moves(count: int) -> str:
    return "1 half-move" if count == 1 else f"{count} half-moves"
