"""Keys and clicks take effect in order, each after what the previous one set off, however many arrive in one read.

Textual hands a key to the focused widget, and what the key sets off goes on
through message queues, each widget's own: the board's Enter posts
``HexSelected``, which the screen answers by selecting the piece and giving
the board its targets.  A key that no widget stops bubbles up to the screen
and is posted to the app again, at the end of the app's queue; only then
does the app run the key's binding (its non-priority bindings: of the widget
focused at that moment, its screen, the app).  With the rest of a burst
already in the app's queue (``⏎↑`` or ``UU/`` in one read: a paste, a fast
typist over SSH, a starved process that read several keys at once), the
next keys overtook it: the arrow moved the cursor before the screen had
selected the piece; ``/`` focused the move box before the ``U`` (the game
screen's redo) came back, and the ``U`` were then judged from the box.

:class:`InputInOrderApp` holds the terminal's input (keys, mouse, pastes)
outside the app's queue while a key or mouse button is being handled, and
lets the next in only when every widget and screen of the app is quiet
again: by then what the widgets handed back to the app is queued ahead of
it, and runs first (a key handed back is waited for in the same way, after
its binding).  The wait counts turns of the event loop, never time, so a
busy machine changes nothing; it is bounded, so a widget that is never
quiet (a handler that awaits the app) cannot stop the keys.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from typing import TypeVar

from textual import events
from textual.app import App
from textual.message import Message

ReturnType = TypeVar("ReturnType")

SETTLING_TURNS = 100
"""Turns of the event loop a key waits at most for the previous key's messages: a message that bubbles through
the widget tree and is answered takes a handful; the bound only matters for a widget that is never quiet."""

ORDERED_EVENTS = (events.Key, events.MouseDown, events.MouseUp)
"""The input whose effects the next input must see (a click is made from a MouseUp)."""

TERMINAL_INPUT = (events.InputEvent, events.Paste)
"""What the terminal sends that the next input must not overtake (a mouse move, a wheel turn, a paste too)."""


class InputInOrderApp(App[ReturnType]):
    """An app whose keys and clicks each see everything the previous one did (see the module's docstring)."""

    _input_in_turn: Message | None = None
    """The input of :data:`ORDERED_EVENTS` let into the app's queue and not yet handled; the next waits for it."""

    _held_input: deque[Message] | None = None
    """The terminal's input that came while :attr:`_input_in_turn` was being handled, in the order it came."""

    def post_message(self, message: Message) -> bool:
        if not isinstance(message, TERMINAL_INPUT) or message.is_forwarded:
            return super().post_message(message)
        if self._loop is not None and threading.get_ident() != self._thread_id:
            self._loop.call_soon_threadsafe(self.post_message, message)  # decided on the app's own thread
            return True
        if self._input_in_turn is not None or self._held_input:
            if self._held_input is None:
                self._held_input = deque()
            self._held_input.append(message)
            return True
        return self._let_in(message)

    def _let_in(self, message: Message) -> bool:
        """Queue the terminal's ``message`` for the app; the input after an ordered one is held until it is handled."""
        queued = super().post_message(message)
        if queued and isinstance(message, ORDERED_EVENTS):
            self._input_in_turn = message
        return queued

    async def on_event(self, event: events.Event) -> None:
        try:
            await super().on_event(event)
            if isinstance(event, ORDERED_EVENTS):  # as it came from the terminal, or handed back by a widget
                await self._input_handled()
        finally:
            if event is self._input_in_turn:
                self._next_input()

    def _next_input(self) -> None:
        """Let in the held input, up to and including the next of :data:`ORDERED_EVENTS`."""
        self._input_in_turn = None
        while self._held_input and self._input_in_turn is None:
            self._let_in(self._held_input.popleft())

    async def _input_handled(self) -> None:
        """Return when no widget or screen of the app has a message waiting, or after :data:`SETTLING_TURNS`.

        The app's own queue is not waited for: it holds what the widgets handed back, which runs next.
        """
        for _ in range(SETTLING_TURNS):
            if all(
                pump._message_queue.empty() and pump._pending_message is None
                for pump in self._registry
                if pump is not self
            ):
                return
            await asyncio.sleep(0)
