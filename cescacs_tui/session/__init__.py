"""The game on the table, free of any user interface: every front end goes through it.

:class:`GameSession` holds the game, the variations followed, the selection
and the overlays; its commands return a :class:`Feedback`.  :data:`ACTIONS`
is the one table of what players can do.  Nothing here imports Textual or
Rich (``tests/test_layers.py`` checks it), so the session works in a plain
Python shell, a pipe, or behind a network connection.
"""

from .actions import ACTIONS, Action, Scope
from .feedback import Choice, Confirm, Feedback, Notice, Option, Question, Redraw, Tone
from .game_session import GameSession
from .store import GameStore

__all__ = [
    "ACTIONS",
    "Action",
    "Choice",
    "Confirm",
    "Feedback",
    "GameSession",
    "GameStore",
    "Notice",
    "Option",
    "Question",
    "Redraw",
    "Scope",
    "Tone",
]
