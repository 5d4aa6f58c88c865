"""Playing without the board: a line-oriented front end for screen readers, braille displays, scripts and pipes.

``cescacs --plain`` (automatic when the input or the output is not a
terminal) reads one line at a time and answers in plain lines of words: moves
announced in full ("White Pegasus G7 to C15, check from afar. Black to
move."), questions about the board adapted from Lichess's blind mode, the
session's questions asked as lettered or numbered choices.  No escape
sequence is ever written, and Textual is never imported.

:class:`PlainGame` is the front end on a :class:`~cescacs_tui.session.GameSession`;
:func:`run_plain` runs it on standard input and output; :data:`COMMANDS` is
its one table of commands.  :mod:`.remote_client` plays a game held by a
coordinator (``cescacs join --plain``) with the same front end.
"""

from .commands import COMMANDS, Command
from .front_end import PlainGame
from .run import run_plain

__all__ = ["COMMANDS", "Command", "PlainGame", "run_plain"]
