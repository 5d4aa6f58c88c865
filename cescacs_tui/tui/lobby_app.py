"""The app of the C'escacs server's lobby (``ssh -t -p P host`` on ``serve-ssh --db``): the lobby, and its games.

:class:`LobbyApp` is the :class:`~cescacs_tui.tui.app.CescacsApp` whose first
screen is the :class:`~cescacs_tui.tui.screens.lobby.LobbyScreen`; opening a
game puts a new session on the table, played through a
:class:`~cescacs_tui.remote.server_game.ServerGame`, on a
:class:`~cescacs_tui.tui.screens.server_game.ServerGameScreen` above the
lobby (Ctrl+L goes back).  Everything goes through the link the server gave
this process (:mod:`cescacs_tui.remote.lobby_link`): the app opens no
database and no file of the server's.  :func:`run_lobby` starts it.
"""

from __future__ import annotations

import datetime
import gc
from collections.abc import Callable
from pathlib import Path

from ..core.game import Game
from ..data.settings import Settings, settings_path
from ..remote.lobby_link import LobbyLink
from ..remote.server_game import ServerGame
from ..session import GameSession
from ..session.policy import Policy
from .app import CescacsApp, measured_wide_glyphs
from .screens.game import GameScreen
from .screens.lobby import LobbyScreen
from .screens.server_game import ServerGameScreen
from .themes import known_themes

__all__ = ["LobbyApp", "run_lobby"]


class LobbyApp(CescacsApp):
    """The lobby of the server at the other end of ``link``, and the games opened from it."""

    def __init__(
        self,
        link: LobbyLink,
        *,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        wide_glyphs: frozenset[str] = frozenset(),
        policy: Policy | None = None,
        now: Callable[[], datetime.datetime] = lambda: datetime.datetime.now(datetime.UTC),
    ) -> None:
        super().__init__(
            Game.new(), settings=settings, settings_path=settings_path, wide_glyphs=wide_glyphs, policy=policy
        )
        self.link = link
        self.now = now
        """The wall clock the games' deadlines are counted down on (injected by tests and pictures)."""
        self.lobby: LobbyScreen | None = None

    def get_default_screen(self) -> LobbyScreen:  # the lobby comes first; its games are opened by open_game
        self.lobby = LobbyScreen(self.link, open_game=self.open_game)
        return self.lobby

    @property
    def game_screen(self) -> GameScreen:
        """The game screen open above the lobby (the app's settings and dialogs speak to it)."""
        screen = next((s for s in reversed(self.screen_stack) if isinstance(s, GameScreen)), None)
        assert screen is not None, "no game is open"
        return screen

    def open_game(self, number: int) -> None:
        """Open server game ``number`` on a screen of its own, in a new session."""
        port = ServerGame(number, lambda argv: False, self.now)  # the screen sends, once mounted
        self.session.close()
        self.session = GameSession(Game.new(), port=port)
        previous = self.opponent
        self.opponent = self.make_opponent()
        self.run_worker(previous.close(), exit_on_error=False)
        screen = ServerGameScreen(
            self.session,
            port,
            self.link,
            me=None if self.lobby is None else self.lobby.view.name,
            options=self.board_options(),
            opponent=self.opponent,
            policy=self.policy,
        )
        self.push_screen(screen)

    async def on_unmount(self) -> None:  # Textual also runs CescacsApp.on_unmount
        await self.link.close()


def run_lobby(link: LobbyLink, *, policy: Policy | None = None) -> int:
    """Open the lobby app on ``link`` (``serve-ssh --db`` starts it for each visitor on a terminal)."""
    settings = Settings.load(themes=known_themes())
    wide = measured_wide_glyphs(settings)
    gc.freeze()  # as run_app does: start-up objects out of every collection
    app = LobbyApp(link, settings=settings, settings_path=settings_path(), wide_glyphs=wide, policy=policy)
    app.run()
    return app.return_code or 0
