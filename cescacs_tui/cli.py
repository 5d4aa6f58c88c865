"""The ``cescacs`` command.

``cescacs`` alone starts a hot-seat game; ``cescacs GAME.ctl-pgn`` opens a
saved game and ``cescacs --pdtl P`` starts from a position.  Subcommands
serve power users and scripts:

* ``cescacs moves [--pdtl P]``: every legal move, canonical form and CTL-AN;
* ``cescacs perft N [--pdtl P] [--divide]``: count the move tree;
* ``cescacs engine``: the computer player, speaking the UCI-style protocol of
  docs/engine-protocol.md on stdin/stdout.

Bad input is reported on stderr with exit status 2, never with a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable, Sequence

from .core import CescacsError, Position, divide, perft

EXIT_USAGE = 2


def _position(pdtl: str | None, *, castling: bool = True) -> Position:
    return Position.initial(castling=castling) if pdtl is None else Position.from_pdtl(pdtl, castling=castling)


def _add_position_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pdtl", metavar="PDTL", help="start from this position (default: the initial position)")
    parser.add_argument(
        "--no-castling", action="store_true", help="the beginners' rule: no castling, the King's leap cannot capture"
    )


def _moves(args: argparse.Namespace) -> int:
    position = _position(args.pdtl, castling=not args.no_castling)
    moves = sorted(position.legal_moves(), key=str)
    for move in moves:
        print(f"{move!s:<12} {position.ctl_an(move)}")
    result = position.result()
    summary = f"{len(moves)} legal moves"
    if result is not None:
        summary += f"; result {result}"
    print(summary, file=sys.stderr)
    return 0


def _perft(args: argparse.Namespace) -> int:
    position = _position(args.pdtl, castling=not args.no_castling)
    start = time.perf_counter()
    if args.divide:
        counts = divide(position, args.depth)
        for move, count in counts.items():
            print(f"{move:<12} {count}")
        total = sum(counts.values())
    else:
        total = perft(position, args.depth)
    seconds = time.perf_counter() - start
    print(total)
    rate = total / seconds if seconds > 0 else float("inf")
    print(f"depth {args.depth}: {total} leaves in {seconds:.3f} s ({rate:,.0f} leaves/s)", file=sys.stderr)
    return 0


def _engine(args: argparse.Namespace) -> int:
    from .engine.serve import serve  # imported here: the other commands do not need the engine

    return serve(sys.stdin.buffer, sys.stdout.buffer)


def _play(args: argparse.Namespace) -> int:
    from .app import run_app  # imported here: the subcommands must not pay for Textual

    return run_app(pgn_file=args.file, pdtl=args.pdtl, castling=not args.no_castling)


def _subcommand_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cescacs", description="C'escacs tools for power users and scripts.")
    sub = parser.add_subparsers(dest="command", required=True)
    moves = sub.add_parser("moves", help="list the legal moves of a position")
    _add_position_options(moves)
    moves.set_defaults(run=_moves)
    counter = sub.add_parser("perft", help="count the leaves of the legal-move tree")
    counter.add_argument("depth", type=int, help="depth in half-moves")
    counter.add_argument("--divide", action="store_true", help="show the count below each first move")
    _add_position_options(counter)
    counter.set_defaults(run=_perft)
    engine = sub.add_parser(
        "engine",
        help="the computer player: a UCI-style engine on stdin/stdout",
        description="Speak the UCI-style protocol of docs/engine-protocol.md on stdin/stdout (type 'uci' to begin).",
    )
    engine.set_defaults(run=_engine)
    return parser


def _play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cescacs",
        description="Play C'escacs, the hexagonal chess variant, in the terminal (hot seat).",
        epilog="Subcommands: 'cescacs moves --help', 'cescacs perft --help', 'cescacs engine --help'.",
    )
    parser.add_argument("file", nargs="?", help="a .ctl-pgn game record to open")
    _add_position_options(parser)
    parser.set_defaults(run=_play)
    return parser


SUBCOMMANDS = ("moves", "perft", "engine")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cescacs`` console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = _subcommand_parser() if arguments[:1] and arguments[0] in SUBCOMMANDS else _play_parser()
    args = parser.parse_args(arguments)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            status = run(args)
        for warning in caught:
            print(f"cescacs: warning: {warning.message}", file=sys.stderr)
        return status
    except CescacsError as error:
        print(f"cescacs: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"cescacs: error: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
