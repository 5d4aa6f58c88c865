"""The "new game" dialog: players (a person, or the computer at a level), time control, castling, when the clock
starts, start position.

:class:`NewGameDialog` returns a :class:`NewGameOptions` (or ``None`` when cancelled) through
``dismiss``; :meth:`NewGameOptions.create_game` turns the answer into a :class:`Game`.  Like the
other dialogs it holds no game logic: it only checks that the time control tag and the PDTL it
returns can be read, showing the error inline (the dialog stays open) when they cannot.

Keys: Tab / Shift+Tab move between fields; Enter starts the game (except on a list, the players' or the
time control's, where it opens the list, and on a button, which it presses); Esc cancels.  Space ticks the
checkbox, the arrow keys choose when the clock starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Select, Static

from ...core import CescacsError, Position
from ...core.clock import NO_CLOCK, PRESETS, ClockError, TimeControl
from ...core.game import Game
from ...core.safe_text import safe_text
from ...data.settings import MAX_NAME_LENGTH
from ...engine.levels import LEVELS
from ...i18n import N_, _
from ...session.players import HUMAN, Contender, Players, computer_name
from ...session.terms import say
from ..translated import TranslatedBindings
from ..widgets.filter_select import FilterSelect
from .tabs import TabsAsRead

ClockStart = Literal["first-move", "now"]
"""When the clocks start: ``"first-move"``, when the first move is played (the first mover's
thinking time is free, the opponent's clock starts running); ``"now"``, as soon as the game
starts (the side to move's clock runs from the moment the game is created)."""

CUSTOM: Final = "custom"
"""The time control list's value for "Custom…" (a tag typed by the player)."""


@dataclass(frozen=True)
class NewGameOptions:
    """What the players chose for a new game.

    ``white`` and ``black`` are the names as typed, spaces trimmed (``""`` when left empty: the app
    writes ``"?"``).  ``castling`` is ``False`` for the beginners' rule (no castling).
    ``clock_starts`` is described at :data:`ClockStart`.  ``pdtl`` is the start position, trimmed
    and known to be readable, or ``None`` for the standard start.  ``white_player`` and ``black_player`` say who
    plays each side: a person, or the computer at a level (its name in the record is then
    :func:`~cescacs_tui.session.players.computer_name`, whatever was typed).
    """

    white: str = ""
    black: str = ""
    time_control: TimeControl = NO_CLOCK
    castling: bool = True
    clock_starts: ClockStart = "first-move"
    pdtl: str | None = None
    white_player: Contender = HUMAN
    black_player: Contender = HUMAN

    @property
    def players(self) -> Players:
        return self.white_player, self.black_player

    def create_game(self, *, time_source: Callable[[], float] = time.monotonic) -> Game:
        """The new game; with ``clock_starts == "now"`` its clock is already running for the side to move."""
        game = Game.new(
            pdtl=self.pdtl,
            castling=self.castling,
            white=_player_name(self.white, self.white_player),
            black=_player_name(self.black, self.black_player),
            time_control=self.time_control,
            time_source=time_source,
        )
        if self.clock_starts == "now" and game.clock is not None:
            game.clock.start(game.position.turn)
        return game


def _player_name(typed: str, seat: Contender) -> str:
    return computer_name(seat.level) if seat.level is not None else typed or "?"


def seat_choices() -> list[tuple[Text, str]]:
    """The seat list's entries: a person, then the computer at each level with its measured strength.

    The values are what :func:`parse_player` reads; the Elo is the level's on
    the engine's ladder (:attr:`Level.elo`, docs/engine.md).
    """
    computer = [
        (Text(_("Computer, level {level} ({elo} Elo)").format(level=lv.number, elo=lv.elo)), f"computer:{lv.number}")
        for lv in LEVELS
    ]
    return [(Text(_("Human")), str(HUMAN)), *computer]


def check_pdtl(text: str, *, castling: bool = True) -> str | None:
    """The error message for a PDTL the app could not start from, or ``None`` if it is fine.

    Tolerated irregularities are accepted silently, as the game does.
    """
    try:
        Position.from_pdtl(text, castling=castling)
    except CescacsError as error:  # PDTLError
        return say(error.explanation)
    except ValueError as error:  # anything else the reader refuses
        return str(error)
    return None


class _Checkbox(Checkbox, inherit_bindings=False):
    """A checkbox that Space toggles, leaving Enter to start the game."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_button", N_("Toggle"), show=False)]


class _RadioChoice(RadioSet, inherit_bindings=False):
    """Radio buttons where the arrow keys choose (as in most toolkits); Enter is left to the dialog."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "choose(1)", N_("Next option"), show=False),
        Binding("up,left", "choose(-1)", N_("Previous option"), show=False),
        Binding("space", "toggle_button", N_("Choose"), show=False),
    ]

    def on_mount(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index  # the highlight starts on the chosen button

    def action_choose(self, step: int) -> None:
        if step > 0:
            self.action_next_button()
        else:
            self.action_previous_button()
        self.action_toggle_button()


class NewGameDialog(TranslatedBindings, TabsAsRead, ModalScreen[NewGameOptions | None]):
    """Set up a new game; returns the :class:`NewGameOptions`, or ``None`` if cancelled.

    ``defaults`` fill the fields (names, control, castling, clock start, PDTL); a control that
    is not one of :data:`PRESETS` shows as "Custom…" with its tag.
    """

    DEFAULT_CSS = """
    NewGameDialog {
        align: center middle;
        background: $background 40%;
    }
    NewGameDialog > VerticalScroll {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    NewGameDialog #new-title { text-style: bold; }
    NewGameDialog .field { height: auto; margin-top: 1; }
    NewGameDialog .field.-tight { margin-top: 0; }
    NewGameDialog .field-label { width: 18; padding-right: 1; color: $text-muted; }
    NewGameDialog Input, NewGameDialog Select { width: 1fr; }
    NewGameDialog .seat { width: 34; margin-left: 1; }
    NewGameDialog Input:focus { background: $boost; }
    NewGameDialog .note { margin-left: 15; color: $text-muted; height: auto; }
    NewGameDialog .note.-error { color: $error; text-style: bold; }
    NewGameDialog #buttons { height: auto; align: center middle; margin-top: 1; }
    NewGameDialog Button { margin: 0 1; min-width: 12; }
    NewGameDialog #new-hint { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", N_("Start"), show=False),
        Binding("escape", "cancel", N_("Cancel"), show=False),
    ]

    def __init__(self, defaults: NewGameOptions | None = None) -> None:
        super().__init__()
        self._defaults = defaults or NewGameOptions()

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        defaults = self._defaults
        preset = next((name for name, tc in PRESETS.items() if tc == defaults.time_control), CUSTOM)
        with VerticalScroll(can_focus=False, id="new-frame"):
            yield Label(Text(_("New game")), id="new-title")
            with Horizontal(classes="field -tight"):
                yield Label(Text(_("White")), classes="field-label")
                yield Input(
                    safe_text(defaults.white),
                    placeholder=_("White's name"),
                    id="white",
                    compact=True,
                    max_length=MAX_NAME_LENGTH,  # as the settings: a name a record always holds
                )
                yield self._seat_list("white-seat", defaults.white_player)
            with Horizontal(classes="field -tight"):
                yield Label(Text(_("Black")), classes="field-label")
                yield Input(
                    safe_text(defaults.black),
                    placeholder=_("Black's name"),
                    id="black",
                    compact=True,
                    max_length=MAX_NAME_LENGTH,
                )
                yield self._seat_list("black-seat", defaults.black_player)
            with Horizontal(classes="field"):
                yield Label(Text(_("Time control")), classes="field-label")
                yield FilterSelect[str](
                    [(Text(_(name)), name) for name in PRESETS] + [(Text(_("Custom\u2026")), CUSTOM)],
                    value=preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            with Horizontal(classes="field -tight", id="custom-row"):
                yield Label(Text(_("Custom")), classes="field-label")
                yield Input(
                    defaults.time_control.to_tag() if preset == CUSTOM else "",
                    placeholder=_("seconds: 900+10, 300d3, 900b10, 600, *30"),
                    id="custom",
                    compact=True,
                )
            yield Static("", id="tc-note", classes="note", markup=False)
            with Horizontal(classes="field"):
                yield Label(Text(_("Castling")), classes="field-label")
                yield _Checkbox(
                    Text(_("Play without castling (beginners' rule)")),
                    not defaults.castling,
                    compact=True,
                    id="no-castling",
                )
            with Horizontal(classes="field"):
                yield Label(Text(_("Clock starts")), classes="field-label")
                yield _RadioChoice(
                    RadioButton(Text(_("On the first move")), defaults.clock_starts == "first-move", id="first-move"),
                    RadioButton(Text(_("Now, when the game starts")), defaults.clock_starts == "now", id="now"),
                    compact=True,
                    id="clock-starts",
                )
            with Horizontal(classes="field"):
                yield Label(Text(_("Start position")), classes="field-label")
                yield Input(
                    defaults.pdtl or "", placeholder=_("PDTL (empty: the standard start)"), id="pdtl", compact=True
                )
            yield Static("", id="pdtl-note", classes="note -error", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Start"), variant="primary", id="start")
                yield Button(_("Cancel"), id="cancel")
            yield Label(Text(_("Enter starts \u00b7 Esc cancels \u00b7 Tab moves")), id="new-hint")

    @staticmethod
    def _seat_list(widget_id: str, seat: Contender) -> Select[str]:
        return FilterSelect[str](
            seat_choices(), value=str(seat), allow_blank=False, compact=True, id=widget_id, classes="seat"
        )

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#pdtl-note").display = False
        self._show_control()
        white = self.query_one("#white", Input)
        (self.query_one("#white-seat") if white.disabled else white).focus()

    # --- reading the fields ------------------------------------------------------------

    def _chosen_control(self) -> TimeControl | ClockError:
        """The chosen time control, or the error of an unreadable custom tag."""
        key = self.query_one("#preset", Select).value
        if key != CUSTOM:
            return PRESETS[str(key)]
        try:
            return TimeControl.from_tag(self.query_one("#custom", Input).value)
        except ClockError as error:
            return error

    def _show_control(self) -> TimeControl | None:
        """Show the custom tag field if needed and what the control means (or its error)."""
        custom = self.query_one("#preset", Select).value == CUSTOM
        self.query_one("#custom-row").display = custom
        control = self._chosen_control()
        note = self.query_one("#tc-note", Static)
        is_error = isinstance(control, ClockError)
        note.set_class(is_error, "-error")
        if isinstance(control, ClockError):
            note.update(Text(say(control.explanation)) if self.query_one("#custom", Input).value.strip() else Text(""))
            return None
        note.update(Text(say(control.description()) if control.enabled else _("No clock: unlimited time")))
        self.query_one("#clock-starts", RadioSet).disabled = not control.enabled
        return control

    def _seat(self, widget_id: str) -> Contender:
        value = self.query_one(f"#{widget_id}", Select).value
        level = str(value).partition(":")[2]
        return Contender(int(level)) if level.isdigit() else HUMAN

    def _show_seats(self) -> None:
        """The computer's name is its own: the name field of a side it plays is greyed."""
        for side in ("white", "black"):
            self.query_one(f"#{side}", Input).disabled = self._seat(f"{side}-seat").is_computer

    @on(Select.Changed, ".seat")
    def _seat_changed(self) -> None:
        self._show_seats()

    @on(Select.Changed, "#preset")
    def _preset_changed(self) -> None:
        self._show_control()

    @on(Input.Changed, "#custom")
    def _custom_changed(self) -> None:
        self._show_control()

    @on(Input.Changed, "#pdtl")
    def _pdtl_changed(self) -> None:
        self.query_one("#pdtl-note").display = False

    def options(self) -> NewGameOptions | None:
        """The options as filled in, or ``None`` (with the error shown and focused) if one is unreadable."""
        control = self._chosen_control()
        if isinstance(control, ClockError):
            note = self.query_one("#tc-note", Static)
            note.add_class("-error")
            note.update(Text(say(control.explanation)))
            self.query_one("#custom", Input).focus()
            return None
        castling = not self.query_one("#no-castling", Checkbox).value
        pdtl = self.query_one("#pdtl", Input).value.strip() or None
        if pdtl is not None and (error := check_pdtl(pdtl, castling=castling)) is not None:
            note = self.query_one("#pdtl-note", Static)
            note.update(Text(error))
            note.display = True
            self.query_one("#pdtl", Input).focus()
            return None
        pressed = self.query_one("#clock-starts", RadioSet).pressed_button
        starts: ClockStart = "now" if pressed is not None and pressed.id == "now" else "first-move"
        return NewGameOptions(
            white=self.query_one("#white", Input).value.strip(),
            black=self.query_one("#black", Input).value.strip(),
            time_control=control,
            castling=castling,
            clock_starts=starts,
            pdtl=pdtl,
            white_player=self._seat("white-seat"),
            black_player=self._seat("black-seat"),
        )

    # --- actions -----------------------------------------------------------------------

    def action_start(self) -> None:
        options = self.options()
        if options is not None:
            self.dismiss(options)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()
