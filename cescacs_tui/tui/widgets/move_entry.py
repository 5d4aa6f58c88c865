"""The line under the board: the move box, where a player types CTL-AN, and the hex under the cursor.

Typed moves must survive bursts: over SSH, or from a fast typist, ``/E7-E13⏎``
often arrives in one read, and Textual routes each key to the widget that has
the focus *when it routes that key*.  Three things keep every key of a burst
where it belongs, in order:

* the screen binds ``/`` and ``:`` with *priority*: Textual runs the binding
  while it routes the ``/``, before it routes the keys after it, and
  :func:`focus_move_box` moves the focus synchronously (``Screen.set_focus``; ``Widget.focus`` would
  only schedule it, after the keys already queued, which then went to the
  board: ``/RC25-C23⏎`` resigned the game).  Before the row is mounted (it is
  mounted after the first paint) the binding waits for it, and the keys wait
  in the app's queue meanwhile.
* Esc in the box is a priority binding of :class:`MoveEntry`: it gives the
  focus back to the board as Esc is routed, so the keys after it go there.
* :class:`MoveInput` empties itself the moment Enter hands a move over, so the
  keys that follow start the next move, and ignores a ``/`` or ``:`` typed
  where a move starts (players press ``/`` again after a move, and the focus
  has stayed in the box).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import Input, Label

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ..dialogs.questions import question_above

PLACEHOLDER = N_("CTL-AN, e.g. E7-E13 (Enter plays, Esc: board)")

TYPE_MOVE_CHARACTERS = ("/", ":")

TARGET_NUMBERS = tuple("123456789")
"""Typed in the empty box, a digit is a target's number (no CTL-AN move starts with one): it is handed over at
once, as Enter hands a move, to be played as the board's digits are."""


MOUNT_PATIENCE = 60.0
"""Seconds at most a ``/`` pressed during start-up waits for the move box to be mounted.

It takes a frame or two, and seconds on a starved machine: the keys typed
after the ``/`` wait with it (they belong in the box; on the board a piece's
letter would pick a piece).  The bound only keeps a screen that lost its
move row from holding the keys for ever."""


class MoveInput(Input):
    """The move box (``#move-input``): one move at a time, even when keys come in bursts.

    Enter posts :class:`Input.Submitted` with the move and empties the box at
    once, before the next key is handled; a move the app refuses is put back
    for correction with :meth:`give_back`.
    """

    _untouched_since_submit = False
    """Whether the box has stayed empty since Enter handed its last move over."""

    virtual_size = Reactive(Size(0, 0), layout=False)
    """Textual's ``Input`` sets its virtual size (the text's width) on every change of its value, and a widget's
    virtual size lays the whole screen out again: some 4 ms at 120x40 on each key typed and on the Enter that
    empties the box.  This box is one line of fixed width (``1fr``) with no scroll bars, so nothing around it can
    depend on its text: a repaint is enough (its own horizontal scrolling reads the value directly)."""

    async def on_key(self, event: events.Key) -> None:
        """Every key is handled here and now, in the order typed.

        Textual types printable keys in the box as it gets them, but runs the
        box's bindings (Enter, Backspace, the arrows...) only once the key has
        bubbled up to the app, after the keys queued behind it: in a burst,
        ``E7-E13⏎I23-I19⏎`` would be typed in full before the first Enter.  So
        the box runs its own bindings itself.  A ``/`` or ``:`` where the move
        starts is the habit of moving to the box: there is nothing to do.  An
        Alt chord types nothing: it is not text (a lone ``Esc [`` that the
        terminal never finished reads as Alt+[), and it goes on to the app.
        """
        if (question := question_above(self)) is not None:  # a key of a burst that asked a question: too soon
            event.stop()
            event.prevent_default()
            question.too_soon()
        elif event.character in TYPE_MOVE_CHARACTERS and not self.value[: self.cursor_position].strip():
            event.stop()
            event.prevent_default()
        elif event.character in TARGET_NUMBERS and not self.value.strip():
            event.stop()
            event.prevent_default()
            self.post_message(self.Submitted(self, event.character))
        elif event.key.startswith("alt+"):
            event.prevent_default()
        elif (action := _BOX_ACTIONS.get(event.key)) is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes in with its control characters made visible: they have no place in a move."""
        if event.text and not event.text.isprintable():
            event.stop()
            event.prevent_default()
            lines = event.text.splitlines()
            self.insert_text_at_cursor(safe_text(lines[0] if lines else ""))

    def watch_value(self, value: str) -> None:
        if value:
            self._untouched_since_submit = False

    async def action_submit(self) -> None:
        text = self.value
        self.value = ""
        self._untouched_since_submit = True
        self.post_message(self.Submitted(self, text))

    def give_back(self, text: str) -> None:
        """Show a refused move again, to be corrected, unless the player has typed since (then it would mix in)."""
        if self._untouched_since_submit and not self.value:
            self.value = text
            self.cursor_position = len(text)


_BOX_ACTIONS = {
    key.strip(): binding.action
    for binding in MoveInput.BINDINGS
    if isinstance(binding, Binding) and not binding.priority
    for key in binding.key.split(",")
}
_BOX_ACTIONS["ctrl+j"] = "submit"  # a newline: Enter typed ahead while the terminal still translated it (start-up)
"""The box's own keys (Textual's ``Input`` bindings) and their actions."""


class MoveEntry(Horizontal):
    """A prompt, the move box (:class:`MoveInput`) and the name of the hex under the board's cursor.

    The compact board has no room to print hex names, so the hex under the
    cursor is named here.  The app mounts this row lazily, after the board's
    first paint; :class:`Ready` tells it to fill the row in.  What is typed
    goes up as :class:`Changed` and :class:`Submitted` (the box is empty by
    then: :meth:`give_back` returns a refused move).  Esc in the box gives the
    focus to ``leave_to`` (a selector on the screen: the board).
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", N_("Board"), show=False, priority=True)]
    """A priority binding: it runs as Esc is routed, before the keys after it (it is only offered while the
    focus is in this row)."""

    DEFAULT_CSS = """
    MoveEntry { height: 1; }
    MoveEntry > #move-label { width: auto; padding: 0 1; color: $text-muted; }
    MoveEntry > #move-input { border: none; height: 1; width: 1fr; padding: 0; }
    MoveEntry > #move-input:focus { background: $boost; }
    MoveEntry > #cursor-info { width: auto; padding: 0 1; color: $text-muted; text-align: right; }
    """

    class Ready(Message):
        """The row and its children are mounted."""

        def __init__(self, entry: MoveEntry) -> None:
            super().__init__()
            self.entry = entry

    class Changed(Message):
        """The text in the box changed (the board previews the move being typed)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Submitted(Message):
        """Enter: play what was typed; ``number`` is a target's number typed alone (:data:`TARGET_NUMBERS`)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

        @property
        def number(self) -> int | None:
            text = self.text.strip()
            return int(text) if len(text) == 1 and text in TARGET_NUMBERS else None

    def __init__(self, *, leave_to: str = "#board", id: str | None = None) -> None:
        super().__init__(id=id)
        self._leave_to = leave_to
        self._info_width = 0

    def compose(self) -> ComposeResult:
        yield Label(_("Move:"), id="move-label")
        yield MoveInput(placeholder=_(PLACEHOLDER), id="move-input")
        yield Label("", id="cursor-info")

    def on_mount(self) -> None:
        self.post_message(self.Ready(self))

    def show_hex(self, text: str) -> None:
        """Name the hex under the cursor (and its piece); plain text, never markup.

        Nothing happens once the row is being taken down (a quit in the first moments: the screen's ``Ready``
        handler may run after the label has gone).  The name's room only grows, to the longest name shown so
        far: a shorter one leaves blank cells after it, and the screen is laid out again (some 4 ms at 120x40)
        only when a longer one comes, not on every other move as the cursor follows the pieces.
        """
        width = cell_len(text)
        grows = width > self._info_width
        for label in self.query("#cursor-info").results(Label):
            if grows:
                label.styles.min_width = width + label.styles.gutter.width
            label.update(Text(text), layout=grows)
        self._info_width = max(width, self._info_width)

    @property
    def box(self) -> MoveInput:
        return self.query_one("#move-input", MoveInput)

    def give_back(self, text: str) -> None:
        """A move typed here was refused: show it again for correction (see :meth:`MoveInput.give_back`)."""
        self.box.give_back(text)

    @on(Input.Changed, "#move-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(event.value))

    @on(Input.Submitted, "#move-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(event.value))

    def action_leave(self) -> None:
        """Esc: the focus goes to the board now, so the keys typed after Esc are the board's."""
        targets = self.screen.query(self._leave_to)
        if not targets:
            raise SkipAction()
        self.screen.set_focus(targets.first())


async def focus_move_box(screen: Screen[Any]) -> bool:
    """Give the focus to the move box of ``screen`` before another key is routed.

    ``False`` (nothing done) if the box has the focus already, or the screen has none.

    Called from the action of the screen's ``/`` binding, which Textual awaits while it
    routes the key: the keys after the ``/`` are routed only once this returns.
    A screen still mounting its move row (the first frames) is waited for.  The
    binding takes a ``/`` typed in the box too (Textual leaves an ``Input`` its
    printable keys, but does not know ``slash`` is one): CTL-AN has no ``/``.
    """
    if isinstance(screen.focused, MoveInput):
        return False
    try:
        async with asyncio.timeout(MOUNT_PATIENCE):
            while not (boxes := screen.query(MoveInput)):  # the box, not only its row: the row mounts it later
                if not await screen.wait_for_refresh():
                    return False
    except TimeoutError:
        return False
    screen.set_focus(boxes.first(MoveInput))
    return True
