"""The game screen of a game kept by the C'escacs server: the normal screen, a line saying whose game it is, and
the link.

:class:`ServerGameScreen` is a :class:`~cescacs_tui.tui.screens.game.GameScreen`
whose session's port is a :class:`~cescacs_tui.remote.server_game.ServerGame`:
every key, dialog and panel is the local game's, and every command goes to
the server through the port.  It adds the game's line (its number, who plays
which side, its time, whose move and until when), sends the port's commands
through the :class:`~cescacs_tui.remote.lobby_link.LobbyLink` and reads the
game again whenever the link hears it changed.  Ctrl+L goes back to the lobby.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ...remote.lobby_link import Change, LinkClosed, LobbyLink, concerns_game
from ...remote.server_game import ServerGame
from ...session import GameSession
from ...session.opponent import Opponent
from ...session.policy import Policy
from .game import BoardOptions, GameScreen
from .lobby import game_line
from .worker_errors import SaysWorkerErrors

__all__ = ["GameTitle", "ServerGameScreen"]


class GameTitle(Static):
    """The line at the top: the game's number, players, time, and whose move until when."""

    DEFAULT_CSS = """
    GameTitle { dock: top; height: 1; padding: 0 1; background: $panel; text-wrap: nowrap; text-overflow: ellipsis; }
    """


class ServerGameScreen(SaysWorkerErrors, GameScreen):
    """The game screen of server game ``port.number``: the title line above, the link underneath."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+l", "lobby", N_("Lobby"), priority=True)]

    def __init__(
        self,
        session: GameSession,
        port: ServerGame,
        link: LobbyLink,
        *,
        me: str | None,
        options: BoardOptions | None = None,
        opponent: Opponent | None = None,
        policy: Policy | None = None,
    ) -> None:
        super().__init__(session, options=options, opponent=opponent, policy=policy)
        self.port = port
        self.link = link
        self.me = me
        """The visitor's name on the server (``None``: no account yet, they can only watch)."""
        self._dirty = asyncio.Event()
        self._stop_listening: Callable[[], None] = lambda: None

    def compose(self) -> ComposeResult:
        yield GameTitle(Text(_("game {game}").format(game=self.port.number)), id="game-title")
        yield from super().compose()

    def on_mount(self) -> None:  # Textual also runs GameScreen.on_mount
        self.port.send = self.send
        self._stop_listening = self.link.listen(self._heard)
        self._dirty.set()
        self.run_worker(self._follow(), name="server-game", exit_on_error=False)

    def on_unmount(self) -> None:
        self._stop_listening()

    def _heard(self, change: Change | None) -> None:
        if change is None:
            self.apply(self.port.link_gone())
        elif concerns_game(change, self.port.number):
            self._dirty.set()

    async def _follow(self) -> None:
        """Read the game whenever the server says it changed (changes heard meanwhile make one more read)."""
        number = str(self.port.number)
        try:
            while True:
                await self._dirty.wait()
                self._dirty.clear()
                record, shown = await self.link.ask_all([["pgn", number], ["show", number, "--json"]])
                self.apply(self.port.load(record, shown))
                self.show_title()
        except LinkClosed:
            self.apply(self.port.link_gone())

    def show_title(self) -> None:
        entry = self.port.entry
        if entry is None:
            return
        line = _("game {game}").format(game=entry.id) + ":  " + game_line(entry, self.me).strip().split("  ", 1)[-1]
        self.query_one(GameTitle).update(Text(safe_text(line)))

    def send(self, argv: Sequence[str]) -> bool:
        """The port's command, sent through the link; its answer applied when it comes."""
        if self.link.closed:
            return False
        self.run_worker(self._ask(argv), group="commands", exit_on_error=False)
        return True

    async def _ask(self, argv: Sequence[str]) -> None:
        try:
            reply = await self.link.ask(*argv)
        except LinkClosed:
            self.apply(self.port.link_gone())
            return
        self.apply(self.port.answered(reply))
        self._dirty.set()

    def action_lobby(self) -> None:
        self.dismiss()
