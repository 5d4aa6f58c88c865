"""``cescacs review`` and ``cescacs puzzles``: the learning subcommands (:mod:`cescacs_tui.learn`).

* ``cescacs review GAME [--json] [--movetime S] [--save FILE]``: the engine
  judges every half-move of a record (or of an archived game, by its number
  in ``cescacs --games``); prints the inaccuracies, mistakes and blunders in
  sentences and each side's accuracy, or with ``--json`` one JSON object per
  half-move; ``--save`` writes the record with the review in it
  (:mod:`cescacs_tui.learn.annotate`).
* ``cescacs puzzles`` opens the puzzle screen (``--plain``, or input or
  output not a terminal: the puzzles in words), the player's rating and
  personal deck kept in the data directory as the visitor policy decides;
  ``cescacs puzzles --check`` re-verifies the bundled puzzles (or ``--file``'s):
  every move legal and canonical, the themes right, every mate forced;
  ``cescacs puzzles --export [--theme T]`` prints them as JSON lines.
* ``cescacs learn [LESSON] [--plain]``: the lessons (:mod:`cescacs_tui.learn.lessons`) in the app, or in words.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Final

from ..core.errors import CescacsError, printable
from ..i18n import _, ngettext
from ..learn import DEFAULT_MOVETIME

__all__ = ["LEARN_SUBCOMMANDS", "add_learn_subcommands"]

LEARN_SUBCOMMANDS: Final = ("review", "puzzles", "learn")
MOVETIME_RANGE: Final = (0.05, 60.0)


def _movetime(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    low, high = MOVETIME_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            _("the time per position is a number of seconds from {low} to {high}, not {text}").format(
                low=low, high=high, text=printable(text, 40)
            )
        )
    return value


def _review(args: argparse.Namespace) -> int:
    from ..data.records import open_pgn_file, save_pgn_file
    from ..learn.annotate import annotate
    from ..learn.review import ReviewError, review_game
    from ..learn.review_words import ply_json, review_sentences
    from . import _resolve_game

    game = open_pgn_file(_resolve_game(args.game)).game
    if not game.nodes:
        raise CescacsError(_("the game has no move to review"))
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print("\r" + _("analysing position {done} of {total}").format(done=done, total=total), end="",
                  file=sys.stderr, flush=True)  # fmt: skip

    try:
        review = asyncio.run(review_game(game, movetime=args.movetime, on_progress=progress))
    except ReviewError as error:
        raise CescacsError(_("the review failed: {reason}").format(reason=printable(str(error)))) from None
    finally:
        if show:
            print(file=sys.stderr)
    if args.json:
        import json  # only here and in --export: the start of the app does not load it

        for ply in review.plies:
            print(json.dumps(ply_json(ply), ensure_ascii=False))
    else:
        for sentence in review_sentences(review):
            print(sentence)
    if args.save is not None:
        annotate(game, review)
        save_pgn_file(game, args.save)
    return 0


def _solve_puzzles(args: argparse.Namespace) -> int:
    """One puzzle after another: the app's screen, or lines of words."""
    from ..data.progress import progress_store
    from ..learn.trainer import THEME_NAMES, player_trainer
    from ..session.policy import LaunchKind
    from .launch import interactive, launch_policy

    if args.file is not None:
        raise CescacsError(_("--file goes with --check or --export: the puzzles solved are the bundled ones and yours"))
    policy = launch_policy(LaunchKind.LOCAL)
    path = policy.progress_path()
    trainer = player_trainer(None if path is None else progress_store(path))
    if args.theme is not None:
        if args.theme not in (*THEME_NAMES, "mate"):
            said = _("no theme is called {name}: {names}")
            raise CescacsError(said.format(name=printable(args.theme, 40), names=", ".join(THEME_NAMES)))
        trainer.theme = args.theme
    if args.plain or not interactive():
        from ..plain.puzzles import run_plain_puzzles

        return run_plain_puzzles(trainer)
    from ..tui.puzzle_app import run_puzzles

    return run_puzzles(trainer)


def _puzzles(args: argparse.Namespace) -> int:
    from ..learn.puzzles import BUNDLED, iter_checked, read_puzzle_file, with_theme

    if not args.check and not args.export:
        return _solve_puzzles(args)
    problems: list[str] = []
    path = args.file or BUNDLED
    puzzles = read_puzzle_file(path, problems=problems)
    if args.export:
        import json

        for puzzle in with_theme(puzzles, args.theme):
            print(json.dumps(puzzle.export(), ensure_ascii=False))
        for problem in problems:
            print(_("cescacs: warning: {warning}").format(warning=printable(problem)), file=sys.stderr)
        return 1 if problems else 0
    bad = len(problems)
    for problem in problems:
        print(printable(problem))
    chosen = with_theme(puzzles, args.theme)
    for _puzzle, found in iter_checked(chosen, budget=args.budget):
        if found:
            bad += 1
            for problem in found:
                print(printable(problem))
    checked = ngettext("{count} puzzle checked", "{count} puzzles checked", len(chosen)).format(count=len(chosen))
    if bad:
        print(ngettext("{checked}: {bad} is wrong", "{checked}: {bad} are wrong", bad).format(checked=checked, bad=bad))
        return 1
    print(_("{checked}: every one is sound").format(checked=checked))
    return 0


def _learn(args: argparse.Namespace) -> int:
    from ..session.policy import LaunchKind
    from .launch import interactive, launch_policy

    policy = launch_policy(LaunchKind.LOCAL)
    if args.plain or not interactive():
        from ..plain.lessons import run_lessons  # no Textual: the plain mode starts fast and never draws

        return run_lessons(policy.progress_path(), args.lesson)
    from ..tui.learn_app import run_learn_app  # imported here: the other subcommands must not pay for Textual

    return run_learn_app(policy, args.lesson)


def add_learn_subcommands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``review`` and ``puzzles`` to the ``cescacs`` subcommand parser."""
    review = sub.add_parser(
        "review",
        help=_("the engine judges every move of a game"),
        description=_("The engine judges every move of a game: inaccuracies, mistakes, blunders and accuracy."),
    )
    review.add_argument("game", metavar="GAME", help=_("a .ctl-pgn record, or the number of an archived game"))
    review.add_argument("--json", action="store_true", help=_("one JSON object per half-move instead of sentences"))
    review.add_argument(
        "--movetime",
        type=_movetime,
        default=DEFAULT_MOVETIME,
        metavar="S",
        help=_("seconds of search per position (default: {seconds})").format(seconds=DEFAULT_MOVETIME),
    )
    review.add_argument(
        "--save", type=Path, metavar="FILE", help=_("write the record with the review in it (marks, scores, lines)")
    )
    review.set_defaults(run=_review)
    puzzles = sub.add_parser(
        "puzzles",
        help=_("solve puzzles, or check or export them"),
        description=_(
            "Solve puzzles near your rating (your rating and your blunders kept), or check or export the "
            "bundled puzzles (or those of a file)."
        ),
    )
    action = puzzles.add_mutually_exclusive_group()
    action.add_argument(
        "--check", action="store_true", help=_("verify every puzzle: legal, canonical, themes right, mates forced")
    )
    action.add_argument("--export", action="store_true", help=_("print the puzzles as JSON lines"))
    action.add_argument("--plain", action="store_true", help=_("solve them in words, line by line"))
    puzzles.add_argument("--file", type=Path, metavar="FILE", help=_("a JSON-lines file of puzzles instead"))
    puzzles.add_argument("--theme", metavar="THEME", help=_("only the puzzles with this theme (mate: any mate)"))
    puzzles.add_argument("--budget", type=int, default=5_000_000, help=argparse.SUPPRESS)
    puzzles.set_defaults(run=_puzzles)
    learn = sub.add_parser(
        "learn",
        help=_("lessons: each piece and special rule, on the board and in words"),
        description=_(
            "Short lessons, one per piece and per special rule: the moves shown on the board, then a task the rules "
            "check. The lessons done are kept in the data directory."
        ),
    )
    learn.add_argument("lesson", nargs="?", metavar="LESSON", help=_("start with this lesson (its number or name)"))
    learn.add_argument("--plain", action="store_true", help=_("in words, line by line (automatic in a pipe)"))
    learn.set_defaults(run=_learn)
