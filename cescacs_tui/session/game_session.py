"""The game on the table and what the players are doing with it, free of any user interface.

A :class:`GameSession` holds the :class:`~cescacs_tui.core.game.Game`, the
record's variations being followed, the piece selected on the board and the
move previewed, and the overlays the players switched on.  Its commands are
what players do — play a typed move, pick a hex, take back, resign, claim a
draw — and each returns a :class:`~cescacs_tui.session.feedback.Feedback`
saying what happened (or why nothing did), what to redraw and what to ask.
Every front end drives a session: the Textual app, the plain line mode, the
tests.  It saves the game itself (the autosave and the archive, through its
:class:`~cescacs_tui.session.store.GameStore`), so no front end can forget to.

>>> from cescacs_tui.session import GameSession
>>> GameSession().play_text("H6-H12").text
'White played H6-H12'
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core import HEX_NAMES, CescacsError, Move, MoveError, find_hex
from ..core.errors import PGNError
from ..core.game import Game, GameError, Node
from ..core.message import Message
from ..core.move import CASTLING, IN_PLACE_PROMOTION
from ..core.notation import normalise_typed
from ..core.pieces import LETTERS
from ..data.autosave import SavedGame
from ..data.lock import AutosaveBusy
from ..engine.seats import takeback_plies
from ..i18n import _
from .actions import ACTIONS, computer_plays_on, no_move_now, press
from .feedback import Choice, Confirm, Feedback, Notice, Option, Redraw, Tone
from .highlights import Overlays, move_hexes
from .seating import PLAYERS_OPTION, TWO_PEOPLE, Seats, human_side, seats_from, seats_option
from .selection import Picker, PickKind
from .store import GameStore
from .terms import capitalised, piece_name, piece_words, say, side, side_label, termination
from .variations import VariationStack
from .words import half_moves, king_move_label, promotion_label, tolerated, when


def _explained(error: CescacsError) -> str:
    """A core error's reason in the interface's language (its explanation, without the framing ``str()`` adds)."""
    return say(error.explanation)


__all__ = ["DRAW_OFFER_MARK", "GameSession"]

DRAW_OFFER_MARK = "(=)"
"""Typed after a move, offers a draw with it (CTL-AN, NOTATION.md 4.5)."""

_TYPED_PROMPTS = "/:"
"""The keys that open the move box; typed again inside it (a habit after each move), they are ignored."""


class GameSession:
    """One game being played or reviewed, and everything the players do with it.

    ``store`` keeps the game between runs (``None``: nothing is saved);
    ``options`` are the front end's own settings saved with the game (the
    app keeps the board's orientation there).
    """

    def __init__(
        self, game: Game | None = None, *, store: GameStore | None = None, how: Callable[[str], str] = press
    ) -> None:
        self.game = game or Game.new()
        self.store = store
        self.how = how
        """How this front end does an action, for the hints in messages ("}" in the app, "live" typed in plain mode)."""
        self.options: dict[str, Any] = {}
        self.variations = VariationStack()
        """The record's variations being followed; the innermost is :attr:`shown`."""
        self.overlays = Overlays()
        self.preview: tuple[int, ...] = ()
        """The hexes of a move about to be played (typed, or highlighted in a choice), marked on the board."""
        self.save_problem: str | None = None
        """Why the last save failed; ``None`` once a save succeeds.  Front ends keep it in view."""
        self.notices: list[Message] = []
        """What the store did besides saving (a file kept aside...): front ends show them, then clear the list."""
        self.waiting_for: Path | None = None
        """The autosave another process has open, which this session takes over once it exits."""
        self.offered_with: Node | None = None
        """The half-move a draw was last offered with: one offer per move, even once declined."""
        self._picker: Picker | None = None
        self._picker_key: tuple[int, tuple[Move, ...]] | None = None

    # --- what is on the table --------------------------------------------------------

    @property
    def shown(self) -> Game:
        """The line on the screen: the game, or a variation of its record being followed."""
        return self.variations.shown(self.game)

    @property
    def selection(self) -> Picker | None:
        """The selection state of the live position (``None`` when no move can be picked now).

        Rebuilt whenever the position changes, keyed on the moves themselves,
        so a takeback and a different move can never leave a stale selection.
        """
        if self.blocked() is not None:
            return None
        key = (id(self.game), tuple(self.game.moves))
        if self._picker is None or self._picker_key != key:
            self._picker = Picker(self.game.position)
            self._picker_key = key
        return self._picker

    @property
    def seats(self) -> Seats:
        """Who plays White and Black: people, or the computer at a level (kept in :attr:`options`, so saved)."""
        return seats_from(self.options)

    @seats.setter
    def seats(self, seats: Seats) -> None:
        self.options[PLAYERS_OPTION] = seats_option(seats)

    @property
    def against_computer(self) -> bool:
        """Whether one side is a person and the other the computer."""
        return human_side(self.seats) is not None

    @property
    def computer_to_move(self) -> bool:
        """Whether the computer is to move at the live end of the game (the front end then asks it to)."""
        game = self.game
        return not game.is_over and self.seats[game.position.turn].is_computer

    @property
    def watching(self) -> bool:
        """Whether the person only watches (a watcher of a game held elsewhere): a local game is always played."""
        return False

    def blocked(self) -> str | None:
        """Why no move can be played now, or ``None`` when one can: the one rule every move command follows."""
        return no_move_now(self)

    def refusal(self, action: str) -> str | None:
        """Why the action named ``action`` (see :data:`~cescacs_tui.session.actions.ACTIONS`) cannot act now."""
        return ACTIONS[action].refusal(self)

    def available(self, action: str) -> bool:
        return self.refusal(action) is None

    # --- playing ------------------------------------------------------------------------

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        """Play ``move`` in the live position (with a draw offer, ``offer_draw``)."""
        if (reason := self.blocked() or (computer_plays_on(self) if offer_draw else None)) is not None:
            return Feedback.refused(reason)
        game = self.game
        mover = game.position.turn
        try:
            node = game.play(move)
        except (GameError, MoveError) as error:
            return Feedback.refused(say(error.explanation))
        self.preview = ()
        said = capitalised(_("{side} played {move}").format(side=side(mover), move=node.san))
        if offer_draw and not game.is_over:
            game.offer_draw()
            self._save()
            return self._ask_about_draw(said)
        return self._changed(said)

    def play_computer(self, move: Move) -> Feedback:
        """Play the computer's ``move`` at the live end, while the player may be reviewing an earlier one.

        The review stays where the player left it (a variation shown too);
        the move is announced like a person's.
        """
        game = self.game
        if not self.computer_to_move:
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
        self.preview = ()
        return self._changed(capitalised(_("{side} played {move}").format(side=side(mover), move=node.san)))

    def play_text(self, text: str) -> Feedback:
        """Play a move typed in CTL-AN (or the canonical form); a hex name alone goes to that hex instead.

        A leading ``/`` or ``:`` is ignored (the keys that open the move box);
        a trailing ``(=)`` offers a draw with the move.
        """
        typed = text.strip().lstrip(_TYPED_PROMPTS).strip()
        if not typed:
            return Feedback("")
        offer = typed.endswith(DRAW_OFFER_MARK)
        if offer:
            typed = typed.removesuffix(DRAW_OFFER_MARK).rstrip()
        if (hex_ := _hex_named(typed)) is not None and not offer:
            return self.go_to_hex(hex_)
        if (reason := self.blocked()) is not None:
            return Feedback.refused(f"{typed}: {reason}")
        try:
            move = self._parse_typed(typed)
        except CescacsError as error:
            reason = _explained(error)
            return Feedback.refused(f"{typed}: {reason}")
        return self.play(move, offer_draw=offer)

    def preview_text(self, text: str) -> Feedback:
        """Show on the board the move being typed, as soon as it reads as a legal move."""
        typed = text.strip().lstrip(_TYPED_PROMPTS).strip().removesuffix(DRAW_OFFER_MARK).rstrip()
        shown, self.preview = self.preview, ()
        said = None
        if typed and self.blocked() is None and _hex_named(typed) is None:
            try:
                move = self._parse_typed(typed)
            except CescacsError:
                pass
            else:
                self.preview = move_hexes(self.game.position, move)
                said = _("Enter plays {move}").format(move=self.game.position.ctl_an(move))
        return Feedback(said, redraw=Redraw.BOARD if self.preview != shown else Redraw.NOTHING)

    def go_to_hex(self, h: int) -> Feedback:
        """Put the cursor on hex ``h``, selecting the piece there if it is the mover's; nothing is played."""
        name = HEX_NAMES[h]
        piece = self.shown.reviewed_position().piece_at(h)
        picker = self.selection
        if picker is not None and piece is not None and piece.colour == self.game.position.turn:
            picker.cancel()
            picked = self.pick(h)
            return Feedback(picked.text, picked.tone, Redraw.BOARD, done=True, question=picked.question, cursor=h)
        what = piece_words(piece) if piece is not None else _("empty")
        return Feedback(f"{name}: {what}", redraw=Redraw.BOARD, done=True, cursor=h)

    def pick(self, h: int) -> Feedback:
        """The player picked hex ``h`` on the board (Enter on the cursor, or a click)."""
        if (reason := self.blocked()) is not None:
            return Feedback.refused(reason)
        picker = self.selection
        assert picker is not None  # not blocked
        result = picker.pick(h)
        if result.kind is PickKind.PLAY:
            return self.play(result.moves[0])
        if result.kind is PickKind.CHOOSE:
            return self._choose(result.moves)
        if result.kind is PickKind.REFUSED:
            return Feedback(result.message, Tone.ERROR, Redraw.BOARD)
        if result.kind is PickKind.SELECTED:
            piece = self.game.position.piece_at(h)
            assert piece is not None
            said = _("{piece} on {hex}: pick its target (Esc cancels)").format(
                piece=piece_name(piece.type), hex=HEX_NAMES[h]
            )
            return Feedback(said, redraw=Redraw.BOARD)
        return Feedback("", redraw=Redraw.BOARD)

    def cancel(self) -> Feedback:
        """Esc on the board: drop the selection and the preview, or step out of a variation."""
        if self.variations:
            return self.leave_variation()
        if self._picker is not None:
            self._picker.cancel()
        self.preview = ()
        return Feedback("", redraw=Redraw.BOARD)

    def _choose(self, moves: tuple[Move, ...]) -> Feedback:
        """Several moves share the target: ask which (the promotion piece, or the leap or a castling)."""
        position = self.game.position
        options: tuple[Option[Move], ...]
        if any(m.kind == CASTLING for m in moves):
            prompt = _("The King can go there in several ways:")
            options = tuple(Option(str(i + 1), king_move_label(position, m), m) for i, m in enumerate(moves))
            preview: Callable[[Move | None], Feedback] | None = self._show_preview
        else:
            where = HEX_NAMES[moves[0].target]
            in_place = moves[0].kind == IN_PLACE_PROMOTION
            prompt = _("Promote the pawn on {hex} to:") if in_place else _("Regain which piece on {hex}?")
            prompt = prompt.format(hex=where)
            options = tuple(Option(LETTERS[m.promotion], promotion_label(position, m), m) for m in moves)
            preview = None

        def answer(move: Move | None) -> Feedback:
            self.preview = ()
            if move is None:
                return Feedback(_("choice cancelled"), redraw=Redraw.GAME)
            return self.play(move)

        return Feedback(question=Choice(prompt, options, answer, preview), redraw=Redraw.BOARD)

    def _show_preview(self, move: Move | None) -> Feedback:
        self.preview = () if move is None else move_hexes(self.game.position, move)
        return Feedback(redraw=Redraw.BOARD)

    def _parse_typed(self, text: str) -> Move:
        return self.game.position.parse_move(normalise_typed(text))  # a wrong check mark is tolerated

    # --- takeback, review, variations ----------------------------------------------------

    def takeback(self) -> Feedback:
        """Undo the last half-move; against the computer, back to before the person's last move (its reply too)."""
        if (reason := self.refusal("takeback")) is not None:
            return Feedback.refused(reason)
        game = self.game
        plies = takeback_plies(game.moves, game.start.turn, self.seats)
        taken = [node for node in (game.takeback() for _ in range(plies)) if node is not None]
        assert taken  # not refused: there was a move
        self.preview = ()
        if len(taken) == 2:
            said = _("took back {move} and the computer's reply {reply}").format(move=taken[1].san, reply=taken[0].san)
        else:
            said = _("took back {move}").format(move=taken[-1].san)
        return self._changed(said, tone=Tone.PLAIN)

    def redo(self) -> Feedback:
        """Replay a taken-back half-move; against the computer, its reply too (it need not think again)."""
        if (reason := self.refusal("redo")) is not None:
            return Feedback.refused(reason)
        game = self.game
        replayed: list[Node] = []
        try:
            while not replayed or (self.computer_to_move and game.can_redo):
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
        return self._changed(said, tone=Tone.PLAIN)

    def review_back(self) -> Feedback:
        return self._review(self.shown.cursor - 1, "review_back")

    def review_forward(self) -> Feedback:
        return self._review(self.shown.cursor + 1, "review_forward")

    def review_start(self) -> Feedback:
        return self._review(0, "review_start")

    def review_live(self) -> Feedback:
        return self._review(self.shown.ply, "review_live")

    def review_to(self, ply: int) -> Feedback:
        """Show the position after ``ply`` half-moves of the line on the board (a click in the move list)."""
        self.preview = ()  # a hint's arrow belongs to the position it was given for
        self.shown.go_to(ply)
        return Feedback("", redraw=Redraw.GAME)

    def _review(self, ply: int, action: str) -> Feedback:
        if (reason := self.refusal(action)) is not None:
            return Feedback.refused(reason)
        self.preview = ()
        self.shown.go_to(ply)
        return Feedback("" if self.shown.is_live else None, redraw=Redraw.GAME)

    def follow_variation(self, index: int | None = None) -> Feedback:
        """Step into a variation the record gives instead of the move shown (again: the next one)."""
        try:
            variation = self.variations.follow(self.game, index)
        except CescacsError as error:  # a line the reader took but the game refuses (it goes on after a draw)
            return Feedback.refused(_("this variation cannot be followed: {reason}").format(reason=_explained(error)))
        if variation is None:
            return Feedback.refused(_("the record gives no other line instead of this move"))
        self.preview = ()
        if self._picker is not None:
            self._picker.cancel()
        said = _("{variation}: {back} and {forward} step through it, {leave} returns").format(
            variation=variation.describe(),
            back=self.how("review_back"),
            forward=self.how("review_forward"),
            leave=self.how("leave_variation"),
        )
        return Feedback(said, Tone.INFO, Redraw.GAME)

    def leave_variation(self) -> Feedback:
        if self.variations.leave() is None:
            return Feedback.refused(_("no variation is being followed"))
        outer = self.variations.top
        said = _("back in the game") if outer is None else _("back to {variation}").format(variation=outer.describe())
        return Feedback(said, redraw=Redraw.GAME)

    def cycle_overlays(self) -> Feedback:
        self.overlays = self.overlays.cycle()
        return Feedback(self.overlays.describe(), redraw=Redraw.BOARD)

    # --- ending a game ----------------------------------------------------------------

    def resign(self) -> Feedback:
        """The player to move resigns, once confirmed (No is the safe answer)."""
        if (reason := self.refusal("resign")) is not None:
            return Feedback.refused(reason)
        person = human_side(self.seats)
        mover = self.game.position.turn if person is None else person  # against the computer, the person resigns

        def answer(yes: bool) -> Feedback:
            if not yes:
                return Feedback(_("the game goes on"))
            if (again := self.refusal("resign")) is not None:
                return Feedback.refused(again)
            self.game.resign(mover)
            return self._changed(termination(self.game))

        prompt = _("{side} resigns: {opponent} wins the game. Sure?").format(
            side=side(mover), opponent=side(mover.opponent)
        )
        return Feedback(question=Confirm(capitalised(prompt), answer))

    def offer_draw(self) -> Feedback:
        """The player who has just moved offers a draw; the opponent answers at once (RULES.md 10.3-1)."""
        if (reason := self.refusal("offer_draw")) is not None:
            return Feedback.refused(reason)
        self.game.offer_draw()
        self._save()
        return self._ask_about_draw(None)

    def _ask_about_draw(self, said: str | None) -> Feedback:
        game = self.game
        offerer = game.draw_offered_by
        assert offerer is not None
        self.offered_with = game.nodes[-1]

        def answer(accept: bool) -> Feedback:
            if game is not self.game or game.draw_offered_by != offerer:
                return Feedback.refused(_("that draw offer is no longer open"))
            if accept:
                game.accept_draw()
                return self._changed(capitalised(_("{side} accepts the draw").format(side=side(offerer.opponent))))
            game.decline_draw()
            said = capitalised(_("{side} declines the draw").format(side=side(offerer.opponent)))
            return self._changed(said, tone=Tone.PLAIN)

        prompt = _("{side} offers a draw. {opponent}, do you accept?").format(
            side=side(offerer), opponent=side_label(offerer.opponent)
        )
        question = Confirm(capitalised(prompt), answer, yes=_("Accept"), no=_("Decline"))
        return Feedback(said, Tone.INFO, Redraw.GAME, done=said is not None, question=question)

    def claim_draw(self) -> Feedback:
        if (reason := self.refusal("claim_draw")) is not None:
            return Feedback.refused(reason)
        outcome = self.game.claim_draw()
        return self._changed(capitalised(say(outcome.message)))

    def check_time(self) -> Feedback:
        """Notice a flag fall (the front end's clock display asks when it sees a time run out)."""
        outcome = self.game.check_time()
        if outcome is None:
            return Feedback()
        return self._changed(f"{outcome.result}: {capitalised(say(outcome.message))}", notice_title=_("Flag fall"))

    def pause_clock(self) -> Feedback:
        if (reason := self.refusal("pause_clock")) is not None:
            return Feedback.refused(reason)
        clock = self.game.clock
        assert clock is not None
        if clock.paused:
            clock.resume()
            said = _("clock running")
        elif clock.running is not None:
            clock.pause()
            said = _("clock paused: {key} resumes it").format(key=self.how("pause_clock"))
        else:
            clock.start(self.game.position.turn)
            said = capitalised(_("the clock of {side} started").format(side=side(self.game.position.turn)))
        self._save()
        return Feedback(said, redraw=Redraw.PANELS)

    # --- whole games ------------------------------------------------------------------

    def start_game(self, game: Game, *, said: str | None = None, seats: Seats | None = None) -> Feedback:
        """Put ``game`` on the table (a new one, a record opened, a resumed one), played by ``seats``.

        ``seats=None`` keeps the seats of :attr:`options` (a resumed game's).
        An unfinished game that was on the table is archived first: no game is
        dropped without a copy.
        """
        kept = self._keep_unfinished()
        if seats is not None:
            self.seats = seats
        self.game = game
        self.variations.clear()
        self._picker = None
        self.preview = ()
        self._save()
        said = said or (_("new game") if not game.nodes else _("{moves} loaded").format(moves=half_moves(game.ply)))
        if kept:
            said = _("{said}; the unfinished game was kept in {path}").format(said=said, path=kept)
        cursor = game.position.king(game.position.turn)
        return Feedback(said, Tone.INFO, Redraw.GAME, done=True, cursor=cursor, new_game=True)

    def offer_resume(self, saved: SavedGame) -> Feedback:
        """Ask whether to resume an unfinished game found at start; Resume is the safe answer.

        Starting afresh instead keeps the saved game in the archive: it is
        never thrown away by a key pressed too fast.
        """
        game = saved.game

        def answer(resume: bool) -> Feedback:
            if resume:
                self.options.update(saved.options)
                said = _("resumed the game saved {when}").format(when=when(saved.saved_at)).rstrip()
                if game.clock is not None:
                    paused = _("the clock is paused: {key} restarts it").format(key=self.how("pause_clock"))
                    said = f"{said} — {paused}"
                return self.start_game(game, said=said)
            try:
                kept = self.store.keep(game) if self.store is not None else None
            except OSError as error:
                self.save_problem = _("the unfinished game could not be kept: {reason}").format(
                    reason=error.strerror or error
                )
                return Feedback.refused(self.save_problem)
            self._save()
            said = _("new game; the unfinished one was kept in {path}").format(path=kept) if kept else _("new game")
            return Feedback(said, Tone.INFO)

        prompt = _("An unfinished game was found ({moves}, {side} to move). Resume it?").format(
            moves=half_moves(game.ply), side=side(game.position.turn)
        )
        return Feedback(question=Confirm(prompt, answer, yes=_("Resume"), no=_("New game"), default=True))

    def offer_separate_game(self, busy: AutosaveBusy) -> Feedback:
        """The autosave is open in another cescacs: play a separate game here, or wait to take that one over.

        Until one is chosen nothing is saved, so neither process can write over the other's game.
        """
        who = say(busy.owner.description())

        def answer(separate: bool) -> Feedback:
            if not separate:
                self.waiting_for = busy.path
                said = _("waiting for {who} to close its game; what is played here meanwhile is kept apart").format(
                    who=who
                )
                return Feedback(said, Tone.INFO)
            from ..data.slots import fresh_slot

            try:
                slot = fresh_slot(busy.path.parent)
            except OSError as error:
                self.save_problem = _("no autosave of its own could be made: {reason}").format(
                    reason=error.strerror or error
                )
                return Feedback.refused(self.save_problem)
            self.store = slot
            self._save()
            return Feedback(_("a separate game, saved as {name}").format(name=slot.path.name), Tone.INFO, Redraw.PANELS)

        prompt = _(
            "The saved game is open in another cescacs ({who}). Play a separate game here, saved under its own name?"
        ).format(who=who)
        question = Confirm(prompt, answer, yes=_("Separate game"), no=_("Wait and take over"), default=True)
        return Feedback(question=question)

    def try_take_over(self) -> Feedback | None:
        """While :attr:`waiting_for`: own that autosave once its process has exited and offer its game.

        ``None`` while the other process still has it (the front end asks again a moment later).
        """
        if self.waiting_for is None:
            return None
        from ..data.lock import AutosaveBusy
        from ..data.slots import AutosaveSlot

        if self.store is not None and self.save_problem is not None:
            self._save()  # a separate slot is let go of below: what it holds must be on disk first (a game that ended)
            if self.save_problem is not None:
                return None
        try:
            slot = AutosaveSlot.acquire(self.waiting_for)
        except AutosaveBusy:
            return None
        self.waiting_for = None
        if self.store is not None:  # a separate slot taken while waiting: what it holds is offered at the next start
            self.store.release()
        self.store = slot
        loaded = slot.load()
        if loaded.saved is None:
            self._save()
            said = _("the other cescacs has closed: this game is saved from now on")
            return Feedback(said, Tone.INFO, Redraw.PANELS)
        return self.offer_resume(loaded.saved)

    def open_record(self, path: Path) -> Feedback:
        """Load the first game of a record file; on any error keep the current game and say why."""
        from ..data.records import open_pgn_file

        try:
            game, count = open_pgn_file(path)  # replays the first game only: a file of thousands opens at once
        except (PGNError, OSError) as error:
            reason = say(error.explanation) if isinstance(error, PGNError) else (error.strerror or str(error))
            notice = Notice(_("Cannot open the record"), reason)
            return Feedback(f"{path.name}: {reason}", Tone.ERROR, notice=notice)
        return self.show_record(game, count, path.name)

    def show_record(self, game: Game, count: int, source: str, *, pasted: bool = False) -> Feedback:
        """Put the first game of a record (``count`` games in it) on the table, and say where it came from.

        ``source`` names the record (its file name); ``pasted`` says it was a text pasted in, not a file.
        """
        said = _("opened {source}: {moves}").format(source=source, moves=half_moves(game.ply))
        if count > 1:
            holds = _("the text holds {count} games: the first is shown") if pasted else None
            holds = holds or _("the file holds {count} games: the first is shown")
            said = f"{said} ({holds.format(count=count)})"
        if game.warnings:
            said = f"{said}; {tolerated(game.warnings)}"
        return self.start_game(game, said=said, seats=TWO_PEOPLE)  # a record is reviewed, or played on, by people

    def save_record(self, path: Path) -> Feedback:
        from ..data.records import save_pgn_file

        try:
            save_pgn_file(self.game, path)
        except OSError as error:
            return Feedback.refused(
                _("could not save {path}: {reason}").format(path=path, reason=error.strerror or error)
            )
        return Feedback(_("saved {path}").format(path=path), Tone.INFO, done=True)

    def record_text(self) -> str:
        """The game as CTL-PGN."""
        from ..core.pgn import write_pgn

        return write_pgn(self.game)

    def position_text(self) -> str:
        """The position on the board (the one reviewed, in the line shown) as PDTL."""
        return self.shown.reviewed_position().to_pdtl()

    def suggested_file_name(self) -> str:
        """A file name for saving the game, from its date and players."""
        from ..data.records import record_file_name

        return record_file_name(self.game)

    # --- saving --------------------------------------------------------------------------

    def save(self) -> None:
        """Save the game now (the front end calls this when it quits, and while a clock runs)."""
        self._save()

    def close(self) -> None:
        """The front end quits: save the game and let another process own its autosave."""
        self._separate_while_waiting()
        self._save()
        if self.store is not None:
            self.store.release()

    def save_running_clock(self) -> None:
        """Save while a clock runs, so a crash in mid-thought keeps the clock times too."""
        clock = self.game.clock
        if clock is not None and clock.running is not None and not self.game.is_over:
            self._save()

    def _save(self) -> Path | None:
        """The autosave, after every change; an ended game goes to the archive.  Returns the archive path."""
        if self.store is None and self.game.is_over:
            self._separate_while_waiting()
        if self.store is None:
            return None
        try:
            if self.game.is_over:
                path = self.store.finish(self.game)
            else:
                self.store.save(self.game, self.options)
                path = None
        except OSError as error:
            if self.game.is_over:  # kept by the store, archived before it writes anything else
                said = _("the game that ended is not archived yet ({reason}): it will be as soon as the disk allows")
                self.save_problem = said.format(reason=_first_cause(error))
            else:
                self.save_problem = _("the game is not being saved: {reason}").format(reason=error.strerror or error)
            return None
        finally:
            self.notices.extend(self.store.notices)
            self.store.notices.clear()
        self.save_problem = None
        return path

    def _separate_while_waiting(self) -> None:
        """Waiting to take another cescacs' game over, the moves played here meanwhile must still reach the disk.

        Nothing is saved while waiting (the autosave is the other process's),
        but a game that ends here, or that is on the table when this front end
        quits first, gets a separate slot of its own: the archive, or the
        autosave offered at the next start.
        """
        if self.store is not None or self.waiting_for is None or not self.game.nodes:
            return
        from ..data.slots import fresh_slot

        try:
            self.store = fresh_slot(self.waiting_for.parent)
        except OSError as error:
            self.save_problem = _("no autosave of its own could be made: {reason}").format(
                reason=error.strerror or error
            )

    def _keep_unfinished(self) -> Path | None:
        """Archive the game on the table if it is unfinished and has moves (it is about to be replaced)."""
        game = self.game
        if self.store is None or not game.nodes or game.is_over:
            return None
        try:
            return self.store.keep(game)
        except OSError as error:
            self.save_problem = _("the unfinished game could not be kept: {reason}").format(
                reason=error.strerror or error
            )
            return None

    def _changed(self, said: str, *, tone: Tone = Tone.INFO, notice_title: str | None = None) -> Feedback:
        """The game changed: save it and say so, announcing (and archiving) its end if it just ended."""
        archived = self._save()
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


def _first_cause(error: BaseException) -> str:
    """What the system said at the bottom of a chain of errors ("No space left on device"), else the error's words."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        cause = cause.__cause__
    return str(error)


def _hex_named(text: str) -> int | None:
    """The hex a typed text names (``f14``, ``F14``), or ``None`` if it is not a hex name."""
    return find_hex(text.strip().upper())
