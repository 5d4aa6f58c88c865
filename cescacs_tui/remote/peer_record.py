"""A peer's record of the game on the table: exactly one game, or a reason the player reads.

A client's copy of a game held elsewhere is made from the record the holder
sends: the coordinator's snapshot (:class:`~cescacs_tui.remote.port.RemoteGame`)
or the server's ``pgn GAME`` (:class:`~cescacs_tui.remote.server_game.ServerGame`).
Either is text from another process, so it is read here, once, as both
need it: one game, or :class:`PeerRecordError` saying why not, in the
player's language, for the port to put after its own words.
"""

from __future__ import annotations

from ..core.errors import CescacsError
from ..core.game import Game
from ..core.pgn import read_pgn
from ..i18n import _

__all__ = ["PeerRecordError", "one_game"]


class PeerRecordError(CescacsError):
    """A peer's record that is not one readable game; its text is the reason, translated."""


def one_game(text: str) -> Game:
    """The one game of the CTL-PGN ``text`` a peer sent; :class:`PeerRecordError` if it cannot be read or holds
    another number of games."""
    try:
        games = read_pgn(text)
    except CescacsError as error:
        raise PeerRecordError(str(error)) from None
    if len(games) != 1:
        raise PeerRecordError(_("{count} games instead of one").format(count=len(games)))
    return games[0]
