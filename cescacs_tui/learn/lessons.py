"""The board trainer's lessons: one per piece and one per special rule, each a short text, the moves of one piece
shown on the board, and a task the rules core checks.

A lesson is a row of a table (:data:`_TABLE`, which one function walks into :data:`LESSONS`): its words are
message ids the catalogs translate, its position a PDTL, its highlighted moves whatever the core's move generator
gives the piece shown, and its task one of a few :class:`Goal` s judged by the core (a capture, a hex reached, a
castling with both Rooks, an en passant or scornful capture, a piece regained, a double check, a mate), written in
the row in a few words (``take C21 in 2``).  Nothing here restates how a piece moves.

A task of several moves is played against an opponent who passes (a null move): only the task's piece moves, and a
move that would give check is refused (the other King only watches).  :func:`solve` finds a solution by trying
every move, so the tests prove each task solvable, in no fewer moves than it allows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ..core import HEX_NAMES, CheckKind, Move, Position, parse_hex
from ..core.move import CASTLING_BY_TOKEN, EN_PASSANT, SCORNFUL_CAPTURE
from ..core.pieces import PIECE_BY_LETTER
from ..i18n import N_, _, ngettext

__all__ = ["LESSONS", "Answer", "Goal", "Lesson", "LessonRun", "Task", "Verdict", "find_lesson", "solve"]


class Goal(Enum):
    """What a task asks, each judged by the core."""

    TAKE = "take"
    """Take the piece on ``target`` with the task's piece, within ``moves`` moves of it."""
    REACH = "reach"
    """Bring the task's piece to ``target`` within ``moves`` moves."""
    CASTLE_BOTH = "castle-both"
    """Castle with both Rooks (a castling whose plan moves two Rooks)."""
    EN_PASSANT = "en-passant"
    SCORNFUL = "scornful"
    """Take the scornful pawn orthogonally."""
    REGAIN = "regain"
    """Promote a pawn to the piece of the letter ``target``."""
    DOUBLE_CHECK = "double-check"
    MATE = "mate"


@dataclass(frozen=True)
class Task:
    """The lesson's exercise: ``text`` (a message id) and how the core judges it."""

    text: str
    goal: Goal
    piece: str = ""
    """The hex of the piece that moves (``TAKE``, ``REACH``): only it may move."""
    target: str = ""
    moves: int = 1


@dataclass(frozen=True)
class Lesson:
    """One lesson: its ``key`` (what a player types), ``title`` and ``text`` (message ids), the position, the
    piece whose moves are shown, the task, and the opponent's moves played before it starts (``prelude``, in
    CTL-AN: the double step en passant answers, the scornful step)."""

    key: str
    title: str
    text: str
    pdtl: str
    shown: str
    task: Task
    prelude: tuple[str, ...] = ()

    def start(self) -> Position:
        """The position the task starts from: the PDTL, then the prelude played by the core."""
        position = Position.from_pdtl(self.pdtl)
        for text in self.prelude:
            position.push(position.parse_move(text))
        return position

    def shown_moves(self) -> list[Move]:
        """The legal moves of the piece shown, in the starting position: what the board highlights."""
        origin = parse_hex(self.shown)
        return [move for move in self.start().legal_moves() if move.origin == origin]


_TABLE: Final = (
    # key, title, text (message ids); the position (PDTL); the piece whose moves are shown; the task (a message
    # id); how the core judges it: the goal, its target, "in N" moves, and "after" the opponent's moves first
    (
        "hexes",
        N_("Hexes, columns and lines"),
        N_(
            "The board has 169 hexes in three colours. The 15 columns are P T A B C D E F G H I K L X Z (there is "
            "no J) and the lines are numbered 0 to 28 from White's side: a hex is its column and line, F14 is the "
            "centre. A column holds only odd or only even lines, so along a column the lines step by two: E7, E9, "
            "E11. The Rook on E7 shows it."
        ),
        "/22:6k/7:3R4/4:K4/ w -- - 0 1",
        "E7",
        N_("Move the Rook three hexes up its column: to E13."),
        "reach E13",
    ),
    (
        "king",
        N_("The King"),
        N_(
            "The King steps to any of its 12 neighbours: 6 across an edge, 6 through a corner to the nearest hex "
            "of its colour. On its first move, if it is not in check, it may instead leap a knight jump to one of "
            "five hexes, and capture there. It never goes where it would be attacked."
        ),
        "/22:6k/6:3j3/1:1K/ w K- - 0 1",
        "G1",
        N_("Take the Bishop on F6 with the King's leap."),
        "take F6",
    ),
    (
        "queen",
        N_("The Queen"),
        N_(
            "The Queen slides any distance in the 12 directions: the 6 orthogonal ones, across the edges, and the "
            "6 diagonal ones, through the corners to hexes of its own colour. Pieces block its way; it takes the "
            "first enemy piece on a line."
        ),
        "/22:6k/21:2n5/14:3D3/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on C21 with the Queen in two moves."),
        "take C21 in 2",
    ),
    (
        "wyvern",
        N_("The Wyvern"),
        N_(
            "The Wyvern slides like a Rook along the 6 orthogonal directions, or jumps like a Knight to one of 12 "
            "hexes, over any piece in between. It never rides (two jumps in one move): only the Knight does."
        ),
        "/22:6k/20:4n2/14:3V3/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on H20 with the Wyvern in two moves."),
        "take H20 in 2",
    ),
    (
        "rook",
        N_("The Rook"),
        N_(
            "The Rook slides any distance along the 6 orthogonal directions: up and down its column and along the "
            "two oblique files, across the edges of the hexes. From the centre it reaches 42 hexes."
        ),
        "/22:6k/18:2n4/14:3R3/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on D18 with the Rook in two moves."),
        "take D18 in 2",
    ),
    (
        "pegasus",
        N_("The Pegasus"),
        N_(
            "The Pegasus slides like a Bishop along the 6 diagonal directions, keeping its colour, or jumps like a "
            "Knight, which changes its colour. It never rides."
        ),
        "/22:6k/16:5n1/14:3G3/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on K16 with the Pegasus in two moves."),
        "take K16 in 2",
    ),
    (
        "knight",
        N_("The Knight"),
        N_(
            "The Knight jumps to 12 hexes: one diagonal step and one orthogonal step beside it, over anything. It "
            "may also ride: two identical jumps in one move, if the hex between and the hex reached are empty. A "
            "ride never captures."
        ),
        "/22:6k/14:3N3/12:1n5/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on B12 with your Knight in two moves."),
        "take B12 in 2",
    ),
    (
        "elephant",
        N_("The Elephant"),
        N_(
            "The Elephant moves one or two hexes forward along its column (the first must be empty for two), or "
            "one step on the four steep diagonals, forwards or backwards. It captures on all six hexes, and never "
            "promotes."
        ),
        "/22:6k/14:4n2/8:3E3/4:K4/ w -- - 0 1",
        "F8",
        N_("Take the Knight on H14 with the Elephant in two moves."),
        "take H14 in 2",
    ),
    (
        "bishop-white",
        N_("The Bishop of the white hexes"),
        N_(
            "A Bishop slides along the 6 diagonal directions and so never leaves the colour it stands on. Each side "
            "has three, one for each colour of hex. This one stands on F10, a white hex: it only ever reaches white "
            "hexes."
        ),
        "/22:6k/13:5n2/10:3J3/4:K4/ w -- - 0 1",
        "F10",
        N_("Take the Knight on I13 with the Bishop in two moves."),
        "take I13 in 2",
    ),
    (
        "bishop-black",
        N_("The Bishop of the black hexes"),
        N_(
            "The Bishop on F12 stands on a black hex: every hex it reaches is black, and a piece on a white or "
            "colour hex is out of its reach."
        ),
        "/22:6k/15:6n1/12:3J3/4:K4/ w -- - 0 1",
        "F12",
        N_("Take the Knight on L15 with the Bishop in two moves."),
        "take L15 in 2",
    ),
    (
        "bishop-colour",
        N_("The Bishop of the colour hexes"),
        N_(
            "The third Bishop lives on the colour hexes, the middle tone, like F14, the centre. The three Bishops "
            "together cover the board; a side that keeps all three gets a point more in the official values."
        ),
        "/22:6k/17:2n5/14:3J3/4:K4/ w -- - 0 1",
        "F14",
        N_("Take the Knight on C17 with the Bishop in two moves."),
        "take C17 in 2",
    ),
    (
        "pawn",
        N_("The Pawn"),
        N_(
            "A Pawn steps forward one hex, or two from any hex, or three from one of its side's triple-step hexes "
            "(the Pawns' starting hexes in the court, E7 among them), or one hex obliquely forward; all onto empty "
            "hexes. It captures one step forward diagonally, as it does on F10 here."
        ),
        "/22:6k/10:3n3/7:3P4/4:K4/ w -- - 0 1",
        "E7",
        N_("Move the Pawn to E13 in one move: the triple step."),
        "reach E13",
    ),
    (
        "castling",
        N_("Castling"),
        N_(
            "Castling is the King's leap made together with one Rook, or both, in one move; neither may have moved, "
            "the King may not be in check or land on an attacked hex, and the hexes used must be empty. There are 24 "
            "ways. Here Black's Queen and Rook attack E5 and I5, so no castling goes there."
        ),
        "/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1",
        "G1",
        N_("Castle with both Rooks at once."),
        "castle-both",
    ),
    (
        "en-passant",
        N_("En passant"),
        N_(
            "A Pawn that steps two or three hexes passes hexes where an enemy Pawn could have taken it. On the very "
            "next move only, that Pawn may take it en passant: it moves to the hex passed, and the Pawn that "
            "passed is removed. Black's Pawn has just stepped from G21 to G17, passing G19."
        ),
        "/22:6k/21:4p3/16:3P3/4:K4/ b -- - 0 1",
        "F16",
        N_("Take the Pawn en passant."),
        "en-passant after G21-G17",
    ),
    (
        "promotion",
        N_("Promotion"),
        N_(
            "A Pawn that reaches the last hex of its column is exchanged for one of its side's pieces that the "
            "opponent has taken: promotion never makes new material. With nothing to regain it waits there, and "
            "it is promoted as soon as something is. White has lost its Queen: the Pawn on E25 can bring it back."
        ),
        "/25:1P2/22:6k/4:K4/ w -- - 0 1",
        "E25",
        N_("Promote the Pawn to a Queen."),
        "regain D",
    ),
    (
        "scornful",
        N_("The scornful Pawn"),
        N_(
            "Two Pawns face each other when each blocks the other's step forward. A Pawn that steps obliquely away "
            "from the Pawn it faced is scornful: on the next move only, the Pawn it faced may take it sideways, the "
            "one orthogonal capture a Pawn ever makes. Black's Pawn has just stepped from E15 to F14."
        ),
        "/22:6k/15:3p4/13:3P4/4:K4/ b -- - 0 1",
        "E13",
        N_("Take the scornful Pawn."),
        "scornful after E15-F14",
    ),
    (
        "check",
        N_("Check"),
        N_(
            "A King attacked is in check, and its side must answer at once. A check from an adjacent hex or a "
            "knight jump away is adjoining: it cannot be blocked. A check along a line is from afar: a piece put "
            "between blocks it. Two checkers make a double check, which only a King move answers. Here the Knight "
            "stands between the Rook and Black's King."
        ),
        "/20:3k3/10:3N3/4:K1R2/ w -- - 0 1",
        "F10",
        N_("Give a double check."),
        "double-check",
    ),
    (
        "mate",
        N_("Checkmate and stalemate"),
        N_(
            "A side in check with no legal move is checkmated and loses 3-0. A side not in check with no legal move "
            "is stalemated, and in C'escacs that loses too, by the minimum: 2-1. So a stalemate is a small win, "
            "but a mate is worth more."
        ),
        "/28:k/24:3K1/2:D2/ w -- - 0 1",
        "D2",
        N_("Checkmate Black in one move (one Queen move only stalemates)."),
        "mate",
    ),
)


def _lesson(key: str, title: str, text: str, pdtl: str, shown: str, task: str, judged: str) -> Lesson:
    """One row of :data:`_TABLE` as a lesson.  ``judged`` is a :class:`Goal`'s value, then the goal's target, ``in
    N`` for a task of ``N`` moves and ``after`` the moves played before the task starts (its prelude); the piece
    that must move is the one shown when the task takes or reaches."""
    words = judged.split()
    goal = Goal(words.pop(0))
    prelude: tuple[str, ...] = ()
    if "after" in words:
        at = words.index("after")
        words, prelude = words[:at], tuple(words[at + 1 :])
    moves = 1
    if "in" in words:
        at = words.index("in")
        words, moves = words[:at], int(words[at + 1])
    piece = shown if goal in (Goal.TAKE, Goal.REACH) else ""
    return Lesson(key, title, text, pdtl, shown, Task(task, goal, piece, "".join(words), moves), prelude)


LESSONS: Final[tuple[Lesson, ...]] = tuple(_lesson(*row) for row in _TABLE)
"""Every lesson, in the order a beginner takes them."""


def find_lesson(word: str) -> Lesson | None:
    """The lesson named by its key (``pegasus``) or its number in :data:`LESSONS` (``6``), or ``None``."""
    text = word.strip().lower()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(LESSONS):
        return LESSONS[int(text) - 1]
    return next((lesson for lesson in LESSONS if lesson.key == text), None)


# --- playing a lesson ------------------------------------------------------------------------------


class Verdict(Enum):
    """What the core made of a move tried in a lesson."""

    SOLVED = "solved"
    """The task is done."""
    GOING = "going"
    """Played, on the way: more moves to come."""
    REFUSED = "refused"
    """Not played: another piece than the task's, or a move that gives check; the position is as it was."""
    MISSED = "missed"
    """Legal, but the task is not done and no move is left: the position is set up again."""


@dataclass(frozen=True)
class Answer:
    """A verdict and its words, in the interface's language."""

    verdict: Verdict
    text: str


def _done(task: Task, before: Position, move: Move, after: Position) -> bool:
    """Whether ``move``, played from ``before`` to ``after``, does what ``task`` asks."""
    goal = task.goal
    if goal is Goal.TAKE:
        return move.target == parse_hex(task.target) and before.piece_at(move.target) is not None
    if goal is Goal.REACH:
        return move.target == parse_hex(task.target)
    if goal is Goal.CASTLE_BOTH:
        return move.castling is not None and len(CASTLING_BY_TOKEN[before.turn][move.castling].rooks) == 2
    if goal is Goal.EN_PASSANT:
        return move.kind == EN_PASSANT
    if goal is Goal.SCORNFUL:
        return move.kind == SCORNFUL_CAPTURE
    if goal is Goal.REGAIN:
        return move.promotion == PIECE_BY_LETTER[task.target]
    if goal is Goal.DOUBLE_CHECK:
        return after.check_kind() is CheckKind.DOUBLE
    return after.is_checkmate()


class LessonRun:
    """A lesson being played: the position now, the task's piece and the moves it has left."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.restart()

    def restart(self) -> None:
        """The task from its start."""
        task = self.lesson.task
        self.position = self.lesson.start()
        self.piece: int | None = parse_hex(task.piece) if task.piece else None
        """Where the task's piece stands now (``None``: any piece may move)."""
        self.left = task.moves
        self.solved = False
        self.last: Move | None = None
        """The last move played in the lesson (the prelude's, at the start)."""
        self.last_from: Position | None = None
        """The position that move was played from."""
        if self.lesson.prelude:
            self.last_from = Position.from_pdtl(self.lesson.pdtl)
            for text in self.lesson.prelude[:-1]:
                self.last_from.push(self.last_from.parse_move(text))
            self.last = self.last_from.parse_move(self.lesson.prelude[-1])

    def moves_from(self, origin: int) -> list[Move]:
        """The legal moves of the piece on ``origin`` that the task lets it play now."""
        if self.solved or (self.piece is not None and origin != self.piece):
            return []
        return [move for move in self.position.legal_moves() if move.origin == origin]

    def play(self, move: Move) -> Answer:
        """Try ``move`` (legal in :attr:`position`): the core judges it against the task."""
        task = self.lesson.task
        if self.solved:
            return Answer(Verdict.REFUSED, _("This lesson is done."))
        if self.piece is not None and move.origin != self.piece:
            said = _("In this task only the piece on {hex} moves.").format(hex=HEX_NAMES[self.piece])
            return Answer(Verdict.REFUSED, said)
        before = self.position
        after = before.copy()
        after.push(move)
        if _done(task, before, move, after):
            self._played(before, move, after)
            self.solved = True
            return Answer(Verdict.SOLVED, _("Well done: that is the task."))
        if task.moves == 1:
            return Answer(Verdict.MISSED, _missed(after))
        if after.is_check():
            return Answer(Verdict.REFUSED, _("That move gives check: here the other King only watches. Try another."))
        self.left -= 1
        if self.left == 0:
            self.restart()
            return Answer(Verdict.MISSED, _("No move left and the task is not done: the position is set up again."))
        after.push_null()
        self._played(before, move, after)
        self.piece = move.target if self.piece is not None else None
        said = ngettext("Played. {count} move left.", "Played. {count} moves left.", self.left)
        return Answer(Verdict.GOING, said.format(count=self.left))

    def _played(self, before: Position, move: Move, after: Position) -> None:
        self.last_from, self.last, self.position = before, move, after


def _missed(after: Position) -> str:
    """Why a one-move task's legal move is not the answer (the position stays as it was)."""
    if after.is_stalemate():
        return _("That stalemates: a win, but only 2-1. Look for the mate. Try again.")
    return _("That is a legal move, but not the task. Try again.")


# --- solving (the tests prove every task can be done) ---------------------------------------------


def _lines(run: LessonRun, depth: int) -> Iterator[list[Move]]:
    """Every sequence of at most ``depth`` moves the task allows, as the player would try them."""
    position, piece = run.position, run.piece
    for move in position.legal_moves():
        if piece is not None and move.origin != piece:
            continue
        yield [move]
        if depth > 1:
            trial = LessonRun(run.lesson)
            trial.position, trial.piece, trial.left = position.copy(), piece, run.left
            if trial.play(move).verdict is Verdict.GOING:
                for rest in _lines(trial, depth - 1):
                    yield [move, *rest]


def solve(lesson: Lesson) -> list[Move] | None:
    """The shortest way to do the lesson's task (the first found), or ``None`` if it cannot be done."""
    for depth in range(1, lesson.task.moves + 1):
        for line in _lines(LessonRun(lesson), depth):
            if len(line) != depth:
                continue
            run = LessonRun(lesson)
            if [run.play(move).verdict for move in line][-1] is Verdict.SOLVED:
                return line
    return None
