"""A game of the C'escacs server, played in the lobby app: the port that sends each command to the server.

A :class:`ServerGame` is the :class:`~cescacs_tui.session.GamePort` of a game
kept in the server's database (``serve-ssh --db``).  Like a
:class:`~cescacs_tui.remote.port.RemoteGame`, nothing is played here: the
session's game is a copy, read from the server's record (``pgn GAME``, with
the tags the server writes: ``Mode "ICS"``, ``WhiteType``/``BlackType``,
``AnnotatorId``) and its state (``show GAME --json``: whose move, the
deadline, the clocks, a draw offer), and each command checks what it can
here (the rules, whose move it is, whether this visitor plays) and then
*sends* the server's own command (``play``, ``draw``, ``resign``) through the
link.  The server decides; its answer comes back through :meth:`answered`,
and the game is read again when the link hears it changed (:meth:`load`),
so a move the opponent makes anywhere shows here as soon as the server hears
of it.  Only the player to move can move: the server refuses anyone else
with a reason, and this port says so before sending.

The clock shown is the server's: the side to move counts down to the
game's deadline (a live game's flag, a correspondence game's days), the
other shows the time it had left.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Final

from ..core import Move
from ..core.clock import MAX_CLOCK_SECONDS, ClockError, ClockState, TimeControl
from ..core.game import Game
from ..core.pieces import BLACK, WHITE, Colour
from ..i18n import N_, _
from ..session import Confirm, Feedback, GamePort, Notice, Redraw, Tone
from ..session.actions import ACTIONS, no_move_now
from ..session.players import Players
from ..session.terms import capitalised, side, termination
from .lobby_link import Reply
from .lobby_view import GameEntry
from .peer_record import PeerRecordError, one_game

__all__ = ["ServerGame"]

_NOT_HERE: Final = {
    "takeback": N_("a server game takes no move back: the server keeps every move played"),
    "redo": N_("a server game takes no move back: the server keeps every move played"),
    "pause_clock": N_("a server game's clock cannot be paused"),
    "open": N_("a record cannot be opened into a server game: open it with cescacs FILE"),
    "new_game": N_("a new server game is offered in the lobby: seek, or challenge a player (Ctrl+L goes back)"),
}
"""What a server game cannot do, and why."""

_PLAYERS_ONLY: Final = frozenset({"offer_draw", "claim_draw", "resign"})

_COLOURS: Final = {"white": WHITE, "black": BLACK}


class ServerGame(GamePort):
    """Game ``number`` of the server, as last read, and this visitor's commands to it.

    ``send`` hands a command (argv) to the link and says whether it could
    (``False``: the link is gone); the reply comes back to :meth:`answered`.
    ``now`` is the wall clock (injected by tests).
    """

    def __init__(
        self,
        number: int,
        send: Callable[[Sequence[str]], bool],
        now: Callable[[], datetime.datetime] = lambda: datetime.datetime.now(datetime.UTC),
    ) -> None:
        self.number = number
        self.send = send
        self.now = now
        self.entry: GameEntry | None = None
        """The game's state as the server last said it (``None`` until read)."""
        self.sent: str | None = None
        """A command sent and not yet answered: no other is sent meanwhile."""
        self._record = ""
        self._asked: int | None = None

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def colour(self) -> Colour | None:
        """The side this visitor plays, or ``None`` when they watch."""
        return None if self.entry is None else _COLOURS.get(self.entry.your_side or "")

    @property
    def watching(self) -> bool:
        return self.colour is None

    def plays_here(self, colour: Colour) -> bool:
        return colour == self.colour

    # --- what the server says ------------------------------------------------------------------

    def load(self, record: Reply, shown: Reply) -> Feedback:
        """Make the game what the server's record (``pgn``) and state (``show --json``) say."""
        if not record.ok or not shown.ok:
            return Feedback.refused(record.text if not record.ok else shown.text)
        try:
            entry = GameEntry.from_json(shown.json())
        except ValueError:
            entry = None
        if entry is None:
            return Feedback.refused(_("the server sent a game this app cannot read"))
        was_over = self.game.is_over if self.entry is not None else False
        if record.text != self._record:
            try:
                game = one_game(record.text)
            except PeerRecordError as error:
                said = _("the server sent a record this app cannot read: {reason}")
                return Feedback.refused(said.format(reason=error))
            if self.entry is not None and not self.game.is_live:
                game.go_to(self.game.cursor)  # a player reviewing an earlier move stays there
            self.session.replace_game(game)
            self._record = record.text
        self.entry = entry
        self.game.draw_offered_by = _COLOURS.get(entry.draw_offer or "")
        self._mirror_clock(entry)
        notice = None
        if self.game.is_over and not was_over:
            notice = Notice(_("Game over"), f"{self.game.result}: {termination(self.game)}")
        return Feedback(None, Tone.PLAIN, Redraw.GAME, question=self._question(entry), notice=notice)

    def answered(self, reply: Reply) -> Feedback:
        """The server's answer to the command sent: done (the game is read again), or refused with its reason."""
        self.sent = None
        if not reply.ok:
            return Feedback.refused(reply.text)
        return Feedback(reply.text, Tone.INFO, Redraw.PANELS)

    def link_gone(self) -> Feedback:
        self.sent = None
        return Feedback.refused(_("the link to the server is gone: nothing more can be sent"))

    def _mirror_clock(self, entry: GameEntry) -> None:
        """The side to move counts down to the deadline; the other shows what it had left."""
        clock = self.game.clock
        if clock is None:
            return
        mover = _COLOURS.get(entry.to_move or "")
        if entry.status != "playing" or mover is None or entry.deadline is None:
            clock.stop()
            return
        try:
            full = TimeControl.from_tag(entry.time_control).base  # a turn's whole time, as the side not to move has
        except ClockError:
            full = 0.0
        times = [entry.white_clock, entry.black_clock]
        times[mover] = (entry.deadline - self.now()).total_seconds()
        white, black = (min(max(0.0, full if t is None else t), MAX_CLOCK_SECONDS) for t in times)
        clock.restore(ClockState((white, black), mover, (white, black)[mover], 0.0, None))

    def _question(self, entry: GameEntry) -> Confirm | None:
        """The opponent's draw offer, asked once per position, of the player to move."""
        me = self.colour
        if me is None or entry.status != "playing" or _COLOURS.get(entry.draw_offer or "") is not me.opponent:
            return None
        if self._asked == entry.ply:
            return None
        self._asked = entry.ply

        def answer(accept: bool) -> Feedback:
            if accept:
                return self._send(_("your acceptance of the draw"), ["draw", str(self.number)])
            return Feedback(_("the game goes on: your move declines the offer"), Tone.PLAIN)

        prompt = capitalised(_("{side} offers a draw. Do you accept?").format(side=side(me.opponent)))
        return Confirm(prompt, answer, yes=_("Accept"), no=_("Decline"))

    # --- what this visitor may do --------------------------------------------------------------

    def blocked(self) -> str | None:
        game = self.game
        if self.session.variations.top is not None or not game.is_live:
            return no_move_now(self.session)
        if self.entry is None:
            return _("the game is being read from the server")
        if game.is_over or self.entry.status == "finished":
            return _("the game is over ({reason}): Ctrl+L goes back to the lobby").format(reason=termination(game))
        me = self.colour
        if me is None:
            return _("you are watching: only White and Black play")
        turn = game.position.turn
        if turn != me:
            return _("it is {side}'s move: the server takes a move only from the player to move").format(
                side=side(turn)
            )
        if self.sent is not None:
            return _("{what} is on its way to the server").format(what=self.sent)
        return None

    def refusal(self, action: str) -> str | None:
        if action in _NOT_HERE:
            return _(_NOT_HERE[action])
        if action not in _PLAYERS_ONLY:
            return ACTIONS[action].refusal(self.session)
        if self.entry is None:
            return _("the game is being read from the server")
        me = self.colour
        if me is None:
            return _("you are watching: only White and Black play")
        game = self.game
        if game.is_over or self.entry.status == "finished":
            return _("the game is over ({reason}): Ctrl+L goes back to the lobby").format(reason=termination(game))
        if self.sent is not None:
            return _("{what} is on its way to the server").format(what=self.sent)
        if action == "offer_draw" and (not game.nodes or game.nodes[-1].colour != me):
            said = _("a draw is offered after your own move: make it, then offer it: {key} (or type the move with (=))")
            return said.format(key=self.session.how("offer_draw"))
        if action == "claim_draw" and game.position.turn != me:
            return _("a draw is claimed by the player to move, on their turn")
        return ACTIONS[action].refusal(self.session)

    # --- the commands, sent to the server ------------------------------------------------------

    def _send(self, what: str, argv: list[str]) -> Feedback:
        if not self.send(argv):
            return self.link_gone()
        self.sent = what
        return Feedback(_("sent to the server: {what}").format(what=what), Tone.PLAIN)

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        if (reason := self.blocked()) is not None:
            return Feedback.refused(reason)
        position = self.game.position
        if not position.is_legal(move):
            return Feedback.refused(_("{move} is not a legal move here").format(move=move))
        text = position.ctl_an(move)
        argv = ["play", str(self.number), text, *(["--draw"] if offer_draw else [])]
        if not self.send(argv):
            return self.link_gone()
        self.sent = text
        self.session.preview = ()
        return Feedback(_("{move} sent").format(move=text), Tone.PLAIN, Redraw.BOARD, done=True)

    def play_computer(self, move: Move) -> Feedback:
        return Feedback.refused(_("the computer is not to move"))  # a server game's players are people

    def takeback(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["takeback"]))

    def redo(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["redo"]))

    def offer_draw(self) -> Feedback:
        if (reason := self.refusal("offer_draw")) is not None:
            return Feedback.refused(reason)
        return self._send(_("a draw offer"), ["draw", str(self.number)])

    def claim_draw(self) -> Feedback:
        if (reason := self.refusal("claim_draw")) is not None:
            return Feedback.refused(reason)
        return self._send(_("a draw claim"), ["draw", str(self.number)])

    def resign(self) -> Feedback:
        """Resign, once confirmed; No is the safe answer."""
        if (reason := self.refusal("resign")) is not None:
            return Feedback.refused(reason)
        me = self.colour
        assert me is not None

        def answer(yes: bool) -> Feedback:
            if not yes:
                return Feedback(_("the game goes on"))
            return self._send(_("your resignation"), ["resign", str(self.number)])

        prompt = _("You resign: {side} wins the game. Sure?").format(side=side(me.opponent))
        return Feedback(question=Confirm(prompt, answer))

    def check_time(self) -> Feedback:
        """A flag fell on the screen's clock: the server, whose clock rules, ends the game when it is asked next."""
        return Feedback()

    def pause_clock(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["pause_clock"]))

    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["open"]))

    def request_new_game(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["new_game"]))
