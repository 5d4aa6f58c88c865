"""``cescacs --plain``: the plain front end on standard input and output, with the app's start-up and saving.

The game is chosen as the app chooses it (a record, a PDTL, or a new game
with the unfinished one offered back), kept in the same autosave, and saved
however the session ends: end of input, ``quit``, Ctrl+C, or the terminal or
SSH link closing (SIGHUP) or the process being told to stop (SIGTERM).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TextIO

from ..core.clock import NO_CLOCK, TimeControl
from ..core.game import Game
from ..data.autosave_store import AutosaveStore
from ..data.settings import Settings
from ..data.slots import open_autosave
from ..i18n import N_, _
from ..session import Confirm, GameSession
from ..session.players import TWO_PEOPLE, Players, player_names
from ..session.terms import say
from ..session.words import tolerated
from .computer import PlainComputer
from .flag_watch import FlagWatch
from .front_end import PlainGame, new_game
from .output import LineWriter
from .typed_lines import lines

__all__ = ["run_plain"]

PIPE_ANSWERS = N_("input is not a terminal, so the safe answer is taken (--new and --resume choose otherwise).")
"""What is said when a pipe answers a question at start with its default (resume; a separate game): a message id."""


class _Stopped(Exception):
    """SIGTERM or SIGHUP arrived: end the session as at the end of input."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signal.Signals(signum).name)


@contextlib.contextmanager
def _stopping_signals() -> Iterator[None]:
    """While the session runs, SIGTERM and SIGHUP end it cleanly (the game saved) instead of killing it."""
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, _stop) for signum in wanted}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def robust(stream: TextIO) -> None:
    """Undecodable input becomes U+FFFD and unencodable output a ``?``, rather than an exception."""
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="replace")


def _game_problems(settings: Settings) -> list[str]:
    """The settings problems a player of the plain mode must hear: not the theme's, which only the app uses
    (the app checks a theme against its own and Textual's names, which the plain mode does not load)."""
    return [say(problem) for problem in settings.problems if problem.values.get("key") != "theme"]


def run_plain(
    *,
    pgn_file: str | None = None,
    pdtl: str | None = None,
    castling: bool = True,
    resume: bool | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    players: Players = TWO_PEOPLE,
    time_control: TimeControl | None = None,
) -> int:
    """Play in plain text on ``stdin`` and ``stdout`` (default: the process's); returns the exit status, 0.

    The autosave is taken as the app takes it (:func:`~cescacs_tui.data.slots.open_autosave`).
    ``resume`` answers the offer of an unfinished game (``False``: a new game,
    the unfinished one archived), or, when another cescacs has it open,
    whether to wait and take it over (``False``: a separate game).  ``None``
    asks when the input is a terminal, and gives the safe answer otherwise
    (resume; a separate game): nothing is replaced by accident.  ``players``
    other than two people start a new game against the computer (an
    unfinished one is kept in the archive), which thinks in the engine of the
    ``engine`` setting.  ``time_control`` (``--clock``) starts a new game with that clock instead of the
    settings' (an unfinished one is kept in the archive too).
    """
    source = stdin or sys.stdin
    target = stdout or sys.stdout
    robust(source)
    robust(target)
    write = LineWriter(target)
    settings = Settings.load()
    problems = _game_problems(settings)
    start = open_autosave()  # never raises: damaged files are kept aside and reported
    problems += [say(notice) for notice in start.notices]
    saved = start.saved
    game: Game | None = None
    if pgn_file is not None:
        from ..data.records import open_pgn_file

        game = open_pgn_file(pgn_file).game
        game.go_to(game.ply)
        if game.warnings:
            problems.append(f"{Path(pgn_file).name}: {tolerated(game.warnings)}")
    elif pdtl is not None:
        white, black = player_names(players, settings.white, settings.black)
        clock = NO_CLOCK if time_control is None else time_control
        game = Game.new(pdtl=pdtl, castling=castling, white=white, black=black, time_control=clock)
    elif players != TWO_PEOPLE or time_control is not None:
        game = new_game(settings, castling=castling, players=players, time_control=time_control)
    if game is not None and saved is not None and start.slot is not None:
        problems.append(_("the unfinished game was kept in {path}").format(path=start.slot.keep(saved.game)))
        saved = None
    session = GameSession(game or new_game(settings, castling=castling), store=AutosaveStore.at_start(start))
    session.players = players
    computer = PlainComputer(session, settings.engine)
    plain = PlainGame(session, write, settings=settings, computer=computer)
    opening = session.offer_separate_game()
    if opening is not None:
        if resume is not None:
            resume = not resume  # --new: a separate game; --resume: wait to take the other one over
    elif saved is not None:
        opening = session.offer_resume(saved)
    why = _("as asked on the command line (--resume or --new).")
    if opening is not None and resume is None and not source.isatty():
        assert isinstance(opening.question, Confirm)
        resume, why = opening.question.default, _(PIPE_ANSWERS)
    try:
        with _stopping_signals():
            plain.start(opening, answer=resume, why=why, problems=problems)
            with FlagWatch(plain):
                plain.run(lines(source))
            plain.finish("" if not plain.running else _("End of input."))
    except (KeyboardInterrupt, _Stopped) as stop:
        plain.session.close()
        with contextlib.suppress(OSError):
            if isinstance(stop, KeyboardInterrupt):
                plain.finish(_("Interrupted."))
            else:
                plain.finish(_("{signal}: stopping.").format(signal=stop))
    except BrokenPipeError:  # the reader went away (cescacs --plain | head): save, and write nothing more
        plain.session.close()
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), target.fileno())
    return 0
