"""Keys and clicks take effect in the order they were typed, however many arrive in one read.

Textual hands each key to the focused widget and runs its bindings in the
app's own task; what a key's action sets off is a message to another widget
(the board's Enter posts ``HexSelected``, which the screen answers by
selecting the piece and giving the board its targets).  The app's task does
not wait for that answer: with the rest of a burst already in its queue
(``⏎↑`` in one read: a paste, a fast typist over SSH, a starved process that
read several keys at once), the next key's action ran before the answer, and
the arrow moved the cursor as if nothing were selected.

:class:`InputInOrderApp` makes every key and mouse button wait until what the
previous one set off has been handled: no widget of the app has a message
queued.  The wait counts turns of the event loop, never time, so a busy
machine changes nothing; it is bounded, so a widget that is never quiet (a
handler that awaits the app) cannot stop the keys.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

from textual import events
from textual.app import App

ReturnType = TypeVar("ReturnType")

SETTLING_TURNS = 100
"""Turns of the event loop a key waits at most for the previous key's messages: a message that bubbles through
the widget tree and is answered takes a handful; the bound only matters for a widget that is never quiet."""

ORDERED_EVENTS = (events.Key, events.MouseDown, events.MouseUp)
"""The input whose effects the next input must see (a click is made from a MouseUp)."""


class InputInOrderApp(App[ReturnType]):
    """An app whose keys and clicks each see everything the previous one did (see the module's docstring)."""

    async def on_event(self, event: events.Event) -> None:
        await super().on_event(event)
        if isinstance(event, ORDERED_EVENTS):
            await self._input_handled()

    async def _input_handled(self) -> None:
        """Return when no widget or screen of the app has a message waiting, or after :data:`SETTLING_TURNS`.

        The app's own queue is not waited for: it holds the next keys, and the keys a widget handed back up.
        """
        for _ in range(SETTLING_TURNS):
            if all(pump._message_queue.empty() for pump in self._registry if pump is not self):
                return
            await asyncio.sleep(0)
