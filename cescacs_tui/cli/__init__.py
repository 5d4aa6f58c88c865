"""The ``cescacs`` command.

``cescacs`` alone starts a hot-seat game; ``cescacs GAME.ctl-pgn`` opens a
saved game and ``cescacs --pdtl P`` starts from a position.  ``cescacs --games``
lists the archive of finished games, newest first, and ``cescacs 3`` (or
``cescacs NAME``) opens one of them.  ``--plain`` (or an input or output that
is not a terminal) plays line by line in words instead of drawing the board.
Subcommands serve power users and scripts:

* ``cescacs moves [--pdtl P]``: every legal move, canonical form and CTL-AN;
* ``cescacs perft N [--pdtl P] [--divide]``: count the move tree;
* ``cescacs engine``: the computer player, speaking the UCI-style protocol of
  docs/engine-protocol.md on stdin/stdout;
* ``cescacs host`` / ``join`` / ``serve-ssh``: one game from two places (:mod:`cescacs_tui.remote`);
* ``cescacs review`` / ``puzzles``: a game judged by the engine, the puzzles checked (:mod:`cescacs_tui.cli.learn`).

Bad input is reported on stderr with exit status 2, never with a traceback.
Text from files (tags, file names, error tokens) is printed with its control
characters escaped, so a crafted record cannot drive the terminal.  If the
app dies of an unexpected error, the terminal is restored and the command
exits with status 1 after saying so.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

from ..core import CescacsError, Position, divide, perft
from ..core.message import Message
from ..core.perft import MAX_PERFT_DEPTH
from ..core.safe_text import printable
from ..i18n import LANGUAGES, _, choose_language, ngettext, set_language
from . import launch
from .launch import CRASH_NOTE, launch_policy
from .learn import LEARN_SUBCOMMANDS, add_learn_subcommands
from .remote import REMOTE_SUBCOMMANDS, add_remote_subcommands

if TYPE_CHECKING:
    from ..core.clock import TimeControl
    from ..session.players import Contender

EXIT_USAGE = 2


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's layout, with its own words ("usage:") in the interface's language."""

    def add_usage(
        self, usage: str | None, actions: Iterable[argparse.Action], groups: Iterable[object], prefix: str | None = None
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)  # type: ignore[arg-type]


class _VersionAction(argparse.Action):
    """``--version``: the installed package's version and build, read only when asked (importlib.metadata costs
    start-up)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from importlib.metadata import version

        from ..core.build_info import build

        print(parser.prog, version("cescacs-tui"), f"({build()})")
        parser.exit()


class Parser(argparse.ArgumentParser):
    """An argument parser that speaks the interface's language: its headings, ``--help`` and the error line.

    argparse's own explanations of a wrong command line stay English (Python ships no catalogs for them).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        kwargs["add_help"] = False  # our own -h, with its words translated
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        """The usage line and the reason, status 2; what argparse quotes of the arguments made printable (its
        'unrecognized arguments' are quoted as given, escape sequences included)."""
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, _("{prog}: error: {reason}").format(prog=self.prog, reason=printable(message)) + "\n")


def _language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        help=_("the language of the interface (default: the settings', else the locale's)"),
    )


def _take_language(arguments: list[str]) -> tuple[str, list[str]]:
    """The language to speak and the arguments without ``--lang``, taken wherever it is (before any parser runs,
    so ``--help`` speaks it): ``--lang``, else the setting, else the locale.  A wrong ``--lang`` is left for the
    real parser to refuse."""
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False, exit_on_error=False)
    early.add_argument("--lang", choices=tuple(LANGUAGES))
    flag = None
    try:
        known, rest = early.parse_known_args(arguments)
    except argparse.ArgumentError:  # said once, by the real parser
        rest = arguments
    else:
        flag = known.lang
        if flag is None:
            rest = arguments
    from ..data.settings import read_language

    return choose_language(flag, read_language(), os.environ), rest


def _position(pdtl: str | None, *, castling: bool = True) -> Position:
    """The start position, or ``pdtl``; what the tolerant reader accepted with a warning is said on stderr."""
    if pdtl is None:
        return Position.initial(castling=castling)
    from ..session.terms import say

    found: list[Message] = []
    position = Position.from_pdtl(pdtl, castling=castling, notes=found)
    for note in found:
        print(_("cescacs: warning: {warning}").format(warning=printable(say(note))), file=sys.stderr)
    return position


def _depth(text: str) -> int:
    """A perft depth from the command line: a whole number from 0 to :data:`MAX_PERFT_DEPTH`."""
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(
            _("the depth must be a whole number from 0 to {most}, not {text}").format(
                most=MAX_PERFT_DEPTH, text=repr(printable(text))
            )
        )
    return int(text)


def _player(text: str) -> Contender:
    """A player from the command line: ``human``, ``computer`` or ``computer:N`` (N a level from 1 to 10)."""
    from ..session.players import parse_player

    try:
        return parse_player(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a player: use human, computer or computer:N with N from 1 to 10").format(
                text=repr(printable(text[:40]))
            )
        ) from None


def _time_control(text: str) -> TimeControl:
    """A time control from the command line: any CTL-PGN ``TimeControl`` tag (``300+3``, ``600``, ``*30``...)."""
    from ..core.clock import TimeControl
    from ..session.terms import say

    try:
        return TimeControl.from_tag(text)
    except CescacsError as error:
        raise argparse.ArgumentTypeError(
            _("{text} is not a time control: {reason}").format(
                text=repr(printable(text[:40])), reason=printable(say(error.explanation))
            )
        ) from None


def _add_position_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pdtl", metavar="PDTL", help=_("start from this position (default: the initial position)"))
    parser.add_argument(
        "--no-castling", action="store_true", help=_("the beginners' rule: no castling, the King's leap cannot capture")
    )


def _moves(args: argparse.Namespace) -> int:
    position = _position(args.pdtl, castling=not args.no_castling)
    moves = sorted(position.legal_moves(), key=str)
    for move in moves:
        print(f"{move!s:<12} {position.ctl_an(move)}")
    result = position.result()
    summary = ngettext("{count} legal move", "{count} legal moves", len(moves)).format(count=len(moves))
    if result is not None:
        summary = _("{moves}; result {result}").format(moves=summary, result=result)
    print(summary, file=sys.stderr)
    return 0


def _perft(args: argparse.Namespace) -> int:
    position = _position(args.pdtl, castling=not args.no_castling)
    start = time.perf_counter()
    if args.divide:
        if args.depth == 0:
            raise CescacsError(_("--divide needs a depth of at least 1"))
        counts = divide(position, args.depth)
        for move, count in counts.items():
            print(f"{move:<12} {count}")
        total = sum(counts.values())
    else:
        total = perft(position, args.depth)
    seconds = time.perf_counter() - start
    print(total)
    rate = total / seconds if seconds > 0 else float("inf")
    said = _("depth {depth}: {total} leaves in {seconds} s ({rate} leaves/s)").format(
        depth=args.depth, total=total, seconds=f"{seconds:.3f}", rate=f"{rate:,.0f}"
    )
    print(said, file=sys.stderr)
    return 0


def _engine(args: argparse.Namespace) -> int:
    from ..engine.serve import serve  # imported here: the other commands do not need the engine

    return serve(sys.stdin.buffer, sys.stdout.buffer)


def _play(args: argparse.Namespace) -> int:
    if args.games:
        if args.file is not None or args.pdtl is not None:
            raise CescacsError(_("--games only lists the archive: it opens no game"))
        return _list_games()
    if args.clock is not None and args.file is not None:
        raise CescacsError(_("--clock starts a new game: a record keeps the clock it was played with"))
    game = None if args.file is None else _resolve_game(args.file)
    from ..session.players import HUMAN
    from ..session.policy import LaunchKind

    players = (args.white or HUMAN, args.black or HUMAN)
    policy = launch_policy(LaunchKind.LOCAL)
    if policy.visitor and (args.plain or not launch.interactive()):
        raise CescacsError(_("a visitor's game needs a terminal: the plain mode is for the owner of this machine"))
    if args.plain or not launch.interactive():
        from ..plain import run_plain  # no Textual: the plain mode starts fast and never draws

        resume = True if args.resume else False if args.new else None
        return run_plain(
            pgn_file=game,
            pdtl=args.pdtl,
            castling=not args.no_castling,
            resume=resume,
            players=players,
            time_control=args.clock,
        )
    if args.resume or args.new:
        raise CescacsError(_("--resume and --new are options of the plain mode: add --plain"))
    # The start (Textual's import, the app's modules, its first frame) makes long-lived objects and almost no
    # garbage, yet the collector scans the growing heap again and again meanwhile: 15-30 ms of CPU before the side
    # panel is drawn (benchmarks/README.md).  Off until the app's first frame (tui/app.py turns it back on).
    gc.disable()
    try:
        from ..tui.app import run_app  # imported here: the subcommands must not pay for Textual

        status = run_app(
            pgn_file=game,
            pdtl=args.pdtl,
            castling=not args.no_castling,
            players=players,
            policy=policy,
            time_control=args.clock,
        )
    finally:
        gc.enable()
    if status:  # Textual has restored the terminal and printed the traceback
        print(_(CRASH_NOTE), file=sys.stderr)
    return status


def _resolve_game(argument: str) -> str:
    """The record ``cescacs GAME`` opens: a file that exists, else a number or a name from ``cescacs --games``."""
    if Path(argument).exists():
        return argument
    from ..data.archive import find_archived, list_archive

    found = find_archived(argument)
    if found is not None:
        return str(found)
    if re.fullmatch(r"[0-9]+", argument):
        count = len(list_archive())
        raise CescacsError(
            _("there is no archived game {number}: the archive holds {count} (cescacs --games lists them)").format(
                number=argument, count=count
            )
        )
    return argument  # neither: opening it says that there is no such file


def _list_games() -> int:
    """``cescacs --games``: the archive, newest first, one numbered line per game."""
    from ..data.archive import archive_dir, list_archive
    from ..session.words import half_moves

    folder = archive_dir()
    games = list_archive(folder)
    if not games:
        print(_("No archived games yet: every finished game is kept in {folder}").format(folder=printable(str(folder))))
        return 0
    heading = ngettext(
        "{count} archived game in {folder}, newest first:",
        "{count} archived games in {folder}, newest first:",
        len(games),
    )
    print(heading.format(count=len(games), folder=printable(str(folder))))
    width = len(str(len(games)))
    for number, game in enumerate(games, 1):
        moves = half_moves(game.plies) if game.plies is not None else game.problem
        players = f"{game.white} - {game.black}"
        line = f"{number:>{width}}  {game.date:<10}  {game.result:<3}  {players}  ({moves})  {game.path.name}"
        print(printable(line))
    print(_("Open one with: cescacs NUMBER (1 is {name})").format(name=printable(games[0].path.name)))
    return 0


def _subcommand_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cescacs", description=_("C'escacs tools for power users and scripts."))
    sub = parser.add_subparsers(dest="command", required=True)
    moves = sub.add_parser("moves", help=_("list the legal moves of a position"))
    _add_position_options(moves)
    moves.set_defaults(run=_moves)
    counter = sub.add_parser("perft", help=_("count the leaves of the legal-move tree"))
    counter.add_argument("depth", type=_depth, help=_("depth in half-moves, 0 to {most}").format(most=MAX_PERFT_DEPTH))
    counter.add_argument("--divide", action="store_true", help=_("show the count below each first move"))
    _add_position_options(counter)
    counter.set_defaults(run=_perft)
    engine = sub.add_parser(
        "engine",
        help=_("the computer player: a UCI-style engine on stdin/stdout"),
        description=_("Speak the UCI-style protocol of docs/engine-protocol.md on stdin/stdout (type 'uci' to begin)."),
    )
    engine.set_defaults(run=_engine)
    add_remote_subcommands(cast("argparse._SubParsersAction[argparse.ArgumentParser]", sub))  # cescacs_tui/remote
    add_learn_subcommands(cast("argparse._SubParsersAction[argparse.ArgumentParser]", sub))  # cescacs_tui/cli/learn.py
    return parser


def _play_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cescacs",
        description=_("Play C'escacs, the hexagonal chess variant, in the terminal (hot seat)."),
        epilog=_(
            "Subcommands: 'cescacs moves --help', 'cescacs perft --help', 'cescacs engine --help'; to play from "
            "two places: 'cescacs host --help', 'cescacs join --help', 'cescacs serve-ssh --help'."
        ),
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="GAME",
        help=_("a .ctl-pgn record to open, or the number or name of an archived game"),
    )
    parser.add_argument("--games", action="store_true", help=_("list the archived games, newest first, and exit"))
    players = (
        ("--white", _("who plays White: human (the default), computer (level 3) or computer:N, N from 1 to 10")),
        ("--black", _("who plays Black: human (the default), computer (level 3) or computer:N, N from 1 to 10")),
    )
    for flag, said in players:
        parser.add_argument(flag, type=_player, metavar="PLAYER", help=said)
    parser.add_argument(
        "--clock",
        type=_time_control,
        metavar="TC",
        help=_(
            "a new game with this clock, a TimeControl tag in seconds: 180+2 (3 min + 2 s a move), 300 (5 min), "
            "300d3 (a 3 s delay), 900b10 (Bronstein), *30 (30 s a move), - (none); default: the settings'"
        ),
    )
    parser.add_argument("--version", action=_VersionAction, nargs=0, help=_("show the version and exit"))
    _add_position_options(parser)
    _language_option(parser)
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "play line by line in words, for screen readers, braille displays, scripts and pipes "
            "(automatic when the input or the output is not a terminal)"
        ),
    )
    unfinished = parser.add_mutually_exclusive_group()
    unfinished.add_argument(
        "--resume", action="store_true", help=_("plain mode: resume the unfinished game without asking")
    )
    unfinished.add_argument(
        "--new", action="store_true", help=_("plain mode: start a new game without asking (the unfinished one is kept)")
    )
    parser.set_defaults(run=_play)
    return parser


SUBCOMMANDS = ("moves", "perft", "engine", *REMOTE_SUBCOMMANDS, *LEARN_SUBCOMMANDS)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cescacs`` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    code, arguments = _take_language(arguments)
    set_language(code)
    parser = _subcommand_parser() if arguments[:1] and arguments[0] in SUBCOMMANDS else _play_parser()
    args = parser.parse_args(arguments)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except CescacsError as error:
        from ..session.terms import say

        print(_("cescacs: error: {reason}").format(reason=printable(say(error.explanation))), file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        message = f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")
        print(_("cescacs: error: {reason}").format(reason=printable(message)), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
