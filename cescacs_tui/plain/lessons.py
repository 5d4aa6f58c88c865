"""The lessons in words: ``cescacs learn --plain``, and ``lessons`` in the plain mode.

What the app shows on the board is said: the lesson's text, the moves of the piece shown (the same words as the
plain mode's ``m`` command), the last move when the lesson starts after one, and the task; then the player types
moves (CTL-AN, or two hexes) and hears what the rules core made of each.  The commands are few, typed in the
interface's language or in English.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

from ..core import HEX_NAMES, Move, find_hex, parse_hex
from ..core.errors import CescacsError
from ..core.notation import normalise_typed
from ..data.progress import ProgressStore, drill_score, lesson_done, progress_store
from ..i18n import NC_, _
from ..learn.drill import Drill, DrillKind
from ..learn.lessons import LESSONS, Lesson, LessonRun, Verdict, find_lesson, solve
from ..session.answers import words_of
from ..session.terms import say
from ..session.words import describe_move
from .commands import typed
from .questions import DIRECTIONS, direction_name, moves_of

__all__ = ["LESSON_CONTEXT", "PlainLessons"]

LESSON_CONTEXT: Final = "command typed in lessons"
# Translators: each NC_("command typed in lessons", ...) is a word typed in the lessons of the plain mode; give the
# word(s) of your language, space-separated, the one the help shows first. The English words keep working.
_LIST: Final = NC_("command typed in lessons", "list")
_AGAIN: Final = NC_("command typed in lessons", "again")
_NEXT: Final = NC_("command typed in lessons", "next")
_SHOW: Final = NC_("command typed in lessons", "show")
_HINT: Final = NC_("command typed in lessons", "hint")
_QUIT: Final = NC_("command typed in lessons", "quit")
_DRILL: Final = NC_("command typed in lessons", "drill")


def _word(command: str) -> str:
    """The word the help shows for a command: the language's first."""
    return words_of(LESSON_CONTEXT, command)[0]


def _is(text: str, command: str) -> bool:
    return typed(text) in map(typed, words_of(LESSON_CONTEXT, command))


class PlainLessons:
    """The lessons driven one line at a time; ``write`` shows lines.  :attr:`running` is false once the player
    leaves (``quit``)."""

    def __init__(
        self, write: Callable[[str], None], store: ProgressStore, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.write = write
        self.store = store
        self.clock = clock
        self.run: LessonRun | None = None
        self.drill: Drill | None = None
        """The coordinate drill, while a round of it runs: every line is an answer."""
        self.running = True

    def start(self) -> None:
        """Greet the player and list the lessons."""
        said = _(
            "Lessons: type a lesson's number or name to start it, {drill} for the coordinate drill, {quit} to leave."
        )
        self.write(said.format(drill=_word(_DRILL), quit=_word(_QUIT)))
        self.show_list()

    def show_list(self) -> None:
        done = self.store.progress.lessons
        for number, lesson in enumerate(LESSONS, 1):
            mark = _(" (done)") if lesson.key in done else ""
            self.write(f"{number}. {lesson.key}: {_(lesson.title)}{mark}")
        for problem in (*self.store.notices, self.store.problem):
            if problem is not None:
                self.write(_("Warning: {problem}.").format(problem=problem))

    def handle(self, line: str) -> None:
        """One line: a command, a lesson to start, or a move of the lesson under way."""
        text = line.strip()
        if not text:
            return
        if self.drill is not None:
            self._drill_answer(text)
        elif _is(text, _DRILL):
            self._drill_start()
        elif _is(text, _QUIT):
            self.running = False
        elif _is(text, _LIST):
            self.show_list()
        elif _is(text, _NEXT):
            self._next()
        elif self.run is not None and _is(text, _AGAIN):
            self.run.restart()
            self.write(_("The position is set up again."))
            self._task()
        elif self.run is not None and _is(text, _SHOW):
            self.begin(self.run.lesson)
        elif self.run is not None and _is(text, _HINT):
            self._hint()
        elif (lesson := find_lesson(text)) is not None:
            self.begin(lesson)
        elif self.run is None:
            said = _("{text}: no such lesson. Type a number from 1 to {last}, or {list} for the list.")
            self.write(said.format(text=text, last=len(LESSONS), list=_word(_LIST)))
        else:
            self._try(text)

    def begin(self, lesson: Lesson) -> None:
        """Start ``lesson``: its title, its text, the moves of the piece shown, the last move, the task."""
        self.run = run = LessonRun(lesson)
        number = LESSONS.index(lesson) + 1
        self.write(
            _("Lesson {number} of {count}: {title}.").format(number=number, count=len(LESSONS), title=_(lesson.title))
        )
        self.write(_(lesson.text))
        self.write(moves_of(run.position, parse_hex(lesson.shown)))
        if run.last is not None and run.last_from is not None:
            self.write(_("Last move: {move}.").format(move=describe_move(run.last_from, run.last)))
        self._task()

    def _task(self) -> None:
        assert self.run is not None
        commands = ", ".join(_word(c) for c in (_AGAIN, _SHOW, _HINT, _NEXT, _LIST, _DRILL, _QUIT))
        said = _("Task: {task} Type your move (CTL-AN, or two hexes); or {commands}.")
        self.write(said.format(task=_(self.run.lesson.task.text), commands=commands))

    def _next(self) -> None:
        if self.run is None:
            self.begin(LESSONS[0])
            return
        index = LESSONS.index(self.run.lesson) + 1
        if index == len(LESSONS):
            self.write(_("That was the last lesson."))
            return
        self.begin(LESSONS[index])

    def _hint(self) -> None:
        assert self.run is not None
        solution = solve(self.run.lesson)
        if solution is None or self.run.solved:
            return
        self.run.restart()
        first = solution[0]
        said = _("From the start of the task: {move}.").format(move=describe_move(self.run.position, first))
        self.write(f"{said} {_('The position is set up again.')}")

    # --- the coordinate drill, in words -------------------------------------------------------------

    def _drill_start(self) -> None:
        self.drill = Drill(DrillKind.STEP, clock=self.clock)
        self.drill.start()
        said = _("Coordinate drill: name the hex one step away, as many as you can in {seconds} seconds; {quit} stops.")
        self.write(said.format(seconds=int(self.drill.seconds), quit=_word(_QUIT)))
        self._drill_ask()

    def _drill_ask(self) -> None:
        assert self.drill is not None
        question = self.drill.question
        assert question.origin is not None
        direction = next(name for name, delta in DIRECTIONS if delta == question.step)
        said = _("{hex}, one step {direction}: which hex?")
        self.write(said.format(hex=HEX_NAMES[question.origin], direction=direction_name(direction)))

    def _drill_answer(self, text: str) -> None:
        drill = self.drill
        assert drill is not None
        if _is(text, _QUIT):
            self.drill = None
            self.write(_("Drill stopped: {score} right.").format(score=drill.score))
            return
        asked = drill.question.answer
        right = drill.answer(find_hex(text.upper()))
        if not drill.running:
            self.drill = None
            record = drill_score(self.store, drill.kind.value, drill.score)
            best = self.store.progress.best.get(drill.kind.value, 0)
            said = _("Time! {score} right, {misses} missed. Best: {best}.")
            self.write(said.format(score=drill.score, misses=drill.misses, best=best))
            if record:
                self.write(_("A new best."))
            return
        if right:
            self.write(_("{hex}: right.").format(hex=HEX_NAMES[asked]))
        else:
            self.write(_("{typed}: no, try again.").format(typed=text))
        self._drill_ask()

    def _try(self, text: str) -> None:
        run = self.run
        assert run is not None
        moves = self._moves(text)
        if moves is None:
            return
        if len(moves) > 1:
            options = ", ".join(run.position.ctl_an(move) for move in moves)
            self.write(_("Several moves go there: {moves}. Type the one you mean.").format(moves=options))
            return
        before = run.position
        move = moves[0]
        said = describe_move(before, move)
        answer = run.play(move)
        if answer.verdict in (Verdict.SOLVED, Verdict.GOING):
            self.write(f"{said}. {answer.text}")
        else:
            self.write(f"{said}: {answer.text}")
        if answer.verdict is Verdict.SOLVED:
            lesson_done(self.store, run.lesson.key)
            if run.lesson is LESSONS[-1]:
                self.write(_("Every lesson is done. {list} shows them again.").format(list=_word(_LIST)))
            else:
                self.write(_("Type {next} for the next lesson.").format(next=_word(_NEXT)))

    def _moves(self, text: str) -> list[Move] | None:
        """The legal moves ``text`` names (two hexes may name several), or ``None`` after saying why none."""
        run = self.run
        assert run is not None
        position = run.position
        tokens = text.split()
        hexes = [find_hex(token.upper()) for token in tokens]
        if len(tokens) == 2 and None not in hexes:
            origin, target = hexes
            found = [move for move in position.legal_moves() if (move.origin, move.target) == (origin, target)]
            if not found:
                said = _("No move of the piece on {origin} goes to {target}.")
                self.write(said.format(origin=HEX_NAMES[origin or 0], target=HEX_NAMES[target or 0]))
                return None
            return found
        try:
            return [position.parse_move(normalise_typed(text))]
        except CescacsError as error:
            self.write(f"{say(error.explanation)}.")
            return None


def run_lessons(
    path: Path | None, lesson: str | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """``cescacs learn --plain``: the lessons on standard input and output, the progress kept in ``path`` (``None``:
    not kept); ``lesson`` (a number or a name) starts at once."""
    from .output import LineWriter
    from .run import robust
    from .typed_lines import lines

    source, target = stdin or sys.stdin, stdout or sys.stdout
    robust(source)
    robust(target)
    lessons = PlainLessons(LineWriter(target), progress_store(path))
    lessons.start()
    if lesson is not None:
        lessons.handle(lesson)
    try:
        for line in lines(source):
            lessons.handle(line)
            if not lessons.running:
                break
    except KeyboardInterrupt:
        pass
    lessons.write(_("Goodbye."))
    return 0
