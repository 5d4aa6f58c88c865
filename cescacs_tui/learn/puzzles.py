"""Puzzles: the bundled set, a player's attempt at one, hints, and the check of a whole set.

A puzzle is a position, the solver to move, and its solution: the solver's
moves and the forced replies, in canonical CTL-AN, solver first and last.
The set shipped with cescacs-tui (``cescacs_tui/assets/puzzles.jsonl``, made
by ``scripts/make_puzzles.py``) holds one JSON object a line::

    {"id": "P1a2b3c4d", "pdtl": "...", "moves": ["GD2×RI3+^", "KG27-H26", "DE1-E27#"],
     "themes": ["mate-in-2"], "rating": 1150, "source": "self-play seed 27, game 4, ply 61"}

How a puzzle has one clearly best first move:

* a mate in ``n`` (the themes say ``mate-in-n``) is proved by enumeration
  (:mod:`.proof`): the first move mates within ``n`` against every defence,
  no other first move does, and no mate is shorter.  A player's other move
  that also mates within the moves left is accepted, and the line goes on
  from it (the longest defence, then a mating move);
* any other puzzle has an engine margin: see ``scripts/make_puzzles.py``
  (every other move scores at least 1.5 pawns less at each of the solver's
  steps; one pawn less after a first move that takes en passant or takes a
  scornful pawn, which wins one); only the solution's moves are accepted.

:class:`Attempt` is a player's try: :meth:`Attempt.play` judges a move and
plays the forced reply, :meth:`Attempt.hint` names the piece to move and
then the move, :meth:`Attempt.retry` starts again.  Everything is plain
data, for a front end to put in words.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Final

from ..core.errors import CescacsError, MoveError
from ..core.message import Message
from ..core.move import Move
from ..core.pieces import Piece
from ..core.position import Position
from ..core.safe_text import printable
from ..data.storage import read_limited
from ..i18n import _
from .proof import Budget, BudgetExceeded, MateProver
from .themes import THEMES, solution_themes

__all__ = [
    "BUNDLED",
    "MAX_LINE",
    "Attempt",
    "Hint",
    "Puzzle",
    "PuzzleError",
    "Step",
    "Verdict",
    "bundled_puzzles",
    "iter_checked",
    "parse_puzzles",
    "read_puzzle_file",
    "verify",
    "with_theme",
]

BUNDLED: Final = Path(__file__).resolve().parent.parent / "assets" / "puzzles.jsonl"
"""The set shipped with cescacs-tui."""
MAX_FILE_BYTES: Final = 8 * 1024 * 1024
MAX_LINE: Final = 11
"""The longest solution, in half-moves (six of the solver's moves)."""
MAX_LINE_CHARS: Final = 4_000
_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,39}")


class PuzzleError(CescacsError):
    """A puzzle that cannot be used: a field missing or wrong, an illegal move."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; ``moves`` are CTL-AN, the solver's first (``moves[0]``) and last."""

    id: str
    pdtl: str
    moves: tuple[str, ...]
    themes: tuple[str, ...]
    rating: int
    source: str = ""

    @property
    def mate_in(self) -> int | None:
        """``n`` for a mate in ``n``, else ``None``."""
        return next((int(theme[-1]) for theme in self.themes if theme.startswith("mate-in-")), None)

    def start(self) -> Position:
        return Position.from_pdtl(self.pdtl)

    def line(self) -> list[Move]:
        """The solution as moves; :class:`PuzzleError` if one is not legal where it stands."""
        position = self.start()
        line = []
        for index, text in enumerate(self.moves):
            try:
                move = position.parse_move(text)
            except MoveError as error:
                raise PuzzleError(
                    _("{id}: move {number} {move}: {reason}").format(
                        id=self.id, number=index + 1, move=text, reason=error
                    )
                ) from None
            line.append(move)
            position.push(move)
        return line

    def export(self) -> dict[str, Any]:
        """The fields ``cescacs puzzles --export`` prints."""
        return {"id": self.id, "pdtl": self.pdtl, "moves": list(self.moves), "themes": list(self.themes),
                "rating": self.rating}  # fmt: skip

    def to_json(self) -> str:
        fields = self.export()
        if self.source:
            fields["source"] = self.source
        return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """A puzzle from a parsed JSON object; :class:`PuzzleError` saying which field is wrong."""
        if not isinstance(data, dict):
            raise PuzzleError(_("a puzzle is a JSON object"))
        ident, pdtl, moves, themes, rating = (data.get(k) for k in ("id", "pdtl", "moves", "themes", "rating"))
        source = data.get("source", "")
        if not isinstance(ident, str) or not _ID.fullmatch(ident):
            raise PuzzleError(_("id: letters, digits and '-', at most 40"))
        if not isinstance(pdtl, str) or len(pdtl) > 600:
            raise PuzzleError(_("{id}: pdtl: a PDTL string").format(id=ident))
        if (
            not isinstance(moves, list)
            or not 1 <= len(moves) <= MAX_LINE
            or len(moves) % 2 == 0
            or not all(isinstance(m, str) and 0 < len(m) <= 24 for m in moves)
        ):
            raise PuzzleError(
                _("{id}: moves: an odd number (1 to {most}) of CTL-AN moves").format(id=ident, most=MAX_LINE)
            )
        if not isinstance(themes, list) or not all(isinstance(t, str) and t in THEMES for t in themes):
            raise PuzzleError(_("{id}: themes: names from {names}").format(id=ident, names=", ".join(THEMES)))
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 4000:
            raise PuzzleError(_("{id}: rating: a whole number from 0 to 4000").format(id=ident))
        if not isinstance(source, str) or len(source) > 200:
            raise PuzzleError(_("{id}: source: a text of at most 200 characters").format(id=ident))
        try:
            Position.from_pdtl(pdtl)
        except CescacsError as error:
            raise PuzzleError(_("{id}: pdtl: {reason}").format(id=ident, reason=error)) from None
        return cls(ident, pdtl, tuple(moves), tuple(themes), rating, printable(source))


def parse_puzzles(text: str, *, problems: list[str] | None = None) -> list[Puzzle]:
    """The puzzles of a JSON-lines text; a line that is not a puzzle is skipped and said in ``problems``."""
    found: list[Puzzle] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            if len(line) > MAX_LINE_CHARS:
                raise PuzzleError(_("longer than {most} characters").format(most=MAX_LINE_CHARS))
            puzzle = Puzzle.from_json(json.loads(line))
            if puzzle.id in seen:
                raise PuzzleError(_("{id}: a second puzzle with this id").format(id=puzzle.id))
        except (ValueError, RecursionError) as error:  # PuzzleError and JSONDecodeError are ValueErrors
            if problems is not None:
                problems.append(_("line {number}: {reason}").format(number=number, reason=printable(str(error), 200)))
            continue
        seen.add(puzzle.id)
        found.append(puzzle)
    return found


def read_puzzle_file(path: Path, *, problems: list[str] | None = None) -> list[Puzzle]:
    """The puzzles of a file (at most 8 MiB of UTF-8); ``OSError`` if it cannot be read."""
    data = read_limited(path, MAX_FILE_BYTES)
    return parse_puzzles(data.decode("utf-8", errors="replace"), problems=problems)


@functools.cache
def bundled_puzzles() -> tuple[Puzzle, ...]:
    """The set shipped with cescacs-tui, easiest first."""
    return tuple(sorted(read_puzzle_file(BUNDLED), key=lambda p: (p.rating, p.id)))


def with_theme(puzzles: Iterable[Puzzle], theme: str | None) -> list[Puzzle]:
    """The puzzles that have ``theme`` (all of them for ``None``); ``mate`` means any mate."""
    if theme is None:
        return list(puzzles)
    if theme == "mate":
        return [p for p in puzzles if p.mate_in is not None]
    return [p for p in puzzles if theme in p.themes]


def verify(puzzle: Puzzle, *, budget: Budget | None = None) -> list[str]:
    """What is wrong with ``puzzle`` (``[]``: nothing): every move legal and written canonically, the themes
    the ones its solution shows, and a mate forced against every defence, the shortest, with no other first
    move as fast (a proof, not the engine)."""
    try:
        start = puzzle.start()
        line = puzzle.line()
    except CescacsError as error:
        return [str(error)]
    problems = []
    position = start.copy()
    for text, move in zip(puzzle.moves, line, strict=True):
        if position.ctl_an(move) != text:
            problems.append(
                _("{id}: {move} is written {canonical} in canonical CTL-AN").format(
                    id=puzzle.id, move=text, canonical=position.ctl_an(move)
                )
            )
        position.push(move)
    themes = solution_themes(start, line)
    if themes != puzzle.themes:
        problems.append(
            _("{id}: themes {themes}, but the solution shows {shown}").format(
                id=puzzle.id, themes=list(puzzle.themes), shown=list(themes)
            )
        )
    if puzzle.mate_in is not None:
        problems += _mate_problems(puzzle, start, line, budget or Budget())
    return problems


def _mate_problems(puzzle: Puzzle, start: Position, line: list[Move], budget: Budget) -> list[str]:
    """A mate's proof: forced against every defence, no shorter mate, and no other first move as fast.

    One prover asks the three questions: what the first learned (every reply
    to the solution's first move loses) the last need not find again."""
    prover = MateProver(budget)
    if not prover.proves_line(start, line):
        return [_("{id}: the solution does not force mate against every defence").format(id=puzzle.id)]
    moves = (len(line) + 1) // 2
    if moves > 1 and prover.forces(start.copy(), moves - 1):
        return [_("{id}: there is a mate in {n}").format(id=puzzle.id, n=moves - 1)]
    firsts = prover.first_moves(start.copy(), moves, limit=2)
    if firsts != [line[0]]:
        others = ", ".join(start.ctl_an(m) for m in firsts if m != line[0])
        return [_("{id}: {moves} mates as fast").format(id=puzzle.id, moves=others)]
    return []


class Verdict(Enum):
    """How a move of an attempt was judged."""

    CORRECT = "correct"
    """The move (or another that mates as fast) was played, and the forced reply after it."""
    SOLVED = "solved"
    """The move completed the solution."""
    WRONG = "wrong"
    """A legal move that is not the solution: the position is unchanged, try again."""
    ILLEGAL = "illegal"
    """Not a legal move here (``reason`` says why)."""


@dataclass(frozen=True)
class Step:
    """The judgement of one move: ``said`` is the player's move in CTL-AN; ``reply`` the answer played after it."""

    verdict: Verdict
    said: str = ""
    reply: str = ""
    reason: Message | str | None = None


@dataclass(frozen=True)
class Hint:
    """The piece to move (first hint), then the move itself (second)."""

    piece: Piece
    hex: int
    move: str | None = None


@dataclass
class Attempt:
    """A player's try at ``puzzle``: ``position`` is what the player sees now."""

    puzzle: Puzzle
    prover: MateProver = field(default_factory=lambda: MateProver(Budget(5_000_000)))
    failed: bool = False
    """A wrong move or a hint before the solution: the rating counts the try as lost."""
    hints: int = 0

    def __post_init__(self) -> None:
        self._line = self.puzzle.line()
        self._start = self.puzzle.start()
        self.position = self._start.copy()
        self.done = 0
        """Half-moves of the line played so far."""

    @property
    def solver(self) -> int:
        return self._start.turn

    @property
    def solved(self) -> bool:
        return self.done >= len(self._line)

    @property
    def moves_left(self) -> int:
        """The solver's moves still to find."""
        return (len(self._line) - self.done + 1) // 2

    def _accepts(self, move: Move) -> bool:
        expected = self._line[self.done]
        if move == expected:
            return True
        mate = self.puzzle.mate_in
        return mate is not None and self.prover.move_forces(self.position, move, self.moves_left)

    def play(self, text: str) -> Step:
        """Judge the player's move ``text`` (CTL-AN or two hexes' canonical form) and answer it."""
        if self.solved:
            raise PuzzleError(_("{id} is solved: retry it or take another").format(id=self.puzzle.id))
        try:
            move = self.position.parse_move(text)
        except MoveError as error:
            return Step(Verdict.ILLEGAL, reason=error.explanation)
        said = self.position.ctl_an(move)
        if not self._accepts(move):
            self.failed = True
            return Step(Verdict.WRONG, said)
        if move != self._line[self.done]:
            self._follow(move)
        self.position.push(move)
        self.done += 1
        if self.solved or self.position.is_checkmate():
            self.done = len(self._line)
            return Step(Verdict.SOLVED, said)
        reply = self._line[self.done]
        reply_said = self.position.ctl_an(reply)
        self.position.push(reply)
        self.done += 1
        return Step(Verdict.CORRECT, said, reply_said)

    def _follow(self, move: Move) -> None:
        """The player found another mate: the rest of the line is the prover's (longest defence, then a mate)."""
        rest = self.prover.mating_line(self.position, move, self.moves_left)
        self._line = [*self._line[: self.done], *rest]

    def hint(self) -> Hint:
        """The first hint names the piece to move; the next ones the move itself.  Either spoils the try."""
        self.hints += 1
        self.failed = True
        move = self._line[self.done]
        piece = self.position.moving_piece(move)
        said = self.position.ctl_an(move) if self.hints > 1 else None
        return Hint(piece, move.origin, said)

    def retry(self) -> None:
        """Back to the puzzle's position (a try already lost stays lost)."""
        self._line = self.puzzle.line()
        self.position = self._start.copy()
        self.done = 0

    def solution(self) -> list[str]:
        """The whole solution in CTL-AN, from the puzzle's position."""
        return list(self.puzzle.moves)


def iter_checked(puzzles: Sequence[Puzzle], *, budget: int | None = None) -> Iterator[tuple[Puzzle, list[str]]]:
    """Each puzzle with what :func:`verify` finds wrong with it (a mate's proof bounded by ``budget`` moves)."""
    for puzzle in puzzles:
        try:
            yield puzzle, verify(puzzle, budget=Budget(budget))
        except BudgetExceeded as error:  # said, and the check goes on
            yield puzzle, [_("{id}: {reason}").format(id=puzzle.id, reason=error)]
