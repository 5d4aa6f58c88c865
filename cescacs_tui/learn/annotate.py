"""A review written into its game's record, and read back from one.

What a review adds to a record, all of it as NOTATION.md 7.4 allows, so any
full reader keeps it and :func:`read_annotations` finds it again:

* the **assessment** of each classed move: ``?!`` inaccuracy, ``?`` mistake,
  ``??`` blunder (NOTATION.md 4.5); a move that already has one (a person's)
  keeps it;
* after every half-move a **program comment** (it starts with ``:``,
  NOTATION.md 7.4.2) with the score after the move, from White's side, in
  pawns with two decimals or ``#n`` for a mate in ``n`` (``#-n``: Black
  mates), in the ``[%eval …]`` form other chess programs use::

      5. DE1-I13 ??, H16×DI13
      {: @W [%eval -13.48] }
      {: @B [%eval -13.67] }

  (no comment after a mating move: its ``#`` says it).  In memory it is a
  comment of its own; the writer puts it in the half-move's one comment,
  beside the clock and a person's words (:mod:`cescacs_tui.core.pgn_comments`);
* for each classed move, the engine's **better line** as a variation of that
  move (at most :data:`~.review.MAX_LINE` half-moves), its first move carrying
  the same kind of comment with the line's score::

      (5. H6-H10
      .{: @W [%eval 1.42] }
      .5. …, …)

Writing again replaces what an earlier review wrote (its comments and its
variations, recognised by their comment), and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..core.game import Game, Node
from ..core.pieces import BLACK, WHITE, Colour
from .review import Evaluation, PlyReview, Review
from .scoring import mate_cp

__all__ = ["Annotation", "annotate", "eval_comment", "parse_eval", "read_annotations"]

_EVAL: Final = re.compile(r"\s*:\s*@[WB]\s+\[%eval\s+(#-?[0-9]{1,3}|-?[0-9]{1,4}\.[0-9]{2})\]\s*")


def format_eval(evaluation: Evaluation) -> str:
    """``1.42``, ``-13.48``, ``#3``, ``#-2``: the score as the comment writes it."""
    if evaluation.mate is not None:
        return f"#{evaluation.mate}"
    return f"{evaluation.cp / 100:.2f}"


def eval_comment(colour: Colour, evaluation: Evaluation) -> str:
    """The program comment of a score after ``colour``'s half-move."""
    return f": {'@W' if colour == WHITE else '@B'} [%eval {format_eval(evaluation)}]"


def parse_eval(comment: str) -> Evaluation | None:
    """The score of a review's comment, ``None`` for any other comment."""
    found = _EVAL.fullmatch(comment)
    if found is None:
        return None
    text = found.group(1)
    if text.startswith("#"):
        moves = int(text[1:])
        sign = -1 if text.startswith("#-") else 1
        return Evaluation(sign * mate_cp(abs(moves)), moves)
    return Evaluation(round(float(text) * 100))


def _is_review_line(line: list[Node]) -> bool:
    return bool(line) and any(parse_eval(c) is not None for c in line[0].comments)


def _clear(node: Node) -> None:
    node.comments = [c for c in node.comments if parse_eval(c) is None]
    node.variations = [line for line in node.variations if not _is_review_line(line)]


def _better_line(game: Game, ply: PlyReview) -> list[Node]:
    position = game.position_at(ply.ply - 1)
    number = ply.number
    nodes = []
    for move in ply.best_line:
        node = Node.before(position, move, number)
        position.push(move)
        if number is not None and node.colour == BLACK:
            number += 1
        nodes.append(node)
    if nodes:
        nodes[0].comments.append(eval_comment(ply.colour, ply.before))
    return nodes


def annotate(game: Game, review: Review) -> None:
    """Write ``review`` (of ``game``'s main line) into ``game``: assessments, scores and better lines."""
    if len(review.plies) != len(game.nodes):
        raise ValueError(f"the review has {len(review.plies)} half-moves, the game {len(game.nodes)}")
    for node, ply in zip(game.nodes, review.plies, strict=True):
        _clear(node)
        if ply.kind is not None and not node.assessment:
            node.assessment = ply.kind.assessment
        if ply.after.mate != 0:
            node.comments.append(eval_comment(ply.colour, ply.after))
        if ply.kind is not None and not ply.is_best:
            better = _better_line(game, ply)
            if better:
                node.variations.append(better)


@dataclass(frozen=True)
class Annotation:
    """What a record says of one main-line half-move: its mark, the score after it and the better line."""

    ply: int
    move: str
    assessment: str
    evaluation: Evaluation | None
    better: tuple[str, ...]
    """The review's variation, in CTL-AN (empty when there is none)."""
    better_evaluation: Evaluation | None


def read_annotations(game: Game) -> list[Annotation]:
    """The review marks of ``game``'s main line, as a reader found them in its record."""
    found = []
    for ply, node in enumerate(game.nodes, 1):
        evaluation = next((e for e in map(parse_eval, node.comments) if e is not None), None)
        line = next((v for v in node.variations if _is_review_line(v)), [])
        better_evaluation = (
            next((e for e in map(parse_eval, line[0].comments) if e is not None), None) if line else None
        )
        found.append(
            Annotation(ply, node.san, node.assessment, evaluation, tuple(n.san for n in line), better_evaluation)
        )
    return found
