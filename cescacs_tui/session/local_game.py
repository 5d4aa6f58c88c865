"""A game played here: the commands of a session carried out on the :class:`~cescacs_tui.core.game.Game` itself.

The :class:`LocalGame` is the :class:`~cescacs_tui.session.port.GamePort` of
a game at one board (the app, the plain mode, a remote coordinator's
authoritative game).  Each command checks the action table's reasons, plays
on the game, tells the session's :class:`~cescacs_tui.data.store.GameStore`
that the game changed (it keeps it, or archives it when it ends), and says
what happened, announcing the end of the game when it came.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import MoveError
from ..core.game import Game, GameError, Node
from ..core.move import Move
from ..core.pieces import Colour
from ..i18n import _
from .actions import ACTIONS, computer_plays_on, no_move_now
from .feedback import Confirm, Feedback, Notice, Redraw, Tone
from .players import Players, human_side, takeback_plies
from .port import GamePort
from .terms import capitalised, say, side, side_label, termination
from .words import half_moves

__all__ = ["LocalGame"]


class LocalGame(GamePort):
    """The game on the table is played here, on this board, and kept in the session's store."""

    @property
    def game(self) -> Game:
        return self.session.game

    def plays_here(self, colour: Colour) -> bool:
        return not self.session.players[colour].is_computer

    @property
    def hot_seat(self) -> bool:
        return not any(player.is_computer for player in self.session.players)

    # --- why not now ----------------------------------------------------------------------------------

    def blocked(self) -> str | None:
        return no_move_now(self.session)

    def refusal(self, action: str) -> str | None:
        return ACTIONS[action].refusal(self.session)

    # --- playing ------------------------------------------------------------------------------------------

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        session = self.session
        if (reason := self.blocked() or (computer_plays_on(session) if offer_draw else None)) is not None:
            return Feedback.refused(reason)
        game = self.game
        mover = game.position.turn
        try:
            node = game.play(move)
        except (GameError, MoveError) as error:
            return Feedback.refused(say(error.explanation))
        session.preview = ()
        said = capitalised(_("{side} played {move}").format(side=side(mover), move=node.san))
        if offer_draw and not game.is_over:
            game.offer_draw()
            session.save()
            return self._ask_about_draw(said)
        return self.changed(said)

    def play_computer(self, move: Move) -> Feedback:
        """The review stays where the player left it (a variation shown too); the move is announced like a
        person's."""
        game = self.game
        if not self.session.computer_to_move:
            return Feedback.refused(_("the computer is not to move"))
        cursor = None if game.is_live else game.cursor
        game.go_to(game.ply)
        mover = game.position.turn
        try:
            node = game.play(move)
        except (GameError, MoveError) as error:
            return Feedback.refused(say(error.explanation))
        finally:
            if cursor is not None:
                game.go_to(cursor)
        self.session.preview = ()
        return self.changed(capitalised(_("{side} played {move}").format(side=side(mover), move=node.san)))

    # --- takeback and redo --------------------------------------------------------------------------------

    def takeback(self) -> Feedback:
        """Against the computer, back to before the person's last move (its reply too)."""
        if (reason := self.refusal("takeback")) is not None:
            return Feedback.refused(reason)
        game = self.game
        plies = takeback_plies(game.moves, game.start.turn, self.session.players)
        taken = [node for node in (game.takeback() for _ in range(plies)) if node is not None]
        assert taken  # not refused: there was a move
        self.session.preview = ()
        if len(taken) == 2:
            said = _("took back {move} and the computer's reply {reply}").format(move=taken[1].san, reply=taken[0].san)
        else:
            said = _("took back {move}").format(move=taken[-1].san)
        return self.changed(said, tone=Tone.PLAIN)

    def redo(self) -> Feedback:
        """Against the computer, its reply too (it need not think again)."""
        if (reason := self.refusal("redo")) is not None:
            return Feedback.refused(reason)
        game = self.game
        replayed: list[Node] = []
        try:
            while not replayed or (self.session.computer_to_move and game.can_redo):
                node = game.redo()
                assert node is not None  # not refused, and can_redo checked
                replayed.append(node)
        except GameError as error:  # the game has ended since the takeback
            if not replayed:
                return Feedback.refused(say(error.explanation))
        if len(replayed) == 2:
            said = _("replayed {move} and the computer's reply {reply}").format(
                move=replayed[0].san, reply=replayed[1].san
            )
        else:
            said = _("replayed {move}").format(move=replayed[0].san)
        return self.changed(said, tone=Tone.PLAIN)

    # --- ending a game --------------------------------------------------------------------------------

    def resign(self) -> Feedback:
        """The player to move resigns (against the computer, the person), once confirmed: No is the safe answer."""
        if (reason := self.refusal("resign")) is not None:
            return Feedback.refused(reason)
        person = human_side(self.session.players)
        mover = self.game.position.turn if person is None else person

        def answer(yes: bool) -> Feedback:
            if not yes:
                return Feedback(_("the game goes on"))
            if (again := self.refusal("resign")) is not None:
                return Feedback.refused(again)
            self.game.resign(mover)
            return self.changed(termination(self.game))

        prompt = _("{side} resigns: {opponent} wins the game. Sure?").format(
            side=side(mover), opponent=side(mover.opponent)
        )
        return Feedback(question=Confirm(capitalised(prompt), answer))

    def resign_side(self, colour: Colour) -> Feedback:
        """``colour`` resigns now, on either turn (a player of a remote game, who confirmed on their own screen)."""
        if (reason := self.refusal("resign")) is not None:
            return Feedback.refused(reason)
        self.game.resign(colour)
        return self.changed(f"{colour.title} resigns")

    def offer_draw(self) -> Feedback:
        """The player who has just moved offers a draw; the opponent answers at once (RULES.md 10.3-1)."""
        if (reason := self.refusal("offer_draw")) is not None:
            return Feedback.refused(reason)
        self.game.offer_draw()
        self.session.save()
        return self._ask_about_draw(None)

    def _ask_about_draw(self, said: str | None) -> Feedback:
        game = self.game
        offerer = game.draw_offered_by
        assert offerer is not None
        self.session.offered_with = game.nodes[-1]

        def answer(accept: bool) -> Feedback:
            if game is not self.game or game.draw_offered_by != offerer:
                return Feedback.refused(_("that draw offer is no longer open"))
            if accept:
                game.accept_draw()
                return self.changed(capitalised(_("{side} accepts the draw").format(side=side(offerer.opponent))))
            game.decline_draw()
            said = capitalised(_("{side} declines the draw").format(side=side(offerer.opponent)))
            return self.changed(said, tone=Tone.PLAIN)

        prompt = _("{side} offers a draw. {opponent}, do you accept?").format(
            side=side(offerer), opponent=side_label(offerer.opponent)
        )
        question = Confirm(capitalised(prompt), answer, yes=_("Accept"), no=_("Decline"))
        return Feedback(said, Tone.INFO, Redraw.GAME, done=said is not None, question=question)

    def claim_draw(self) -> Feedback:
        if (reason := self.refusal("claim_draw")) is not None:
            return Feedback.refused(reason)
        outcome = self.game.claim_draw()
        return self.changed(capitalised(say(outcome.message)))

    # --- the clock ----------------------------------------------------------------------------------------

    def check_time(self) -> Feedback:
        outcome = self.game.check_time()
        if outcome is None:
            return Feedback()
        return self.changed(f"{outcome.result}: {capitalised(say(outcome.message))}", notice_title=_("Flag fall"))

    def pause_clock(self) -> Feedback:
        if (reason := self.refusal("pause_clock")) is not None:
            return Feedback.refused(reason)
        game = self.game
        clock = game.clock
        assert clock is not None
        if clock.paused:
            clock.resume()
            said = _("clock running")
        elif clock.running is not None:
            clock.pause()
            said = _("clock paused: {key} resumes it").format(key=self.session.how("pause_clock"))
        else:
            clock.start(game.position.turn)
            said = capitalised(_("the clock of {side} started").format(side=side(game.position.turn)))
        self.session.save()
        return Feedback(said, redraw=Redraw.PANELS)

    # --- whole games ----------------------------------------------------------------------------------

    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        """``players=None`` keeps the players of the session's options (a resumed game's).  An unfinished game
        that was on the table is archived first: no game is dropped without a copy."""
        session = self.session
        kept = session.keep_unfinished()
        if players is not None:
            session.players = players
        session.replace_game(game)
        session.save()
        said = said or (_("new game") if not game.nodes else _("{moves} loaded").format(moves=half_moves(game.ply)))
        if kept:
            said = _("{said}; the unfinished game was kept in {path}").format(said=said, path=kept)
        cursor = game.position.king(game.position.turn)
        return Feedback(said, Tone.INFO, Redraw.GAME, done=True, cursor=cursor, new_game=True)

    def request_new_game(self) -> Feedback | None:
        return None  # the front end asks the players for its options, then starts it here

    def changed(self, said: str, *, tone: Tone = Tone.INFO, notice_title: str | None = None) -> Feedback:
        """The game changed: keep it and say so, announcing (and archiving) its end if it just ended."""
        archived: Path | None = self.session.save()
        game = self.game
        if not game.is_over:
            return Feedback(said, tone, Redraw.GAME, done=True)
        reason = capitalised(termination(game))
        ending = f"{game.result}: {reason}"
        text = said if reason.lower() in said.lower() else f"{said}.  {ending}"
        if archived is not None:
            text += " " + _("(saved in {path})").format(path=archived)
        notice = Notice(notice_title or _("Game over"), ending)
        return Feedback(text, Tone.INFO, Redraw.GAME, done=True, notice=notice, archived=archived)
