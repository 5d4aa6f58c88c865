"""``cescacs puzzles --plain``: puzzles in words, one line typed at a time (screen readers, braille, pipes).

Each puzzle is said as its task ("White to move: mate in 2") and its pieces,
side by side, as the plain game's ``b`` says them.  A line is a move (CTL-AN,
or two hexes) or one of the words :data:`PUZZLE_WORDS` lists (in the
interface's language, or English): ``hint`` (the piece, then the move),
``retry``, ``next``, ``position``, ``theme`` (alone: the themes; with a
theme: only those puzzles; ``theme all``), ``deck`` (the bundled puzzles, or
``deck mine``: the player's blunders), ``rating``, ``help``, ``quit``.  The
forced replies are played and said at once; the rating is the trainer's,
kept where the policy decided.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Final, TextIO

from ..core.notation import normalise_typed
from ..i18n import N_, NC_, _, folded, pgettext
from ..learn.puzzle_words import hint_words, rating_words, step_words, task_words, theme_words
from ..learn.puzzles import Verdict
from ..learn.trainer import THEME_NAMES, Trainer
from ..session.terms import say, the_piece
from .commands import COMMAND_CONTEXT
from .front_end import Write
from .output import LineWriter
from .questions import pieces
from .typed_lines import lines

__all__ = ["PUZZLE_WORDS", "PlainPuzzles", "run_plain_puzzles"]

PUZZLE_WORDS: Final = {
    "hint": (NC_("command typed in plain mode", "hint"), N_("the piece to move; again: the move")),
    "retry": (NC_("command typed in plain mode", "retry"), N_("the puzzle again from its start")),
    "next": (NC_("command typed in plain mode", "next"), N_("another puzzle, near your rating")),
    "position": (NC_("command typed in plain mode", "position"), N_("the task and every piece again")),
    "theme": (NC_("command typed in plain mode", "theme"), N_("the themes; theme NAME: only those; theme all")),
    "deck": (NC_("command typed in plain mode", "deck"), N_("deck bundled, or deck mine: your own blunders")),
    "rating": (NC_("command typed in plain mode", "rating"), N_("your puzzle rating")),
    "help": (NC_("command typed in plain mode", "help"), N_("this list")),
    "quit": (NC_("command typed in plain mode", "quit"), N_("leave the puzzles")),
}
"""The words of the puzzles' plain mode: each name's word in the interface's language, and what it does."""
DECK_WORDS: Final = {"bundled": N_("bundled"), "mine": N_("mine")}


class PlainPuzzles:
    """Puzzles driven by lines of text (see the module's docstring); ``write`` takes one or several lines."""

    def __init__(self, trainer: Trainer, write: Write) -> None:
        self.trainer = trainer
        self.write = write
        self.running = True

    def _word(self, name: str) -> str:
        return pgettext(COMMAND_CONTEXT, PUZZLE_WORDS[name][0]).split()[0]

    def _command(self, word: str) -> str | None:
        typed = folded(word)
        for name, (word_id, _summary) in PUZZLE_WORDS.items():
            if typed in (name, *(folded(w) for w in pgettext(COMMAND_CONTEXT, word_id).split())):
                return name
        return None

    def start(self) -> None:
        self.write(_("C'escacs puzzles in plain text. Type a move, or {help} for the words.").format(
            help=self._word("help")))  # fmt: skip
        for problem in self.trainer.problems:
            self.write(_("Warning: {problem}.").format(problem=problem))
        self.write(rating_words(self.trainer))
        self._next()

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.handle(line)
            if not self.running:
                return

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        name = self._command(words[0])
        argument = " ".join(words[1:])
        if name is None:
            self._play(line.strip())
        else:
            getattr(self, f"_{name}")(argument)

    # --- saying the puzzle -------------------------------------------------------------------------

    def _position(self, argument: str = "") -> None:
        attempt = self.trainer.attempt
        if attempt is None:
            self.write(task_words(self.trainer))
            return
        puzzle = attempt.puzzle
        self.write(_("Puzzle {id}, rated {rating}.").format(id=puzzle.id, rating=puzzle.rating))
        self.write(task_words(self.trainer) + ".")
        self.write("\n".join(pieces(attempt.position)))

    def _next(self, argument: str = "") -> None:
        self.trainer.next_puzzle()
        self._position()

    # --- the player's lines --------------------------------------------------------------------------

    def _play(self, text: str) -> None:
        attempt = self.trainer.attempt
        if attempt is None:
            self.write(task_words(self.trainer))
            return
        if attempt.solved:
            self.write(_("Solved already: {next} for another puzzle, {retry} to try it again.").format(
                next=self._word("next"), retry=self._word("retry")))  # fmt: skip
            return
        step = attempt.play(normalise_typed(text))  # a box's forms: lower case, x for ×...
        rated = self.trainer.settle()
        said = step_words(step, say)
        if step.verdict is Verdict.WRONG:
            said += " (" + self._word("hint") + ")"
        self.write(said + ".")
        if step.verdict is Verdict.SOLVED:
            self.write(_("Themes: {themes}.").format(themes=theme_words(attempt.puzzle.themes) or "-"))
        if rated is not None:
            self.write(rating_words(self.trainer) + ".")
            if self.trainer.problem is not None:
                self.write(_("Not kept: {reason}.").format(reason=self.trainer.problem))

    def _hint(self, argument: str) -> None:
        attempt = self.trainer.attempt
        if attempt is None or attempt.solved:
            self.write(_("No hint: the puzzle is solved.") if attempt is not None else task_words(self.trainer))
            return
        hint = attempt.hint()
        rated = self.trainer.settle()
        self.write(hint_words(hint, the_piece(hint.piece.type)) + ".")
        if rated is not None:
            self.write(rating_words(self.trainer) + ".")

    def _retry(self, argument: str) -> None:
        if self.trainer.attempt is not None:
            self.trainer.attempt.retry()
        self._position()

    def _theme(self, argument: str) -> None:
        if not argument:
            names = ", ".join(f"{_(said)} ({name})" for name, said in THEME_NAMES.items())
            self.write(_("Themes: {themes}.").format(themes=names))
            return
        wanted = folded(argument)
        if wanted in ("all", folded(_("all"))):
            self.trainer.theme = None
        else:
            found = [name for name, said in THEME_NAMES.items() if wanted in (name, folded(_(said)))]
            if not found:
                self.write(_("No theme is called {name}: {theme} alone lists them.").format(
                    name=argument, theme=self._word("theme")))  # fmt: skip
                return
            self.trainer.theme = found[0]
        self._next()

    def _deck(self, argument: str) -> None:
        wanted = folded(argument)
        found = [name for name, said in DECK_WORDS.items() if wanted in (name, folded(_(said)))]
        if not found or found[0] not in self.trainer.decks:
            decks = ", ".join(_(DECK_WORDS[name]) for name in self.trainer.decks)
            self.write(_("The decks: {decks}.").format(decks=decks))
            return
        self.trainer.choose_deck(found[0])
        self._next()

    def _rating(self, argument: str) -> None:
        self.write(rating_words(self.trainer) + ".")

    def _help(self, argument: str) -> None:
        for word_id, summary in PUZZLE_WORDS.values():
            self.write(f"{pgettext(COMMAND_CONTEXT, word_id).split()[0]}: {_(summary)}")
        self.write(_("Anything else is read as a move, in CTL-AN or as two hexes (e7-e13)."))

    def _quit(self, argument: str) -> None:
        self.running = False
        self.write(rating_words(self.trainer) + ". " + _("Goodbye."))


def run_plain_puzzles(trainer: Trainer, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Puzzles in words on ``stdin`` and ``stdout`` (default: the process's) until ``quit`` or the end of input."""
    source, target = stdin or sys.stdin, stdout or sys.stdout
    for stream in (source, target):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    plain = PlainPuzzles(trainer, LineWriter(target))
    plain.start()
    try:
        plain.run(lines(source))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    if plain.running:
        plain.write(_("End of input.") + " " + rating_words(trainer) + ". " + _("Goodbye."))
    return 0
