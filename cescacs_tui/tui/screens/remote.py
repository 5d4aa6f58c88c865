"""The game screen of a game held by a coordinator: the normal screen, a line saying who is who, and the link.

:class:`RemoteGameScreen` is a :class:`~cescacs_tui.tui.screens.game.GameScreen`
whose session's port is a :class:`~cescacs_tui.remote.port.RemoteGame`: every
key, dialog and panel is the local game's, and every command goes to the
coordinator through the port.  It adds the seats line (who plays White and
Black, who is here, how many watch, the state of the link) and runs the
:class:`~cescacs_tui.remote.client.Link` as a worker, turning what arrives
into the session's feedback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from ...core.pieces import Colour
from ...i18n import _, ngettext
from ...remote.client import Link, LinkStatus
from ...remote.port import RemoteGame
from ...remote.protocol import Seat
from ...session import GameSession
from ...session.opponent import Opponent
from ...session.policy import Policy
from ...session.terms import side_label
from .game import BoardOptions, GameScreen

__all__ = ["RemoteGameScreen", "SeatsLine", "seats_text"]


def seats_text(remote: RemoteGame, status: LinkStatus) -> Text:
    """``White: Ana (you) ●  Black: Bo ○ away  · 1 watching · connected``: names are plain text, never markup."""
    line = Text(no_wrap=True, overflow="ellipsis")
    for colour, seat in ((Colour.WHITE, remote.white), (Colour.BLACK, remote.black)):
        line.append(f"{side_label(colour)}: ", style="bold")
        line.append(seat.name or (_("(free)") if not seat.held else "?"))
        if remote.colour == colour:
            line.append(" " + _("(you)"), style="bold")
        if seat.held:
            here = "\u25cf " + _("here") if seat.connected else "\u25cb " + _("away")
            line.append(" " + here, style="green" if seat.connected else "yellow")
        line.append("   ")
    if remote.seat is Seat.WATCH:
        line.append(_("You are watching") + "   ", style="bold")
    if remote.watchers:
        line.append(ngettext("{count} watching", "{count} watching", remote.watchers).format(count=remote.watchers))
        line.append("   ")
    style = {LinkStatus.CONNECTED: "green", LinkStatus.CLOSED: "red"}.get(status, "yellow")
    if status is LinkStatus.CLOSED:
        line.append(_("disconnected: {reason}").format(reason=remote.link_problem), style=style)
    else:
        line.append(status.words, style=style)
    return line


class SeatsLine(Static):
    """The line at the top: the seats, and whether this client is connected."""

    DEFAULT_CSS = """
    SeatsLine { dock: top; height: 1; padding: 0 1; background: $panel; }
    """


class RemoteGameScreen(GameScreen):
    """The game screen, connected: the seats line above, the link underneath."""

    def __init__(
        self,
        session: GameSession,
        remote: RemoteGame,
        link: Link,
        *,
        options: BoardOptions | None = None,
        banner: str | None = None,
        opponent: Opponent | None = None,
        policy: Policy | None = None,
    ) -> None:
        super().__init__(session, options=options, opponent=opponent, policy=policy)
        self.remote = remote
        """The session's port: the coordinator's game, and who sits where."""
        self.link = link
        self.banner = banner

    def compose(self) -> ComposeResult:
        yield SeatsLine(id="seats")
        yield from super().compose()

    def on_mount(self) -> None:  # Textual also runs GameScreen.on_mount
        self.link.on_message = self.received
        self.link.on_status = self.link_changed
        self.run_worker(self.link.run(), name="link", exit_on_error=False)
        self.show_seats()
        if self.banner:
            self.notify(self.banner, title=_("The other player joins with"), timeout=120, markup=False)

    def on_unmount(self) -> None:
        self.link.stop()

    def received(self, message: Mapping[str, Any]) -> None:
        self.apply(self.remote.receive(message))
        self.show_seats()

    def link_changed(self, status: LinkStatus, detail: str) -> None:
        connected = status is LinkStatus.CONNECTED
        self.apply(self.remote.link_changed(connected, "" if connected else detail))
        self.show_seats()

    def show_seats(self) -> None:
        self.query_one(SeatsLine).update(seats_text(self.remote, self.link.status))
