"""Where the game on the table is played: here, or held elsewhere and reached through requests.

A :class:`~cescacs_tui.session.GameSession` shows one game and turns what the
players do into commands; every command that changes the game goes through
its :class:`GamePort`, and only there.  The
:class:`~cescacs_tui.session.local_game.LocalGame` plays it on the
:class:`~cescacs_tui.core.game.Game` itself and keeps it in the session's
store; a remote port (:class:`~cescacs_tui.remote.port.RemoteGame`) sends each
command to the coordinator that holds the game and applies the snapshots it
sends back.  So a front end, its keys and its dialogs are the same for both,
and a command added to the port is added to every place a game can live: the
port is abstract, and a port that does not say what the command does there
cannot be made.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.move import Move
    from ..core.pieces import Colour
    from .feedback import Feedback
    from .game_session import GameSession
    from .players import Players

__all__ = ["GamePort"]


class GamePort(ABC):
    """What a session asks of the place its game lives.

    A port serves one session (:meth:`attach`): it reads the game on the
    table, and what the players are doing with it, from there.  Each command
    returns the :class:`~cescacs_tui.session.Feedback` the front end shows.
    """

    session: GameSession

    def attach(self, session: GameSession) -> None:
        """Serve ``session`` (the session calls this once, when it is made)."""
        self.session = session

    @property
    def watching(self) -> bool:
        """Whether the person only watches (a watcher of a game held elsewhere): a game played here never is."""
        return False

    def plays_here(self, colour: Colour) -> bool:
        """Whether ``colour``'s moves are made at this keyboard (not by the computer, nor by a player elsewhere)."""
        return True

    @property
    def hot_seat(self) -> bool:
        """Whether both sides are played by people at this one board (each then keeps a cursor of its own)."""
        return False

    # --- why not now ----------------------------------------------------------------------------------

    @abstractmethod
    def blocked(self) -> str | None:
        """Why no move can be played now, or ``None`` when one can: the one rule every move command follows."""

    @abstractmethod
    def refusal(self, action: str) -> str | None:
        """Why the action named ``action`` (see :data:`~cescacs_tui.session.actions.ACTIONS`) cannot act now."""

    # --- the commands that change the game ----------------------------------------------------------------

    @abstractmethod
    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        """Play ``move`` in the live position (with a draw offer, ``offer_draw``)."""

    @abstractmethod
    def play_computer(self, move: Move) -> Feedback:
        """Play the computer's ``move`` at the live end, while the player may be reviewing an earlier one."""

    @abstractmethod
    def takeback(self) -> Feedback:
        """Take back the last half-move (against the computer, to before the person's last move)."""

    @abstractmethod
    def redo(self) -> Feedback:
        """Replay a taken-back half-move."""

    @abstractmethod
    def resign(self) -> Feedback:
        """Resign, once confirmed (the feedback asks)."""

    @abstractmethod
    def offer_draw(self) -> Feedback:
        """Offer a draw after one's own move."""

    @abstractmethod
    def claim_draw(self) -> Feedback:
        """Claim a draw (threefold repetition, the fifty-move rule)."""

    @abstractmethod
    def check_time(self) -> Feedback:
        """A clock's time ran out on the screen: end the game on a flag fall."""

    @abstractmethod
    def pause_clock(self) -> Feedback:
        """Stop or restart the running clock."""

    @abstractmethod
    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        """Put ``game`` on the table (a new one, a record opened, a resumed one), played by ``players``."""

    @abstractmethod
    def request_new_game(self) -> Feedback | None:
        """The players want a new game: ``None`` when it is made here (the front end asks for its options, then
        :meth:`start_game`), else what asking for it did (the other player of a game held elsewhere is asked)."""
