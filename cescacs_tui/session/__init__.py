"""The game on the table, free of any user interface: every front end goes through it.

:class:`GameSession` holds the game, the variations followed, the selection
and the overlays; its commands return a :class:`Feedback`, and those that
change the game go through its :class:`GamePort` (a :class:`LocalGame`, or a
game held elsewhere).  :data:`ACTIONS` is the one table of what players can
do.  Nothing here imports Textual or Rich (``tests/project/test_layers.py`` checks it), so the session works in a plain
Python shell, a pipe, or behind a network connection.
"""

from .actions import ACTIONS, Action, Scope
from .feedback import Choice, Confirm, Feedback, Notice, Option, Question, Redraw, Tone
from .game_session import GameSession
from .local_game import LocalGame
from .port import GamePort

__all__ = [
    "ACTIONS",
    "Action",
    "Choice",
    "Confirm",
    "Feedback",
    "GamePort",
    "GameSession",
    "LocalGame",
    "Notice",
    "Option",
    "Question",
    "Redraw",
    "Scope",
    "Tone",
]
