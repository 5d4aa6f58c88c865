"""A puzzle in words: what the player is asked, what a move did, a hint, the rating; the puzzle screen's and the
plain mode's (the same sentences for a sighted player and a screen reader's)."""

from __future__ import annotations

from collections.abc import Callable

from ..core.geometry import HEX_NAMES
from ..core.message import Message
from ..core.pieces import WHITE
from ..i18n import _, ngettext, pgettext
from .puzzles import Hint, Step, Verdict
from .trainer import THEME_NAMES, Trainer

__all__ = ["hint_words", "rating_words", "step_words", "task_words", "theme_words"]


def _side(colour: int) -> str:
    """A side at the head of a sentence ("White", "Les blanques")."""
    said = pgettext("side in a sentence", "White") if colour == WHITE else pgettext("side in a sentence", "Black")
    return said[:1].upper() + said[1:]


def rating_words(trainer: Trainer) -> str:
    """``Your rating: 1523 ± 92 (12 tried, 8 solved)``."""
    progress = trainer.progress
    rating = progress.rating
    tried = ngettext("{n} tried", "{n} tried", progress.tried).format(n=progress.tried)
    return _("Your rating: {rating} ± {deviation} ({tried}, {solved} solved)").format(
        rating=round(rating.rating), deviation=round(rating.deviation), tried=tried, solved=progress.solved
    )


def task_words(trainer: Trainer) -> str:
    """What the player is asked: ``White to move: mate in 2`` or ``Black to move: find the best move``."""
    attempt = trainer.attempt
    if attempt is None:
        return _("no puzzle here: choose another theme or deck")
    mover = _side(attempt.position.turn)
    if attempt.puzzle.mate_in is not None:
        return _("{side} to move: mate in {n}").format(side=mover, n=attempt.puzzle.mate_in)
    return _("{side} to move: find the best move").format(side=mover)


def theme_words(themes: tuple[str, ...]) -> str:
    return ", ".join(_(THEME_NAMES[t]) for t in themes if t in THEME_NAMES)


def step_words(step: Step, say: Callable[[Message | str], str]) -> str:
    """What a move of the player did, in words (``say`` puts the rules' reason in the interface's language)."""
    if step.verdict is Verdict.ILLEGAL:
        return say(step.reason) if step.reason is not None else _("not a legal move here")
    if step.verdict is Verdict.WRONG:
        return _("{move} is not the solution: try another, or ask for a hint").format(move=step.said)
    if step.verdict is Verdict.SOLVED:
        return _("{move}: solved!").format(move=step.said)
    return _("{move}: right; the reply is {reply}. Your move").format(move=step.said, reply=step.reply)


def hint_words(hint: Hint, piece: str) -> str:
    """The first hint names the piece (``piece``: its words) and its hex, the next ones the move."""
    if hint.move is None:
        return _("hint: move {piece} on {hex}").format(piece=piece, hex=HEX_NAMES[hint.hex])
    return _("hint: {move}").format(move=hint.move)
