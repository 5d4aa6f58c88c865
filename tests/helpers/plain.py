"""Typing into the plain front end and reading what it answers, without a process."""

from __future__ import annotations

import io

from cescacs_tui.core.game import Game
from cescacs_tui.data.store import GameStore
from cescacs_tui.plain import PlainGame
from cescacs_tui.plain.output import LineWriter
from cescacs_tui.session import GameSession


class Typist:
    """A :class:`PlainGame` on a new session (of ``game``), typed into line by line."""

    def __init__(self, game: Game | None = None, *, store: GameStore | None = None) -> None:
        self.screen = io.StringIO()
        self.session = GameSession(game, store=store)
        self.plain = PlainGame(self.session, LineWriter(self.screen))

    def type(self, *lines: str) -> list[str]:
        """Type ``lines``; the lines written in answer."""
        start = len(self.screen.getvalue())
        for line in lines:
            self.plain.handle(line)
        return self.screen.getvalue()[start:].splitlines()

    def answer(self, line: str) -> str:
        """Type one line that is answered by exactly one line; that line."""
        [said] = self.type(line)
        return said
