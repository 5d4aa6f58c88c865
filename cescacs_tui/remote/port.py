"""A game held by a coordinator, reached from a client: the port that sends each command as a request.

A :class:`RemoteGame` is the :class:`~cescacs_tui.session.GamePort` of a
client's :class:`~cescacs_tui.session.GameSession`: the session's game is a
copy, which the coordinator's snapshots replace (:meth:`RemoteGame.receive`),
and each command, instead of playing, checks what a local game checks (and
that it is this player's turn, over a live link) and then *sends* a request.
Nothing is played here; what the coordinator did comes back as the next
snapshot.  So the game screen, its keys and its dialogs work unchanged: only
the port differs.  Takeback, draw and new-game offers become questions asked
of the other player, on their own screen.

>>> from cescacs_tui.session import GameSession
>>> remote = RemoteGame(lambda request: True)
>>> session = GameSession(port=remote)
>>> session.play_text("E7-E13").text
'not connected to the game (connecting…): nothing was sent'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import Move
from ..core.clock import ClockState
from ..core.game import Game
from ..core.pieces import Colour
from ..i18n import N_, _
from ..session import Confirm, Feedback, GamePort, Notice, Redraw, Tone
from ..session.actions import ACTIONS, no_move_now
from ..session.players import Players
from ..session.terms import capitalised, side, side_label, termination
from .peer_record import PeerRecordError, one_game
from .protocol import ClockTimes, LineRefused, Seat, SeatView, Snapshot
from .words import ending_words, event_words, refusal_words

__all__ = ["RemoteGame"]

_NOT_HERE: Final = {
    "redo": N_("redo is for a game at one board: ask for a takeback (u) instead"),
    "pause_clock": N_("the clock of a game played from two places cannot be paused"),
    "open": N_("a record cannot be opened into a game played from two places: open it with cescacs FILE"),
}
"""Actions a client of a remote game cannot take, and why."""

_PLAYERS_ONLY: Final = frozenset({"takeback", "offer_draw", "claim_draw", "resign", "new_game"})


class RemoteGame(GamePort):
    """The game as the coordinator last described it, and this client's requests to it.

    ``send`` delivers one request to the coordinator and says whether it
    could (``False``: the link is down, nothing was sent).
    """

    def __init__(self, send: Callable[[Mapping[str, Any]], bool]) -> None:
        self.send = send
        self.seat: Seat | None = None
        """The seat the coordinator gave this client (``None`` until it has)."""
        self.connected = False
        self.link_problem = _("connecting\u2026")
        """Why no request can be sent now (``""`` while connected)."""
        self.white = SeatView()
        self.black = SeatView()
        self.watchers = 0
        self.snapshot: Snapshot | None = None
        self.sent_move: str | None = None
        """A move sent and not yet answered: no other is sent meanwhile."""
        self._asked: tuple[str, int] | None = None
        self._pgn = ""

    @property
    def game(self) -> Game:
        """The copy of the coordinator's game, on the session's table."""
        return self.session.game

    @property
    def colour(self) -> Colour | None:
        return None if self.seat is None else self.seat.colour

    @property
    def watching(self) -> bool:
        return self.seat is Seat.WATCH

    def plays_here(self, colour: Colour) -> bool:
        return colour == self.colour

    # --- what the coordinator says ---------------------------------------------------------------

    def link_changed(self, connected: bool, problem: str = "") -> Feedback:
        """The link came up or went down."""
        self.connected = connected
        self.link_problem = "" if connected else problem
        if not connected:
            self.sent_move = None
        return Feedback(problem or None, Tone.ERROR if problem else Tone.PLAIN, Redraw.PANELS)

    def receive(self, message: Mapping[str, Any]) -> Feedback:
        """One line from the coordinator (checked by the link: a JSON object with a ``type``)."""
        kind = message.get("type")
        try:
            if kind == "welcome":
                seat = message.get("seat")
                if seat not in tuple(Seat):
                    raise LineRefused("bad_field", "welcome without a seat")
                self.seat = Seat(str(seat))
                self.snapshot = None  # a (re)started coordinator counts its updates afresh
                return Feedback(self._seat_words(), Tone.INFO, Redraw.PANELS)
            if kind == "state":
                return self.apply(Snapshot.from_json(message))
            if kind == "error":
                self.sent_move = None
                reason = message.get("reason")
                return Feedback.refused(refusal_words(str(message.get("code")), str(reason)[:200] if reason else ""))
        except LineRefused as error:
            said = _("the coordinator sent something this client cannot read: {reason}")
            return Feedback.refused(said.format(reason=error.reason))
        return Feedback()  # pong, and types of later protocol versions

    def apply(self, snapshot: Snapshot) -> Feedback:
        """Make the game what ``snapshot`` says it is; say what happened, and ask what is asked of this player."""
        if self.snapshot is not None and snapshot.seq <= self.snapshot.seq:
            return Feedback()
        was_over = self.game.is_over
        if snapshot.pgn != self._pgn:
            try:
                game = one_game(snapshot.pgn)
            except PeerRecordError as error:
                said = _("the coordinator sent a record this client cannot read: {reason}")
                return Feedback.refused(said.format(reason=error))
            self._replace_game(game)
            self._pgn = snapshot.pgn
            self.sent_move = None
        self.snapshot = snapshot
        self.white, self.black, self.watchers = snapshot.white, snapshot.black, snapshot.watchers
        self.game.draw_offered_by = snapshot.draw_offer
        self._mirror_clock(snapshot.clock)
        game = self.game
        notice = None
        said = snapshot.said
        if snapshot.event is not None and (words := event_words(snapshot.event)):
            said = ending_words(words, game) if game.is_over and not was_over else words
        if game.is_over and not was_over:
            notice = Notice(_("Game over"), f"{game.result}: {termination(game)}")
        return Feedback(
            said or None,
            Tone.INFO if said else Tone.PLAIN,
            Redraw.GAME,
            question=self._question(snapshot),
            notice=notice,
        )

    def _replace_game(self, game: Game) -> None:
        """The new copy of the game; a player reviewing an earlier move stays there."""
        old = self.game
        if not old.is_live:
            game.go_to(old.cursor)
        self.session.replace_game(game)

    def _mirror_clock(self, times: ClockTimes | None) -> None:
        """Run this copy's clock as the coordinator's runs: the display counts down between snapshots."""
        clock = self.game.clock
        if clock is None or times is None:
            return
        clock.restore(
            ClockState((times.white, times.black), times.to_move, times.turn_start, times.delay_left, times.flagged)
        )
        if times.paused:
            clock.pause()
        elif not times.running:
            clock.stop()

    def _question(self, snapshot: Snapshot) -> Confirm | None:
        """The opponent's offer or request addressed to this player, asked once."""
        me = self.colour
        if me is None:
            return None
        ply = self.game.ply
        if snapshot.draw_offer is me.opponent:
            key = ("draw", ply)
            prompt = capitalised(_("{side} offers a draw. Do you accept?").format(side=side(me.opponent)))
        elif snapshot.request is not None and snapshot.request.by is me.opponent:
            key = (snapshot.request.kind, ply)
            if snapshot.request.kind == "takeback":
                moves = ", ".join(node.san for node in self.game.nodes[-snapshot.request.plies :])
                said = _("{side} asks to take back {moves}. Do you agree?")
                prompt = capitalised(said.format(side=side(me.opponent), moves=moves))
            else:
                prompt = capitalised(_("{side} asks for a new game. Do you agree?").format(side=side(me.opponent)))
        else:
            self._asked = None
            return None
        if self._asked == key:
            return None
        self._asked = key
        to = key[0]

        def answer(accept: bool) -> Feedback:
            if not self._send({"type": "answer", "to": to, "accept": accept}):
                return Feedback.refused(_("the answer was not sent: {reason}").format(reason=self.link_problem))
            return Feedback(_("answer sent"), Tone.PLAIN)

        return Confirm(prompt, answer, yes=_("Accept"), no=_("Decline"))

    def _seat_words(self) -> str:
        """Where this client sits, as the coordinator's welcome said: "you are playing White"."""
        colour = None if self.seat is None else self.seat.colour
        if self.seat is None:
            return _("not seated yet")
        if colour is None:
            return _("you are watching")
        return _("you are playing {side}").format(side=side(colour))

    # --- what this player may do ---------------------------------------------------------------

    def blocked(self) -> str | None:
        """The local reasons first (a variation shown, an earlier move reviewed), then the remote ones."""
        game = self.game
        if self.session.variations.top is not None or not game.is_live:
            return no_move_now(self.session)
        if game.is_over:
            return self._over(game)
        if (problem := self._player_problem()) is not None:
            return problem
        turn = game.position.turn
        if turn != self.colour:
            assert self.seat is not None
            return _("it is {side}'s turn: you play {yours}").format(side=side(turn), yours=side_label(turn.opponent))
        if self.sent_move is not None:
            return _("{move} is on its way to the game").format(move=self.sent_move)
        return None

    def _player_problem(self) -> str | None:
        """Why this client cannot act as a player now, or ``None``."""
        if not self.connected:
            return _("not connected to the game ({reason}): nothing was sent").format(reason=self.link_problem)
        if self.seat is None:
            return _("not seated yet")
        if self.seat is Seat.WATCH:
            return _("you are watching: only White and Black play")
        return None

    def _over(self, game: Game) -> str:
        said = _("the game is over ({reason}): {key} asks for a new game")
        return said.format(reason=termination(game), key=self.session.how("new_game"))

    def refusal(self, action: str) -> str | None:
        if action in _NOT_HERE:
            return _(_NOT_HERE[action])
        if action not in _PLAYERS_ONLY:
            return ACTIONS[action].refusal(self.session)
        if (problem := self._player_problem()) is not None:
            return problem
        me = self.colour
        game = self.game
        pending = self.snapshot is not None and (
            self.snapshot.request is not None or self.snapshot.draw_offer is not None
        )
        if action == "new_game":
            if not game.is_over:
                return _("the game is not over: resign ({key}) or agree a draw first").format(
                    key=self.session.how("resign")
                )
            return _("a request is waiting for an answer") if pending else None
        if game.is_over:
            return self._over(game)
        if action == "takeback":
            if pending:
                return _("a request is waiting for an answer")
            if not any(node.colour == me for node in game.nodes):
                return _("you have no move to take back")
        elif action == "offer_draw":
            if not game.nodes or game.nodes[-1].colour != me:
                said = _(
                    "a draw is offered after your own move: make it, then offer it: {key} (or type the move with (=))"
                )
                return said.format(key=self.session.how("offer_draw"))
        elif action == "claim_draw" and game.position.turn != me:
            return _("a draw is claimed by the player to move, on their turn")
        return ACTIONS[action].refusal(self.session)

    # --- the commands, as requests ------------------------------------------------------------------

    def _send(self, message: Mapping[str, Any]) -> bool:
        return self.connected and self.send(message)

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        if (reason := self.blocked()) is not None:
            return Feedback.refused(reason)
        position = self.game.position
        if not position.is_legal(move):
            return Feedback.refused(_("{move} is not a legal move here").format(move=move))
        text = position.ctl_an(move)
        if not self._send({"type": "move", "move": str(move), "ply": self.game.ply, "draw": offer_draw}):
            said = _("not connected to the game ({reason}): {move} was not sent")
            return Feedback.refused(said.format(reason=self.link_problem, move=text))
        self.sent_move = text
        self.session.preview = ()
        return Feedback(_("{move} sent").format(move=text), Tone.PLAIN, Redraw.BOARD, done=True)

    def _request(self, action: str, said: str) -> Feedback:
        if (reason := self.refusal(action)) is not None:
            return Feedback.refused(reason)
        if not self._send({"type": action}):
            said = _("not connected to the game ({reason}): nothing was sent")
            return Feedback.refused(said.format(reason=self.link_problem))
        return Feedback(said, Tone.PLAIN)

    def play_computer(self, move: Move) -> Feedback:
        return Feedback.refused(_("the computer is not to move"))  # the coordinator's seats are people

    def takeback(self) -> Feedback:
        return self._request("takeback", _("takeback asked: {side} answers").format(side=self._opponent()))

    def redo(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["redo"]))

    def offer_draw(self) -> Feedback:
        return self._request("offer_draw", _("draw offered: {side} answers").format(side=self._opponent()))

    def claim_draw(self) -> Feedback:
        return self._request("claim_draw", _("draw claimed"))

    def request_new_game(self) -> Feedback:
        """After a game, a new one is asked of the other player (the coordinator starts it when both agree)."""
        return self._request("new_game", _("new game asked: {side} answers").format(side=self._opponent()))

    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["open"]))  # only the coordinator puts a game on its table

    def resign(self) -> Feedback:
        """Resign (this player, on either turn), once confirmed; No is the safe answer."""
        if (reason := self.refusal("resign")) is not None:
            return Feedback.refused(reason)
        me = self.colour
        assert me is not None

        def answer(yes: bool) -> Feedback:
            return self._request("resign", _("resignation sent")) if yes else Feedback(_("the game goes on"))

        prompt = _("You resign: {side} wins the game. Sure?").format(side=side(me.opponent))
        return Feedback(question=Confirm(prompt, answer))

    def pause_clock(self) -> Feedback:
        return Feedback.refused(_(_NOT_HERE["pause_clock"]))

    def check_time(self) -> Feedback:
        """A flag fell on this copy's clock: the coordinator, whose clock rules, ends the game and says so."""
        return Feedback()

    def _opponent(self) -> str:
        me = self.colour
        return _("your opponent") if me is None else side(me.opponent)
