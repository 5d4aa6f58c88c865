"""The game on the table and what the players are doing with it, free of any user interface.

A :class:`GameSession` holds the :class:`~cescacs_tui.core.game.Game`, the
record's variations being followed, the piece selected on the board and the
move previewed, and the overlays the players switched on.  Its commands are
what players do — play a typed move, pick a hex, take back, resign, claim a
draw — and each returns a :class:`~cescacs_tui.session.feedback.Feedback`
saying what happened (or why nothing did), what to redraw and what to ask.
Every front end drives a session: the Textual app, the plain line mode, the
tests.  Every command that changes the game goes through the session's
:class:`~cescacs_tui.session.port.GamePort`: a game played here
(:class:`~cescacs_tui.session.local_game.LocalGame`, the default) or held
elsewhere (a remote coordinator's).  Where the game is kept between runs is
its :class:`~cescacs_tui.data.store.GameStore`'s business, which the session
tells of every change, so no front end can forget to save.

>>> from cescacs_tui.session import GameSession
>>> GameSession().play_text("H6-H12").text
'White played H6-H12'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import HEX_NAMES, CescacsError, Move, find_hex
from ..core.clock import ChessClock
from ..core.errors import PGNError
from ..core.game import OVER_THE_BOARD, Game, Node
from ..core.message import Message
from ..core.move import CASTLING, IN_PLACE_PROMOTION
from ..core.notation import normalise_typed
from ..core.pieces import LETTERS, Colour, PieceType
from ..data.store import GameStore, NoStore, StoreError
from ..i18n import _
from .actions import press
from .feedback import Choice, Confirm, Feedback, Notice, Option, Redraw, Tone
from .highlights import Overlays, move_hexes
from .local_game import LocalGame
from .players import (
    PLAYERS_OPTION,
    TWO_PEOPLE,
    Players,
    human_side,
    play_tags,
    players_from,
    players_option,
)
from .port import GamePort
from .selection import Picker, PickKind
from .terms import capitalised, piece_name, piece_words, say, side
from .variations import VariationStack
from .words import half_moves, king_move_label, promotion_label, tolerated, when

if TYPE_CHECKING:
    from ..data.autosave import SavedGame


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

    ``port`` is where the game is played (default: here, a
    :class:`~cescacs_tui.session.local_game.LocalGame`); ``store`` keeps it
    between runs (default: nowhere); ``options`` are the front end's own
    settings saved with the game (the app keeps the board's orientation
    there, the session the players).
    """

    def __init__(
        self,
        game: Game | None = None,
        *,
        store: GameStore | None = None,
        port: GamePort | None = None,
        how: Callable[[str], str] = press,
    ) -> None:
        self.game = game or Game.new()
        """The game on the table (of a game held elsewhere, the copy its port keeps up to date)."""
        self.store: GameStore = store or NoStore()
        self.port: GamePort = port or LocalGame()
        self.how = how
        """How this front end does an action, for the hints in messages ("}" in the app, "live" typed in plain mode)."""
        self.options: dict[str, Any] = {}
        self.variations = VariationStack()
        """The record's variations being followed; the innermost is :attr:`shown`."""
        self.overlays = Overlays()
        self.preview: tuple[int, ...] = ()
        """The hexes of a move about to be played (typed, or highlighted in a choice), marked on the board."""
        self.offered_with: Node | None = None
        """The half-move a draw was last offered with: one offer per move, even once declined."""
        self._picker: Picker | None = None
        self._picker_key: tuple[int, tuple[Move, ...]] | None = None
        self._hinted: tuple[tuple[Move, ...], Move] | None = None
        """The move the last hint showed, with the moves of the game it was given after (:meth:`play_hint`)."""
        self._picked: dict[Colour, tuple[int, int]] = {}
        """Per side, the hex of the piece it last picked and the half-move it picked it at (:meth:`turn_cursor`)."""
        self.away = False
        """Whether another screen covers the game (:meth:`step_away`)."""
        self._paused_away: ChessClock | None = None
        """The clock :meth:`step_away` paused, for :meth:`come_back` to resume (not one the player paused)."""
        self.port.attach(self)

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
    def players(self) -> Players:
        """Who plays White and Black: people, or the computer at a level (kept in :attr:`options`, so saved)."""
        return players_from(self.options)

    @players.setter
    def players(self, players: Players) -> None:
        self.options[PLAYERS_OPTION] = players_option(players)
        self._tag_players()

    def _tag_players(self) -> None:
        """A game against the computer says so in its record: ``Mode``, ``WhiteType``, ``BlackType``."""
        players = self.players
        if any(player.is_computer for player in players):
            self.game.tags.update(play_tags(OVER_THE_BOARD, players))

    @property
    def against_computer(self) -> bool:
        """Whether one side is a person and the other the computer."""
        return human_side(self.players) is not None

    @property
    def computer_to_move(self) -> bool:
        """Whether the computer is to move at the live end of the game (the front end then asks it to)."""
        game = self.game
        return not game.is_over and self.players[game.position.turn].is_computer

    @property
    def watching(self) -> bool:
        """Whether the person only watches (a watcher of a game held elsewhere): a game played here never is."""
        return self.port.watching

    def turn_cursor(self) -> int | None:
        """Where the cursor of the side to move starts its turn in the hot seat; ``None`` in other games.

        Each side finds the cursor where it left it: on the piece it last
        picked, if it has picked one since its last move (a takeback brings
        back the piece it had moved), else on the piece it moved last (where
        that move went), else on its King.  The opponent's last move, where
        one cursor shared by both would be, is rarely where the next move starts.
        """
        if not self.port.hot_seat:
            return None
        game = self.game
        position = game.position
        side = position.turn
        last = game.ply - 2  # the side to move's own last half-move (the sides alternate)
        picked = self._picked.get(side)
        if picked is not None and last < picked[1] <= game.ply:
            return picked[0]
        if last >= 0:
            return game.nodes[last].move.target
        return position.king(side)

    def blocked(self) -> str | None:
        """Why no move can be played now, or ``None`` when one can: the one rule every move command follows."""
        return self.port.blocked()

    def refusal(self, action: str) -> str | None:
        """Why the action named ``action`` (see :data:`~cescacs_tui.session.actions.ACTIONS`) cannot act now."""
        return self.port.refusal(action)

    def available(self, action: str) -> bool:
        return self.refusal(action) is None

    def replace_game(self, game: Game) -> None:
        """Put ``game`` on the table in place of the one there: the selection, the preview and the variations
        followed belonged to that one (the port that replaces it has kept what must be kept)."""
        self.game = game
        self.variations.clear()
        self._picker = None
        self._picked.clear()
        self._tag_players()
        self.preview = ()

    # --- playing: the port plays ----------------------------------------------------------------

    def play(self, move: Move, *, offer_draw: bool = False) -> Feedback:
        """Play ``move`` in the live position (with a draw offer, ``offer_draw``)."""
        return self.port.play(move, offer_draw=offer_draw)

    def play_computer(self, move: Move) -> Feedback:
        """Play the computer's ``move`` at the live end, while the player may be reviewing an earlier one (or be
        away: the move starts the player's clock, which then waits for them, paused, as the computer's did)."""
        feedback = self.port.play_computer(move)
        clock = self.game.clock
        if self.away and clock is not None and clock is self._paused_away and clock.running is not None:
            self.port.pause_clock()
        return feedback

    def show_hint(self, position_moves: tuple[Move, ...], move: Move) -> None:
        """Mark the engine's hint ``move`` on the board; :meth:`play_hint` plays it while the game is still at
        ``position_moves`` (the moves of the live line it was given after)."""
        self._hinted = (position_moves, move)

    @property
    def hinted(self) -> Move | None:
        """The hint on the board, if it can be played: given for the live position, which is shown."""
        if self._hinted is None or self.variations or not self.game.is_live:
            return None
        moves, move = self._hinted
        return move if moves == tuple(self.game.moves) else None

    def play_hint(self) -> Feedback:
        """Play the move the hint shows (one key instead of picking it on the board)."""
        if (reason := self.refusal("play_hint")) is not None:
            return Feedback.refused(reason)
        move = self.hinted
        assert move is not None  # no refusal
        return self.play(move)

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
        """Put the cursor on hex ``h``, selecting the piece there if it is the mover's; a target of the piece
        selected is played instead (its hex typed after the piece's)."""
        name = HEX_NAMES[h]
        piece = self.shown.reviewed_position().piece_at(h)
        picker = self.selection
        if picker is not None and picker.selected is not None and h in picker.targets():
            played = self.pick(h)  # the target of the piece picked (typed as a hex too): played at once
            return played if played.question is None else replace(played, done=True)  # or asked which way
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
            self._picked[piece.colour] = (h, self.game.ply)
            said = _("{piece} on {hex}: pick its target (Esc cancels)").format(
                piece=piece_name(piece.type), hex=HEX_NAMES[h]
            )
            return Feedback(said, redraw=Redraw.BOARD)
        return Feedback("", redraw=Redraw.BOARD)

    def pick_kind(self, kind: PieceType, order: Callable[[Iterable[int]], Sequence[int]]) -> Feedback:
        """Pick the next piece of ``kind`` of the side to move that can move (a piece's letter on the board).

        ``order`` is the front end's order of hexes (the app's: as the eye
        reads the board drawn); the next is the one after the piece selected,
        wrapping, or the first when no piece of ``kind`` is selected.  Pieces
        that cannot move are skipped; with none left, it says so.
        """
        if (reason := self.blocked()) is not None:
            return Feedback.refused(reason)
        picker = self.selection
        assert picker is not None  # not blocked
        position = self.game.position
        mine = order(h for h, piece in position.pieces(position.turn) if piece.type == kind and picker.moves_from(h))
        if not mine:
            said = _("{side} has no {piece} that can move").format(side=side(position.turn), piece=piece_name(kind))
            return Feedback.refused(capitalised(said))
        selected = picker.selected
        chosen = mine[(mine.index(selected) + 1) % len(mine)] if selected in mine else mine[0]
        if chosen == selected:  # the only one, already picked: picking it again would drop it
            return Feedback("", redraw=Redraw.BOARD)
        return self.pick(chosen)

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
        return self.port.takeback()

    def redo(self) -> Feedback:
        """Replay a taken-back half-move; against the computer, its reply too (it need not think again)."""
        return self.port.redo()

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

    # --- ending a game: the port decides ------------------------------------------------------

    def resign(self) -> Feedback:
        """Resign, once confirmed (No is the safe answer)."""
        return self.port.resign()

    def offer_draw(self) -> Feedback:
        """The player who has just moved offers a draw."""
        return self.port.offer_draw()

    def claim_draw(self) -> Feedback:
        return self.port.claim_draw()

    def check_time(self) -> Feedback:
        """Notice a flag fall (the front end's clock display asks when it sees a time run out)."""
        return self.port.check_time()

    def pause_clock(self) -> Feedback:
        return self.port.pause_clock()

    def step_away(self) -> Feedback:
        """Another screen covers the game (the review, the puzzles, the lessons) until :meth:`come_back`.

        A player who leaves the board to study expects the game to wait: a running clock that can be paused (a game
        against the computer, or two people at one board) is paused meanwhile, as the player's pause key would, and
        resumed on return (a clock the player had paused stays paused).  A clock that cannot pause (a game played
        from two places, a server's game: the clock is the other end's) keeps running, and the feedback says so.
        """
        self.away = True
        clock = self.game.clock
        if clock is None or clock.running is None or self.game.is_over:
            return Feedback()
        if (reason := self.refusal("pause_clock")) is not None:
            return Feedback(_("the game's clock keeps running meanwhile: {reason}").format(reason=reason), Tone.INFO)
        self.port.pause_clock()
        self._paused_away = clock if clock.paused else None
        return Feedback()

    def come_back(self) -> Feedback:
        """The game is in view again (see :meth:`step_away`): the clock paused for the player's absence runs again."""
        self.away = False
        clock, self._paused_away = self._paused_away, None
        if clock is None or clock is not self.game.clock or not clock.paused or self.game.is_over:
            return Feedback()
        self.port.pause_clock()  # the pause key's toggle: the clock resumes, and the game is saved
        return Feedback(redraw=Redraw.PANELS)

    # --- whole games ------------------------------------------------------------------

    def start_game(self, game: Game, *, said: str | None = None, players: Players | None = None) -> Feedback:
        """Put ``game`` on the table (a new one, a record opened, a resumed one), played by ``players``.

        ``players=None`` keeps the players of :attr:`options` (a resumed game's).
        An unfinished game that was on the table is archived first: no game is
        dropped without a copy.
        """
        return self.port.start_game(game, said=said, players=players)

    def request_new_game(self) -> Feedback | None:
        """The players want a new game: ``None`` when it is made here (the front end asks for its options, then
        :meth:`start_game`), else what asking for it did (the other player of a game held elsewhere is asked)."""
        return self.port.request_new_game()

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
                kept = self.store.keep(game)
            except StoreError as error:
                return Feedback.refused(say(error.explanation))
            self.save()
            said = _("new game; the unfinished one was kept in {path}").format(path=kept) if kept else _("new game")
            return Feedback(said, Tone.INFO)

        prompt = _("An unfinished game was found ({moves}, {side} to move). Resume it?").format(
            moves=half_moves(game.ply), side=side(game.position.turn)
        )
        return Feedback(question=Confirm(prompt, answer, yes=_("Resume"), no=_("New game"), default=True))

    def offer_separate_game(self) -> Feedback | None:
        """The store's autosave is open in another cescacs: play a separate game here, or wait to take that one over.

        ``None`` when it is not.  Until one is chosen nothing is saved, so
        neither process can write over the other's game.
        """
        holder = self.store.held_elsewhere
        if holder is None:
            return None
        who = say(holder)

        def answer(separate: bool) -> Feedback:
            if not separate:
                self.store.wait()
                said = _("waiting for {who} to close its game; what is played here meanwhile is kept apart").format(
                    who=who
                )
                return Feedback(said, Tone.INFO)
            try:
                name = self.store.separate(self.game, self.options)
            except StoreError as error:
                return Feedback.refused(say(error.explanation))
            return Feedback(_("a separate game, saved as {name}").format(name=name), Tone.INFO, Redraw.PANELS)

        prompt = _(
            "The saved game is open in another cescacs ({who}). Play a separate game here, saved under its own name?"
        ).format(who=who)
        question = Confirm(prompt, answer, yes=_("Separate game"), no=_("Wait and take over"), default=True)
        return Feedback(question=question)

    def try_take_over(self) -> Feedback | None:
        """While the store waits for another cescacs: own its autosave once it has exited, and offer its game.

        ``None`` while the other process still has it, or when nothing is awaited (the front end asks again a
        moment later).
        """
        taken = self.store.take_over(self.game, self.options)
        if taken is None:
            return None
        if taken.saved is None:
            said = _("the other cescacs has closed: this game is saved from now on")
            return Feedback(said, Tone.INFO, Redraw.PANELS)
        return self.offer_resume(taken.saved)

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
        return self.start_game(game, said=said, players=TWO_PEOPLE)  # a record is reviewed, or played on, by people

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

    # --- keeping the game: the store's ----------------------------------------------------------------

    @property
    def save_problem(self) -> str | None:
        """Why the game is not kept as it should be (the last save failed); ``None`` once a save succeeds.  Front
        ends keep it in view."""
        problem = self.store.problem
        return None if problem is None else say(problem)

    @property
    def notices(self) -> list[Message]:
        """What the store did besides saving (a file kept aside...): front ends show them, then clear the list."""
        return self.store.notices

    @property
    def waiting(self) -> bool:
        """Whether the store waits to take over the game another cescacs has open (see :meth:`try_take_over`)."""
        return self.store.waiting

    def save(self) -> Path | None:
        """Keep the game as it is now (a game that ended goes to the archive: returns where).  The front end calls
        this when it quits, and while a clock runs; every change of the game is kept at once."""
        return self.store.save(self.game, self.options)

    def close(self) -> None:
        """The front end quits: keep the game and let another process own its storage."""
        self.store.close(self.game, self.options)

    def save_running_clock(self) -> None:
        """Save while a clock runs, so a crash in mid-thought keeps the clock times too."""
        clock = self.game.clock
        if clock is not None and clock.running is not None and not self.game.is_over:
            self.save()

    def keep_unfinished(self) -> Path | None:
        """Archive the game on the table if it is unfinished and has moves (it is about to be replaced)."""
        game = self.game
        if not game.nodes or game.is_over:
            return None
        try:
            return self.store.keep(game)
        except StoreError:  # the store's problem says why; the new game is put on the table all the same
            return None


def _hex_named(text: str) -> int | None:
    """The hex a typed text names (``f14``, ``F14``), or ``None`` if it is not a hex name."""
    return find_hex(text.strip().upper())
