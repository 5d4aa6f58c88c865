"""The C'escacs terminal app: a hot-seat game on the hex board.

:class:`CescacsApp` wires the widgets to a :class:`~cescacs_tui.core.game.Game`:
the board and the move box produce moves, the game model checks and plays
them, and the panels show the result.  Every rule lives in the core; the
selection logic lives in :mod:`cescacs_tui.tui.picking`; this module only
routes events and keeps the screen in step with the game.
"""

from __future__ import annotations

import datetime
import gc
import warnings
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.lazy import Lazy
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from .core import HEX_NAMES, CescacsError, Move, MoveError, PGNError, Position
from .core.game import Game, GameError
from .core.geometry import HEX_COLOUR, HEX_COLOUR_NAMES
from .core.move import CASTLING, CASTLING_BY_TOKEN, IN_PLACE_PROMOTION
from .core.notation import normalise_typed
from .core.pieces import LETTERS, NAMES, Colour, PieceType
from .data.autosave import SavedGame, autosave_path, load_autosave, save_autosave
from .data.settings import Settings, settings_path
from .tui.annotations import AnnotationPanel
from .tui.board import HexBoard
from .tui.board_layout import LAYOUT_CHOICES, PIECE_SETS
from .tui.clock_panel import ClockPanel
from .tui.dialogs import ChoiceDialog, ConfirmDialog, TextDialog
from .tui.help import help_text, key_name
from .tui.lazy_line import LazyLine
from .tui.move_entry import MoveEntry
from .tui.narrow_layout import BREAKPOINTS, NARROW_CSS
from .tui.panels import MaterialPanel, MoveList, StatusPanel
from .tui.picking import Outcome as PickOutcome
from .tui.picking import Picker
from .tui.side_panel import SidePanel
from .tui.themes import THEMES, BoardHostApp, register_themes
from .tui.variations import VariationStack
from .tui.view import Overlays, board_view, last_move_hexes, move_hexes
from .web.mode import web_mode

CLOCK_SAVE_SECONDS = 10.0
"""How often the autosave is refreshed while a clock runs (moves are saved at once)."""


class CescacsApp(BoardHostApp[None]):
    """Two players, one keyboard: C'escacs on a 169-hex board.

    ``game`` is the game being played (``app.game``).  ``autosave`` is where
    the game in progress is saved after every move (``None`` disables it);
    ``resume`` is an unfinished game found at start, which the players are
    offered to continue.  ``settings`` are the player's preferences; with a
    ``settings_path`` every change to them is saved there.
    """

    TITLE = "C'escacs"
    CSS = """
    #main { height: 1fr; }
    #board { height: 100%; }
    #side { width: 1fr; min-width: 28; border-left: solid $border-blurred; }
    #status { border-bottom: solid $border-blurred; }
    #material { border-top: solid $border-blurred; }
    #message { height: 1; padding: 0 1; color: $text-muted; }
    #message.error { color: $error; text-style: bold; }
    #message.info { color: $success; }
    """
    CSS += NARROW_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("slash,colon", "focus_input", "Type move"),
        Binding("f", "flip", "Flip"),
        Binding("u", "takeback", "Takeback"),
        Binding("U", "redo", "Redo", show=False),
        Binding("o", "offer_draw", "Offer draw", show=False),
        Binding("c", "claim_draw", "Claim draw"),
        Binding("R", "resign", "Resign", show=False),
        Binding("n", "new_game", "New", show=False),
        Binding("t", "overlays", "Overlays", show=False),
        Binding("p", "pause_clock", "Pause clock", show=False),
        Binding("g", "piece_set", "Piece set", show=False),
        Binding("L", "board_layout", "Board layout", show=False),
        Binding("F", "auto_flip", "Auto-flip", show=False),
        Binding("T", "next_theme", "Theme", show=False),
        Binding("y", "copy_pgn", "Copy PGN"),
        Binding("Y", "copy_pdtl", "Copy PDTL", show=False),
        Binding("v", "view_record", "View record", show=False),
        Binding("ctrl+s", "save", "Save", show=False),
        Binding("ctrl+o", "open", "Open", show=False),
        Binding("left_square_bracket", "review(-1)", "Back", show=False),
        Binding("right_square_bracket", "review(1)", "Forward", show=False),
        Binding("left_curly_bracket", "review_start", "Start", show=False),
        Binding("right_curly_bracket", "review_live", "Live", show=False),
        Binding("i", "follow_variation", "Variation"),
    ]

    def __init__(
        self,
        game: Game | None = None,
        *,
        autosave: Path | None = None,
        resume: SavedGame | None = None,
        settings: Settings | None = None,
        settings_path: Path | None = None,
    ) -> None:
        super().__init__()
        register_themes(self)
        self.settings = settings or Settings()
        self.settings_path = settings_path
        self.theme = self.settings.theme
        self.game = game or self.settings_game()
        self.autosave = autosave
        self.overlays = Overlays()
        self._resume = resume
        self._picker: Picker | None = None
        self._picker_key: tuple[int, tuple[Move, ...]] | None = None
        self._preview: tuple[int, ...] = ()
        self._enabled_actions: tuple[bool | None, ...] = ()
        self._focus_entry_when_ready = False
        self.variations = VariationStack()
        """The record's variations being followed; the screen shows the innermost (``shown``)."""

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield HexBoard(id="board")
            with Lazy(SidePanel(id="side")):
                yield ClockPanel(id="clocks")
                yield StatusPanel(id="status")
                yield MoveList(id="moves")
                yield AnnotationPanel(id="notes")
                yield MaterialPanel(id="material")
        yield LazyLine(MoveEntry(id="entry"))
        yield Static(id="message", markup=False)
        yield LazyLine(Footer(compact=True))

    @on(SidePanel.Ready)
    def side_panel_ready(self) -> None:
        self.refresh_game()

    @on(MoveEntry.Ready)
    def move_entry_ready(self, event: MoveEntry.Ready) -> None:
        self._show_cursor_hex(self.board.cursor)
        if self._focus_entry_when_ready:
            event.entry.focus_box()

    def on_mount(self) -> None:
        board = self.board
        board.piece_set = self.settings.piece_set
        board.layout_mode = self.settings.board_layout
        board.cursor = self.game.position.king(self.game.position.turn)
        board.focus()
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        for problem in self.settings.problems:
            self.notify(problem, title="Settings", severity="warning", timeout=10, markup=False)
        self.refresh_game()
        if not self.is_headless:  # start-up objects live as long as the app: keep them out of every GC pass
            self.call_after_refresh(gc.freeze)
        self.set_interval(CLOCK_SAVE_SECONDS, self.save_running_clock)
        if self._resume is not None:
            self._offer_resume(self._resume)

    @property
    def board(self) -> HexBoard:
        return self.query_one("#board", HexBoard)

    @property
    def shown(self) -> Game:
        """The line on the screen: the game, or a variation of its record being followed."""
        return self.variations.shown(self.game)

    # --- keeping the screen in step with the game ------------------------------

    def _current_picker(self) -> Picker | None:
        """The selection state for the live position (rebuilt when the position changes)."""
        game = self.game
        if self.variations or not game.is_live or game.is_over:
            return None
        key = (id(game), tuple(game.moves))  # the position, exactly: takebacks and replays cannot fool it
        if self._picker is None or self._picker_key != key:
            self._picker = Picker(game.position)
            self._picker_key = key
        return self._picker

    def refresh_game(self, *, board_only: bool = False) -> None:
        """Redraw the board and the panels from the game (only changed hexes repaint).

        ``board_only`` is for changes that cannot touch the panels: a selection,
        a preview.
        """
        game = self.shown
        self.board.show(
            board_view(
                game.reviewed_position(),
                picker=self._current_picker(),
                last_move=last_move_hexes(game),
                preview=self._preview,
                overlays=self.overlays,
            )
        )
        if board_only:
            return
        if not self.query(SidePanel):
            return  # still being mounted (after the first paint): it shows the game when it arrives
        tags = self.game.tags
        names = (tags.get("White", "?"), tags.get("Black", "?"))
        self.query_one(ClockPanel).show_clock(self.game.clock, names=names, flipped=self.board.flipped)
        variation = self.variations.top
        self.query_one(StatusPanel).show_game(game, variation=None if variation is None else variation.describe())
        self.query_one(MaterialPanel).show_game(game)
        self.query_one(MoveList).show_game(game)
        self.query_one(AnnotationPanel).show_game(game)
        self._refresh_footer()

    _DYNAMIC_ACTIONS = (
        "claim_draw",
        "offer_draw",
        "takeback",
        "redo",
        "resign",
        "pause_clock",
        "follow_variation",
    )

    def _refresh_footer(self) -> None:
        """Re-read the bindings only when a key's availability changed.

        Rebuilding the footer costs frames, and Textual keeps the old footer
        keys alive, so doing it after every move would slow the app down as
        the game goes on.
        """
        enabled = tuple(self.check_action(action, ()) for action in self._DYNAMIC_ACTIONS)
        if enabled != self._enabled_actions:
            self._enabled_actions = enabled
            self.refresh_bindings()

    def say(self, text: str, kind: str = "") -> None:
        """One line under the board: what happened, or why not."""
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_classes(kind)

    # --- playing moves ---------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a legal move of the live position and show its consequences."""
        game = self.game
        position = game.position
        mover = position.turn
        try:
            node = game.play(move)
        except (GameError, MoveError) as error:
            self.say(str(error), "error")
            return
        self._preview = ()
        self._save()
        if self.settings.auto_flip:
            self.board.flipped = game.position.turn == Colour.BLACK
        if game.outcome is not None:
            self.say(f"{mover.title} played {node.san}.  {game.result}: {game.termination}", "info")
            self.notify(f"{game.result} — {game.termination}", title="Game over", timeout=8, markup=False)
        else:
            self.say(f"{mover.title} played {node.san}", "info")
        self.refresh_game()

    @on(HexBoard.HexSelected)
    def pick_hex(self, event: HexBoard.HexSelected) -> None:
        game = self.game
        if (variation := self.variations.top) is not None:
            self.say(f"{variation.describe()} is on the board: Esc returns to the game", "error")
            return
        if not game.is_live:
            self.say("you are reviewing an earlier move: press } to return to the live position", "error")
            return
        if game.is_over:
            self.say(f"the game is over ({game.termination}): u takes back a move, n starts a new game", "error")
            return
        picker = self._current_picker()
        assert picker is not None
        result = picker.pick(event.hex)
        if result.outcome is PickOutcome.PLAY:
            self.play(result.moves[0])
            return
        if result.outcome is PickOutcome.CHOOSE:
            self._choose(list(result.moves))
        elif result.outcome is PickOutcome.REFUSED:
            self.say(result.message, "error")
        elif result.outcome is PickOutcome.SELECTED:
            piece = game.position.piece_at(event.hex)
            assert piece is not None
            self.say(f"{NAMES[piece.type]} on {event.hex_name}: pick its target (Esc cancels)")
        else:
            self.say("")
        self.refresh_game(board_only=True)

    @on(HexBoard.CursorMoved)
    def show_cursor_hex(self, event: HexBoard.CursorMoved) -> None:
        self._show_cursor_hex(event.hex)

    def _show_cursor_hex(self, h: int) -> None:
        """Name the hex under the cursor (once the move entry row is mounted): the compact board cannot print it."""
        piece = self.shown.reviewed_position().piece_at(h)
        for entry in self.query(MoveEntry).results(MoveEntry):
            entry.show_hex(HEX_NAMES[h] + (f" {piece}" if piece is not None else ""))

    @on(HexBoard.Cancelled)
    def cancel_selection(self) -> None:
        if self.variations:
            self.action_leave_variation()
            return
        if self._picker is not None:
            self._picker.cancel()
        self._preview = ()
        self.say("")
        self.refresh_game(board_only=True)

    def _choose(self, moves: list[Move]) -> None:
        """Several moves share the target: ask which one (promotion piece, or leap/castling)."""
        position = self.game.position
        if any(m.kind == CASTLING for m in moves):
            title = "The King can go there in several ways:"
            options = []
            for index, move in enumerate(moves):
                key = str(index + 1)
                options.append((key, _describe_king_move(position, move), move))
            preview = self._show_preview
        else:
            first = moves[0]
            where = HEX_NAMES[first.target]
            title = (
                f"Regain which piece on {where}?"
                if first.kind != IN_PLACE_PROMOTION
                else f"Promote the pawn on {where} to:"
            )
            options = [(LETTERS[m.promotion], _promotion_label(position, m), m) for m in moves]
            preview = None

        def chosen(move: Move | None) -> None:
            self._preview = ()
            if move is None:
                self.say("choice cancelled")
                self.refresh_game()
            else:
                self.play(move)

        self.push_screen(ChoiceDialog(title, options, on_preview=preview), chosen)

    def _show_preview(self, move: Move | None) -> None:
        self._preview = () if move is None else move_hexes(self.game.position, move)
        self.refresh_game(board_only=True)

    # --- the move box ------------------------------------------------------------------

    def _parse_typed(self, text: str) -> Move:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a wrong check mark is not worth an error here
            return self.game.position.parse_move(normalise_typed(text))

    @on(Input.Changed, "#move-input")
    def preview_typed_move(self, event: Input.Changed) -> None:
        text = event.value.strip()
        self._preview = ()
        if text and not self.variations and self.game.is_live and not self.game.is_over:
            try:
                move = self._parse_typed(text)
            except CescacsError:
                pass
            else:
                self._preview = move_hexes(self.game.position, move)
                self.say(f"Enter plays {self.game.position.ctl_an(move)}")
        self.refresh_game(board_only=True)

    @on(Input.Submitted, "#move-input")
    def play_typed_move(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.board.focus()
            return
        game = self.game
        if (variation := self.variations.top) is not None:
            self.say(f"{text}: {variation.describe()} is on the board; Esc returns to the game", "error")
            return
        if game.is_over or not game.is_live:
            reason = (
                f"the game is over ({game.termination})" if game.is_over else "return to the live position first (})"
            )
            self.say(f"{text}: {reason}", "error")
            return
        try:
            move = self._parse_typed(text)
        except CescacsError as error:
            reason = error.reason if isinstance(error, MoveError) else str(error)
            self.say(f"{text}: {reason}", "error")
            return
        event.input.value = ""
        self.play(move)

    def on_key(self, event: events.Key) -> None:
        """Esc steps back: from the move box to the board, else out of a variation.

        On the board, Esc is the board's own key (:class:`HexBoard.Cancelled`), which does the same.
        """
        focused = self.focused.id if self.focused is not None else None
        if event.key != "escape" or focused == "board":
            return
        if focused == "move-input":
            event.stop()
            self.board.focus()
        elif self.variations:
            event.stop()
            self.action_leave_variation()

    # --- actions ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys that do nothing now, so the footer shows what matters."""
        game = self.game
        if action == "follow_variation":
            return self.variations.can_follow(game)
        if action == "leave_variation":
            return bool(self.variations)
        if self.variations and action in ("claim_draw", "offer_draw", "takeback", "redo", "resign"):
            return False  # they act on the game, which is not on the screen
        if action == "claim_draw":
            return game.claimable_draw() is not None and game.is_live
        if action == "offer_draw":
            return bool(game.nodes) and not game.is_over and game.is_live
        if action == "takeback":
            return bool(game.nodes)
        if action == "redo":
            return game.can_redo
        if action == "resign":
            return not game.is_over
        if action == "pause_clock":
            return game.clock is not None and not game.is_over
        return True

    def action_focus_input(self) -> None:
        entries = self.query(MoveEntry)
        if entries:
            entries.first(MoveEntry).focus_box()
        else:  # pressed before the row is mounted, a frame or so after the start: focus it when it is
            self._focus_entry_when_ready = True

    def action_flip(self) -> None:
        board = self.board
        board.flipped = not board.flipped
        self.say(f"{'Black' if board.flipped else 'White'} at the bottom")
        self.refresh_game()

    def action_overlays(self) -> None:
        self.overlays = self.overlays.cycle()
        self.say(self.overlays.describe())
        self.refresh_game(board_only=True)

    def action_takeback(self) -> None:
        node = self.game.takeback()
        if node is None:
            self.say("no move to take back", "error")
            return
        self._save()
        self.say(f"took back {node.san}")
        self.refresh_game()

    def action_redo(self) -> None:
        try:
            node = self.game.redo()
        except GameError as error:  # the game has ended since the takeback
            self.say(str(error), "error")
            return
        if node is None:
            self.say("nothing to redo", "error")
            return
        self._save()
        self.say(f"replayed {node.san}")
        self.refresh_game()

    def action_review(self, step: int) -> None:
        self.shown.go_to(self.shown.cursor + step)
        self.refresh_game()

    def action_review_start(self) -> None:
        self.shown.go_to(0)
        self.refresh_game()

    def action_review_live(self) -> None:
        self.shown.go_to(self.shown.ply)
        self.say("")
        self.refresh_game()

    @on(MoveList.PlyChosen)
    def review_ply(self, event: MoveList.PlyChosen) -> None:
        if event.ply != self.shown.cursor:
            self.shown.go_to(event.ply)
            self.refresh_game()

    def action_follow_variation(self, index: int | None = None) -> None:
        """Step into a variation the record gives instead of the move on the board (again: the next one)."""
        try:
            variation = self.variations.follow(self.game, index)
        except CescacsError as error:  # a line the reader took but the game refuses (it goes on after a draw)
            self.say(f"this variation cannot be followed: {error}", "error")
            return
        if variation is None:
            self.say("the record gives no other line instead of this move", "error")
            return
        self._preview = ()
        if self._picker is not None:
            self._picker.cancel()
        self.say(f"{variation.describe()}: [ ] step through it, Esc returns", "info")
        self.refresh_game()

    def action_leave_variation(self) -> None:
        if self.variations.leave() is not None:
            outer = self.variations.top
            self.say("back in the game" if outer is None else f"back to {outer.describe()}")
            self.refresh_game()

    def action_resign(self) -> None:
        game = self.game
        if game.is_over:
            return
        side = game.position.turn

        def answer(yes: bool | None) -> None:
            if yes:
                game.resign(side)
                self._save()
                self.say(f"{game.result}: {game.termination}", "info")
                self.refresh_game()

        self.push_screen(
            ConfirmDialog(f"{side.title} resigns: the game ends {('0-3' if side == Colour.WHITE else '3-0')}. Sure?"),
            answer,
        )

    def action_offer_draw(self) -> None:
        game = self.game
        try:
            game.offer_draw()
        except GameError as error:
            self.say(str(error), "error")
            return
        offerer = game.draw_offered_by
        assert offerer is not None

        def answer(yes: bool | None) -> None:
            if yes:
                game.accept_draw()
                self.say(f"{game.result}: {game.termination}", "info")
            else:
                game.decline_draw()
                self.say(f"{offerer.opponent.title} declines the draw")
            self._save()
            self.refresh_game()

        self.push_screen(
            ConfirmDialog(
                f"{offerer.title} offers a draw. {offerer.opponent.title}, do you accept?", yes="Accept", no="Decline"
            ),
            answer,
        )

    def action_claim_draw(self) -> None:
        game = self.game
        try:
            outcome = game.claim_draw()
        except GameError as error:
            self.say(str(error), "error")
            return
        self._save()
        self.say(f"{outcome.result}: {outcome.reason}", "info")
        self.refresh_game()

    def action_new_game(self) -> None:
        """Ask for the players, the clock and the options, then start (after confirming an abandon)."""
        from .tui.new_game import NewGameDialog, NewGameOptions

        game = self.game
        settings = self.settings
        defaults = NewGameOptions(
            white=settings.white.strip("?"),
            black=settings.black.strip("?"),
            time_control=settings.parsed_time_control,
            castling=settings.castling,
        )

        def start(options: NewGameOptions | None) -> None:
            if options is None:
                return
            self.update_settings(
                white=options.white or "?",
                black=options.black or "?",
                time_control=options.time_control.to_tag(),
                castling=options.castling,
            )
            self.start_game(options.create_game())

        def ask() -> None:
            self.push_screen(NewGameDialog(defaults), start)

        if game.nodes and not game.is_over:
            self.push_screen(
                ConfirmDialog("Abandon this game and start a new one?"), lambda yes: ask() if yes else None
            )
        else:
            ask()

    # --- preferences ----------------------------------------------------------------

    def settings_game(self) -> Game:
        """A new game with the players, clock and castling option of the settings."""
        settings = self.settings
        return Game.new(
            white=settings.white,
            black=settings.black,
            time_control=settings.parsed_time_control,
            castling=settings.castling,
        )

    def update_settings(self, **changes: object) -> None:
        """Change preferences and save them (when the app has a settings file)."""
        for name, value in changes.items():
            setattr(self.settings, name, value)
        if self.settings_path is not None:
            try:
                self.settings.save(self.settings_path)
            except OSError as error:
                self.say(f"settings not saved: {error.strerror or error}", "error")

    def _theme_changed(self, theme: object) -> None:
        if self.theme != self.settings.theme:
            self.update_settings(theme=self.theme)

    def action_next_theme(self) -> None:
        names = list(THEMES)
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        self.say(f"theme: {self.theme}")

    def action_piece_set(self) -> None:
        board = self.board
        board.piece_set = PIECE_SETS[(PIECE_SETS.index(board.piece_set) + 1) % len(PIECE_SETS)]
        self.update_settings(piece_set=board.piece_set)
        self.say(f"pieces: {board.piece_set}")

    def action_board_layout(self) -> None:
        board = self.board
        board.layout_mode = LAYOUT_CHOICES[(LAYOUT_CHOICES.index(board.layout_mode) + 1) % len(LAYOUT_CHOICES)]
        self.update_settings(board_layout=board.layout_mode)
        self.say(f"board layout: {board.layout_mode} ({board.mode} now)")

    def action_auto_flip(self) -> None:
        self.update_settings(auto_flip=not self.settings.auto_flip)
        if self.settings.auto_flip:
            self.board.flipped = self.game.position.turn == Colour.BLACK
        self.say(f"auto-flip after each move: {'on' if self.settings.auto_flip else 'off'}")
        self.refresh_game()

    def action_pause_clock(self) -> None:
        clock = self.game.clock
        if clock is None or self.game.is_over:
            self.say("this game has no clock running", "error")
            return
        if clock.paused:
            clock.resume()
            self.say("clock running")
        elif clock.running is not None:
            clock.pause()
            self.say("clock paused: p resumes it")
        else:
            clock.start(self.game.position.turn)
            self.say(f"{self.game.position.turn.title}'s clock started")
        self._save()
        self.refresh_game()

    @on(ClockPanel.FlagFell)
    def flag_fell(self, event: ClockPanel.FlagFell) -> None:
        if event.clock is not self.game.clock:
            return  # a message about a game no longer shown
        outcome = self.game.check_time()
        if outcome is not None:
            self._save()
            self.say(f"{outcome.result}: {outcome.reason}", "error")
            self.notify(f"{outcome.result} — {outcome.reason}", title="Flag fall", timeout=10, markup=False)
            self.refresh_game()

    def start_game(self, game: Game) -> None:
        """Show another game (a new one, a loaded one, a resumed one)."""
        self.game = game
        self.variations.clear()
        self._picker = None
        self._preview = ()
        self.board.cursor = game.position.king(game.position.turn)
        self._save()
        self.say("new game" if not game.nodes else f"{game.ply} half-moves loaded")
        self.refresh_game()

    # --- records: copy, view, save, open -------------------------------------------------

    # Dialogs and tools used only on demand are imported on first use: start-up stays fast.

    def action_copy_pgn(self) -> None:
        """Copy the game as CTL-PGN (OSC 52 for the terminal, pyperclip for a local clipboard)."""
        from .core.pgn import write_pgn
        from .tui.clipboard import copy_text

        self.say(copy_text(self, write_pgn(self.game)).describe("Game record copied"), "info")

    def action_copy_pdtl(self) -> None:
        """Copy the position on the board (the reviewed one) as PDTL."""
        from .tui.clipboard import copy_text

        self.say(copy_text(self, self.shown.reviewed_position().to_pdtl()).describe("Position copied"), "info")

    def action_view_record(self) -> None:
        """Show the record as text, to select and copy by hand where no clipboard works."""
        from .core.pgn import write_pgn

        body = Text(write_pgn(self.game))
        body.append("\nPDTL of the position shown:\n", style="bold")
        body.append(self.game.reviewed_position().to_pdtl())
        self.push_screen(TextDialog("Game record (CTL-PGN)", body, hint="Select with the mouse to copy; Esc closes"))

    def action_save(self) -> None:
        from .tui.browser_records import deliver_record, record_file_name

        if web_mode():  # a web visitor: the record goes to the browser, never to a file of the server
            self.say(deliver_record(self, self.game), "info")
            return
        from .data.records import save_pgn_file
        from .tui.file_dialog import PathDialog

        initial = Path.cwd() / record_file_name(self.game)

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                save_pgn_file(self.game, path)
            except OSError as error:
                self.say(f"could not save {path}: {error.strerror or error}", "error")
            else:
                self.say(f"saved {path}", "info")

        self.push_screen(PathDialog("Save the game as CTL-PGN", initial), chosen)

    def action_open(self) -> None:
        if web_mode():  # a web visitor: a pasted record or a file from the browser, never a path of the server
            from .tui.browser_records import ask_for_record

            ask_for_record(self, self.show_opened)
            return
        from .tui.file_dialog import PathDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_record(path)

        self.push_screen(PathDialog("Open a CTL-PGN record", Path.cwd(), browse=True), chosen)

    def open_record(self, path: Path) -> None:
        """Load the first game of a record; on any error keep the current game and say why."""
        from .data.records import load_pgn_file

        try:
            games = load_pgn_file(path)
        except (PGNError, OSError) as error:
            reason = str(error) if isinstance(error, PGNError) else (error.strerror or str(error))
            self.say(f"{path.name}: {reason}", "error")
            self.notify(f"{path.name}: {reason}", title="Cannot open the record", severity="error", markup=False)
            return
        self.show_opened(games, path.name)

    def show_opened(self, games: list[Game], source: str) -> None:
        """Show the first game read from ``source`` (a file's name, or "the record" pasted or uploaded)."""
        from .tui.browser_records import opened_message

        if not games:
            self.say(f"{source} holds no game", "error")
            return
        self.start_game(games[0])
        self.say(opened_message(source, games), "info")

    def action_help(self) -> None:
        self.push_screen(TextDialog("C'escacs — keys and move notation", help_text(self)))

    COMMANDS_LIST: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("new_game", "New game", "Start a new game"),
        ("open", "Open game", "Open a .ctl-pgn record"),
        ("save", "Save game", "Save the game as a .ctl-pgn file"),
        ("copy_pgn", "Copy game (CTL-PGN)", "Copy the record to the clipboard, also over SSH"),
        ("copy_pdtl", "Copy position (PDTL)", "Copy the position shown to the clipboard"),
        ("view_record", "View record", "Show the CTL-PGN text, to copy it by hand"),
        ("flip", "Flip the board", "Show the board from the other side"),
        ("takeback", "Take back", "Undo the last half-move"),
        ("redo", "Redo", "Replay a taken-back half-move"),
        ("review(-1)", "Review: back", "Show the position one half-move earlier"),
        ("review(1)", "Review: forward", "Show the position one half-move later"),
        ("review_start", "Review: start", "Show the start position"),
        ("review_live", "Review: live position", "Back to the position where play goes on"),
        ("follow_variation", "Follow a variation", "Step into a line the record gives instead of the move shown"),
        ("leave_variation", "Leave the variation", "Back to the line the variation left (Esc)"),
        ("offer_draw", "Offer a draw", "Offer a draw with your last move"),
        ("claim_draw", "Claim a draw", "Threefold repetition or the fifty-move rule"),
        ("resign", "Resign", "The player to move resigns"),
        ("overlays", "Overlays", "Cycle: attacked hexes, threatened pieces, both, none"),
        ("pause_clock", "Pause or resume the clock", "Stop or restart the running clock"),
        ("next_theme", "Next theme", "Dark, light, or 16 ANSI colours for basic terminals"),
        ("piece_set", "Piece set", "Letters, CTL-FAN glyphs, or glyphs with letters for Pegasus and Wyvern"),
        ("board_layout", "Board layout", "Automatic, full hexes, or compact"),
        ("auto_flip", "Auto-flip", "Turn the board to the side to move after each move (hot seat)"),
        ("focus_input", "Type a move", "Go to the CTL-AN move box"),
        ("help", "Help", "Keys and the CTL-AN move syntax"),
    )
    """Every game action, as the command palette lists it (``action``, title, help)."""

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        keys = {b.action: key_name(b.key.split(",")[0]) for b in self.BINDINGS if isinstance(b, Binding)}
        for action, title, help_ in self.COMMANDS_LIST:
            key = keys.get(action)
            yield SystemCommand(title, f"{help_} ({key})" if key else help_, partial(self.run_action, action))

    # --- saving ----------------------------------------------------------------------

    def save_running_clock(self) -> None:
        """Autosave while a clock runs, so a crash in mid-thought keeps the clock times too."""
        clock = self.game.clock
        if clock is not None and clock.running is not None and not self.game.is_over:
            self._save()

    def _save(self) -> None:
        if self.autosave is None:
            return
        try:
            save_autosave(self.game, {"flipped": self.board.flipped}, self.autosave)
        except OSError as error:
            self.say(f"autosave failed: {error}", "error")

    def _offer_resume(self, session: SavedGame) -> None:
        game = session.game

        def answer(yes: bool | None) -> None:
            if yes:
                self.start_game(game)
                if session.options.get("flipped"):
                    self.board.flipped = True
                paused = " — the clock is paused: p restarts it" if game.clock is not None else ""
                self.say(f"resumed the game saved {_when(session.saved_at)}{paused}", "info")

        moves = f"{game.ply} half-move{'s' if game.ply != 1 else ''}"
        self.push_screen(
            ConfirmDialog(
                f"An unfinished game was found ({moves}, {game.position.turn.title} to move). Resume it?",
                yes="Resume",
                no="New game",
            ),
            answer,
        )


def _when(timestamp: str) -> str:
    """An ISO time stamp as people read it, in local time ("at 14:05 on 2026-11-29")."""
    try:
        moment = datetime.datetime.fromisoformat(timestamp).astimezone()
    except ValueError:
        return ""
    return f"at {moment:%H:%M} on {moment:%Y-%m-%d}"


def _promotion_label(position: Position, move: Move) -> str:
    name = NAMES[move.promotion]
    if move.promotion == PieceType.BISHOP:  # a Bishop is bound to the colour of its hex
        name += f" ({HEX_COLOUR_NAMES[HEX_COLOUR[move.target]]} hexes)"
    return f"{name}  {position.ctl_an(move)}"


def _describe_king_move(position: Position, move: Move) -> str:
    if move.castling is None:
        return f"King's leap {HEX_NAMES[move.origin]}→{HEX_NAMES[move.target]}  ({position.ctl_an(move)})"
    plan = CASTLING_BY_TOKEN[position.turn][move.castling]
    rooks = ", ".join(f"Rook {HEX_NAMES[a]}→{HEX_NAMES[b]}" for a, b, _ in plan.rooks)
    return f"{position.ctl_an(move)}: King {HEX_NAMES[plan.king_from]}→{HEX_NAMES[plan.king_to]}, {rooks}"


def run_app(*, pgn_file: str | None = None, pdtl: str | None = None, castling: bool = True) -> int:
    """Start the app (the ``cescacs`` command without a subcommand)."""
    settings = Settings.load()
    resume = None
    game: Game | None
    if pgn_file is not None:
        from .data.records import load_pgn_file

        games = load_pgn_file(pgn_file)
        if not games:
            raise CescacsError(f"{pgn_file} holds no game")
        game = games[0]
        game.go_to(game.ply)
    elif pdtl is not None:
        game = Game.new(pdtl=pdtl, castling=castling)
    else:
        game = None if castling else Game.new(castling=False)
        try:
            resume = load_autosave()
        except CescacsError as error:  # a damaged autosave: say so in the app, start afresh
            settings.problems.append(str(error))
    # Everything so far (modules, classes, geometry tables) lives as long as the process: out of every
    # garbage-collection pass with it.  Otherwise the first full collection, ~17 ms of scanning them,
    # falls right before the first paint.
    gc.freeze()
    CescacsApp(game, autosave=autosave_path(), resume=resume, settings=settings, settings_path=settings_path()).run()
    return 0
