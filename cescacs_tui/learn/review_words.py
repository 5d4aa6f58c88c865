"""A review in words and as JSON: what ``cescacs review`` prints (and the plain mode will say).

The sentences name each inaccuracy, mistake and blunder ("move 14, White:
blunder, gave up 6 pawns; better was JF6-E9"), then each side's accuracy
and count of each class.  The JSON form is one object per half-move (see
:func:`ply_json`).
"""

from __future__ import annotations

from typing import Any

from ..core.pieces import WHITE, Colour
from ..i18n import N_, _, ngettext
from .review import Evaluation, PlyReview, Review
from .scoring import Class

__all__ = ["CLASS_NAMES", "ply_json", "ply_sentence", "review_sentences", "summary_sentence"]

CLASS_NAMES = {Class.INACCURACY: N_("inaccuracy"), Class.MISTAKE: N_("mistake"), Class.BLUNDER: N_("blunder")}
_SIDES = (N_("White"), N_("Black"))


def _side(colour: Colour) -> str:
    return _(_SIDES[0 if colour == WHITE else 1])


def _what_it_cost(ply: PlyReview) -> str:
    """ "gave up 6 pawns", "allowed a mate in 3", "missed a mate in 2"."""
    against = ply.after.mate
    if against is not None and (against < 0) == (ply.colour == WHITE) and against != 0:
        return _("allowed a mate in {n}").format(n=abs(against))
    own = ply.before.mate
    if own is not None and own != 0 and (own > 0) == (ply.colour == WHITE):
        return _("missed a mate in {n}").format(n=abs(own))
    pawns = round(ply.pawns_lost)
    if pawns < 1:
        return _("gave up less than a pawn")
    return ngettext("gave up {n} pawn", "gave up {n} pawns", pawns).format(n=pawns)


def ply_sentence(ply: PlyReview) -> str:
    """One classed half-move in words (the caller skips the others)."""
    kind = _(CLASS_NAMES[ply.kind]) if ply.kind is not None else ""
    where = (
        _("move {number}, {side}").format(number=ply.number, side=_side(ply.colour))
        if ply.number is not None
        else _("half-move {ply}, {side}").format(ply=ply.ply, side=_side(ply.colour))
    )
    said = _("{where}: {kind}, {cost}").format(where=where, kind=kind, cost=_what_it_cost(ply))
    if ply.best is not None and not ply.is_best:
        said = _("{said}; better was {move}").format(said=said, move=ply.best)
    return said


def summary_sentence(review: Review, colour: Colour) -> str:
    """A side's accuracy and how many of each class it made."""
    accuracy = review.accuracy(colour)
    if accuracy is None:
        return _("{side} made no move.").format(side=_side(colour))
    counts = {kind: sum(1 for p in review.plies if p.colour == colour and p.kind is kind) for kind in Class}
    return _("{side}: accuracy {accuracy}%, {blunders}, {mistakes}, {inaccuracies}.").format(
        side=_side(colour),
        accuracy=round(accuracy),
        blunders=ngettext("{n} blunder", "{n} blunders", counts[Class.BLUNDER]).format(n=counts[Class.BLUNDER]),
        mistakes=ngettext("{n} mistake", "{n} mistakes", counts[Class.MISTAKE]).format(n=counts[Class.MISTAKE]),
        inaccuracies=ngettext("{n} inaccuracy", "{n} inaccuracies", counts[Class.INACCURACY]).format(
            n=counts[Class.INACCURACY]
        ),
    )


def review_sentences(review: Review) -> list[str]:
    """The whole review in words: each classed half-move, then each side's summary."""
    said = [ply_sentence(ply) for ply in review.plies if ply.kind is not None]
    if not said:
        said.append(_("No inaccuracy, mistake or blunder."))
    return [*said, summary_sentence(review, WHITE), summary_sentence(review, WHITE.opponent)]


def _score(evaluation: Evaluation) -> tuple[int | None, int | None]:
    """Centipawns from White's side, or ``None`` and the moves to mate (0: the move mated)."""
    return (None, evaluation.mate) if evaluation.mate is not None else (evaluation.cp, None)


def ply_json(ply: PlyReview) -> dict[str, Any]:
    """One half-move as ``cescacs review --json`` prints it.

    ``score`` is the centipawns after the move from White's side, or ``null``
    when ``mate`` gives the moves to mate instead (positive: White mates; 0:
    the move mated); ``best`` is the engine's move and ``best_score`` /
    ``best_mate`` its score, the same way; ``class`` is ``inaccuracy``,
    ``mistake``, ``blunder`` or ``null``; ``loss`` the mover's expected score
    lost (0-1) and ``accuracy`` the move's (0-100).
    """
    score, mate = _score(ply.after)
    best_score, best_mate = _score(ply.before)
    return {
        "ply": ply.ply,
        "side": "white" if ply.colour == WHITE else "black",
        "move": ply.move,
        "score": score,
        "mate": mate,
        "best": ply.best,
        "best_score": best_score,
        "best_mate": best_mate,
        "class": ply.kind.value if ply.kind is not None else None,
        "loss": round(ply.loss, 4),
        "accuracy": round(ply.accuracy, 1),
    }
