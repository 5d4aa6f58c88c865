"""The app of a game held by a coordinator (``cescacs join``, ``host --play``): the ordinary app, one session.

:class:`RemoteApp` is the :class:`~cescacs_tui.tui.app.CescacsApp` whose
session plays through a :class:`~cescacs_tui.remote.port.RemoteGame`, shown
by a :class:`~cescacs_tui.tui.screens.remote.RemoteGameScreen`; its engine
(hints, the analysis) is the settings' one, as the launch's policy allows.
:func:`run_join` starts it.
"""

from __future__ import annotations

import gc
from pathlib import Path

from ..core.game import Game
from ..data.settings import Settings, settings_path
from ..remote.client import JoinRequest, Link
from ..remote.port import RemoteGame
from ..session.policy import Policy
from .app import CescacsApp, measured_wide_glyphs
from .screens.remote import RemoteGameScreen
from .themes import known_themes

__all__ = ["RemoteApp", "run_join"]


class RemoteApp(CescacsApp):
    """The C'escacs app playing (or watching) a game held by a coordinator."""

    def __init__(
        self,
        request: JoinRequest,
        *,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        wide_glyphs: frozenset[str] = frozenset(),
        banner: str | None = None,
        policy: Policy | None = None,
    ) -> None:
        self.link = Link(request)
        self.remote = RemoteGame(self.link.send)
        super().__init__(
            Game.new(),  # a copy, until the coordinator's first snapshot replaces it
            port=self.remote,
            settings=settings,
            settings_path=settings_path,
            wide_glyphs=wide_glyphs,
            policy=policy,
        )
        self.banner = banner
        self.sub_title = request.address

    def make_game_screen(self) -> RemoteGameScreen:
        return RemoteGameScreen(
            self.session,
            self.remote,
            self.link,
            options=self.board_options(),
            banner=self.banner,
            opponent=self.opponent,
            policy=self.policy,
        )


def run_join(request: JoinRequest, *, banner: str | None = None, policy: Policy | None = None) -> int:
    """Open the app on the coordinator's game (the ``cescacs join`` command, and ``host --play``); ``policy``
    says what the person may do with this machine (the owner's, unless ``serve-ssh`` started it for a visitor)."""
    settings = Settings.load(themes=known_themes())
    wide = measured_wide_glyphs(settings)
    gc.freeze()  # as run_app does: start-up objects out of every collection
    app = RemoteApp(
        request, settings=settings, settings_path=settings_path(), wide_glyphs=wide, banner=banner, policy=policy
    )
    app.run()
    return app.return_code or 0  # 1 when the app died of an exception, as run_app (the command says so)
