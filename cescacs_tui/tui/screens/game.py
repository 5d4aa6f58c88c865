"""The game screen: the board, the side panels and the move box around one :class:`GameSession`.

The screen turns what the widgets report (a hex picked, a move typed, a ply
chosen in the list) into session commands, and shows the
:class:`~cescacs_tui.session.Feedback` each returns: the message, the
question to ask, what to redraw.  It decides nothing about the game itself.
Its key bindings, footer and command palette entries are generated from the
session's action table (:data:`~cescacs_tui.session.ACTIONS`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from ...core import HEX_NAMES, Colour
from ...core.pieces import PieceType
from ...i18n import LANGUAGES, _, language, ngettext, set_language
from ...session import ACTIONS, Choice, Confirm, Feedback, GameSession, Question, Redraw, Scope, Tone
from ...session.actions import PICKS, keys_label, keys_of, press
from ...session.highlights import last_move_hexes
from ...session.opponent import Analysis, Asked, Opponent
from ...session.policy import Need, Policy, Route
from ...session.terms import piece_words, say
from ..board_layout import LAYOUT_CHOICES, PIECE_SETS, LayoutChoice, PieceSet, reading_order
from ..dialogs.questions import ChoiceDialog, ConfirmDialog, TextDialog, question_above
from ..keymap import keymap
from ..translated import TranslatedBindings, retranslate
from ..view import board_view
from ..widgets.board import HexBoard
from ..widgets.lazy_line import LazyLine, MountLater
from ..widgets.message_line import MessageLine
from .narrow_layout import BREAKPOINTS, NARROW_CSS, start_at_the_apps_width

if TYPE_CHECKING:
    from ...core.game import Game
    from ...data.records import OpenedRecord  # the records module (and the PGN code) load when a record is opened
    from ...learn.review import Review
    from ..widgets.clock_panel import ClockPanel
    from ..widgets.move_entry import MoveEntry
    from ..widgets.move_list import MoveList
    from ..widgets.side_panel import SidePanel
    from .review import ReviewJob

_R = TypeVar("_R")
_W = TypeVar("_W", bound=Widget)

CLOCK_SAVE_SECONDS = 10.0
"""How often the game is saved while a clock runs (moves are saved at once)."""


PRIORITY_ACTIONS = frozenset({"focus_input"})
"""Actions whose keys run while Textual routes them, before the keys after them: the move box's ``/`` and ``:``
move the focus so that the rest of a burst (``/E7-E13⏎`` in one read) follows it (:mod:`..widgets.move_entry`)."""


def table_bindings() -> list[BindingType]:
    """One binding per action with keys, each running :meth:`GameScreen.action_perform`."""
    return [
        Binding(
            action.keys,
            f"perform('{action.name}')",
            action.label,
            show=action.footer,
            id=action.name,
            priority=action.name in PRIORITY_ACTIONS,
        )
        for action in ACTIONS.values()
        if action.keys
    ]


TAKE_OVER_SECONDS = 1.0
"""How often a screen waiting to take over the autosave of another cescacs asks whether it has exited."""


@dataclass
class BoardOptions:
    """How the board looks and turns: the player's settings the screen applies.

    ``wide_glyphs`` are the FAN glyphs this terminal was measured to draw
    wider than a cell (the board shows letters for them); ``keys`` are the
    player's own keys (:mod:`~cescacs_tui.tui.keymap`), ``vim_keys`` adds the vim keys under them.
    """

    piece_set: PieceSet = "letters"
    layout: LayoutChoice = "auto"
    auto_flip: bool = False
    vim_keys: bool = False
    wide_glyphs: frozenset[str] = frozenset()
    keys: Mapping[str, str] = field(default_factory=dict)
    bell: bool = False
    """Ring the terminal's bell when the opponent (the computer, a player elsewhere) has moved."""


class GameScreen(TranslatedBindings, Screen[None]):
    """C'escacs on a 169-hex board, for the players at this terminal."""

    DEFAULT_CSS = """
    #main { height: 1fr; }
    #board { height: 100%; }
    #side { width: 1fr; min-width: 28; border-left: solid $border-blurred; }
    #status { border-bottom: solid $border-blurred; }
    #material { border-top: solid $border-blurred; }
    """
    DEFAULT_CSS += NARROW_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = table_bindings()

    class NewGameWanted(Message):
        """The player wants a new game: the app asks for its options (they are the app's settings)."""

    class OptionsChanged(Message):
        """The player changed how the board looks; the app keeps it in the settings."""

        def __init__(self, options: BoardOptions) -> None:
            super().__init__()
            self.options = options

    def __init__(
        self,
        session: GameSession,
        *,
        options: BoardOptions | None = None,
        start: Feedback | None = None,
        opponent: Opponent | None = None,
        policy: Policy | None = None,
        reviewer: Callable[[], ReviewJob] | None = None,
    ):
        super().__init__()
        start_at_the_apps_width(self)
        self.reviewer = reviewer
        """Makes the analysis of a review (``r``): the app's gives the engine of the settings, for the settings' time
        per position (``None``: this package's engine, half a second a position)."""
        self.session = session
        self.policy = policy or Policy()
        """What the person at the keyboard may do with this machine (the launch decided it: the owner by default)."""
        self.options = options or BoardOptions()
        self.keys: Mapping[str, str] = {}
        """The keymap in use (:meth:`apply_keys`): binding ids to keys."""
        self.start = start
        self.opponent = opponent or Opponent(session)
        """The engine: the computer's moves, hints, the analysis (started the first time one is wanted)."""
        self._own_opponent = opponent is None
        self.analysis_on = False
        """Whether the live analysis panel is shown (``A``)."""
        self._thinking_for: Asked | None = None
        """The position the computer is thinking about, while it is (its worker runs)."""
        self._footer_state: tuple[bool, ...] = ()
        self._turn_shown: Colour | None = None
        self._ply_shown: int | None = None
        self._layout_said: tuple[str, str | None] | None = None
        """The layout the last ``L`` press announced: its own :class:`HexBoard.LayoutChanged` says nothing new."""
        self._side: SidePanel | None = None
        """The side column, from when it says it is mounted (after the first paint).  Held, not looked for: a query
        walks the whole screen, and a move redraws seven panels (reached through :func:`_while_attached`)."""
        self._entry: MoveEntry | None = None
        """The move row, from when it says it is mounted (after the first paint), held as the side column is."""
        self._resumed = False
        """Whether the screen has been shown once (:meth:`_keep_the_mounted_styles`)."""
        self.board = HexBoard(id="board", piece_set=self.options.piece_set, layout=self.options.layout)
        """The board, made here and held: it answers before it is mounted and after the app has begun to quit."""
        self.message = MessageLine(id="message")
        """The message line, held like the board.  The other panels are mounted after the first paint and are
        reached only through queries that find nothing before (or after) they are there (:meth:`_panel`)."""

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            yield MountLater(_make_side_panel)
        yield LazyLine(_make_move_entry)
        yield self.message
        yield LazyLine(_make_footer)

    def on_mount(self) -> None:
        game = self.session.game
        board = self.board
        self.apply_keys()
        board.wide_glyphs = self.options.wide_glyphs
        board.cursor = game.position.king(game.position.turn)
        self.set_focus(board)  # now: Widget.focus would run after queued keys, taking the focus back from a "/"
        self.refresh_game()
        self.set_interval(CLOCK_SAVE_SECONDS, self.session.save_running_clock)
        self.set_interval(TAKE_OVER_SECONDS, self._try_take_over)
        if self.start is not None:
            self.apply(self.start)
        else:
            self.follow_engine()

    @on(events.ScreenResume)
    def _keep_the_mounted_styles(self, event: events.ScreenResume) -> None:
        """Skip Textual's restyle of the whole screen when it is first shown: its widgets were styled as they mounted.

        Textual restyles a screen each time it resumes, in case the styles
        changed while it was hidden; the first time, right after the mount,
        that styles every widget again (the board's component classes too),
        some 3 ms before the first frame (benchmarks/README.md).  A class,
        focus or theme change still restyles what it affects, and every later
        resume restyles as Textual decides.
        """
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    @on(events.Unmount)
    async def _close_own_engine(self) -> None:
        if self._own_opponent:  # the app closes the one it gave; a screen that made its own closes it
            await self.opponent.close()

    def _try_take_over(self) -> None:
        if self.session.waiting and (feedback := self.session.try_take_over()) is not None:
            self.apply(feedback)

    def on_side_panel_ready(self, event: SidePanel.Ready) -> None:
        self._side = event.panel
        event.panel.show_analysis_panel(self.analysis_on)
        self.refresh_game()
        self._show_thinking()

    # --- the engine: the computer's turn, the analysis ---------------------------------------

    def follow_engine(self) -> None:
        """After any change: stop a search the game has left behind, start the computer's turn, refresh the analysis.

        A takeback, a new game or a flag fall while the computer thinks
        cancels its worker, which stops the engine's search; an answer that
        still arrives is checked against the position and dropped.
        """
        session = self.session
        thinking = self._thinking_for
        if thinking is not None and not (session.computer_to_move and thinking.still(session.game)):
            self.workers.cancel_group(self, "computer")
            self._thinking_for = None
        if self._thinking_for is None and session.computer_to_move:
            self._thinking_for = Asked.of(session.game)
            self.run_worker(self._computer_turn(self._thinking_for), group="computer", exclusive=True)
        self._show_thinking()
        if not self.analysis_on:
            return
        side = _while_attached(self._side)
        if self._thinking_for is not None:  # its own search replaces the analysis until it has moved
            if side is not None:
                side.show_analysis_waiting(_("the analysis resumes after the computer's move"))
        elif self.opponent.analysis_stale():
            if side is not None:
                side.show_analysis_waiting()
            self.run_worker(self._analyse(), group="analysis", exclusive=True)

    async def _computer_turn(self, asked: Asked) -> None:
        try:
            feedback = await self.opponent.play_turn()
        finally:
            if self._thinking_for is asked:
                self._thinking_for = None
        self.apply(feedback)

    async def _analyse(self) -> None:
        self.apply(await self.opponent.analyse(self._show_analysis))

    def _show_analysis(self, analysis: Analysis) -> None:
        if self.analysis_on and (side := _while_attached(self._side)) is not None:
            side.show_analysis(analysis)

    def _show_thinking(self) -> None:
        if (side := _while_attached(self._side)) is not None:
            side.show_thinking(self._thinking_for is not None)

    def action_hint(self) -> None:
        """``h``: the engine's best move in the position shown, marked on the board (not played), with its score."""
        self.message.say(_("the engine is looking for a hint…"), Tone.PLAIN)
        self.run_worker(self._hint(), group="analysis", exclusive=True)

    async def _hint(self) -> None:
        self.apply(await self.opponent.hint())

    def action_analysis(self) -> None:
        """``A``: show the live analysis of the position shown (it follows the review), or hide and stop it."""
        self.analysis_on = not self.analysis_on
        if (side := _while_attached(self._side)) is not None:
            side.show_analysis_panel(self.analysis_on)
        if self.analysis_on:
            self.apply(Feedback(_("analysis on: {key} hides it").format(key=self.session.how("analysis"))))
        else:
            self.workers.cancel_group(self, "analysis")
            self.run_worker(self.opponent.stop(), group="analysis")
            self.apply(Feedback(_("analysis off")))

    def on_move_entry_ready(self, event: MoveEntry.Ready) -> None:
        self._entry = event.entry
        self._show_cursor_hex(self.board.cursor)

    # --- showing the session ---------------------------------------------------------------

    def apply(self, feedback: Feedback) -> None:
        """Show what a session command said, redraw what it changed, ask what it asks."""
        if feedback.text is not None:
            self.message.say(self.policy.hide_paths(feedback.text), feedback.tone)
        if feedback.cursor is not None:
            self.board.cursor = feedback.cursor
        if feedback.new_game:
            self.board.forget_cursors()
        if feedback.redraw:
            self.refresh_game(board_only=feedback.redraw == Redraw.BOARD)
        if feedback.notice is not None:
            self.notify(feedback.notice.text, title=feedback.notice.title, timeout=8, markup=False)
        for notice in self.session.notices:  # what the autosave did besides: a file kept aside, a game archived
            self.notify(say(notice), title=_("Saved games"), timeout=12, markup=False)
        self.session.notices.clear()
        if feedback.question is not None:
            self.ask(feedback.question)
        self.follow_engine()

    def cover(self, screen: Screen[_R], closed: Callable[[_R | None], None] | None = None) -> None:
        """Show ``screen`` (the review, the puzzles, the lessons) over the game, which waits meanwhile: the session
        steps away (a clock that can pause pauses; one that cannot is said to keep running) and comes back when
        ``screen`` is dismissed, before ``closed`` hears its result."""
        said = self.session.step_away()
        if said.text is not None:
            self.notify(said.text, severity="warning", timeout=10, markup=False)

        def back(result: _R | None) -> None:
            self.apply(self.session.come_back())
            if closed is not None:
                closed(result)

        self.app.push_screen(screen, back)

    def ask(self, question: Question) -> None:
        if isinstance(question, Confirm):
            dialog = ConfirmDialog(question.prompt, yes=question.yes, no=question.no, default=question.default)
            self.app.push_screen(dialog, lambda yes: self.apply(question.answer(bool(yes))))
        else:
            self._ask_choice(question)

    def _ask_choice(self, choice: Choice) -> None:
        preview = choice.preview
        options = [(option.key, option.label, option.value) for option in choice.options]
        dialog = ChoiceDialog(
            choice.prompt, options, on_preview=None if preview is None else (lambda move: self.apply(preview(move)))
        )
        self.app.push_screen(dialog, lambda move: self.apply(choice.answer(move)))

    def refresh_game(self, *, board_only: bool = False) -> None:
        """Redraw the board and (unless ``board_only``) the panels from the session; only changed hexes repaint."""
        session = self.session
        shown = session.shown
        self._follow_turn()
        self.board.flipped = bool(session.options.get("flipped", False))
        self.board.show(
            board_view(
                shown.reviewed_position(),
                picker=session.selection,
                last_move=last_move_hexes(shown),
                preview=session.preview,
                overlays=session.overlays,
            )
        )
        self._show_cursor_hex(self.board.cursor)  # the piece under it may have gone (a capture, a takeback, a review)
        if board_only:
            return
        if (side := _while_attached(self._side)) is not None:  # it shows the game when it arrives (SidePanel.Ready)
            game = session.game
            problem = session.save_problem
            side.show_game(
                shown,
                clock=game.clock,
                names=(game.tags.get("White", "?"), game.tags.get("Black", "?")),
                flipped=self.board.flipped,
                variation=None if session.variations.top is None else session.variations.top.describe(),
                warning=None if problem is None else self.policy.hide_paths(problem),
            )
        self._refresh_footer()

    def _follow_turn(self) -> None:
        """Whenever the turn changes: in the hot seat, the cursor goes where the side to move left its own (the
        session says where); with auto-flip on, the board turns to that side (with that side's cursor)."""
        session = self.session
        position = session.game.position
        turn = position.turn
        ply, self._ply_shown = self._ply_shown, session.game.ply
        if turn != self._turn_shown:
            self._turn_shown = turn
            moved = ply is not None and session.game.ply > ply  # a move, not a takeback, a new game or the start
            if moved and self.options.bell and not session.port.plays_here(turn.opponent):
                self.app.bell()  # the computer or a player elsewhere has moved
            if self.options.auto_flip:
                session.options["flipped"] = turn == Colour.BLACK
                self.board.switch_cursor(turn, default=position.king(turn))
            if (cursor := session.turn_cursor()) is not None:
                self.board.cursor = cursor

    def _refresh_footer(self) -> None:
        """Re-read the bindings only when an action shown only while possible changed.

        Rebuilding the footer costs frames, and Textual keeps the old footer
        keys alive, so doing it after every move would slow the app down as
        the game goes on.
        """
        state = tuple(self.session.available(a.name) for a in ACTIONS.values() if a.only_when_possible)
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()

    # --- actions: the table's ------------------------------------------------------------

    def refusal(self, name: str) -> str | None:
        """Why the table's action ``name`` cannot act now: what this person may not do with this machine (the
        policy), else what the game does not allow now (the session)."""
        watching = self.session.watching
        return self.policy.refusal(ACTIONS[name], watching=watching) or self.session.refusal(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the actions shown only while they can act (their keys still explain themselves)."""
        if action == "perform" and parameters:
            entry = ACTIONS[str(parameters[0])]
            return not (entry.only_when_possible and self.refusal(entry.name) is not None)
        return True

    def on_key(self, event: events.Key) -> None:
        """A key of a hidden action (see :meth:`check_action`) says why it cannot act, instead of nothing.

        A key routed here before a question covered the screen is the question's to refuse (it came too soon).
        """
        if (question := question_above(self)) is not None:
            event.stop()
            event.prevent_default()
            question.too_soon()
            return
        for action in ACTIONS.values():
            if action.only_when_possible and event.key in action.keys.split(","):
                if (reason := self.refusal(action.name)) is not None:
                    event.stop()
                    self.apply(Feedback.refused(reason))
                return

    def action_perform(self, name: str) -> Awaitable[None] | None:
        """Run the table's action ``name``, or say why it cannot act now.

        A screen action may be a coroutine (the move box's, which waits for the
        row in the first frames): it is returned, and Textual awaits it.
        """
        action = ACTIONS[name]
        if (reason := self.refusal(name)) is not None:
            self.apply(Feedback.refused(reason))
        elif action.scope is Scope.SESSION:
            self.apply(getattr(self.session, name)())
        elif name in PICKS:
            self.pick_piece(PICKS[name])
        else:
            done: Awaitable[None] | None = getattr(self, f"action_{name}")()
            return done
        return None

    def table_commands(self) -> Iterable[SystemCommand]:
        """The command palette's entries: every action of the table, with its keys."""
        for action in ACTIONS.values():
            keys = f" ({keys_label(shown)})" if (shown := keys_of(action.name, self.keys)) else ""
            yield SystemCommand(
                _(action.title), _(action.help) + keys, lambda name=action.name: self.action_perform(name)
            )

    # --- actions: the screen's own ---------------------------------------------------------

    def action_help(self) -> None:
        from ..dialogs.help import help_text  # it reads the side panel's modules: loaded when asked, not at start

        self.app.push_screen(TextDialog(_("C'escacs — keys and move notation"), help_text(self.keys)))

    async def action_focus_input(self) -> None:
        """``/`` or ``:``: the move box has the focus before the next key is routed (:mod:`..widgets.move_entry`)."""
        from ..widgets.move_entry import focus_move_box  # loaded with the move row, after the first frame

        await focus_move_box(self)

    def pick_piece(self, kind: PieceType) -> None:
        """A piece's letter: its next piece of that kind that can move is picked, as the board is read, and the
        board has the cursor on it and the focus, for the target's number."""
        board = self.board
        feedback = self.session.pick_kind(kind, lambda hexes: reading_order(hexes, flipped=board.flipped))
        picker = self.session.selection
        if feedback.tone is not Tone.ERROR and picker is not None and picker.selected is not None:
            board.cursor = picker.selected
            self.set_focus(board)
        self.apply(feedback)

    def action_flip(self) -> None:
        flipped = not self.session.options.get("flipped", False)
        self.session.options["flipped"] = flipped
        said = _("Black at the bottom") if flipped else _("White at the bottom")
        self.apply(Feedback(said, redraw=Redraw.GAME))

    def action_piece_set(self) -> None:
        self.options.piece_set = PIECE_SETS[(PIECE_SETS.index(self.options.piece_set) + 1) % len(PIECE_SETS)]
        self.board.piece_set = self.options.piece_set
        self.post_message(self.OptionsChanged(self.options))
        self.apply(Feedback(_("pieces: {set}").format(set=self.options.piece_set)))

    def action_board_layout(self) -> None:
        self.options.layout = LAYOUT_CHOICES[(LAYOUT_CHOICES.index(self.options.layout) + 1) % len(LAYOUT_CHOICES)]
        board = self.board
        board.layout_mode = self.options.layout
        self.post_message(self.OptionsChanged(self.options))
        self._layout_said = (board.mode, board.layout_note)
        self.apply(
            Feedback(_("board layout: {choice} ({mode} now)").format(choice=self.options.layout, mode=board.mode))
        )

    def apply_keys(self) -> None:
        """The player's keys (and the vim keys when on) on the app's bindings and in every word that names a key."""
        self.keys = keymap(vim_keys=self.options.vim_keys, keys=self.options.keys)
        self.app.set_keymap(self.keys)
        self.session.how = partial(press, keymap=self.keys)

    def action_vim_keys(self) -> None:
        self.options.vim_keys = not self.options.vim_keys
        self.apply_keys()
        self.post_message(self.OptionsChanged(self.options))
        if self.options.vim_keys:
            said = _("vim keys on: h j k l and y u b n move the cursor on the board")
        else:
            said = _("vim keys off")
        self.apply(Feedback(said))

    def action_auto_flip(self) -> None:
        self.options.auto_flip = not self.options.auto_flip
        self.post_message(self.OptionsChanged(self.options))
        if self.options.auto_flip:
            turn = self.session.game.position.turn
            self.session.options["flipped"] = turn == Colour.BLACK
            self.board.switch_cursor(turn, default=self.board.cursor)  # the cursor now is the mover's own
        said = _("auto-flip after each move: on") if self.options.auto_flip else _("auto-flip after each move: off")
        self.apply(Feedback(said, redraw=Redraw.GAME))

    def action_bell(self) -> None:
        self.options.bell = not self.options.bell
        self.post_message(self.OptionsChanged(self.options))
        said = _("bell on the opponent's moves: on") if self.options.bell else _("bell on the opponent's moves: off")
        self.apply(Feedback(said))

    def action_next_theme(self) -> None:
        from ..themes import THEMES

        names = list(THEMES)
        current = names.index(self.app.theme) if self.app.theme in names else -1
        self.app.theme = names[(current + 1) % len(names)]
        self.apply(Feedback(_("theme: {name}").format(name=self.app.theme)))

    def action_new_game(self) -> None:
        """Ask for the players, the clock and the options, then start (after confirming an abandon); of a game
        held elsewhere, a new one is asked of the other player (the session's port does it)."""
        if (asked := self.session.request_new_game()) is not None:
            self.apply(asked)
            return
        game = self.session.game

        def ask(yes: bool = True) -> Feedback:
            if yes:
                self.app.post_message(self.NewGameWanted())
            return Feedback()

        if game.nodes and not game.is_over:
            self.ask(Confirm(_("Abandon this game and start a new one? (It is kept in the archive.)"), ask))
        else:
            ask()

    def action_copy_pgn(self) -> None:
        """Copy the game as CTL-PGN (OSC 52 for the terminal, and this machine's clipboard if it is the person's)."""
        self._copy(self.session.record_text(), _("Game record copied"))

    def action_copy_pdtl(self) -> None:
        """Copy the position on the board (the reviewed one) as PDTL."""
        self._copy(self.session.position_text(), _("Position copied"))

    def _copy(self, text: str, what: str) -> None:
        from ..clipboard import copy_text

        system = self.policy.decide(Need.CLIPBOARD).route is Route.TERMINAL_AND_SYSTEM
        self.apply(Feedback(copy_text(self.app, text, system=system).describe(what)))

    def action_explain(self) -> None:
        """``w``: what the position shown says, in words (:mod:`~cescacs_tui.session.explain`), as plain text a
        screen reader reads like the plain mode's ``explain``."""
        from ...session.explain import explain

        body = Text("\n".join(explain(self.session.shown)))
        self.app.push_screen(TextDialog(_("The position in words"), body))

    def action_lessons(self) -> None:
        """The lessons over the game (Esc comes back); the progress kept where the policy says."""
        from ...data.progress import progress_store
        from .lessons import LessonScreen

        self.cover(LessonScreen(progress_store(self.policy.progress_path())))

    def action_view_record(self) -> None:
        """Show the record as text, to select and copy by hand where no clipboard works."""
        body = Text(self.session.record_text())
        body.append("\n" + _("PDTL of the position shown:") + "\n", style="bold")
        body.append(self.session.position_text())
        hint = _("Select with the mouse to copy; Esc closes")
        self.app.push_screen(TextDialog(_("Game record (CTL-PGN)"), body, hint=hint))

    def action_save(self) -> None:
        """Ctrl+S: the record to a file the owner names; to a visitor's browser as a download, or to an SSH
        visitor's terminal by OSC 52 (never to a file of the server)."""
        route = self.policy.decide(Need.RECORD_OUT).route
        if route is Route.DOWNLOAD:
            from ..browser_records import deliver_record

            name = self.session.suggested_file_name()
            self.apply(Feedback(deliver_record(self.app, self.session.record_text(), name), Tone.INFO))
            return
        if route is Route.TERMINAL:
            self.app.copy_to_clipboard(self.session.record_text())
            said = _(
                "the server keeps no file for you: the record was sent to your terminal's clipboard (OSC 52); "
                "{view} shows it to select by hand"
            )
            self.apply(Feedback(said.format(view=self.session.how("view_record")), Tone.INFO))
            return
        from ..dialogs.files import PathDialog

        initial = Path.cwd() / self.session.suggested_file_name()

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.apply(self.session.save_record(path))

        self.app.push_screen(PathDialog(_("Save the game as CTL-PGN"), initial), chosen)

    def action_open(self) -> None:
        """Ctrl+O: a file the owner names; a record a visitor pastes (or their browser uploads), never a path of
        the server."""
        route = self.policy.decide(Need.RECORD_IN).route
        if route in (Route.PASTE, Route.PASTE_OR_UPLOAD):
            from ..browser_records import ask_for_record

            def show(record: OpenedRecord) -> None:
                self.apply(self.session.show_record(*record, _("the record"), pasted=True))

            ask_for_record(self.app, show, upload=route is Route.PASTE_OR_UPLOAD)
            return
        from ...data.archive import archive_dir
        from ..dialogs.files import PathDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.apply(self.session.open_record(path))

        archive = archive_dir()  # the games this machine kept, where a record to open most often is
        start = archive if self.policy.decide(Need.ARCHIVE).allowed and archive.is_dir() else Path.cwd()
        self.app.push_screen(PathDialog(_("Open a CTL-PGN record"), start, browse=True), chosen)

    def action_archive(self) -> None:
        """The archived games, newest first, one opened for review (the policy refused a visitor before this)."""
        from ...data.archive import list_archive
        from ..dialogs.archive import ArchiveDialog, Picked

        def chosen(picked: Picked | None) -> None:
            if picked is None:
                return
            if not picked.review:
                self.apply(self.session.open_record(picked.path))
            elif (reason := self.policy.refusal(ACTIONS["review_game"])) is not None:
                self.apply(Feedback.refused(reason))
            else:
                self.review_archived(picked.path)

        self.app.push_screen(ArchiveDialog(list_archive()), chosen)

    # --- the review (r, and from the archive) ---------------------------------------------------

    def _review_job(self) -> ReviewJob:
        if self.reviewer is not None:
            return self.reviewer()
        from ...learn import DEFAULT_MOVETIME
        from .review import engine_review

        return engine_review(None, DEFAULT_MOVETIME, self.policy.engines if self.policy.visitor else None)

    def action_review_game(self) -> None:
        """``Ctrl+R``: the engine judges every move of the game on the table, in the review screen; closed, the board
        shows the half-move chosen there."""
        from .review import ReviewScreen

        game = self.session.game
        moves = [node.san for node in game.nodes]

        def save(reviewed: Game, review: Review) -> str:
            from ...learn.annotate import annotate

            table = self.session.game
            if [node.san for node in table.nodes] != moves:
                return _("the game on the table has changed since: review it again to keep the review")
            annotate(table, review)
            self.session.save()
            self.refresh_game()
            return _("the review is in the record of the game: {key} saves it").format(key=self.session.how("save"))

        def closed(ply: int | None) -> None:
            if ply is not None and self.session.game is game and [n.san for n in game.nodes] == moves:
                self.apply(self.session.review_to(ply))

        session = self.session
        screen = ReviewScreen(
            game,
            self._review_job(),
            save=save,
            reviewed=lambda game, review: self._keep_blunders(game, review, session),
        )
        self.cover(screen, closed)

    def review_archived(self, path: Path) -> None:
        """Review an archived game (the archive browser's Ctrl+R) without putting it on the table; ``s`` writes the
        review into its file of the archive (the owner's only: the policy keeps visitors out of the archive)."""
        from ...core.errors import PGNError
        from ...data.records import open_pgn_file, save_pgn_file
        from .review import ReviewScreen

        try:
            game = open_pgn_file(path).game
        except (PGNError, OSError) as error:
            reason = say(error.explanation) if isinstance(error, PGNError) else (error.strerror or str(error))
            self.apply(Feedback.refused(f"{path.name}: {reason}"))
            return
        if not game.nodes:
            self.apply(Feedback.refused(_("no move to review yet: the review judges the moves played")))
            return

        def save(reviewed: Game, review: Review) -> str:
            from ...learn.annotate import annotate

            annotate(reviewed, review)
            try:
                save_pgn_file(reviewed, path)
            except OSError as error:
                return _("could not save {path}: {reason}").format(path=path, reason=error.strerror or error)
            return _("the review is in {path}").format(path=self.policy.hide_paths(str(path)))

        self.cover(ReviewScreen(game, self._review_job(), save=save, reviewed=self._keep_blunders))

    def _keep_blunders(self, game: Game, review: Review, session: GameSession | None = None) -> str | None:
        """A review is done: each blunder of a side a person played here (not the computer's) becomes a puzzle of
        the player's own deck, kept as the policy decides (the owner's data directory, a visitor's own folder)."""
        from ...data.progress import progress_store
        from ...learn.deck import add_to_deck, blunder_puzzles, people_sides

        path = self.policy.progress_path()
        if path is None:
            return None
        sides = people_sides(game)
        if session is not None:
            sides = [c for c in sides if not session.players[c].is_computer and session.port.plays_here(c)]
        store = progress_store(path)
        added = add_to_deck(store, blunder_puzzles(game, review, sides))
        if store.problem is not None:
            return _("your blunders were not kept as puzzles: {reason}").format(reason=store.problem)
        if not added:
            return None
        said = ngettext(
            "{count} blunder is now a puzzle of your deck: My blunders, in {key}",
            "{count} blunders are now puzzles of your deck: My blunders, in {key}",
            added,
        )
        return said.format(count=added, key=self.session.how("puzzles"))

    def action_puzzles(self) -> None:
        """*Puzzles* (the command palette): the puzzle screen over the game; rating and deck kept as the policy says."""
        from ...data.progress import progress_store
        from ...learn.trainer import player_trainer
        from .puzzles import PuzzleScreen

        path = self.policy.progress_path()
        trainer = player_trainer(None if path is None else progress_store(path))
        self.cover(PuzzleScreen(trainer, piece_set=self.options.piece_set))

    def action_screenshot(self) -> None:
        """An SVG of the screen: saved on the owner's machine (Textual says where), a download in a visitor's
        browser; refused to an SSH visitor (the policy's reason) before this is reached.  Taken after the next
        refresh: from the palette, the palette has gone by then."""
        self.app.call_after_refresh(self.app.deliver_screenshot)

    class LanguageChanged(Message):
        """The player chose another language for the interface; the app keeps it in the settings."""

        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    def action_language(self) -> None:
        """Ask which language, then speak it everywhere at once (no restart)."""
        current = language()
        options = [(code, name, code) for code, name in LANGUAGES.items()]
        prompt = _("Language of the interface (now {name}):").format(name=LANGUAGES[current])

        def chosen(code: str | None) -> None:
            if code is not None and code != current:
                self.switch_language(code)

        self.app.push_screen(ChoiceDialog(prompt, options), chosen)

    def switch_language(self, code: str) -> None:
        """Speak ``code`` from now on: the footer, the panels, the palette, the help and every message."""
        set_language(code)
        retranslate(self.app)
        self.refresh_bindings()
        self.refresh_game()
        self.post_message(self.LanguageChanged(code))
        self.apply(Feedback(_("interface in English"), Tone.INFO))

    def action_follow_variation(self, index: int | None = None) -> None:
        """A click on a variation in the notes (the ``i`` key goes through the table)."""
        self.apply(self.session.follow_variation(index))

    # --- what the widgets report -------------------------------------------------------------
    # The side panel's and the move row's messages are handled by their names (``on_move_entry_submitted``):
    # their classes are imported only when those widgets are made, after the first frame.

    @on(HexBoard.HexSelected)
    def pick_hex(self, event: HexBoard.HexSelected) -> None:
        self.apply(self.session.pick(event.hex))

    @on(HexBoard.CursorMoved)
    def show_cursor_hex(self, event: HexBoard.CursorMoved) -> None:
        self._show_cursor_hex(event.hex)

    def _show_cursor_hex(self, h: int) -> None:
        """Name the hex under the cursor (once the move entry row is mounted): the compact board cannot print it."""
        piece = self.session.shown.reviewed_position().piece_at(h)
        if (entry := _while_attached(self._entry)) is not None:
            entry.show_hex(HEX_NAMES[h] + (f" {piece_words(piece)}" if piece is not None else ""))

    @on(HexBoard.Cancelled)
    def cancel_selection(self) -> None:
        self.apply(self.session.cancel())

    def on_move_list_ply_chosen(self, event: MoveList.PlyChosen) -> None:
        if event.ply != self.session.shown.cursor:
            self.apply(self.session.review_to(event.ply))

    def on_move_entry_changed(self, event: MoveEntry.Changed) -> None:
        self.apply(self.session.preview_text(event.text))

    def on_move_entry_submitted(self, event: MoveEntry.Submitted) -> None:
        if not event.text.strip():
            self.set_focus(self.board)
            return
        if event.number is not None:
            self._play_numbered_target(event.number)
            return
        feedback = self.session.play_text(event.text)
        if not feedback.done and (entry := _while_attached(self._entry)) is not None:
            entry.give_back(event.text)  # the box emptied itself on Enter: the keys after it start the next move
        self.apply(feedback)

    def _play_numbered_target(self, number: int) -> None:
        """A target's number typed in the move box after a hex picked its piece: played as on the board."""
        target = self.board.numbered_target(number)
        if target is None:
            said = _("{number}: pick a piece first (type its hex), then the number shown on its target")
            self.apply(Feedback.refused(said.format(number=number)))
            return
        self.board.cursor = target
        self.apply(self.session.pick(target))

    @on(HexBoard.LayoutChanged)
    def layout_changed(self, event: HexBoard.LayoutChanged) -> None:
        """A forced layout that does not fit (after a resize, or from the settings): say what is drawn instead."""
        if event.note is not None and (event.mode, event.note) != self._layout_said:
            self.apply(Feedback(event.note))
        self._layout_said = None

    def on_clock_panel_flag_fell(self, event: ClockPanel.FlagFell) -> None:
        if event.clock is self.session.game.clock:  # not a message about a game no longer shown
            self.apply(self.session.check_time())


def _while_attached(widget: _W | None) -> _W | None:
    """``widget`` while it is there: a late widget held by the screen goes when the app quits, maybe between a
    message and its handling, and then there is nothing to show in."""
    return widget if widget is not None and widget.is_attached else None


# The widgets mounted after the first frame, each made by a function that imports its module only then: the first
# frame needs none of them (benchmarks/README.md; tests/processes/test_startup_imports.py pins it).


def _make_side_panel() -> Widget:
    from ..widgets.side_panel import SidePanel

    return SidePanel(id="side")


def _make_move_entry() -> Widget:
    from ..widgets.move_entry import MoveEntry

    return MoveEntry(id="entry")


def _make_footer() -> Widget:
    from ..widgets.late_footer import LateFooter

    return LateFooter(compact=True)
